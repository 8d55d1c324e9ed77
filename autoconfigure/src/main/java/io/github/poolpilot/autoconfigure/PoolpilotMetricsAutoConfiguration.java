package io.github.poolpilot.autoconfigure;

import java.util.Collections;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;

import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.grpc.GrpcPool;
import io.github.poolpilot.metrics.PoolMetrics;
import io.github.poolpilot.task.ManagedSimpleAsyncTaskExecutor;
import io.github.poolpilot.tuning.Tuner;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} for poolpilot's Micrometer meters. They are bound once every
 * singleton exists, so that pools created late (the application's own executors) have
 * theirs too.
 *
 * @author poolpilot authors
 */
@AutoConfiguration(after = PoolpilotAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass({ MeterRegistry.class, MetricsAutoConfiguration.class })
@ConditionalOnBean({ MeterRegistry.class, PoolRegistry.class })
@ConditionalOnBooleanProperty(name = "poolpilot.enabled", matchIfMissing = true)
public final class PoolpilotMetricsAutoConfiguration {

	@Bean
	SmartInitializingSingleton poolpilotMetricsBinder(PoolRegistry registry, Tuner tuner,
			ObjectProvider<MeterRegistry> meterRegistries, ListableBeanFactory beanFactory) {
		PoolMetrics metrics = new PoolMetrics(registry, tuner);
		// The primary registry: a composite when there are several, so each meter is
		// bound once and the timing listener feeds every registry.
		return () -> meterRegistries.ifAvailable((meterRegistry) -> {
			metrics.bindTo(meterRegistry);
			bindExecutorMeters(beanFactory, meterRegistry);
		});
	}

	/**
	 * Spring Boot binds its executor.* meters to ThreadPoolTaskExecutor beans only: bind
	 * the same ones, the same way, to the virtual-thread applicationTaskExecutor that
	 * poolpilot manages and to the gRPC server's pool, so that every managed pool has
	 * them.
	 */
	private static void bindExecutorMeters(ListableBeanFactory beanFactory, MeterRegistry meterRegistry) {
		beanFactory.getBeansOfType(ManagedSimpleAsyncTaskExecutor.class, false, false)
			.forEach(
					(name, executor) -> new ExecutorServiceMetrics(executor.getManagedExecutor().asThreadPoolExecutor(),
							name, Collections.emptyList())
						.bindTo(meterRegistry));
		beanFactory.getBeansOfType(GrpcPool.class, false, false)
			.forEach((name, grpc) -> new ExecutorServiceMetrics(grpc.asThreadPoolExecutor(), GrpcPool.NAME,
					Collections.emptyList())
				.bindTo(meterRegistry));
	}

}
