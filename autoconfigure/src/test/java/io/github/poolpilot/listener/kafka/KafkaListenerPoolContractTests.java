package io.github.poolpilot.listener.kafka;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.stream.LongStream;

import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import io.github.poolpilot.listener.HandledOrders;
import io.github.poolpilot.listener.ThreadpoolsClient;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.pool.Restarts;
import io.github.poolpilot.tuning.Decision;
import io.github.poolpilot.tuning.Tuner;
import io.github.poolpilot.testsupport.Draw;
import io.github.poolpilot.testsupport.Seeds;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.annotation.EnableKafka;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.ContainerProperties.AckMode;
import org.springframework.kafka.listener.MessageListener;
import org.springframework.kafka.support.TopicPartitionOffset;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The contract of a Kafka listener's consumers as a managed pool, on spring-kafka-test's
 * embedded KRaft broker (one for the class, a topic of three partitions and a group for
 * each test): listed and measured per record with the group's lag as its queue, its
 * concurrency resized by a POST through the container's restart up to the partitions of
 * its topic and not beyond, within the budget, and no record lost or handled twice when
 * its consumers restart or the application stops.
 * <p>
 * The listener's container commits each record's offset, synchronously, once the listener
 * returned ({@code AckMode.RECORD}, {@code enable.auto.commit=false}), and a consumer
 * that stops finishes the records it polled: so every record is handled exactly once
 * across restarts and a stop, which the tests assert; only a consumer that dies (not a
 * restart) could have a record handled twice.
 *
 * @author poolpilot authors
 */
class KafkaListenerPoolContractTests {

	private static final int PARTITIONS = 3;

	private static EmbeddedKafkaKraftBroker broker;

	private final ThreadpoolsClient endpoint = new ThreadpoolsClient("orders");

	private final String topic = "poolpilot-orders-" + UUID.randomUUID();

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	@BeforeAll
	static void startTheBroker() {
		broker = new EmbeddedKafkaKraftBroker(1, PARTITIONS);
		broker.afterPropertiesSet();
	}

	@AfterAll
	static void stopTheBroker() {
		broker.destroy();
	}

