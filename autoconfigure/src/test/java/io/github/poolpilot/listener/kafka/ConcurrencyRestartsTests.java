package io.github.poolpilot.listener.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;

import org.apache.kafka.clients.consumer.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.poolpilot.pool.Settling;
import io.github.poolpilot.testsupport.Draw;
import io.github.poolpilot.testsupport.FakeClock;
import io.github.poolpilot.testsupport.Seeds;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.MessageListener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.awaitility.Awaitility.await;
import static org.mockito.Mockito.mock;

/**
 * Tests for {@link ConcurrencyRestarts} on a container that starts and stops without a
 * broker, its restarts timed by a fake clock: what a restart costs and how long the
 * container settles after it, a start that fails tried again and then given up for the
 * concurrency the container had, a restart that closing cuts short neither counted nor
 * costed, and a concurrency asked for while or after it closes refused without an
 * exception.
 *
 * @author poolpilot authors
 */
@ExtendWith(OutputCaptureExtension.class)
class ConcurrencyRestartsTests {

	private final FakeClock clock = new FakeClock();

	private final FakeContainer container = new FakeContainer(this.clock);

	private final List<Duration> pauses = Collections.synchronizedList(new ArrayList<>());

	private final ConcurrencyRestarts restarts = new ConcurrencyRestarts(this.container, "orders", 3,
			Duration.ofSeconds(2), this.clock, (pause) -> {
				this.pauses.add(pause);
				this.clock.advance(pause);
			});

	@AfterEach
	void close() {
		this.restarts.close();
	}

