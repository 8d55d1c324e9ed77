package io.github.poolpilot.task;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.poolpilot.autoconfigure.PoolpilotAutoConfiguration;
import io.github.poolpilot.measure.RejectionReason;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.testsupport.Blocking;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * An {@code @Async} method returning a {@code CompletableFuture} that fails, on a plain
 * {@code ThreadPoolTaskExecutor} left alone (the reference), a declared pool and an
 * application's own executor under management, side by side in one application: code
 * written for Spring ({@code handle}, {@code exceptionally}, {@code join}) sees the same
 * {@link CompletionException} wrapping the method's exception on each, and a managed pool
 * counts the call as failed.
 *
 * @author poolpilot authors
 */
class AsyncCompletableFutureTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(TaskExecutionAutoConfiguration.class, PoolpilotAutoConfiguration.class))
		.withUserConfiguration(Executors.class, Calls.class)
		.withPropertyValues("poolpilot.pools.talk.max-threads=2", "poolpilot.exclude=plain",
				"poolpilot.measurement.window=1h");

	@ParameterizedTest
	@ValueSource(strings = { "plain", "talk", "own" })
	void aFailedAsyncMethodsFutureFailsWithACompletionExceptionWrappingWhatItThrew(String executor) {
		this.runner.run((context) -> {
			PoolRegistry registry = context.getBean(PoolRegistry.class);
			assertThat(registry.get(executor) != null).as("%s is managed", executor)
				.isEqualTo(!executor.equals("plain"));
			Calls calls = context.getBean(Calls.class);
			CompletableFuture<String> future = switch (executor) {
				case "plain" -> calls.onPlain();
				case "talk" -> calls.onTalk();
				default -> calls.onOwn();
			};
			Throwable seen = future.handle((result, ex) -> ex).get(10, TimeUnit.SECONDS);
			assertThat(seen).isInstanceOf(CompletionException.class).hasCauseInstanceOf(IOException.class);
			assertThat(seen.getCause()).hasMessage("downstream down on " + executor);
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> future.get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(IOException.class);
			assertThatExceptionOfType(CompletionException.class).isThrownBy(future::join)
				.withCauseInstanceOf(IOException.class);
			assertThat(future.exceptionally((ex) -> (ex == seen) ? "the same exception" : "another"))
				.succeedsWithin(Duration.ofSeconds(10))
				.isEqualTo("the same exception");
			if (!executor.equals("plain")) {
				ManagedPool pool = registry.get(executor);
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(pool.getRecorder().taskCounts().failed()).isOne());
			}
		});
	}

	/**
	 * A declared pool's {@code max-queue-wait} reaches {@code @Async} methods: one that
	 * returns a {@code CompletableFuture} sees its future fail with the pool's rejection
	 * (wrapped in a {@code CompletionException}, as its own failures are), and a
	 * {@code void} one, whose future Spring discards, is not run and is counted.
	 */
	@Test
	void anAsyncMethodThatWaitedPastTheMaxQueueWaitIsRefusedWhenItsTurnComes() {
		this.runner
			.withPropertyValues("poolpilot.pools.talk.max-threads=1", "poolpilot.pools.talk.max-queue-wait=200ms")
			.run((context) -> {
				Calls calls = context.getBean(Calls.class);
				ManagedPool talk = context.getBean(PoolRegistry.class).get("talk");
				CountDownLatch release = new CountDownLatch(1);
				CompletableFuture<String> held = calls.holdOnTalk(release);
				await().atMost(Duration.ofSeconds(10)).until(() -> talk.getExecutor().getActiveCount() == 1);
				CompletableFuture<String> waited = calls.quickOnTalk();
				calls.quickVoidOnTalk();
				assertThat(talk.getExecutor().getQueueSize()).isEqualTo(2);
				// The queued calls' wait must pass max-queue-wait before the running one
				// ends.
				await().pollDelay(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> true);
				release.countDown();
				assertThat(held).succeedsWithin(Duration.ofSeconds(10)).isEqualTo("released");
				Throwable seen = waited.handle((result, ex) -> ex).get(10, TimeUnit.SECONDS);
				assertThat(seen).isInstanceOf(CompletionException.class)
					.cause()
					.isInstanceOfSatisfying(PoolRejectedException.class,
							(rejection) -> assertThat(rejection.getReason()).isEqualTo(RejectionReason.QUEUE_WAIT));
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(
							() -> assertThat(talk.getRecorder().taskCounts().rejections().queueWait()).isEqualTo(2));
				assertThat(calls.quickRuns()).isZero();
			});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAsync
	static class Executors {

		@Bean
		ThreadPoolTaskExecutor plain() {
			ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
			executor.setMaxPoolSize(2);
			executor.setQueueCapacity(10);
			return executor;
		}

		@Bean
		ThreadPoolTaskExecutor own() {
			ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
			executor.setMaxPoolSize(2);
			executor.setQueueCapacity(10);
			return executor;
		}

	}

	static class Calls {

		@Async("plain")
		CompletableFuture<String> onPlain() throws IOException {
			throw new IOException("downstream down on plain");
		}

		@Async("talk")
		CompletableFuture<String> onTalk() throws IOException {
			throw new IOException("downstream down on talk");
		}

		@Async("own")
		CompletableFuture<String> onOwn() throws IOException {
			throw new IOException("downstream down on own");
		}

		private final AtomicInteger quickRan = new AtomicInteger();

		/**
		 * How many of the quick calls ran, read through the method: the bean is a proxy
		 * whose own fields are not the instance's.
		 */
		int quickRuns() {
			return this.quickRan.get();
		}

		@Async("talk")
		CompletableFuture<String> holdOnTalk(CountDownLatch release) {
			Blocking.await(release);
			return CompletableFuture.completedFuture("released");
		}

		@Async("talk")
		CompletableFuture<String> quickOnTalk() {
			this.quickRan.incrementAndGet();
			return CompletableFuture.completedFuture("ran");
		}

		@Async("talk")
		void quickVoidOnTalk() {
			this.quickRan.incrementAndGet();
		}

	}

}
