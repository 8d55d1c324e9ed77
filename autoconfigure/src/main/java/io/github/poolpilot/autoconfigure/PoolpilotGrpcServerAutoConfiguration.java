package io.github.poolpilot.autoconfigure;

import io.grpc.ServerInterceptor;

import io.github.poolpilot.grpc.GrpcPool;
import io.github.poolpilot.grpc.GrpcRefusalInterceptor;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.grpc.server.autoconfigure.GrpcServerExecutorProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.grpc.server.GlobalServerInterceptor;

/**
 * Auto-configuration of the gRPC server's executor as the managed pool named
 * {@code grpc}, through Spring Boot's {@link GrpcServerExecutorProvider}: opt-in with
 * {@code poolpilot.grpc-server.enabled=true}.
 *
 * @author poolpilot authors
 */
@AutoConfiguration(after = PoolpilotAutoConfiguration.class,
		beforeName = "org.springframework.boot.grpc.server.autoconfigure.GrpcServerAutoConfiguration")
@ConditionalOnBooleanProperty(name = "poolpilot.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "poolpilot.grpc-server.enabled")
@EnableConfigurationProperties(PoolpilotGrpcServerProperties.class)
public final class PoolpilotGrpcServerAutoConfiguration {

	/**
	 * Spring Boot's gRPC server: its executor is the pool, and refused calls are answered
	 * before any other interceptor sees them.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ GrpcServerExecutorProvider.class, ServerInterceptor.class, GlobalServerInterceptor.class })
	static class GrpcServerConfiguration {

		@Bean(destroyMethod = "close")
		GrpcPool poolpilotGrpcPool(PoolpilotGrpcServerProperties settings, PoolpilotProperties properties,
				PoolRegistry registry) {
			PoolpilotPropertiesValidator.validateSizing("poolpilot.grpc-server.", settings);
			GrpcPool grpc = new GrpcPool(ManagedPoolsRegistrar.recorder(properties.getMeasurement()).build(),
					new PoolBounds(settings.getMinThreads(), settings.getMaxThreads()), settings.getQueueCapacity(),
					settings.getKeepAlive(), settings.getAwaitTermination());
			grpc.getPool().setWeight(settings.getWeight());
			ServerPools.register(registry, grpc.getPool());
			return grpc;
		}

		@Bean
		GrpcServerExecutorProvider poolpilotGrpcServerExecutorProvider(GrpcPool grpc) {
			return () -> grpc;
		}

		@Bean
		@GlobalServerInterceptor
		@Order(Ordered.HIGHEST_PRECEDENCE)
		GrpcRefusalInterceptor poolpilotGrpcRefusalInterceptor(PoolpilotGrpcServerProperties settings) {
			return new GrpcRefusalInterceptor(settings.getRejectionStatus());
		}

	}

	/**
	 * Without Spring Boot's gRPC server the setting cannot be honoured: say so at
	 * start-up rather than leave it without effect.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingClass("org.springframework.boot.grpc.server.autoconfigure.GrpcServerExecutorProvider")
	static class NoGrpcServerConfiguration {

		@Bean
		Object poolpilotGrpcPoolUnsupported() {
			throw new InvalidPoolpilotPropertyException("poolpilot.grpc-server.enabled", true,
					"manages the executor of Spring Boot's gRPC server (spring-boot-starter-grpc-server), and this "
							+ "application does not have it: add it, or leave the property out");
		}

	}

}
