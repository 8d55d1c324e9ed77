package io.github.poolpilot.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.PoolRecorder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link PoolSampler}: its windows and the cheaper action it runs between them.
 *
 * @author poolpilot authors
 */
class PoolSamplerTests {

	@Test
	void thePulseRunsBetweenWindowsOnTheSamplersOneThread() {
		List<String> ticks = Collections.synchronizedList(new ArrayList<>());
		List<String> threads = Collections.synchronizedList(new ArrayList<>());
		try (PoolSampler sampler = new PoolSampler(new PoolRegistry(null), Duration.ofMillis(200), () -> {
			ticks.add("window");
			threads.add(Thread.currentThread().getName());
		}, Duration.ofMillis(20), () -> {
			ticks.add("pulse");
			threads.add(Thread.currentThread().getName());
		})) {
			sampler.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> ticks.contains("window"));
		}
		synchronized (ticks) {
			assertThat(ticks.stream().filter("pulse"::equals).count()).isGreaterThan(1);
		}
		assertThat(threads).containsOnly("poolpilot-sampler");
	}

	@Test
	void aFailingPulseDoesNotStopTheNextOnes() {
		List<String> pulses = Collections.synchronizedList(new ArrayList<>());
		try (PoolSampler sampler = new PoolSampler(new PoolRegistry(null), Duration.ofSeconds(10), () -> {
		}, Duration.ofMillis(10), () -> {
			pulses.add("pulse");
			if (pulses.size() == 1) {
				throw new IllegalStateException("no figures");
			}
		})) {
			sampler.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> pulses.size() >= 3);
		}
	}

	@Test
	void theSamplersThreadIsADaemonThatDoesNotKeepTheJvmAlive() {
		List<Boolean> daemon = Collections.synchronizedList(new ArrayList<>());
		try (PoolSampler sampler = new PoolSampler(new PoolRegistry(null), Duration.ofMillis(20),
				() -> daemon.add(Thread.currentThread().isDaemon()), Duration.ZERO, () -> {
				})) {
			sampler.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> !daemon.isEmpty());
		}
		assertThat(daemon).containsOnly(true);
	}

	@Test
	void aSamplerNeverStartedClosesQuietlyAndAClosedOneStartsAgain() {
		List<String> ticks = Collections.synchronizedList(new ArrayList<>());
		PoolSampler sampler = new PoolSampler(new PoolRegistry(null), Duration.ofMillis(20), () -> ticks.add("window"),
				Duration.ZERO, () -> {
				});
		sampler.close();
		sampler.close();
		sampler.start();
		sampler.close();
		sampler.start();
		try {
			await().atMost(Duration.ofSeconds(10)).until(() -> !ticks.isEmpty());
		}
		finally {
			sampler.close();
		}
	}

	@Test
	void aPulseAsLongAsTheWindowIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new PoolSampler(new PoolRegistry(null), Duration.ofSeconds(1), () -> {
			}, Duration.ofSeconds(1), () -> {
			}))
			.withMessage("the pulse interval must be zero (off) or shorter than the window PT1S but was PT1S");
	}

	@Test
	void theOccupancyOfAPoolThatTimesOnlyASampleIsReadEveryMillisecondAndNoOtherPoolsIs() {
		PoolRegistry registry = new PoolRegistry(null);
		CountingExecutor sampled = new CountingExecutor();
		CountingExecutor timed = new CountingExecutor();
		registry.register(new ManagedPool("sampled", sampled, sampled,
				PoolRecorder.builder().timingSampleEvery(1 << 20).build(), new PoolBounds(1, 2)));
		registry.register(new ManagedPool("timed", timed, timed, PoolRecorder.builder().build(), new PoolBounds(1, 2)));
		try (PoolSampler sampler = new PoolSampler(registry, Duration.ofMillis(100))) {
			sampler.start();
			await().atMost(Duration.ofSeconds(30)).until(() -> sampled.busyReads.get() >= 200);
		}
		// The pool that times every task has its busy threads read once a window, for its
		// sizes; the other about a hundred times as often.
		assertThat(timed.busyReads.get()).isLessThan(sampled.busyReads.get() / 10);
	}

	/**
	 * An executor of fixed sizes that counts how often its busy threads are read.
	 */
	private static final class CountingExecutor implements PoolExecutor, ManagedPool.SizeControl {

		final AtomicInteger busyReads = new AtomicInteger();

		@Override
		public void setCorePoolSize(int corePoolSize) {
		}

		@Override
		public void setMaximumPoolSize(int maxPoolSize) {
		}

		@Override
		public int getCorePoolSize() {
			return 1;
		}

		@Override
		public int getMaximumPoolSize() {
			return 2;
		}

		@Override
		public int getPoolSize() {
			return 2;
		}

		@Override
		public int getActiveCount() {
			this.busyReads.incrementAndGet();
			return 2;
		}

		@Override
		public int getQueueSize() {
			return 3;
		}

		@Override
		public int getQueueCapacity() {
			return 10;
		}

		@Override
		public boolean isShutdown() {
			return false;
		}

	}

}
