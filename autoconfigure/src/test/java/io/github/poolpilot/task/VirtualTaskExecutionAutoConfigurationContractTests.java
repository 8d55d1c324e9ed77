package io.github.poolpilot.task;

import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.github.poolpilot.task.TaskExecutionAutoConfigurationContractTests.Application;
import io.github.poolpilot.testsupport.VirtualThreadsSupport;

import org.springframework.boot.task.SimpleAsyncTaskExecutorBuilder;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.SyncTaskExecutor;
import org.springframework.core.task.TaskDecorator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Spring Boot's task-execution tests ({@code TaskExecutionAutoConfigurationTests})
 * check of {@code applicationTaskExecutor} on virtual threads
 * ({@code spring.threads.virtual.enabled=true}), run side by side in an application with
 * Boot alone and with poolpilot, which manages that executor: a
 * {@code SimpleAsyncTaskExecutor} under the same name, on virtual threads named with the
 * prefix, with Boot's settings and the application's task decorator, and Boot backing off
 * for an application's own executor.
 *
 * @author poolpilot authors
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualTaskExecutionAutoConfigurationContractTests {

	@ParameterizedTest
	@EnumSource
	void theApplicationTaskExecutorIsASimpleAsyncTaskExecutorOnVirtualThreads(Application application) {
		application.runner().withPropertyValues("spring.threads.virtual.enabled=true").run((context) -> {
			assertThat(context).hasSingleBean(Executor.class).hasBean("applicationTaskExecutor");
			SimpleAsyncTaskExecutor executor = context.getBean("applicationTaskExecutor",
					SimpleAsyncTaskExecutor.class);
			assertThat(context.getBean(SimpleAsyncTaskExecutorBuilder.class))
				.hasFieldOrPropertyWithValue("virtualThreads", true);
			application.manages(context, "applicationTaskExecutor");
			Thread thread = executor.submit(Thread::currentThread).get(10, TimeUnit.SECONDS);
			assertThat(VirtualThreadsSupport.isVirtual(thread)).isTrue();
			assertThat(thread.getName()).startsWith("task-");
		});
	}

	@ParameterizedTest
	@EnumSource
	void bootsSettingsReachTheExecutor(Application application) {
		application.runner()
			.withPropertyValues("spring.threads.virtual.enabled=true",
					"spring.task.execution.thread-name-prefix=custom-",
					"spring.task.execution.simple.cancel-remaining-tasks-on-close=true",
					"spring.task.execution.simple.concurrency-limit=2",
					"spring.task.execution.shutdown.await-termination=true",
					"spring.task.execution.shutdown.await-termination-period=30s")
			.run((context) -> {
				SimpleAsyncTaskExecutor executor = context.getBean("applicationTaskExecutor",
						SimpleAsyncTaskExecutor.class);
				application.manages(context, "applicationTaskExecutor");
				assertThat(executor).hasFieldOrPropertyWithValue("cancelRemainingTasksOnClose", true);
				assertThat(executor).hasFieldOrPropertyWithValue("taskTerminationTimeout", 30000L);
				assertThat(executor.getConcurrencyLimit()).isEqualTo(2);
				assertThat(executor.getThreadNamePrefix()).isEqualTo("custom-");
				Thread thread = executor.submit(Thread::currentThread).get(10, TimeUnit.SECONDS);
				assertThat(thread.getName()).startsWith("custom-");
			});
	}

	@ParameterizedTest
	@EnumSource
	void theApplicationsTaskDecoratorIsTheExecutorsAndWrapsEachTask(Application application) {
		ThreadLocal<String> context = new ThreadLocal<>();
		TaskDecorator decorator = (task) -> () -> {
			context.set("decorated");
			try {
				task.run();
			}
			finally {
				context.remove();
			}
		};
		application.runner()
			.withPropertyValues("spring.threads.virtual.enabled=true")
			.withBean(TaskDecorator.class, () -> decorator)
			.run((app) -> {
				SimpleAsyncTaskExecutor executor = app.getBean(SimpleAsyncTaskExecutor.class);
				application.manages(app, "applicationTaskExecutor");
				assertThat(executor).extracting("taskDecorator").isSameAs(decorator);
				assertThat(executor.submit(context::get).get(10, TimeUnit.SECONDS)).isEqualTo("decorated");
			});
	}

	@ParameterizedTest
	@EnumSource
	void bootBacksOffForTheApplicationsOwnExecutor(Application application) {
		application.runner()
			.withPropertyValues("spring.threads.virtual.enabled=true")
			.withBean("customTaskExecutor", Executor.class, SyncTaskExecutor::new)
			.run((context) -> {
				assertThat(context).hasSingleBean(Executor.class);
				assertThat(context.getBean(Executor.class)).isSameAs(context.getBean("customTaskExecutor"));
			});
	}

}
