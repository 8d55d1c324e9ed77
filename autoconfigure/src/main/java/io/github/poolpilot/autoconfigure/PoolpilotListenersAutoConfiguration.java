package io.github.poolpilot.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import io.github.poolpilot.listener.ListenerPools;
import io.github.poolpilot.listener.kafka.KafkaContainers;
import io.github.poolpilot.listener.rabbit.RabbitContainers;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.tuning.Tuner;

import org.springframework.amqp.rabbit.listener.RabbitListenerEndpointRegistry;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.MessageListenerContainer;

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
	 * Warns about {@code poolpilot.listeners.<name>} keys that name no container of
	 * either broker.
	 * @param context the application's context
	 * @return the check
	 */
	@Bean
	ListenerNamesCheck poolpilotListenerNamesCheck(ApplicationContext context) {
		return new ListenerNamesCheck(context);
	}

	/**
	 * Spring AMQP's {@code SimpleMessageListenerContainer}s: the application's beans and
	 * those of its {@code @RabbitListener}s.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(SimpleMessageListenerContainer.class)
	@ConditionalOnBean({ PoolRegistry.class, Tuner.class })
	static class RabbitConfiguration {

		@Bean
		ListenerPools<SimpleMessageListenerContainer> poolpilotRabbitListenerPools(PoolRegistry registry, Tuner tuner,
				PoolpilotProperties properties, Environment environment, ListableBeanFactory beanFactory) {
			return new ListenerPools<>(new RabbitContainers(() -> containers(beanFactory)), RabbitContainers.PHASE,
					registry, tuner, new ListenersBinding(environment, properties.getListeners().isContainerScaling()),
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

	/**
	 * Spring Kafka's {@code ConcurrentMessageListenerContainer}s: the application's beans
	 * and those of its {@code @KafkaListener}s.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(ConcurrentMessageListenerContainer.class)
	@ConditionalOnBean({ PoolRegistry.class, Tuner.class })
	static class KafkaConfiguration {

		@Bean
		ListenerPools<ConcurrentMessageListenerContainer<?, ?>> poolpilotKafkaListenerPools(PoolRegistry registry,
				Tuner tuner, PoolpilotProperties properties, Environment environment, ListableBeanFactory beanFactory) {
			ListenersProperties listeners = properties.getListeners();
			return new ListenerPools<>(
					new KafkaContainers(() -> containers(beanFactory), listeners.getSettleFactor(),
							properties.getMeasurement().getWindow().multipliedBy(2)),
					KafkaContainers.PHASE, registry, tuner,
					new ListenersBinding(environment, listeners.isContainerScaling()),
					() -> ManagedPoolsRegistrar.recorder(properties.getMeasurement()).build(),
					properties.getMeasurement().getWindow());
		}

		private static List<ConcurrentMessageListenerContainer<?, ?>> containers(ListableBeanFactory beanFactory) {
			List<ConcurrentMessageListenerContainer<?, ?>> containers = new ArrayList<>();
			for (ConcurrentMessageListenerContainer<?, ?> container : beanFactory
				.getBeansOfType(ConcurrentMessageListenerContainer.class, false, false)
				.values()) {
				containers.add(container);
			}
			for (KafkaListenerEndpointRegistry endpoints : beanFactory
				.getBeansOfType(KafkaListenerEndpointRegistry.class, false, false)
				.values()) {
				for (MessageListenerContainer container : endpoints.getListenerContainers()) {
					if (container instanceof ConcurrentMessageListenerContainer<?, ?> concurrent) {
						containers.add(concurrent);
					}
				}
			}
			return containers;
		}

	}

}
