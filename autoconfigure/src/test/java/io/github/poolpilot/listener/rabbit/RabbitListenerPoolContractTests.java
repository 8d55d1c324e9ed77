package io.github.poolpilot.listener.rabbit;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import io.github.poolpilot.listener.HandledOrders;
import io.github.poolpilot.listener.ThreadpoolsClient;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.Draw;
import io.github.poolpilot.testsupport.Seeds;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.annotation.EnableRabbit;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.RabbitListenerEndpointRegistry;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The contract of a RabbitMQ listener's consumers as a managed pool, against the broker
 * on 127.0.0.1:5672 (guest/guest; a test fails, never skips, without it): listed and
 * measured per message with the broker's queue depth as its queue, resized by a POST to
 * the endpoint within its bounds and the budget, and no message lost or handled twice
 * when its consumers are resized or the application stops.
 *
 * @author poolpilot authors
 */
class RabbitListenerPoolContractTests {

	private static final String BROKER = "127.0.0.1";

	private final ThreadpoolsClient endpoint = new ThreadpoolsClient("orders");

	private final String queue = "poolpilot-orders-" + UUID.randomUUID();

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	@AfterEach
	void closeAndDeleteTheQueue() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
		CachingConnectionFactory connectionFactory = connectionFactory();
		try {
			new RabbitAdmin(connectionFactory).deleteQueue(this.queue);
		}
		finally {
			connectionFactory.destroy();
		}
	}

	@Test
	void theListenerIsAPoolMeasuredPerMessageWithTheBrokersQueueDepthAsItsQueue() throws Exception {
		ConfigurableApplicationContext context = start();
		Orders orders = context.getBean(Orders.class);
		orders.gate = new CountDownLatch(1);
		publish(context, 0, 30);
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			JsonNode pool = this.endpoint.pool();
			assertThat(pool.path("activeCount").asInt()).isEqualTo(1);
			// One message is with the listener, at most one more in its prefetch.
			assertThat(pool.path("queueSize").asInt()).isBetween(28, 29);
		});
		JsonNode listed = this.endpoint.get("/actuator/threadpools").path("pools").path("orders");
		assertThat(listed.path("poolSize").asInt()).isEqualTo(1);
		assertThat(listed.path("maxThreads").asInt()).isEqualTo(4);
		// The broker's queue, whose capacity the pool does not know.
		assertThat(listed.path("queueAt").asString()).isEqualTo("broker");
		assertThat(listed.path("queueCapacity").asInt()).isZero();
		orders.gate.countDown();
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
			JsonNode pool = this.endpoint.pool();
			assertThat(pool.path("completedTasks").asLong()).isEqualTo(30);
			assertThat(pool.path("queueSize").asInt()).isZero();
		});
		ManagedPool pool = context.getBean(PoolRegistry.class).get("orders");
		assertThat(pool).isNotNull();
		assertThat(pool.getRecorder().taskCounts().submitted()).isEqualTo(30);
		// Its meters, as every managed pool's, though it joined the registry when the
		// container started, after the meters were bound.
		MeterRegistry meters = context.getBean(MeterRegistry.class);
		assertThat(meters.get("executor.execution").tag("name", "orders").timer().count()).isPositive();
		assertThat(meters.get("executor.rejected").tag("name", "orders").tag("reason", "queue_full").functionCounter())
			.isNotNull();
		// The tuner may have grown the pool meanwhile: its size, within its bounds.
		assertThat(meters.get("executor.tuning.target").tag("name", "orders").gauge().value()).isBetween(1.0, 4.0);
		orders.serviceMillis = 20;
		publish(context, 30, 40);
		await().atMost(Duration.ofSeconds(20))
			.untilAsserted(
					() -> assertThat(this.endpoint.pool().path("littlesLaw").path("meanServiceTimeMs").asDouble())
						.isGreaterThanOrEqualTo(19));
	}

	@Test
	void aPostResizesTheConsumersWithinTheBoundsAndTheBudget() throws Exception {
		ConfigurableApplicationContext context = start();
		SimpleMessageListenerContainer container = container(context);
		HttpResponse<String> grown = this.endpoint.post("{\"corePoolSize\":3,\"maxPoolSize\":3}");
		assertThat(grown.statusCode()).as(grown.body()).isEqualTo(200);
		await().atMost(Duration.ofSeconds(20)).until(container::getActiveConsumerCount, (live) -> live == 3);
		assertThat(this.endpoint.pool().path("poolSize").asInt()).isEqualTo(3);
		assertThat(this.endpoint.pool().path("tuning").path("mode").asString()).isEqualTo("manual");
		HttpResponse<String> aboveMax = this.endpoint.post("{\"corePoolSize\":5,\"maxPoolSize\":5}");
		assertThat(aboveMax.statusCode()).isEqualTo(400);
		assertThat(aboveMax.body()).contains("max-threads 4");
		HttpResponse<String> overBudget = this.endpoint.post("{\"corePoolSize\":4,\"maxPoolSize\":4}");
		assertThat(overBudget.statusCode()).isEqualTo(400);
		assertThat(overBudget.body()).contains("budget");
		assertThat(container.getActiveConsumerCount()).isEqualTo(3);
		HttpResponse<String> shrunk = this.endpoint.post("{\"corePoolSize\":1,\"maxPoolSize\":1}");
		assertThat(shrunk.statusCode()).as(shrunk.body()).isEqualTo(200);
		await().atMost(Duration.ofSeconds(20)).until(container::getActiveConsumerCount, (live) -> live == 1);
		assertThat(this.endpoint.get("/actuator/threadpools").path("budget").path("liveThreads").asInt()).isEqualTo(1);
	}

	static LongStream seeds() {
		return Seeds.first(2);
	}

	@ParameterizedTest(name = "seed {0}")
	@MethodSource("seeds")
	void resizesWhileMessagesFlowLoseNoneAndHandleNoneTwice(long seed) throws Exception {
		Draw draw = new Draw(seed);
		int messages = draw.between(300, 600);
		ConfigurableApplicationContext context = start();
		Orders orders = context.getBean(Orders.class);
		orders.serviceMillis = draw.between(1, 4);
		SimpleMessageListenerContainer container = container(context);
		PoolRegistry registry = context.getBean(PoolRegistry.class);
		publish(context, 0, messages);
		List<Integer> sizes = new ArrayList<>();
		int maxLive = 0;
		int removals = 0;
		int previous = 1;
		Set<Integer> consumersWhileFlowing = new HashSet<>();
		while (orders.handled.size() < messages && sizes.size() < 200) {
			int size = draw.between(1, 3);
			sizes.add(size);
			removals += Math.max(0, previous - size);
			previous = size;
			HttpResponse<String> resized = this.endpoint
				.post("{\"corePoolSize\":" + size + ",\"maxPoolSize\":" + size + "}");
			assertThat(resized.statusCode()).as(resized.body()).isEqualTo(200);
			maxLive = Math.max(maxLive, registry.budget().liveThreads());
			Thread.sleep(draw.between(5, 60));
			if (orders.handled.size() < messages) {
				consumersWhileFlowing.add(container.getActiveConsumerCount());
			}
		}
		int live = maxLive;
		int removed = removals;
		Seeds.check(seed, "-Dtest=RabbitListenerPoolContractTests", () -> {
			await().atMost(Duration.ofSeconds(30)).until(() -> orders.handled.size() == messages);
			assertThat(orders.handled).hasSize(messages).allSatisfy((id, times) -> assertThat(times.get()).isOne());
			// A consumer removed may hold one delivery it had not handled (prefetch 1):
			// the broker takes it back and delivers it again, to another consumer.
			assertThat(orders.redelivered.get()).isLessThanOrEqualTo(removed);
			assertThat(live).isLessThanOrEqualTo(3);
			assertThat(consumersWhileFlowing)
				.as("consumers seen while messages were still to handle, of %s asked for", sizes)
				.hasSizeGreaterThan(1);
			await().atMost(Duration.ofSeconds(10)).until(() -> depth() == 0);
			assertThat(container.getActiveConsumerCount()).isBetween(1, 3);
		});
	}

	@Test
	void anApplicationStoppingWhileMessagesFlowLosesNoneAndHandlesNoneTwice() throws Exception {
		int messages = 300;
		ConfigurableApplicationContext context = start();
		Orders orders = context.getBean(Orders.class);
		orders.serviceMillis = 5;
		assertThat(this.endpoint.post("{\"corePoolSize\":3,\"maxPoolSize\":3}").statusCode()).isEqualTo(200);
		PoolRegistry registry = context.getBean(PoolRegistry.class);
		publish(context, 0, messages);
		await().atMost(Duration.ofSeconds(20)).until(() -> orders.handled.size() >= 50);
		context.close();
		assertThat(registry.get("orders")).isNull();
		Set<String> left = drain();
		Set<String> handled = new HashSet<>(orders.handled.keySet());
		assertThat(orders.handled).allSatisfy((id, times) -> assertThat(times.get()).isOne());
		assertThat(handled).doesNotContainAnyElementsOf(left);
		Set<String> all = new HashSet<>(handled);
		all.addAll(left);
		assertThat(all).hasSize(messages);
		assertThat(handled.size()).isLessThan(messages);
	}

	private ConfigurableApplicationContext start() {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ListenerApplication.class)
			.properties("server.port=0", "spring.main.banner-mode=off", "test.queue=" + this.queue,
					"poolpilot.listeners.orders.max-threads=4", "poolpilot.budget.max-threads=3",
					"poolpilot.existing-executors.enabled=false",
					// Spring Boot's gRPC health check, on this module's test classpath,
					// brings a task scheduler, which would share the budget of 3.
					"poolpilot.scheduler.enabled=false", "management.endpoints.web.exposure.include=threadpools",
					"management.endpoint.threadpools.access=unrestricted")
			.run();
		this.contexts.add(context);
		this.endpoint.connect(context);
		return context;
	}

	private static SimpleMessageListenerContainer container(ConfigurableApplicationContext context) {
		// Neither getListenerContainer(String) nor a stream of the containers: the type
		// of the registry's containers moved between Spring AMQP 4.0 and 4.1, and the
		// compatibility run on Spring Boot 4.0 runs these classes too. A wildcard
		// collection names no such type.
		Collection<?> containers = context.getBean(RabbitListenerEndpointRegistry.class).getListenerContainers();
		for (Object container : containers) {
			if (container instanceof SimpleMessageListenerContainer simple && "orders".equals(simple.getListenerId())) {
				return simple;
			}
		}
		throw new IllegalStateException("No listener container 'orders' in " + containers);
	}

	private void publish(ConfigurableApplicationContext context, int from, int to) {
		RabbitTemplate template = context.getBean(RabbitTemplate.class);
		IntStream.range(from, to).forEach((id) -> template.convertAndSend("", this.queue, "order-" + id));
	}

	private int depth() {
		CachingConnectionFactory connectionFactory = connectionFactory();
		try {
			Object count = new RabbitAdmin(connectionFactory).getQueueProperties(this.queue)
				.get(RabbitAdmin.QUEUE_MESSAGE_COUNT);
			return ((Number) count).intValue();
		}
		finally {
			connectionFactory.destroy();
		}
	}

	private Set<String> drain() {
		CachingConnectionFactory connectionFactory = connectionFactory();
		try {
			RabbitTemplate template = new RabbitTemplate(connectionFactory);
			Set<String> left = new HashSet<>();
			Message message;
			while ((message = template.receive(this.queue)) != null) {
				assertThat(left.add(new String(message.getBody(), StandardCharsets.UTF_8))).isTrue();
			}
			return left;
		}
		finally {
			connectionFactory.destroy();
		}
	}

	private static CachingConnectionFactory connectionFactory() {
		CachingConnectionFactory connectionFactory = new CachingConnectionFactory(BROKER, 5672);
		connectionFactory.setUsername("guest");
		connectionFactory.setPassword("guest");
		return connectionFactory;
	}

	/**
	 * An application with a {@code @RabbitListener}, its container factory made as Spring
	 * Boot's {@code spring.rabbitmq.listener.simple.*} makes it (prefetch 1, one
	 * consumer), declared here so that the other tests of this module do not get Spring
	 * Boot's RabbitMQ auto-configuration.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableRabbit
	static class ListenerApplication {

		@Bean(destroyMethod = "destroy")
		CachingConnectionFactory rabbitConnectionFactory() {
			return connectionFactory();
		}

		@Bean
		SimpleRabbitListenerContainerFactory rabbitListenerContainerFactory(ConnectionFactory connectionFactory) {
			SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
			factory.setConnectionFactory(connectionFactory);
			factory.setPrefetchCount(1);
			factory.setConcurrentConsumers(1);
			return factory;
		}

		@Bean
		RabbitTemplate rabbitTemplate(ConnectionFactory connectionFactory) {
			return new RabbitTemplate(connectionFactory);
		}

		@Bean
		RabbitAdmin rabbitAdmin(ConnectionFactory connectionFactory) {
			return new RabbitAdmin(connectionFactory);
		}

		@Bean
		Queue ordersQueue(@Value("${test.queue}") String name) {
			return new Queue(name, false, false, false);
		}

		@Bean
		Orders orders() {
			return new Orders();
		}

	}

	static class Orders extends HandledOrders {

		final AtomicInteger redelivered = new AtomicInteger();

		@RabbitListener(id = "orders", queues = "${test.queue}")
		void onOrder(Message message) throws InterruptedException {
			serve();
			if (Boolean.TRUE.equals(message.getMessageProperties().getRedelivered())) {
				this.redelivered.incrementAndGet();
			}
			count(new String(message.getBody(), StandardCharsets.UTF_8));
		}

	}

}
