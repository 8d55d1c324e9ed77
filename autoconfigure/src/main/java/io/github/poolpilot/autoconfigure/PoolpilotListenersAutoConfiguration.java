package io.github.poolpilot.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import io.github.poolpilot.listener.rabbit.RabbitListenerPools;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.tuning.Tuner;

import org.springframework.amqp.rabbit.listener.RabbitListenerEndpointRegistry;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The consumers of the application's message listener containers as managed pools
 * ({@code poolpilot.listeners.*}, on unless {@code poolpilot.listeners.enabled=false}):
 * each broker's containers behind a class condition of their own, so that an application
 * without that broker's library starts as it did.
 *
 * @author poolpilot authors
 */
@AutoConfiguration(after = PoolpilotAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "poolpilot.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "poolpilot.listeners.enabled", matchIfMissing = true)
public final class PoolpilotListenersAutoConfiguration {

	/**
	 * Spring AMQP's {@code SimpleMessageListenerContainer}s: the application's beans and
	 * those of its {@code @RabbitListener}s.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(SimpleMessageListenerContainer.class)
	@ConditionalOnBean({ PoolRegistry.class, Tuner.class })
	static class RabbitConfiguration {

		@Bean
		RabbitListenerPools poolpilotRabbitListenerPools(PoolRegistry registry, Tuner tuner,
				PoolpilotProperties properties, Environment environment, ListableBeanFactory beanFactory) {
			return new RabbitListenerPools(registry, tuner, () -> containers(beanFactory),
					new ListenersBinding(environment, properties.getListeners().isContainerScaling()),
					() -> ManagedPoolsRegistrar.recorder(properties.getMeasurement()).build(),
					properties.getMeasurement().getWindow());
		}

		private static List<SimpleMessageListenerContainer> containers(ListableBeanFactory beanFactory) {
			List<SimpleMessageListenerContainer> containers = new ArrayList<>(
					beanFactory.getBeansOfType(SimpleMessageListenerContainer.class, false, false).values());
			for (RabbitListenerEndpointRegistry endpoints : beanFactory
				.getBeansOfType(RabbitListenerEndpointRegistry.class, false, false)
				.values()) {
				for (Object container : endpoints.getListenerContainers()) {
					if (container instanceof SimpleMessageListenerContainer simple) {
						containers.add(simple);
					}
				}
			}
			return containers;
		}

	}

}
