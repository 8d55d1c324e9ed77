package io.github.poolpilot.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.poolpilot.listener.ListenerPools;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.tuning.Tuner;
import io.github.poolpilot.tuning.TuningMode;

import org.springframework.amqp.core.MessageListener;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.ContainerProperties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PoolpilotListenersAutoConfiguration}: a listener container bean of
 * either broker (not started, so no broker is needed) becomes a pool named by its bean
 * name, bounded by its own concurrency unless configured, and bad keys fail start-up
 * naming them.
 *
 * @author poolpilot authors
 */
class PoolpilotListenersAutoConfigurationTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(PoolpilotAutoConfiguration.class, PoolpilotListenersAutoConfiguration.class))
		.withUserConfiguration(Containers.class)
		.withPropertyValues("poolpilot.existing-executors.enabled=false");

	private final ApplicationContextRunner kafka = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(PoolpilotAutoConfiguration.class, PoolpilotListenersAutoConfiguration.class))
		.withUserConfiguration(KafkaContainer.class)
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
	@ExtendWith(OutputCaptureExtension.class)
	void keysNamingNoContainerAreWarnedAbout(CapturedOutput output) {
		this.runner
			.withPropertyValues("poolpilot.listeners.ordres.max-threads=8", "poolpilot.listeners.orders.weight=2",
					"poolpilot.listeners.settle-factor=2")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(pool(context).getBounds().maxThreads()).isEqualTo(5);
				assertThat(output)
					.contains("'poolpilot.listeners.ordres' configures no listener container: none "
							+ "has that id or bean name. The listener containers are [orders].")
					.doesNotContain("'poolpilot.listeners.orders' configures")
					.doesNotContain("'poolpilot.listeners.settle-factor' configures");
			});
	}

	/**
	 * A container joins the budget with the sizes its keys give it, not with its own
	 * larger max-concurrency: a budget with room for its max-threads takes it.
	 */
	@Test
	void aContainerWhoseOwnMaxConcurrencyIsAboveItsMaxThreadsJoinsABudgetWithRoomForThem() {
		this.runner.withPropertyValues("poolpilot.budget.max-threads=4", "poolpilot.listeners.orders.max-threads=3")
			.run((context) -> {
				ManagedPool orders = pool(context);
				assertThat(orders.getBounds().maxThreads()).isEqualTo(3);
				assertThat(orders.corePoolSize()).isEqualTo(2);
				assertThat(orders.maxPoolSize()).isEqualTo(2);
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

	/**
	 * A container that keeps its own scaling rule is not handed to the tuner when tuning,
	 * off at start-up, is switched on by a configuration refresh: only pools in auto mode
	 * go off and back.
	 */
	@Test
	void withContainerScalingThePoolStaysManualWhenTuningIsSwitchedOnLater() {
		this.runner.withPropertyValues("poolpilot.listeners.container-scaling=true", "poolpilot.tuning.enabled=false")
			.run((context) -> {
				pool(context);
				TestPropertyValues.of("poolpilot.tuning.enabled=true").applyTo(context);
				context.publishEvent(new EnvironmentChangeEvent(context, Set.of("poolpilot")));
				Tuner tuner = context.getBean(Tuner.class);
				assertThat(tuner.isEnabled()).isTrue();
				assertThat(tuner.state("orders").getMode()).isEqualTo(TuningMode.MANUAL);
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

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			textBlock = """
					poolpilot.listeners.orders.min-threads=0     | poolpilot.listeners.orders.min-threads     | must be at least 1: a listener container keeps at least one consumer
					poolpilot.listeners.orders.initial-threads=9 | poolpilot.listeners.orders.initial-threads | must be between min-threads (2) and max-threads
					poolpilot.listeners.orders.weight=0          | poolpilot.listeners.orders.weight          | must be at least 1
					""")
	void aListenerKeyOutsideWhatIsAllowedFailsStartUpNamingIt(String setting, String key, String allowed) {
		this.runner.withPropertyValues(setting)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("'" + key + "'")
				.hasMessageContaining(allowed));
	}

	/**
	 * Every container's keys are read before any container is sized: one container's bad
	 * key fails start-up with the other's concurrency as it was, whichever comes first.
	 */
	@ParameterizedTest
	@CsvSource({ "payments, refunds", "refunds, payments" })
	void aBadKeyOfOneContainerFailsStartUpBeforeAnyContainerIsSized(String resized, String refused) {
		Map<String, ConcurrentMessageListenerContainer<String, String>> containers = new LinkedHashMap<>();
		ApplicationContextRunner runner = new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(PoolpilotAutoConfiguration.class, PoolpilotListenersAutoConfiguration.class))
			.withPropertyValues("poolpilot.existing-executors.enabled=false",
					"poolpilot.listeners." + resized + ".max-threads=6",
					"poolpilot.listeners." + resized + ".initial-threads=4",
					"poolpilot.listeners." + refused + ".weight=0");
		for (String name : List.of("payments", "refunds")) {
			runner = runner.withBean(name, ConcurrentMessageListenerContainer.class,
					() -> containers.computeIfAbsent(name, KafkaContainer::container));
		}
		runner.run((context) -> {
			assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("'poolpilot.listeners." + refused + ".weight'");
			assertThat(containers).hasSize(2);
			assertThat(containers.get(resized).getConcurrency()).isEqualTo(2);
		});
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
	void aMinThreadsAboveOneForAnExclusiveConsumerFailsStartUpNamingIt() {
		this.runner.withBean("audit", SimpleMessageListenerContainer.class, () -> {
			SimpleMessageListenerContainer container = Containers.container();
			container.setExclusive(true);
			return container;
		})
			.withPropertyValues("poolpilot.listeners.audit.min-threads=2")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("'poolpilot.listeners.audit.min-threads'")
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

	/**
	 * A lifecycle stop and start (as for a checkpoint and restore) manages the container
	 * again with the bounds it was made with, not with the sizes its pool last gave it.
	 */
	@Test
	void aContainerManagedAgainAfterALifecycleStopKeepsTheBoundsItWasMadeWith() {
		this.runner.run((context) -> {
			pool(context).resize(3, 3);
			ListenerPools<?> pools = context.getBean("poolpilotRabbitListenerPools", ListenerPools.class);
			pools.stop();
			assertThat(context.getBean(PoolRegistry.class).get("orders")).isNull();
			pools.start();
			ManagedPool orders = pool(context);
			assertThat(orders.getBounds()).isEqualTo(new PoolBounds(2, 5));
			assertThat(orders.maxPoolSize()).isEqualTo(2);
		});
	}

	@Test
	void aKafkaContainerIsAPoolNamedByItsBeanNameBoundedByItsConcurrencyAndItsListenerIsMeasured() {
		this.kafka.run((context) -> {
			ManagedPool payments = pool(context, "payments");
			assertThat(payments.getBounds().minThreads()).isEqualTo(2);
			assertThat(payments.getBounds().maxThreads()).isEqualTo(2);
			assertThat(payments.corePoolSize()).isEqualTo(2);
			assertThat(payments.maxPoolSize()).isEqualTo(2);
			assertThat(payments.liveThreads()).isZero();
			assertThat(payments.settling()).isNull();
			assertThat(context.getBean(Tuner.class).state("payments").getMode()).isEqualTo(TuningMode.AUTO);
			ConcurrentMessageListenerContainer<?, ?> container = context.getBean("payments",
					ConcurrentMessageListenerContainer.class);
			assertThat(container.getContainerProperties().getMessageListener())
				.isInstanceOf(org.springframework.kafka.listener.MessageListener.class)
				.isNotSameAs(KafkaContainer.LISTENER);
			assertThat(container.getContainerProperties().getConsumerRebalanceListener())
				.isInstanceOf(ConsumerAwareRebalanceListener.class);
		});
	}

	@Test
	void aKafkaContainersConcurrencyIsSetFromItsKeysBeforeItStarts() {
		this.kafka
			.withPropertyValues("poolpilot.listeners.payments.max-threads=6",
					"poolpilot.listeners.payments.initial-threads=4", "poolpilot.listeners.container-scaling=true")
			.run((context) -> {
				ManagedPool payments = pool(context, "payments");
				assertThat(payments.getBounds().maxThreads()).isEqualTo(6);
				assertThat(payments.maxPoolSize()).isEqualTo(4);
				assertThat(context.getBean("payments", ConcurrentMessageListenerContainer.class).getConcurrency())
					.isEqualTo(4);
				// A Kafka container has no scaling rule of its own to keep: the tuner
				// sizes it.
				assertThat(context.getBean(Tuner.class).state("payments").getMode()).isEqualTo(TuningMode.AUTO);
			});
	}

	@Test
	void aKafkaResizeBeforeTheContainerStartsSetsItsConcurrency() {
		this.kafka.withPropertyValues("poolpilot.listeners.payments.max-threads=6").run((context) -> {
			ManagedPool payments = pool(context, "payments");
			payments.resize(5, 5);
			assertThat(context.getBean("payments", ConcurrentMessageListenerContainer.class).getConcurrency())
				.isEqualTo(5);
			assertThat(payments.maxPoolSize()).isEqualTo(5);
		});
	}

	@Test
	void aBadSettleFactorFailsStartUpNamingIt() {
		this.kafka.withPropertyValues("poolpilot.listeners.settle-factor=-1")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("'poolpilot.listeners.settle-factor'")
				.hasMessageContaining("must be at least 0"));
	}

	@Test
	void kafkaListenersAreOffWithTheSameKey() {
		this.kafka.withPropertyValues("poolpilot.listeners.enabled=false")
			.run((context) -> assertThat(context.getBean(PoolRegistry.class).get("payments")).isNull());
	}

	private static ManagedPool pool(AssertableApplicationContext context) {
		return pool(context, "orders");
	}

	private static ManagedPool pool(AssertableApplicationContext context, String name) {
		assertThat(context).hasNotFailed();
		ManagedPool pool = context.getBean(PoolRegistry.class).get(name);
		assertThat(pool).isNotNull();
		return pool;
	}

	/**
	 * A Kafka listener container bean that is never started, so no broker is needed.
	 */
	@Configuration(proxyBeanMethods = false)
	static class KafkaContainer {

		static final org.springframework.kafka.listener.MessageListener<String, String> LISTENER = (record) -> {
		};

		@Bean
		ConcurrentMessageListenerContainer<String, String> payments() {
			return container("payments");
		}

		static ConcurrentMessageListenerContainer<String, String> container(String topic) {
			ContainerProperties properties = new ContainerProperties(topic);
			properties.setGroupId(topic);
			properties.setMessageListener(LISTENER);
			ConcurrentMessageListenerContainer<String, String> container = new ConcurrentMessageListenerContainer<>(
					new DefaultKafkaConsumerFactory<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9",
							ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
							ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class)),
					properties);
			container.setConcurrency(2);
			container.setAutoStartup(false);
			return container;
		}

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
