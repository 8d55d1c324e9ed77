package io.github.poolpilot.task;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.poolpilot.autoconfigure.PoolpilotAutoConfiguration;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;

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

	}

}
