package io.github.poolpilot.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.poolpilot.grpc.GrpcPool;
import io.github.poolpilot.grpc.GrpcRefusalInterceptor;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.grpc.server.autoconfigure.GrpcServerExecutorProvider;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PoolpilotGrpcServerAutoConfiguration}: off unless enabled, the pool
 * {@code grpc} handed to Spring Boot's gRPC server with its defaults, and clear failures
 * for bad values.
 *
 * @author poolpilot authors
 */
class PoolpilotGrpcServerAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class, PoolpilotAutoConfiguration.class,
				PoolpilotGrpcServerAutoConfiguration.class));

	@Test
	void theServerIsLeftAloneUnlessEnabled() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(GrpcPool.class)
				.doesNotHaveBean(GrpcServerExecutorProvider.class)
				.doesNotHaveBean(GrpcRefusalInterceptor.class);
			assertThat(context.getBean(PoolRegistry.class).get("grpc")).isNull();
		});
	}

	@Test
	void enabledTheServersExecutorIsThePoolGrpcWithItsDefaults() {
		this.runner.withPropertyValues("poolpilot.grpc-server.enabled=true").run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(GrpcRefusalInterceptor.class);
			GrpcPool grpc = context.getBean(GrpcPool.class);
			assertThat(context.getBean(GrpcServerExecutorProvider.class).getExecutor()).isSameAs(grpc);
			ManagedPool pool = context.getBean(PoolRegistry.class).get("grpc");
			assertThat(pool).isSameAs(grpc.getPool());
			assertThat(pool.minThreads()).isEqualTo(4);
			assertThat(pool.maxThreads()).isEqualTo(100);
			assertThat(pool.corePoolSize()).isEqualTo(4);
			assertThat(pool.getExecutor().getQueueCapacity()).isEqualTo(100);
			assertThat(pool.getWeight()).isEqualTo(1);
		});
	}

	@Test
	void aMaxThreadsAloneBelowTheDefaultMinThreadsIsTheMinThreadsToo() {
		this.runner.withPropertyValues("poolpilot.grpc-server.enabled=true", "poolpilot.grpc-server.max-threads=2")
			.run((context) -> {
				ManagedPool pool = context.getBean(PoolRegistry.class).get("grpc");
				assertThat(pool.minThreads()).isEqualTo(2);
				assertThat(pool.maxThreads()).isEqualTo(2);
			});
	}

	@Test
	void aMinThreadsAboveMaxThreadsIsRefusedNamingTheKey() {
		this.runner
			.withPropertyValues("poolpilot.grpc-server.enabled=true", "poolpilot.grpc-server.min-threads=9",
					"poolpilot.grpc-server.max-threads=8")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("poolpilot.grpc-server.max-threads")
				.hasMessageContaining("at least min-threads (9)"));
	}

	@Test
	void aMinThreadsOverTheBudgetIsRefusedNamingTheBudget() {
		this.runner
			.withPropertyValues("poolpilot.grpc-server.enabled=true", "poolpilot.grpc-server.min-threads=4",
					"poolpilot.budget.max-threads=3")
			.run((context) -> assertThat(context).getFailure().hasMessageContaining("poolpilot.budget.max-threads"));
	}

	@Test
	void aDeclaredPoolNamedGrpcFailsStartUpNamingItsKey() {
		this.runner.withPropertyValues("poolpilot.grpc-server.enabled=true", "poolpilot.pools.grpc.max-threads=4")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("poolpilot.pools.grpc")
				.hasMessageContaining("the gRPC server's pool is named 'grpc'"));
	}

	@Test
	void aQueueCapacityOfZeroIsRefusedNamingTheKey() {
		this.runner.withPropertyValues("poolpilot.grpc-server.enabled=true", "poolpilot.grpc-server.queue-capacity=0")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("poolpilot.grpc-server.queue-capacity")
				.hasMessageContaining("at least 1"));
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			min-threads       | 0     | must be at least 1
			weight            | 0     | must be at least 1
			keep-alive        | -1s   | must not be negative
			await-termination | -1s   | must not be negative
			""")
	void aBadSharedKeyIsRefusedNamingItAsADeclaredPoolsWouldBe(String key, String value, String allowed) {
		this.runner
			.withPropertyValues("poolpilot.grpc-server.enabled=true", "poolpilot.grpc-server." + key + "=" + value)
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("poolpilot.grpc-server." + key)
				.hasMessageContaining(allowed));
		this.runner
			.withPropertyValues("poolpilot.pools.work.max-threads=2", "poolpilot.pools.work." + key + "=" + value)
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("poolpilot.pools.work." + key)
				.hasMessageContaining(allowed));
	}

	@Test
	void aKeepAliveOfZeroIsAcceptedAsForADeclaredPool() {
		this.runner.withPropertyValues("poolpilot.grpc-server.enabled=true", "poolpilot.grpc-server.keep-alive=0s")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(GrpcPool.class));
	}

	@Test
	void aRejectionStatusThatIsNotABusyStatusIsRefused() {
		this.runner
			.withPropertyValues("poolpilot.grpc-server.enabled=true", "poolpilot.grpc-server.rejection-status=INTERNAL")
			.run((context) -> assertThat(context).getFailure()
				.hasStackTraceContaining("poolpilot.grpc-server.rejection-status")
				.hasStackTraceContaining("INTERNAL"));
	}

}