	@Test
	void aRestartCostsWhatTheClockSaysAndTheContainerSettlesForThreeTimesThat() {
		this.container.start();
		this.container.startTakes = Duration.ofSeconds(4);
		assertThat(this.restarts.concurrency(3)).isEqualTo(ConcurrencyOutcome.RESTARTING);
		await().atMost(Duration.ofSeconds(30)).until(this.restarts::restarts, (count) -> count == 1);
		assertThat(this.container.calls).containsExactly("start 1", "stop", "start 3");
		assertThat(this.restarts.lastCost()).isEqualTo(Duration.ofSeconds(4));
		assertThat(this.restarts.settling()).isEqualTo(new Settling(Duration.ofSeconds(12), Duration.ofSeconds(4)));
		this.clock.advance(Duration.ofSeconds(11));
		assertThat(this.restarts.settling()).isEqualTo(new Settling(Duration.ofSeconds(1), Duration.ofSeconds(4)));
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.restarts.settling()).isNull();
		assertThat(this.restarts.failure()).isNull();
	}

	@Test
	void aContainerThatIsNotRunningOnlyHasItsConcurrencySet() {
		assertThat(this.restarts.concurrency(2)).isEqualTo(ConcurrencyOutcome.SET);
		assertThat(this.container.getConcurrency()).isEqualTo(2);
		assertThat(this.container.calls).isEmpty();
		assertThat(this.restarts.settling()).isNull();
	}

	@Test
	void aStartThatFailsIsTriedAgainAPauseApart() {
		this.container.start();
		this.container.failures.set(ContainerStarts.TRIES - 1);
		this.restarts.concurrency(3);
		await().atMost(Duration.ofSeconds(30)).until(this.restarts::restarts, (count) -> count == 1);
		assertThat(this.container.calls).containsExactly("start 1", "stop", "start 3", "start 3", "start 3");
		assertThat(this.pauses).containsExactly(ContainerStarts.PAUSE, ContainerStarts.PAUSE);
		assertThat(this.container.isRunning()).isTrue();
		assertThat(this.container.getConcurrency()).isEqualTo(3);
		assertThat(this.restarts.wanted()).isEqualTo(3);
		assertThat(this.restarts.failure()).isNull();
		// The pauses are part of what the restart cost.
		assertThat(this.restarts.lastCost()).isEqualTo(ContainerStarts.PAUSE.multipliedBy(2));
	}

	@Test
	void aStartThatKeepsFailingGivesTheContainerItsPreviousConcurrencyAndSaysSo() {
		this.container.start();
		this.container.failures.set(ContainerStarts.TRIES);
		this.restarts.concurrency(3);
		await().atMost(Duration.ofSeconds(30)).until(this.restarts::restarts, (count) -> count == 1);
		assertThat(this.container.calls).containsExactly("start 1", "stop", "start 3", "start 3", "start 3", "start 1");
		assertThat(this.container.isRunning()).isTrue();
		assertThat(this.container.getConcurrency()).isEqualTo(1);
		assertThat(this.restarts.wanted()).isEqualTo(1);
		assertThat(this.restarts.failure()).isEqualTo("Could not start listener 'orders' with 3 consumers (3 tries, "
				+ "the last: the broker refused start 3); it runs with its 1 consumers again");
		// It settles as after any restart: the tuner does not try again at once.
		assertThat(this.restarts.settling()).isNotNull();
		this.restarts.concurrency(2);
		await().atMost(Duration.ofSeconds(30)).until(this.restarts::restarts, (count) -> count == 2);
		assertThat(this.restarts.failure()).isNull();
	}

	@Test
	void aContainerThatStartsWithNeitherConcurrencyIsShownStopped() {
		this.container.start();
		this.container.failures.set(2 * ContainerStarts.TRIES);
		this.restarts.concurrency(3);
		await().atMost(Duration.ofSeconds(30)).until(this.restarts::failure, (failure) -> failure != null);
		assertThat(this.container.isRunning()).isFalse();
		assertThat(this.restarts.failure()).isEqualTo("Could not start listener 'orders' with 3 consumers (3 tries, "
				+ "the last: the broker refused start 3), nor with its 1 consumers again (the broker refused start 1)"
				+ ": it is stopped");
		assertThat(this.restarts.restarts()).isZero();
		assertThat(this.restarts.wanted()).isEqualTo(1);
	}

	@Test
	void aConcurrencyAskedForOnceClosedIsRefusedAndChangesNothing() {
		this.container.start();
		this.restarts.close();
		assertThat(this.container.isRunning()).isFalse();
		assertThat(this.restarts.concurrency(3)).isEqualTo(ConcurrencyOutcome.REFUSED_CLOSED);
		assertThat(this.restarts.wanted()).isEqualTo(1);
		assertThat(this.container.getConcurrency()).isEqualTo(1);
	}

	@Test
	void closingWaitsForAHangingRestartNoLongerThanTheContainersShutdownTimeout() {
		this.container.getContainerProperties().setShutdownTimeout(200);
		this.container.start();
		this.container.startGate = new CountDownLatch(1);
		this.restarts.concurrency(3);
		await().atMost(Duration.ofSeconds(30)).until(() -> this.container.calls.contains("start 3"));
		long closing = System.nanoTime();
		assertTimeoutPreemptively(Duration.ofSeconds(20), this.restarts::close);
		// It waited for the restart, for the container's 200 ms and not its default of
		// 10 s; the upper bound is wide for a busy machine.
		assertThat(Duration.ofNanos(System.nanoTime() - closing)).isBetween(Duration.ofMillis(200),
				Duration.ofSeconds(5));
		this.container.startGate.countDown();
		// The restart stops what it started once its start returns.
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			assertThat(this.container.calls).endsWith("start 3", "stop");
			assertThat(this.container.isRunning()).isFalse();
		});
	}

	@Test
	void aRestartWhoseWaitForItsConsumersClosingEndsIsNeitherCountedNorCosted(CapturedOutput output) {
		this.container.start();
		this.container.assigns = false;
		this.restarts.concurrency(3);
		await().atMost(Duration.ofSeconds(30)).until(() -> this.container.calls.contains("start 3"));
		this.restarts.close();
		assertThat(this.container.calls).containsExactly("start 1", "stop", "start 3", "stop");
		assertThat(this.container.isRunning()).isFalse();
		assertThat(this.restarts.restarts()).isZero();
		assertThat(this.restarts.lastCost()).isNull();
		assertThat(this.restarts.settling()).isNull();
		assertThat(this.restarts.failure()).isNull();
		assertThat(output.getAll()).doesNotContain("'orders'");
	}

	/**
	 * Every start fails, and the restarts close in one of the pauses between two tries:
	 * of the concurrency asked for (1, 2) or of the one the container had (3, 4).
	 */
	@ParameterizedTest(name = "closed in pause {0}")
	@ValueSource(ints = { 1, 2, 3, 4 })
	void aFailingRestartThatClosingCutsShortStartsNothingMoreAndIsNeitherCountedNorReported(int closingPause,
			CapturedOutput output) {
		FakeContainer container = new FakeContainer(this.clock);
		AtomicReference<ConcurrencyRestarts> restarts = new AtomicReference<>();
		AtomicInteger paused = new AtomicInteger();
		List<String> callsWhenClosed = Collections.synchronizedList(new ArrayList<>());
		restarts.set(new ConcurrencyRestarts(container, "orders", 3, Duration.ofSeconds(2), this.clock, (pause) -> {
			if (paused.incrementAndGet() == closingPause) {
				// On the restarter's thread, which holds the restart's lock: close()
				// returns at once.
				restarts.get().close();
				callsWhenClosed.addAll(container.calls);
			}
		}));
		container.start();
		container.failures.set(2 * ContainerStarts.TRIES);
		restarts.get().concurrency(3);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> paused.get() >= closingPause
					&& (restarts.get().settling() == null || restarts.get().restarts() > 0));
		assertThat(restarts.get().restarts()).isZero();
		assertThat(restarts.get().lastCost()).isNull();
		assertThat(restarts.get().failure()).isNull();
		assertThat(output.getAll()).doesNotContain("'orders'");
		assertThat(container.isRunning()).isFalse();
		assertThat(container.calls).as("no start after closing").isEqualTo(callsWhenClosed);
	}

	static LongStream seeds() {
		return Seeds.first(20);
	}

	/**
	 * Rounds of a thread that asks for one concurrency after another, until one is
	 * refused, while the restarts close after a drawn wait.
	 */
	@ParameterizedTest(name = "seed {0}")
	@MethodSource("seeds")
	void concurrenciesAskedForWhileItClosesAreRefusedWithoutAnException(long seed) throws Exception {
		Draw draw = new Draw(seed);
		for (int round = 0; round < 10; round++) {
			int spins = draw.between(0, 20_000);
			int ask = round;
			FakeContainer container = new FakeContainer(this.clock);
			ConcurrencyRestarts restarts = new ConcurrencyRestarts(container, "orders", 3, Duration.ofSeconds(2),
					this.clock, (pause) -> {
					});
			container.start();
			List<Throwable> thrown = Collections.synchronizedList(new ArrayList<>());
			Thread asking = new Thread(() -> {
				try {
					for (int i = ask; restarts.concurrency(1 + i % 3) != ConcurrencyOutcome.REFUSED_CLOSED; i++) {
						Thread.onSpinWait();
					}
				}
				catch (Throwable ex) {
					thrown.add(ex);
				}
			});
			asking.start();
			for (int i = 0; i < spins; i++) {
				Thread.onSpinWait();
			}
			restarts.close();
			asking.join(30_000);
			Seeds.check(seed, "-Dtest=ConcurrencyRestartsTests", () -> {
				assertThat(thrown).as("round %d, closed after %d spins", ask, spins).isEmpty();
				assertThat(asking.isAlive()).isFalse();
				assertThat(restarts.concurrency(2)).isEqualTo(ConcurrencyOutcome.REFUSED_CLOSED);
				assertThat(container.isRunning()).isFalse();
			});
		}
	}

	/**
	 * A container that starts and stops at once, without a broker: each start takes
	 * {@code startTakes} on the clock and assigns each of its consumers, unless it is one
	 * of the starts told to fail.
	 */
	static final class FakeContainer extends ConcurrentMessageListenerContainer<String, String> {

		final List<String> calls = Collections.synchronizedList(new ArrayList<>());

		final AtomicInteger failures = new AtomicInteger();

		private final FakeClock clock;

		private final List<Consumer<?, ?>> consumers = new ArrayList<>();

		volatile Duration startTakes = Duration.ZERO;

		volatile CountDownLatch startGate = new CountDownLatch(0);

		/**
		 * Whether a start assigns its consumers: when not, a restart waits for them until
		 * it closes.
		 */
		volatile boolean assigns = true;

		FakeContainer(FakeClock clock) {
			super(new DefaultKafkaConsumerFactory<>(Map.of()), properties());
			this.clock = clock;
			for (int i = 0; i < 4; i++) {
				this.consumers.add(mock(Consumer.class));
			}
		}

		private static ContainerProperties properties() {
			ContainerProperties properties = new ContainerProperties("orders");
			properties.setGroupId("orders");
			properties.setMessageListener((MessageListener<String, String>) (record) -> {
			});
			return properties;
		}

		@Override
		protected void doStart() {
			this.calls.add("start " + getConcurrency());
			if (this.failures.getAndUpdate((left) -> Math.max(0, left - 1)) > 0) {
				throw new IllegalStateException("the broker refused start " + getConcurrency());
			}
			try {
				this.startGate.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			setRunning(true);
			this.clock.advance(this.startTakes);
			if (this.assigns && getContainerProperties()
				.getConsumerRebalanceListener() instanceof ConsumerAwareRebalanceListener watch) {
				for (int i = 0; i < getConcurrency(); i++) {
					watch.onPartitionsAssigned(this.consumers.get(i), List.of());
				}
			}
		}

		@Override
		protected void doStop(Runnable callback, boolean normal) {
			this.calls.add("stop");
			setRunning(false);
			callback.run();
		}

	}

}
