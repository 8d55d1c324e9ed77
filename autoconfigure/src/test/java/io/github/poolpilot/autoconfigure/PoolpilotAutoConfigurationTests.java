package io.github.poolpilot.autoconfigure;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.poolpilot.execution.ManagedExecutorService;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.pool.PoolSampler;
import io.github.poolpilot.task.ManagedTaskExecutor;
import io.github.poolpilot.web.PoolRejectionExceptionHandler;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;
import org.springframework.core.task.TaskDecorator;
import org.springframework.http.ProblemDetail;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link PoolpilotAutoConfiguration} and {@link PoolpilotWebAutoConfiguration}.
 *
 * @author poolpilot authors
 */
@ExtendWith(OutputCaptureExtension.class)
class PoolpilotAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class, PoolpilotAutoConfiguration.class,
				PoolpilotWebAutoConfiguration.class));

	@Test
	void poolsFromPropertiesBecomeNamedManagedTaskExecutors() {
		this.runner
			.withPropertyValues("poolpilot.pools.talk.min-threads=2", "poolpilot.pools.talk.max-threads=6",
					"poolpilot.pools.talk.queue-capacity=10", "poolpilot.pools.start.max-threads=4")
			.run((context) -> {
				assertThat(context).hasBean("talk").hasBean("start");
				ManagedTaskExecutor talk = context.getBean("talk", ManagedTaskExecutor.class);
				ManagedExecutorService executor = talk.getManagedExecutor();
				assertThat(executor.getPool().getName()).isEqualTo("talk");
				assertThat(executor.getPool().getBounds()).isEqualTo(new PoolBounds(2, 6));
				assertThat(executor.asThreadPoolExecutor().getQueue()).isInstanceOf(ArrayBlockingQueue.class);
				assertThat(executor.asThreadPoolExecutor().getQueue().remainingCapacity()).isEqualTo(10);
				assertThat(context.getBean(PoolRegistry.class).pools()).extracting(ManagedPool::getName)
					.contains("start", "talk");
				assertThat(context).hasSingleBean(PoolSampler.class);
				assertThat(talk.submit(() -> Thread.currentThread().getName()).get(10, TimeUnit.SECONDS))
					.startsWith("talk-");
			});
	}

	@Test
	void anAsyncMethodWhoseFutureFailsIsCountedAsFailed() {
		this.runner.withUserConfiguration(AsyncService.class)
			.withPropertyValues("poolpilot.pools.talk.max-threads=2")
			.run((context) -> {
				AsyncService service = context.getBean(AsyncService.class);
				assertThat(service.answer(false).get(10, TimeUnit.SECONDS)).isEqualTo("ok");
				assertThatExceptionOfType(ExecutionException.class)
					.isThrownBy(() -> service.answer(true).get(10, TimeUnit.SECONDS))
					.withCauseInstanceOf(IllegalStateException.class);
				ManagedPool talk = context.getBean(PoolRegistry.class).get("talk");
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(talk.getRecorder().taskCounts().failed()).isEqualTo(1));
				assertThat(talk.getRecorder().taskCounts().completed()).isEqualTo(1);
			});
	}

	@Test
	void poolsStartAtTheirMinThreadsOrInitialThreadsNotAtTheirShare() {
		this.runner
			.withPropertyValues("poolpilot.budget.max-threads=400", "poolpilot.pools.start.max-threads=300",
					"poolpilot.pools.start.min-threads=10", "poolpilot.pools.start.weight=6",
					"poolpilot.pools.talk.max-threads=50", "poolpilot.pools.talk.initial-threads=20",
					"poolpilot.pools.stop.max-threads=50", "poolpilot.existing-executors.enabled=false")
			.run((context) -> {
				assertThat(context.getBean("start", ManagedTaskExecutor.class).getMaxPoolSize()).isEqualTo(10);
				assertThat(context.getBean("talk", ManagedTaskExecutor.class).getMaxPoolSize()).isEqualTo(20);
				assertThat(context.getBean("stop", ManagedTaskExecutor.class).getCorePoolSize()).isEqualTo(1);
				assertThat(context.getBean(PoolRegistry.class).budget().allocatedThreads()).isEqualTo(31);
			});
	}

	@Test
	void initialThreadsOutsideTheBoundsFailStartUp() {
		this.runner.withPropertyValues("poolpilot.pools.talk.max-threads=5", "poolpilot.pools.talk.initial-threads=6")
			.run((context) -> assertThat(
					new InvalidPoolpilotPropertyFailureAnalyzer().analyze(context.getStartupFailure()).getAction())
				.contains("'poolpilot.pools.talk.initial-threads'")
				.contains("must be between min-threads (1) and max-threads (5)"));
	}

	@Test
	void theApplicationsOwnExecutorsShareTheBudget() {
		this.runner
			.withPropertyValues("poolpilot.budget.max-threads=40", "poolpilot.pools.start.max-threads=30",
					"poolpilot.pools.start.weight=3", "poolpilot.pools.talk.max-threads=10")
			.run((context) -> {
				PoolRegistry registry = context.getBean(PoolRegistry.class);
				assertThat(registry.get("applicationTaskExecutor")).isNotNull();
				// start 1, talk 1 and Boot's executor 8.
				assertThat(registry.budget().allocatedThreads()).isEqualTo(10);
				assertThat(context.getBean("start", ManagedTaskExecutor.class).getMaxPoolSize()).isEqualTo(1);
			});
	}

	@Test
	void aBudgetTooSmallForEveryPoolsMinimumFailsStartUp() {
		this.runner
			.withPropertyValues("poolpilot.budget.max-threads=4", "poolpilot.pools.start.min-threads=2",
					"poolpilot.pools.talk.min-threads=2")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new InvalidPoolpilotPropertyFailureAnalyzer()
					.analyze(context.getStartupFailure());
				// 2 + 2 for the declared pools, and 8 for Boot's applicationTaskExecutor,
				// whose core size is its floor.
				assertThat(analysis.getAction()).contains("'poolpilot.budget.max-threads'")
					.contains("must be at least 12")
					.contains("(applicationTaskExecutor 8 + start 2 + talk 2); or lower their floors")
					.contains("poolpilot.existing-executors.<bean>.min-threads")
					.contains("poolpilot.exclude");
			});
	}

	@Test
	void theBudgetDefaultsToTheSumOfThePoolsMaxThreads() {
		this.runner
			.withPropertyValues("poolpilot.pools.a.max-threads=3", "poolpilot.pools.b.max-threads=5",
					"poolpilot.existing-executors.enabled=false")
			.run((context) -> assertThat(context.getBean(PoolRegistry.class).budget().maxThreads()).isEqualTo(8));
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			textBlock = """
					poolpilot.pools.talk.min-threads=0      | poolpilot.pools.talk.min-threads      | must be at least 1
					poolpilot.pools.talk.max-threads=0      | poolpilot.pools.talk.max-threads      | must be at least min-threads (2)
					poolpilot.pools.talk.queue-capacity=0   | poolpilot.pools.talk.queue-capacity   | must be at least 1
					poolpilot.pools.talk.weight=0           | poolpilot.pools.talk.weight           | must be at least 1
					poolpilot.pools.talk.rejection-status=418 | poolpilot.pools.talk.rejection-status | must be 429 or 503
					poolpilot.budget.max-threads=1          | poolpilot.budget.max-threads          | sum of the pools' min-threads (4: talk 2 + stop 2)
					poolpilot.existing-executors.queue-capacity=0 | poolpilot.existing-executors.queue-capacity | must be at least 1 (the queue is always bounded)
					poolpilot.existing-executors.max-concurrency=0 | poolpilot.existing-executors.max-concurrency | must be at least 1
					poolpilot.scheduler.max-threads=0       | poolpilot.scheduler.max-threads       | must be at least 1
					poolpilot.scheduler.weight=0            | poolpilot.scheduler.weight            | must be at least 1
					poolpilot.listeners.settle-factor=-1    | poolpilot.listeners.settle-factor     | must be at least 0
					poolpilot.measurement.timing-sample-every=0 | poolpilot.measurement.timing-sample-every | must be at least 1 (1 times every task)
					poolpilot.measurement.cpu-sample-every=-1 | poolpilot.measurement.cpu-sample-every | must be 0 (off) or more
					""")
	void invalidConfigurationFailsStartUpNamingTheKeyAndTheAllowedValues(String setting, String key, String allowed) {
		this.runner
			.withPropertyValues("poolpilot.pools.talk.min-threads=2", "poolpilot.pools.talk.max-threads=4",
					"poolpilot.pools.stop.min-threads=2", setting)
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new InvalidPoolpilotPropertyFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("'" + key + "'")
					.contains(setting.substring(setting.indexOf('=') + 1));
				assertThat(analysis.getAction()).contains(key).contains(allowed);
			});
	}

	@Test
	void aKeepAliveOfZeroWhileCoreThreadsTimeOutFailsStartUpNamingTheKey() {
		this.runner.withPropertyValues("poolpilot.pools.talk.keep-alive=0s").run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new InvalidPoolpilotPropertyFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains("'poolpilot.pools.talk.keep-alive'");
			assertThat(analysis.getAction()).contains("must be more than 0 while the pool's core threads time out")
				.contains("spring.task.execution.pool.allow-core-thread-timeout");
		});
		this.runner
			.withPropertyValues("poolpilot.pools.talk.keep-alive=0s",
					"spring.task.execution.pool.allow-core-thread-timeout=false")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void aKeepAliveOfZeroSetForAnExistingExecutorFailsStartUpNamingTheKey() {
		this.runner.withPropertyValues("poolpilot.existing-executors.applicationTaskExecutor.keep-alive=0s")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new InvalidPoolpilotPropertyFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription())
					.contains("'poolpilot.existing-executors.applicationTaskExecutor.keep-alive'");
				assertThat(analysis.getAction()).contains("must be more than 0 when set here")
					.contains("the executor's own (60 s)");
			});
	}

	@ParameterizedTest
	@CsvSource({ "1s, PT1S", "-1ms, PT-0.001S", "2s, PT2S" })
	void aFastPathIntervalThatIsNotShorterThanTheWindowFailsStartUp(String setting, String shown) {
		this.runner.withPropertyValues("poolpilot.tuning.fast-path-interval=" + setting).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new InvalidPoolpilotPropertyFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription())
				.isEqualTo("Invalid poolpilot configuration: 'poolpilot.tuning.fast-path-interval' is " + shown + ".");
			assertThat(analysis.getAction()).contains("'poolpilot.tuning.fast-path-interval'")
				.contains("must be 0 (off) or a positive duration shorter than poolpilot.measurement.window (PT1S)");
		});
	}

	@Test
	void aValueIsShownAsItWasWritten() {
		this.runner.withPropertyValues("poolpilot.tuning.fast-path-interval=-1ms").run((context) -> {
			MockEnvironment environment = new MockEnvironment().withProperty("poolpilot.tuning.fast-path-interval",
					"-1ms");
			// As Spring Boot makes the analyzers: from spring.factories, given the
			// environment.
			FailureAnalyzer analyzer = SpringFactoriesLoader.forDefaultResourceLocation(getClass().getClassLoader())
				.load(FailureAnalyzer.class,
						ArgumentResolver.of(Environment.class, environment)
							.and(BeanFactory.class, new DefaultListableBeanFactory()),
						// Analyzers of what is not on this classpath are left out, as
						// Boot does.
						FailureHandler.handleMessage((message, failure) -> {
						}))
				.stream()
				.filter(InvalidPoolpilotPropertyFailureAnalyzer.class::isInstance)
				.findFirst()
				.orElseThrow();
			assertThat(analyzer.analyze(context.getStartupFailure()).getDescription())
				.isEqualTo("Invalid poolpilot configuration: 'poolpilot.tuning.fast-path-interval' is -1ms.");
		});
	}

	@Test
	void theFastPathRunsBetweenWindowsByDefaultAndCanBeTurnedOff() {
		this.runner
			.run((context) -> assertThat(context.getBean(PoolpilotProperties.class).getTuning().getFastPathInterval())
				.isEqualTo(Duration.ofMillis(100)));
		this.runner.withPropertyValues("poolpilot.tuning.fast-path-interval=0").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(PoolpilotProperties.class).getTuning().getFastPathInterval()).isZero();
		});
	}

	@Test
	@EnabledForJreRange(max = JRE.JAVA_20, disabledReason = "virtual threads exist from Java 21")
	void virtualThreadsFailStartUpBeforeJava21NamingThePropertyAndTheRunningJava() {
		this.runner.withPropertyValues("poolpilot.pools.talk.virtual-threads=true").run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = new InvalidPoolpilotPropertyFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription())
				.isEqualTo("Invalid poolpilot configuration: 'poolpilot.pools.talk.virtual-threads' is true.");
			assertThat(analysis.getAction()).contains("'poolpilot.pools.talk.virtual-threads'")
				.contains("needs Java 21 or later")
				.contains("runs on Java " + Runtime.version());
		});
	}

	@Test
	@EnabledForJreRange(max = JRE.JAVA_20, disabledReason = "Spring Boot uses virtual threads from Java 21")
	void beforeJava21SpringBootsPlatformExecutorIsManagedWhateverSpringThreadsVirtualEnabledSays() {
		this.runner.withPropertyValues("spring.threads.virtual.enabled=true").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean("applicationTaskExecutor")).isInstanceOf(ThreadPoolTaskExecutor.class);
			assertThat(context.getBean(PoolRegistry.class).get("applicationTaskExecutor")).isNotNull();
		});
	}

	@Test
	void aUserDefinedRegistryIsUsedInstead() {
		this.runner.withUserConfiguration(CustomRegistryConfiguration.class)
			.withPropertyValues("poolpilot.pools.talk.max-threads=2")
			.run((context) -> {
				assertThat(context).getBean(PoolRegistry.class).isSameAs(CustomRegistryConfiguration.REGISTRY);
				assertThat(CustomRegistryConfiguration.REGISTRY.get("talk")).isNotNull();
			});
	}

	@Test
	void theApplicationsTaskDecoratorIsAppliedToManagedPools() {
		this.runner.withUserConfiguration(DecoratorConfiguration.class)
			.withPropertyValues("poolpilot.pools.talk.max-threads=2")
			.run((context) -> {
				ManagedTaskExecutor talk = context.getBean("talk", ManagedTaskExecutor.class);
				Future<String> marker = talk.submit(DecoratorConfiguration.MARKER::get);
				assertThat(marker.get(10, TimeUnit.SECONDS)).isEqualTo("decorated");
			});
	}

	@Test
	void queuedTasksFinishWhenTheContextClosesWithinTheAwaitPeriod() {
		AwaitTerminationChecks.queuedTasksFinishWithinTheAwaitPeriod(this.runner);
	}

	@ParameterizedTest
	@ValueSource(strings = { "100ms", "0" })
	void tasksLeftAfterTheAwaitPeriodAreCancelledAndCountedAbandoned(String awaitTermination, CapturedOutput output) {
		ManagedExecutorService executor = AwaitTerminationChecks.tasksLeftAfterTheAwaitPeriodAreAbandoned(this.runner,
				awaitTermination, output);
		assertThat(executor.getPool().getRecorder().taskCounts().failed()).isEqualTo(0);
	}

	@Test
	void theRejectionHandlerNeedsAServletWebApplication() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(PoolRejectionExceptionHandler.class));
		new WebApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(PoolpilotAutoConfiguration.class, PoolpilotWebAutoConfiguration.class))
			.run((context) -> assertThat(context).hasSingleBean(PoolRejectionExceptionHandler.class));
		new WebApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(PoolpilotAutoConfiguration.class, PoolpilotWebAutoConfiguration.class))
			.withPropertyValues("poolpilot.web.rejection-handler-enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(PoolRejectionExceptionHandler.class));
	}

	@Test
	void theRejectionHandlerBacksOffWithoutSpringWebOrWhenTheApplicationDefinesOne() {
		WebApplicationContextRunner web = new WebApplicationContextRunner().withConfiguration(
				AutoConfigurations.of(PoolpilotAutoConfiguration.class, PoolpilotWebAutoConfiguration.class));
		web.withClassLoader(new FilteredClassLoader(ProblemDetail.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(PoolRejectionExceptionHandler.class)
				.hasSingleBean(PoolRegistry.class));
		web.withUserConfiguration(CustomHandlerConfiguration.class)
			.run((context) -> assertThat(context).getBean(PoolRejectionExceptionHandler.class)
				.isSameAs(context.getBean("customHandler")));
	}

	@Test
	void poolsWorkWithoutActuatorOnTheClasspath() {
		this.runner.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate"))
			.withPropertyValues("poolpilot.pools.talk.max-threads=2")
			.run((context) -> assertThat(context).hasNotFailed().hasBean("talk"));
	}

	@Configuration(proxyBeanMethods = false)
	static class CustomRegistryConfiguration {

		static final PoolRegistry REGISTRY = new PoolRegistry(10);

		@Bean
		PoolRegistry customRegistry() {
			return REGISTRY;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomHandlerConfiguration {

		@Bean
		PoolRejectionExceptionHandler customHandler() {
			return new PoolRejectionExceptionHandler((pool) -> 503);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class DecoratorConfiguration {

		static final ThreadLocal<String> MARKER = new ThreadLocal<>();

		@Bean
		TaskDecorator markingDecorator() {
			return (task) -> () -> {
				MARKER.set("decorated");
				try {
					task.run();
				}
				finally {
					MARKER.remove();
				}
			};
		}

	}

	@EnableAsync
	static class AsyncService {

		@Async("talk")
		CompletableFuture<String> answer(boolean fail) {
			if (fail) {
				throw new IllegalStateException("downstream down");
			}
			return CompletableFuture.completedFuture("ok");
		}

	}

}