	@AfterEach
	void close() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void theListenerIsAPoolMeasuredPerRecordWithTheGroupsLagAsItsQueue() throws Exception {
		ConfigurableApplicationContext context = start();
		Orders orders = context.getBean(Orders.class);
		orders.gate = new CountDownLatch(1);
		publish(context, 0, 30);
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			JsonNode pool = this.endpoint.pool();
			assertThat(pool.path("activeCount").asInt()).isEqualTo(1);
			// Nothing committed yet: every record is owed, the one being handled too.
			assertThat(pool.path("queueSize").asInt()).isEqualTo(30);
		});
		JsonNode listed = this.endpoint.get("/actuator/threadpools").path("pools").path("orders");
		assertThat(listed.path("poolSize").asInt()).isEqualTo(1);
		assertThat(listed.path("restarts").path("count").asLong()).isZero();
		assertThat(listed.path("restarts").path("lastCostMs").asLong()).isEqualTo(-1);
		assertThat(listed.path("maxThreads").asInt()).isEqualTo(5);
		orders.gate.countDown();
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			JsonNode pool = this.endpoint.pool();
			assertThat(pool.path("completedTasks").asLong()).isEqualTo(30);
			assertThat(pool.path("queueSize").asInt()).isZero();
		});
		ManagedPool pool = context.getBean(PoolRegistry.class).get("orders");
		assertThat(pool).isNotNull();
		assertThat(pool.getRecorder().taskCounts().submitted()).isEqualTo(30);
		orders.serviceMillis = 20;
		publish(context, 30, 70);
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(
					() -> assertThat(this.endpoint.pool().path("littlesLaw").path("meanServiceTimeMs").asDouble())
						.isGreaterThanOrEqualTo(19));
	}

	@Test
	void aPostRestartsTheConsumersUpToThePartitionsAndNotBeyond() throws Exception {
		ConfigurableApplicationContext context = start();
		ConcurrentMessageListenerContainer<?, ?> container = container(context);
		ManagedPool pool = context.getBean(PoolRegistry.class).get("orders");
		assertThat(pool).isNotNull();
		// The partitions are read once the container runs.
		await().atMost(Duration.ofSeconds(30)).until(pool::ceiling, (ceiling) -> ceiling == PARTITIONS);
		HttpResponse<String> grown = this.endpoint.post("{\"corePoolSize\":3,\"maxPoolSize\":3}");
		assertThat(grown.statusCode()).as(grown.body()).isEqualTo(200);
		KafkaConsumers consumers = (KafkaConsumers) pool.getExecutor();
		await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
			assertThat(container.getConcurrency()).isEqualTo(3);
			assertThat(container.getAssignmentsByClientId().values()).hasSize(3)
				.allSatisfy((assigned) -> assertThat(assigned).hasSize(1));
			assertThat(pool.liveThreads()).isEqualTo(3);
			// The restart's cost is known once the last consumer's rebalance listener
			// ran.
			assertThat(consumers.lastRestartCost()).isNotNull();
		});
		// The restart was measured, and the pool settles for a while after it.
		assertThat(consumers.lastRestartCost()).isPositive();
		assertThat(pool.settling()).isNotNull();
		JsonNode restarts = this.endpoint.pool().path("restarts");
		assertThat(restarts.path("count").asLong()).isOne();
		assertThat(restarts.path("lastCostMs").asLong()).isEqualTo(consumers.lastRestartCost().toMillis());
		assertThat(restarts.path("settlingMs").asLong()).isPositive();
		HttpResponse<String> beyond = this.endpoint.post("{\"corePoolSize\":4,\"maxPoolSize\":4}");
		assertThat(beyond.statusCode()).isEqualTo(400);
		assertThat(beyond.body()).contains("above the 3 partitions of its topics");
		assertThat(container.getConcurrency()).isEqualTo(3);
		HttpResponse<String> shrunk = this.endpoint.post("{\"corePoolSize\":1,\"maxPoolSize\":1}");
		assertThat(shrunk.statusCode()).as(shrunk.body()).isEqualTo(200);
		await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
			assertThat(container.getConcurrency()).isEqualTo(1);
			assertThat(container.getAssignedPartitions()).hasSize(PARTITIONS);
			assertThat(pool.liveThreads()).isEqualTo(1);
		});
		assertThat(this.endpoint.get("/actuator/threadpools").path("budget").path("liveThreads").asInt()).isEqualTo(1);
	}

	static LongStream seeds() {
		return Seeds.first(2);
	}

	@ParameterizedTest(name = "seed {0}")
	@MethodSource("seeds")
	void restartsWhileRecordsFlowLoseNoneAndHandleNoneTwice(long seed) throws Exception {
		Draw draw = new Draw(seed);
		int records = draw.between(300, 600);
		ConfigurableApplicationContext context = start();
		Orders orders = context.getBean(Orders.class);
		orders.serviceMillis = draw.between(2, 6);
		PoolRegistry registry = context.getBean(PoolRegistry.class);
		ConcurrentMessageListenerContainer<?, ?> container = container(context);
		publish(context, 0, records);
		List<Integer> sizes = new ArrayList<>();
		int maxLive = 0;
		int concurrency = container.getConcurrency();
		int asked = concurrency;
		int changesWhileFlowing = 0;
		while (orders.handled.size() < records && sizes.size() < 6) {
			// Another size than the last asked for, so that each resize restarts.
			int size = 1 + (asked - 1 + draw.between(1, 2)) % 3;
			asked = size;
			sizes.add(size);
			HttpResponse<String> resized = this.endpoint
				.post("{\"corePoolSize\":" + size + ",\"maxPoolSize\":" + size + "}");
			assertThat(resized.statusCode()).as(resized.body()).isEqualTo(200);
			long until = System.nanoTime() + Duration.ofMillis(draw.between(100, 700)).toNanos();
			while (System.nanoTime() < until) {
				maxLive = Math.max(maxLive, registry.budget().liveThreads());
				if (container.getConcurrency() != concurrency && orders.handled.size() < records) {
					changesWhileFlowing++;
				}
				concurrency = container.getConcurrency();
				Thread.sleep(10);
			}
		}
		int live = maxLive;
		int restarts = changesWhileFlowing;
		Seeds.check(seed, "-Dtest=KafkaListenerPoolContractTests", () -> {
			await().atMost(Duration.ofSeconds(60)).until(() -> orders.handled.size() == records);
			assertThat(orders.handled).hasSize(records).allSatisfy((id, times) -> assertThat(times.get()).isOne());
			assertThat(live).isLessThanOrEqualTo(3);
			assertThat(restarts).as("restarts seen while records were still to handle, of %s asked for", sizes)
				.isPositive();
		});
	}

	@Test
	void anApplicationStoppingWhileRecordsFlowLosesNoneAndHandlesNoneTwice() throws Exception {
		int records = 300;
		ConfigurableApplicationContext context = start();
		Orders orders = context.getBean(Orders.class);
		orders.serviceMillis = 10;
		assertThat(this.endpoint.post("{\"corePoolSize\":3,\"maxPoolSize\":3}").statusCode()).isEqualTo(200);
		ConcurrentMessageListenerContainer<?, ?> container = container(context);
		// Three consumers with a partition each: the group settled. Three consumers alone
		// may still wait for a rebalance, which can outlast the wait for records below.
		await().atMost(Duration.ofSeconds(60))
			.untilAsserted(() -> assertThat(container.getAssignmentsByClientId().values()).hasSize(3)
				.allSatisfy((assigned) -> assertThat(assigned).hasSize(1)));
		PoolRegistry registry = context.getBean(PoolRegistry.class);
		publish(context, 0, records);
		await().atMost(Duration.ofSeconds(30)).until(() -> orders.handled.size() >= 50);
		context.close();
		assertThat(registry.get("orders")).isNull();
		Set<String> handled = new HashSet<>(orders.handled.keySet());
		assertThat(orders.handled).allSatisfy((id, times) -> assertThat(times.get()).isOne());
		Set<String> left = rest(records - handled.size());
		assertThat(left).doesNotContainAnyElementsOf(handled);
		Set<String> all = new HashSet<>(handled);
		all.addAll(left);
		assertThat(all).hasSize(records);
		assertThat(handled.size()).isLessThan(records);
	}

	/**
	 * A listener given its partitions ({@code topicPartitions}) assigns them itself, with
	 * no rebalance and so no call of its rebalance listener: its restart is done once the
	 * new consumers started, not after the wait for assignments times out.
	 */
	@Test
	void aRestartOfAListenerGivenItsPartitionsIsDoneWithoutWaitingForARebalance() {
		broker.addTopics(new NewTopic(this.topic, PARTITIONS, (short) 1));
		ContainerProperties properties = new ContainerProperties(new TopicPartitionOffset(this.topic, 0),
				new TopicPartitionOffset(this.topic, 1), new TopicPartitionOffset(this.topic, 2));
		properties.setMessageListener((MessageListener<String, String>) (record) -> {
		});
		ConcurrentMessageListenerContainer<String, String> container = new ConcurrentMessageListenerContainer<>(
				new DefaultKafkaConsumerFactory<>(consumerConfig(broker.getBrokersAsString(), group(this.topic))),
				properties);
		ConcurrencyRestarts restarts = new ConcurrencyRestarts(container, "orders", 1, Duration.ofSeconds(1));
		container.start();
		try {
			assertThat(restarts.concurrency(2)).isEqualTo(ConcurrencyOutcome.RESTARTING);
			await().atMost(ContainerStarts.ASSIGNMENT_TIMEOUT.plusSeconds(60))
				.until(restarts::restarts, (count) -> count == 1);
			assertThat(container.getConcurrency()).isEqualTo(2);
			assertThat(container.isRunning()).isTrue();
			assertThat(restarts.lastCost()).isLessThan(ContainerStarts.ASSIGNMENT_TIMEOUT);
		}
		finally {
			restarts.close();
		}
	}

	private ConfigurableApplicationContext start(String... properties) {
		broker.addTopics(new NewTopic(this.topic, PARTITIONS, (short) 1));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ListenerApplication.class)
			.properties("server.port=0", "spring.main.banner-mode=off", "test.topic=" + this.topic,
					"test.brokers=" + broker.getBrokersAsString(), "poolpilot.listeners.orders.max-threads=5",
					"poolpilot.budget.max-threads=3", "poolpilot.existing-executors.enabled=false",
					// Spring Boot's gRPC health check, on this module's test classpath,
					// brings a task scheduler, which would share the budget of 3.
					"poolpilot.scheduler.enabled=false", "poolpilot.tuning.enabled=false",
					"management.endpoints.web.exposure.include=threadpools",
					"management.endpoint.threadpools.access=unrestricted")
			.properties(properties)
			.run();
		this.contexts.add(context);
		this.endpoint.connect(context);
		return context;
	}

	@Test
	void theTunerGrowsTheConsumersWithinThePartitionsAndChangesThemNoFasterThanTheySettle() throws Exception {
		int records = 3000;
		// Offsets committed once a poll's records are handled, 100 a poll: the consumer
		// thread's time is nearly all the listener's, which is what the tuner reads.
		ConfigurableApplicationContext context = start("poolpilot.tuning.enabled=true",
				"poolpilot.listeners.settle-factor=3", "test.ack-mode=BATCH", "test.max-poll-records=500");
		Orders orders = context.getBean(Orders.class);
		orders.serviceMillis = 10;
		ConcurrentMessageListenerContainer<?, ?> container = container(context);
		ManagedPool pool = context.getBean(PoolRegistry.class).get("orders");
		assertThat(pool).isNotNull();
		KafkaConsumers consumers = (KafkaConsumers) pool.getExecutor();
		publish(context, 0, records);
		Tuner tuner = context.getBean(Tuner.class);
		Set<String> held = new HashSet<>();
		int most = 0;
		List<long[]> restarts = new ArrayList<>();
		long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
		while (orders.handled.size() < records && System.nanoTime() < deadline) {
			most = Math.max(most, container.getConcurrency());
			Restarts now = consumers.restarts();
			if (now.count() > restarts.size()) {
				restarts.add(new long[] { System.nanoTime(), now.lastCost().toNanos() });
			}
			Decision decision = tuner.state("orders").getLastDecision();
			if (decision != null && decision.cause() instanceof Decision.Cause.Settling) {
				held.add(decision.reason());
			}
			Thread.sleep(20);
		}
		// Grown from one under the flood, never beyond the partitions (how far it grows
		// before the flood drains depends on the machine).
		assertThat(most).as("the most consumers").isBetween(2, PARTITIONS);
		assertThat(restarts).isNotEmpty();
		assertThat(held).as("the tuner's holds while the consumers settled")
			.anySatisfy((reason) -> assertThat(reason).startsWith("hold: settling after a resize that took"));
		assertThat(orders.handled).hasSize(records).allSatisfy((id, times) -> assertThat(times.get()).isOne());
		// A restart ends its predecessor's settling at the earliest: 3 times its cost,
		// at least two windows (each seen within the 20 ms the loop sleeps).
		for (int i = 1; i < restarts.size(); i++) {
			long settle = Math.max(3 * restarts.get(i - 1)[1], Duration.ofSeconds(2).toNanos());
			assertThat(restarts.get(i)[0] - restarts.get(i - 1)[0])
				.as("nanoseconds between restarts %d and %d", i, i + 1)
				.isGreaterThanOrEqualTo(settle - Duration.ofMillis(50).toNanos());
		}
	}

	private static ConcurrentMessageListenerContainer<?, ?> container(ConfigurableApplicationContext context) {
		return context.getBean(KafkaListenerEndpointRegistry.class)
			.getListenerContainers()
			.stream()
			.map(ConcurrentMessageListenerContainer.class::cast)
			.filter((container) -> "orders".equals(container.getListenerId()))
			.findFirst()
			.orElseThrow();
	}

	@SuppressWarnings("unchecked")
	private void publish(ConfigurableApplicationContext context, int from, int to) {
		KafkaTemplate<String, String> template = context.getBean(KafkaTemplate.class);
		for (int id = from; id < to; id++) {
			template.send(this.topic, "order-" + id, "order-" + id);
		}
		template.flush();
	}

	/**
	 * The records the group had not committed, read from its committed offsets by a
	 * consumer that is given every partition rather than joining the group: a member of
	 * the stopped application that did not leave it would hold a rebalance up for as long
	 * as its session lasts, longer than the reading waits.
	 */
	private Set<String> rest(int expected) {
		Set<String> left = new HashSet<>();
		try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
				consumerConfig(broker.getBrokersAsString(), group(this.topic)))) {
			List<TopicPartition> partitions = consumer.partitionsFor(this.topic)
				.stream()
				.map((partition) -> new TopicPartition(partition.topic(), partition.partition()))
				.toList();
			consumer.assign(partitions);
			Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(new HashSet<>(partitions));
			for (TopicPartition partition : partitions) {
				OffsetAndMetadata offset = committed.get(partition);
				if (offset != null) {
					consumer.seek(partition, offset.offset());
				}
				else {
					consumer.seekToBeginning(List.of(partition));
				}
			}
			long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
			while (left.size() < expected && System.nanoTime() < deadline) {
				read(consumer, left);
			}
			// A second more: a record handled and yet not committed would show here.
			long more = System.nanoTime() + Duration.ofSeconds(1).toNanos();
			while (System.nanoTime() < more) {
				read(consumer, left);
			}
		}
		return left;
	}

	private static void read(KafkaConsumer<String, String> consumer, Set<String> left) {
		for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
			assertThat(left.add(record.value())).as("read twice: " + record.value()).isTrue();
		}
	}

	private static String group(String topic) {
		return topic + "-group";
	}

	private static Map<String, Object> consumerConfig(String brokers, String group) {
		return Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers, ConsumerConfig.GROUP_ID_CONFIG, group,
				ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
				// A consumer that stops finishes what it polled: few at a time.
				ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10, ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
				StringDeserializer.class, ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
	}

	/**
	 * An application with a {@code @KafkaListener}, its factories made by hand (one
	 * consumer, each record committed once handled), declared here so that the other
	 * tests of this module do not get Spring Boot's Kafka auto-configuration.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableKafka
	static class ListenerApplication {

		@Bean
		ConsumerFactory<String, String> consumerFactory(@Value("${test.brokers}") String brokers,
				@Value("${test.topic}") String topic, @Value("${test.max-poll-records:10}") int maxPollRecords) {
			Map<String, Object> config = new HashMap<>(consumerConfig(brokers, group(topic)));
			config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, maxPollRecords);
			return new DefaultKafkaConsumerFactory<>(config);
		}

		@Bean
		ConcurrentKafkaListenerContainerFactory<String, String> kafkaListenerContainerFactory(
				ConsumerFactory<String, String> consumerFactory, @Value("${test.ack-mode:RECORD}") AckMode ackMode) {
			ConcurrentKafkaListenerContainerFactory<String, String> factory = new ConcurrentKafkaListenerContainerFactory<>();
			factory.setConsumerFactory(consumerFactory);
			factory.setConcurrency(1);
			factory.getContainerProperties().setAckMode(ackMode);
			return factory;
		}

		/**
		 * A bean, so that its producer is closed with the application.
		 */
		@Bean
		ProducerFactory<String, String> producerFactory(@Value("${test.brokers}") String brokers) {
			return new DefaultKafkaProducerFactory<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers,
					ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
					ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
		}

		@Bean
		KafkaTemplate<String, String> kafkaTemplate(ProducerFactory<String, String> producerFactory) {
			return new KafkaTemplate<>(producerFactory);
		}

		@Bean
		Orders orders() {
			return new Orders();
		}

	}

	static class Orders extends HandledOrders {

		@KafkaListener(id = "orders", idIsGroup = false, topics = "${test.topic}")
		void onOrder(ConsumerRecord<String, String> record) throws InterruptedException {
			serve();
			count(record.value());
		}

	}

}
