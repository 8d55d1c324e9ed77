package io.github.poolpilot.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;

import io.github.poolpilot.core.PoolRegistry;
import io.github.poolpilot.metrics.PoolMetrics;
import io.github.poolpilot.tuning.Tuner;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
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
@AutoConfiguration(after = { PoolpilotAutoConfiguration.class, MetricsAutoConfiguration.class,
		CompositeMeterRegistryAutoConfiguration.class })
@ConditionalOnClass({ MeterRegistry.class, MetricsAutoConfiguration.class })
@ConditionalOnBean({ MeterRegistry.class, PoolRegistry.class })
public final class PoolpilotMetricsAutoConfiguration {

	@Bean
	SmartInitializingSingleton poolpilotMetricsBinder(PoolRegistry registry, ObjectProvider<Tuner> tuner,
			ObjectProvider<MeterRegistry> meterRegistries) {
		PoolMetrics metrics = new PoolMetrics(registry, tuner.getIfAvailable());
		// The primary registry: a composite when there are several, so each meter is
		// bound once and the timing listener feeds every registry.
		return () -> meterRegistries.ifAvailable(metrics::bindTo);
	}

}
