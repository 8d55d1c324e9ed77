package io.github.poolpilot.autoconfigure;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.tuning.Tuner;
import io.github.poolpilot.tuning.TuningMode;

import org.springframework.amqp.core.MessageListener;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PoolpilotListenersAutoConfiguration}: a listener container bean (not
 * started, so no broker is needed) becomes a pool named by its bean name, bounded by its
 * own concurrency unless configured, and bad keys fail start-up naming them.
 *
 * @author poolpilot authors
 */
class PoolpilotListenersAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(PoolpilotAutoConfiguration.class, PoolpilotListenersAutoConfiguration.class))
		.withUserConfiguration(Containers.class)
		.withPropertyValues("poolpilot.existing-executors.enabled=false");

	@Test
	void aContainerIsAPoolNamedByItsBeanNameBoundedByItsOwnConcurrencyAndStartingAtItsLeast() {
		this.runner.run((context) -> {
			ManagedPool orders = pool(context);
			assertThat(orders.getBounds().minThreads()).isEqualTo(2);
			assertThat(orders.getBounds().maxThreads()).isEqualTo(5);
			assertThat(orders.corePoolSize()).isEqualTo(2);
			assertThat(orders.maxPoolSize()).isEqualTo(2);
			assertThat(context.getBean(Tuner.class).state("orders").getMode()).isEqualTo(TuningMode.AUTO);
			assertThat(context.getBean("orders", SimpleMessageListenerContainer.class).getMessageListener())
				.isInstanceOf(MessageListener.class)
				.isNotSameAs(Containers.LISTENER);
		});
	}

	@Test
	void itsKeysOverrideTheContainersOwnSettings() {
		this.runner
			.withPropertyValues("poolpilot.listeners.orders.max-threads=8",
					"poolpilot.listeners.orders.initial-threads=3", "poolpilot.listeners.orders.weight=4")
			.run((context) -> {
				ManagedPool orders = pool(context);
				assertThat(orders.getBounds().minThreads()).isEqualTo(2);
				assertThat(orders.getBounds().maxThreads()).isEqualTo(8);
				assertThat(orders.corePoolSize()).isEqualTo(3);
				assertThat(orders.maxPoolSize()).isEqualTo(3);
				assertThat(orders.getWeight()).isEqualTo(4);
			});
	}

	@Test
	void withContainerScalingItKeepsTheContainersSizesInManualMode() {
		this.runner.withPropertyValues("poolpilot.listeners.container-scaling=true").run((context) -> {
			ManagedPool orders = pool(context);
			assertThat(orders.corePoolSize()).isEqualTo(2);
			assertThat(orders.maxPoolSize()).isEqualTo(5);
			assertThat(context.getBean(Tuner.class).state("orders").getMode()).isEqualTo(TuningMode.MANUAL);
		});
	}

	@Test
	void aMaxThreadsBelowTheContainersConcurrencyFailsStartUpNamingIt() {
		this.runner.withPropertyValues("poolpilot.listeners.orders.max-threads=1")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("'poolpilot.listeners.orders.max-threads'")
				.hasMessageContaining("at least min-threads (2"));
	}

	@Test
	void anExclusiveConsumerKeepsExactlyOne() {
		this.runner.withBean("audit", SimpleMessageListenerContainer.class, () -> {
			SimpleMessageListenerContainer container = Containers.container();
			container.setExclusive(true);
			return container;
		})
			.withPropertyValues("poolpilot.listeners.audit.max-threads=2")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("'poolpilot.listeners.audit.max-threads'")
				.hasMessageContaining("exclusive"));
	}

	@Test
	void aKeyListenersDoNotHaveFailsStartUpNamingIt() {
		this.runner.withPropertyValues("poolpilot.listeners.orders.queue-capacity=10")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("poolpilot.listeners.orders.queue-capacity"));
	}

	@Test
	void offWithOneKey() {
		this.runner.withPropertyValues("poolpilot.listeners.enabled=false")
			.run((context) -> assertThat(context.getBean(PoolRegistry.class).get("orders")).isNull());
	}

	@Test
	void thePoolLeavesTheRegistryWhenTheApplicationStops() {
		this.runner.run((context) -> {
			PoolRegistry registry = context.getBean(PoolRegistry.class);
			assertThat(registry.get("orders")).isNotNull();
			context.close();
			assertThat(registry.get("orders")).isNull();
		});
	}

	private static ManagedPool pool(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		ManagedPool pool = context.getBean(PoolRegistry.class).get("orders");
		assertThat(pool).isNotNull();
		return pool;
	}

	@Configuration(proxyBeanMethods = false)
	static class Containers {

		static final MessageListener LISTENER = (message) -> {
		};

		@Bean
		SimpleMessageListenerContainer orders() {
			SimpleMessageListenerContainer container = container();
			container.setConcurrentConsumers(2);
			container.setMaxConcurrentConsumers(5);
			return container;
		}

		static SimpleMessageListenerContainer container() {
			SimpleMessageListenerContainer container = new SimpleMessageListenerContainer(
					new CachingConnectionFactory("127.0.0.1"));
			container.setQueueNames("orders");
			container.setMessageListener(LISTENER);
			container.setAutoStartup(false);
			return container;
		}

	}

}
