package io.github.poolpilot.task;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.github.poolpilot.autoconfigure.PoolpilotAutoConfiguration;
import io.github.poolpilot.pool.PoolRegistry;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.task.SimpleAsyncTaskExecutorBuilder;
import org.springframework.boot.task.ThreadPoolTaskExecutorBuilder;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.core.task.SyncTaskExecutor;
import org.springframework.core.task.TaskDecorator;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Spring Boot's task-execution tests ({@code TaskExecutionAutoConfigurationTests})
 * check of {@code applicationTaskExecutor} on platform threads, run side by side in an
 * application with Boot alone and with poolpilot, which manages that executor: the same
 * beans, the same lazy bean under the same name and alias, Boot's settings on the live
 * executor, the task decorators, {@code @Async} on it, and Boot backing off for an
 * application's own executor.
 *
 * @author poolpilot authors
 */
class TaskExecutionAutoConfigurationContractTests {

	/**
	 * An application with Boot's task execution alone, and with poolpilot.
	 */
	enum Application {

		BOOT(new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class))),

		BOOT_WITH_POOLPILOT(new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(TaskExecutionAutoConfiguration.class, PoolpilotAutoConfiguration.class))
			.withPropertyValues("poolpilot.measurement.window=1h"));

		private final ApplicationContextRunner runner;

		Application(ApplicationContextRunner runner) {
			this.runner = runner;
		}

		ApplicationContextRunner runner() {
			return this.runner;
		}

		/**
		 * Check that poolpilot manages the executor, or that it is Boot alone.
		 */
		void manages(AssertableApplicationContext context, String beanName) {
			if (this == BOOT) {
				assertThat(context).doesNotHaveBean(PoolRegistry.class);
			}
			else {
				assertThat(context.getBean(PoolRegistry.class).get(beanName)).isNotNull();
			}
		}

	}

	@ParameterizedTest
	@EnumSource
	void bootSuppliesItsBuildersAndOneThreadPoolTaskExecutor(Application application) {
		application.runner().run((context) -> {
			assertThat(context).hasSingleBean(ThreadPoolTaskExecutorBuilder.class);
			assertThat(context).hasSingleBean(ThreadPoolTaskExecutor.class);
			assertThat(context).hasSingleBean(SimpleAsyncTaskExecutorBuilder.class);
			assertThat(context).hasSingleBean(Executor.class).hasBean("applicationTaskExecutor");
		});
	}

	@ParameterizedTest
	@EnumSource
	void theApplicationTaskExecutorIsLazyAndAliasedToTheBootstrapExecutor(Application application) {
		application.runner().run((context) -> {
			BeanDefinition definition = context.getSourceApplicationContext()
				.getBeanFactory()
				.getBeanDefinition("applicationTaskExecutor");
			assertThat(definition.isLazyInit()).isTrue();
			assertThat(context.getAliases("applicationTaskExecutor"))
				.containsExactly(ConfigurableApplicationContext.BOOTSTRAP_EXECUTOR_BEAN_NAME);
			assertThat(context.getBean(ConfigurableApplicationContext.BOOTSTRAP_EXECUTOR_BEAN_NAME))
				.isSameAs(context.getBean("applicationTaskExecutor"))
				.isInstanceOf(ThreadPoolTaskExecutor.class);
			application.manages(context, "applicationTaskExecutor");
		});
	}

	@ParameterizedTest
	@EnumSource
	void bootsSettingsReachTheLiveExecutor(Application application) {
		application.runner()
			.withPropertyValues("spring.task.execution.pool.queue-capacity=10",
					"spring.task.execution.pool.core-size=2", "spring.task.execution.pool.max-size=4",
					"spring.task.execution.pool.allow-core-thread-timeout=true",
					"spring.task.execution.pool.keep-alive=5s", "spring.task.execution.shutdown.await-termination=true",
					"spring.task.execution.shutdown.await-termination-period=30s",
					"spring.task.execution.thread-name-prefix=mytest-")
			.run((context) -> {
				ThreadPoolTaskExecutor executor = context.getBean("applicationTaskExecutor",
						ThreadPoolTaskExecutor.class);
				application.manages(context, "applicationTaskExecutor");
				assertThat(executor.getQueueCapacity()).isEqualTo(10);
				assertThat(executor.getCorePoolSize()).isEqualTo(2);
				assertThat(executor.getMaxPoolSize()).isEqualTo(4);
				assertThat(executor.getKeepAliveSeconds()).isEqualTo(5);
				assertThat(executor.getThreadNamePrefix()).isEqualTo("mytest-");
				ThreadPoolExecutor live = executor.getThreadPoolExecutor();
				assertThat(live.getQueue().remainingCapacity()).isEqualTo(10);
				assertThat(live.getCorePoolSize()).isEqualTo(2);
				assertThat(live.getMaximumPoolSize()).isEqualTo(4);
				assertThat(live.allowsCoreThreadTimeOut()).isTrue();
				assertThat(live.getKeepAliveTime(TimeUnit.SECONDS)).isEqualTo(5);
				assertThat(executor.submit(() -> Thread.currentThread().getName()).get(10, TimeUnit.SECONDS))
					.startsWith("mytest-");
			});
	}

	/**
	 * Boot composes the decorators in their order, so that the last wraps the others and
	 * runs first.
	 */
	@ParameterizedTest
	@EnumSource
	void theApplicationsTaskDecoratorsWrapEachTaskInTheirOrder(Application application) {
		List<String> calls = new CopyOnWriteArrayList<>();
		application.runner()
			.withBean("decorator1", TaskDecorator.class, () -> new Recording(1, calls))
			.withBean("decorator2", TaskDecorator.class, () -> new Recording(3, calls))
			.withBean("decorator3", TaskDecorator.class, () -> new Recording(2, calls))
			.run((context) -> {
				ThreadPoolTaskExecutor executor = context.getBean("applicationTaskExecutor",
						ThreadPoolTaskExecutor.class);
				application.manages(context, "applicationTaskExecutor");
				executor.submit(() -> calls.add("task")).get(10, TimeUnit.SECONDS);
				assertThat(calls).containsExactly("order 3", "order 2", "order 1", "task");
			});
	}

	@ParameterizedTest
	@EnumSource
	void asyncMethodsRunOnTheApplicationTaskExecutor(Application application) {
		application.runner()
			.withPropertyValues("spring.task.execution.thread-name-prefix=auto-task-")
			.withUserConfiguration(AsyncConfiguration.class)
			.withBean(Echo.class)
			.run((context) -> {
				application.manages(context, "applicationTaskExecutor");
				String text = context.getBean(Echo.class).echo("something").get(10, TimeUnit.SECONDS);
				assertThat(text).startsWith("auto-task-").endsWith("something");
			});
	}

	@ParameterizedTest
	@EnumSource
	void bootBacksOffForTheApplicationsOwnExecutor(Application application) {
		application.runner().withBean("customTaskExecutor", Executor.class, SyncTaskExecutor::new).run((context) -> {
			assertThat(context).hasSingleBean(Executor.class);
			assertThat(context.getBean(Executor.class)).isSameAs(context.getBean("customTaskExecutor"));
		});
	}

	@ParameterizedTest
	@EnumSource
	void inForceModeBootAddsItsExecutorBesideTheApplicationsOwn(Application application) {
		application.runner()
			.withBean("customTaskExecutor", Executor.class, SyncTaskExecutor::new)
			.withPropertyValues("spring.task.execution.mode=force")
			.run((context) -> {
				assertThat(context.getBeansOfType(Executor.class)).containsOnlyKeys("customTaskExecutor",
						"applicationTaskExecutor");
				application.manages(context, "applicationTaskExecutor");
			});
	}

	@EnableAsync
	static class AsyncConfiguration {

	}

	static class Echo {

		@Async
		Future<String> echo(String text) {
			return CompletableFuture.completedFuture(Thread.currentThread().getName() + " " + text);
		}

	}

	/**
	 * A decorator of the given order that says when its wrapper runs.
	 */
	static class Recording implements TaskDecorator, Ordered {

		private final int order;

		private final List<String> calls;

		Recording(int order, List<String> calls) {
			this.order = order;
			this.calls = calls;
		}

		@Override
		public Runnable decorate(Runnable task) {
			return () -> {
				this.calls.add("order " + this.order);
				task.run();
			};
		}

		@Override
		public int getOrder() {
			return this.order;
		}

	}

}
