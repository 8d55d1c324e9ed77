package io.github.poolpilot.task;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.autoconfigure.PoolpilotAutoConfiguration;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.Blocking;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * An application's own executor cannot escape its bounds or the budget: every size
 * change, through the bean's setters, its {@code getThreadPoolExecutor()}, or the pool,
 * goes through the one checked door, and the bean answers the live sizes.
 *
 * @author poolpilot authors
 */
class ExistingExecutorSizesTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(PoolpilotAutoConfiguration.class))
		.withUserConfiguration(ReportExecutorConfiguration.class)
		.withPropertyValues("poolpilot.budget.max-threads=40", "poolpilot.pools.talk.min-threads=30",
				"poolpilot.pools.talk.max-threads=30", "poolpilot.existing-executors.report.min-threads=1",
				"poolpilot.tuning.enabled=false");

	@Test
	void theBeanAnswersTheSizesThePoolWasGiven() {
		this.runner.run((context) -> {
			ThreadPoolTaskExecutor report = context.getBean("report", ThreadPoolTaskExecutor.class);
			ManagedPool pool = context.getBean(PoolRegistry.class).get("report");
			// As the tuner shrinks a pool: through its door.
			pool.resize(1, 1);
			assertThat(report.getCorePoolSize()).isEqualTo(1);
			assertThat(report.getMaxPoolSize()).isEqualTo(1);
			assertThat(report.getThreadPoolExecutor().getCorePoolSize()).isEqualTo(1);
			assertThat(report.getThreadPoolExecutor().getMaximumPoolSize()).isEqualTo(1);
		});
	}

	@Test
	void theBeansOwnSettersGoThroughThePoolsCheckedDoor() {
		this.runner.run((context) -> {
			ThreadPoolTaskExecutor report = context.getBean("report", ThreadPoolTaskExecutor.class);
			ManagedPool pool = context.getBean(PoolRegistry.class).get("report");
			pool.resize(1, 1);
			// A core size above the maximum raises the maximum, as a declared pool's
			// does.
			report.setCorePoolSize(2);
			assertThat(pool.sizes().corePoolSize()).isEqualTo(2);
			assertThat(pool.sizes().maxPoolSize()).isEqualTo(2);
			assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> report.setMaxPoolSize(100))
				.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("maxPoolSize"))
				.withMessage("maxPoolSize 100 of pool 'report' is above its max-threads 3 (allowed: 1 to 3)");
			assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> report.setCorePoolSize(60))
				.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("corePoolSize"))
				.withMessage("corePoolSize 60 of pool 'report' is above its max-threads 3 (allowed: 1 to 3)");
			assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> report.setCorePoolSize(0))
				.withMessage("corePoolSize 0 of pool 'report' is below its min-threads 1 (allowed: 1 to 3)");
			assertThat(report.getCorePoolSize()).isEqualTo(2);
			assertThat(report.getMaxPoolSize()).isEqualTo(2);
		});
	}

	@Test
	void theLiveExecutorHandedOutIsACheckedViewOfIt() {
		this.runner.run((context) -> {
			ThreadPoolTaskExecutor report = context.getBean("report", ThreadPoolTaskExecutor.class);
			ManagedPool pool = context.getBean(PoolRegistry.class).get("report");
			ThreadPoolExecutor executor = report.getThreadPoolExecutor();
			List<Integer> sizes = List.of(executor.getCorePoolSize(), executor.getMaximumPoolSize());
			assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> executor.setMaximumPoolSize(100))
				.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("maxPoolSize"))
				.withMessageContaining("of pool 'report'")
				.withMessageContaining("allowed");
			assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> executor.setCorePoolSize(60))
				.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("corePoolSize"))
				.withMessageContaining("of pool 'report'")
				.withMessageContaining("allowed");
			// Keeping the maximum, as ThreadPoolExecutor's own setter does.
			assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> executor.setMaximumPoolSize(1))
				.withMessage(
						"corePoolSize 3 of pool 'report' must not be greater than maxPoolSize 1 (allowed: 1 to 1)");
			// Each refusal changed nothing.
			assertThat(List.of(executor.getCorePoolSize(), executor.getMaximumPoolSize())).isEqualTo(sizes);
			assertThat(List.of(pool.sizes().corePoolSize(), pool.sizes().maxPoolSize())).isEqualTo(sizes);
			executor.setCorePoolSize(1);
			executor.setMaximumPoolSize(2);
			assertThat(pool.sizes().corePoolSize()).isEqualTo(1);
			assertThat(pool.sizes().maxPoolSize()).isEqualTo(2);
			assertThat(report.getCorePoolSize()).isEqualTo(1);
			assertThat(report.getMaxPoolSize()).isEqualTo(2);
		});
	}

	@Test
	void noneOfThemCanTakeThePoolsPastTheBudget() {
		this.runner.withPropertyValues("poolpilot.existing-executors.report.max-threads=100").run((context) -> {
			ThreadPoolTaskExecutor report = context.getBean("report", ThreadPoolTaskExecutor.class);
			PoolRegistry registry = context.getBean(PoolRegistry.class);
			assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> report.setMaxPoolSize(100))
				.withMessage("maxPoolSize 100 of pool 'report' would bring the pools' threads to 130, over the budget "
						+ "of 40 threads (allowed: at most 10)");
			int allocated = registry.budget().allocatedThreads();
			int max = report.getMaxPoolSize();
			assertThatExceptionOfType(InvalidPoolSizeException.class)
				.isThrownBy(() -> report.getThreadPoolExecutor().setMaximumPoolSize(60))
				.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("maxPoolSize"))
				.withMessageContaining("over the budget of 40 threads");
			assertThat(registry.budget().allocatedThreads()).isEqualTo(allocated);
			assertThat(report.getMaxPoolSize()).isEqualTo(max);
			assertThat(report.getThreadPoolExecutor().getMaximumPoolSize()).isEqualTo(max);
			report.setMaxPoolSize(10);
			assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> report.setCorePoolSize(60));
			assertThat(registry.budget().allocatedThreads()).isEqualTo(40);
			assertThat(report.getMaxPoolSize()).isEqualTo(10);
		});
	}

	@Test
	void tasksGivenToTheHandedOutExecutorAreMeasured() {
		this.runner.run((context) -> {
			ThreadPoolTaskExecutor report = context.getBean("report", ThreadPoolTaskExecutor.class);
			ManagedPool pool = context.getBean(PoolRegistry.class).get("report");
			ThreadPoolExecutor executor = report.getThreadPoolExecutor();
			CountDownLatch ran = new CountDownLatch(2);
			executor.execute(ran::countDown);
			assertThat(executor.submit(() -> {
				ran.countDown();
				return "done";
			}).get(10, TimeUnit.SECONDS)).isEqualTo("done");
			assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(
						() -> assertThat(pool.getRecorder().taskCounts()).isEqualTo(new TaskCounts(2, 2, 0, 0, 0)));
		});
	}

	@Test
	void theViewKeepsTheExecutorsRejectionPolicyAndCountsRejections() {
		this.runner.run((context) -> {
			ThreadPoolTaskExecutor report = context.getBean("report", ThreadPoolTaskExecutor.class);
			ManagedPool pool = context.getBean(PoolRegistry.class).get("report");
			ThreadPoolExecutor executor = report.getThreadPoolExecutor();
			assertThat(executor.getRejectedExecutionHandler()).isInstanceOf(ThreadPoolExecutor.CallerRunsPolicy.class);
			executor.setRejectedExecutionHandler(new ThreadPoolExecutor.DiscardPolicy());
			CountDownLatch release = new CountDownLatch(1);
			try {
				for (int i = 0; i < 5; i++) {
					report.execute(() -> Blocking.await(release));
				}
				// Three threads busy, two queued: the sixth is refused and discarded.
				executor.execute(() -> {
				});
			}
			finally {
				release.countDown();
			}
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(
						() -> assertThat(pool.getRecorder().taskCounts()).isEqualTo(new TaskCounts(6, 5, 0, 1, 0)));
		});
	}

	@Test
	void anExecutorThatStartsAfterTheOthersIsFittedIntoWhatTheBudgetHasLeft() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(PoolpilotAutoConfiguration.class))
			.withUserConfiguration(LazyReportExecutorConfiguration.class)
			.withPropertyValues("poolpilot.budget.max-threads=10", "poolpilot.pools.talk.min-threads=8",
					"poolpilot.pools.talk.max-threads=8", "poolpilot.existing-executors.report.min-threads=1",
					"poolpilot.tuning.enabled=false")
			.run((context) -> {
				PoolRegistry registry = context.getBean(PoolRegistry.class);
				ThreadPoolTaskExecutor report = context.getBean("report", ThreadPoolTaskExecutor.class);
				assertThat(registry.get("report")).isNotNull();
				assertThat(registry.budget().allocatedThreads()).isEqualTo(10);
				assertThat(report.getMaxPoolSize()).isEqualTo(2);
				assertThat(report.getThreadPoolExecutor().getMaximumPoolSize()).isEqualTo(2);
			});
	}

	@Test
	void anExecutorThatStartsAfterTheOthersIsRefusedWhenItsMinThreadsDoNotFit() {
		// A lazy executor starts with the application's lifecycle, once the pools that
		// exist were fitted to the budget.
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(PoolpilotAutoConfiguration.class))
			.withUserConfiguration(LazyReportExecutorConfiguration.class)
			.withPropertyValues("poolpilot.budget.max-threads=10", "poolpilot.pools.talk.min-threads=8",
					"poolpilot.pools.talk.max-threads=8", "poolpilot.tuning.enabled=false")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidPoolSizeException.class)
				.hasMessage("minThreads 8 of pool 'report' would bring the pools' threads to 16, over the budget of 10 "
						+ "threads (allowed: at most 2): raise poolpilot.budget.max-threads, lower "
						+ "poolpilot.existing-executors.report.min-threads, or leave the executor out with "
						+ "poolpilot.exclude"));
	}

	@Configuration(proxyBeanMethods = false)
	static class ReportExecutorConfiguration {

		@Bean
		ThreadPoolTaskExecutor report() {
			ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
			executor.setCorePoolSize(3);
			executor.setMaxPoolSize(3);
			executor.setQueueCapacity(2);
			executor.setThreadNamePrefix("report-");
			executor.setRejectedExecutionHandler(new ThreadPoolExecutor.CallerRunsPolicy());
			return executor;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LazyReportExecutorConfiguration {

		@Bean
		@Lazy
		ThreadPoolTaskExecutor report() {
			ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
			executor.setCorePoolSize(8);
			executor.setMaxPoolSize(8);
			return executor;
		}

	}

}
