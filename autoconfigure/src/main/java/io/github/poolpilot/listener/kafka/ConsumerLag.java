package io.github.poolpilot.listener.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.PropertyAccessorFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.support.TopicPartitionOffset;

/**
 * Reads, through Kafka's {@link Admin} client (made with the connection settings of the
 * container's consumers), the partitions of the container's topics and its group's lag:
 * for each partition, its end offset less the group's committed offset, summed. A
 * partition the group never committed counts from its earliest offset when the consumers
 * start there ({@code auto.offset.reset=earliest}), else not at all. Records fetched by a
 * consumer and not yet committed count as lag: the lag is what the group still owes.
 *
 * @author poolpilot authors
 */
final class ConsumerLag implements AutoCloseable {

	private static final long TIMEOUT_SECONDS = 10;

	private final ConcurrentMessageListenerContainer<?, ?> container;

	private final String name;

	private @Nullable Admin admin;

	ConsumerLag(ConcurrentMessageListenerContainer<?, ?> container, String name) {
		this.container = container;
		this.name = name;
	}

	/**
	 * Read the partitions of the container's topics and its group's lag.
	 * @return what was read
	 * @throws IllegalStateException when the brokers could not tell
	 */
	synchronized Reading read() {
		Admin admin = admin();
		Set<TopicPartition> partitions = partitions(admin);
		String group = this.container.getGroupId();
		if (group == null || partitions.isEmpty()) {
			return new Reading(partitions.size(), -1);
		}
		Map<TopicPartition, OffsetAndMetadata> committed = get(
				admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
		Map<TopicPartition, Long> ends = offsets(admin, partitions, OffsetSpec.latest());
		Set<TopicPartition> uncommitted = new LinkedHashSet<>();
		for (TopicPartition partition : partitions) {
			if (committed.get(partition) == null) {
				uncommitted.add(partition);
			}
		}
		Map<TopicPartition, Long> starts = (startsAtEarliest() && !uncommitted.isEmpty())
				? offsets(admin, uncommitted, OffsetSpec.earliest()) : Map.of();
		long lag = 0;
		for (TopicPartition partition : partitions) {
			OffsetAndMetadata commit = committed.get(partition);
			Long from = (commit != null) ? Long.valueOf(commit.offset()) : starts.get(partition);
			Long end = ends.get(partition);
			if (from != null && end != null) {
				lag += Math.max(0, end - from);
			}
		}
		return new Reading(partitions.size(), lag);
	}

	private Set<TopicPartition> partitions(Admin admin) {
		ContainerProperties properties = this.container.getContainerProperties();
		Set<TopicPartition> partitions = new LinkedHashSet<>();
		TopicPartitionOffset[] assigned = properties.getTopicPartitions();
		if (assigned != null) {
			for (TopicPartitionOffset partition : assigned) {
				partitions.add(new TopicPartition(partition.getTopic(), partition.getPartition()));
			}
			return partitions;
		}
		Collection<String> topics = topics(admin, properties);
		if (topics.isEmpty()) {
			return partitions;
		}
		for (TopicDescription topic : get(admin.describeTopics(topics).allTopicNames()).values()) {
			topic.partitions()
				.forEach((partition) -> partitions.add(new TopicPartition(topic.name(), partition.partition())));
		}
		return partitions;
	}

	private static Collection<String> topics(Admin admin, ContainerProperties properties) {
		String[] topics = properties.getTopics();
		if (topics != null) {
			return List.of(topics);
		}
		Pattern pattern = properties.getTopicPattern();
		if (pattern == null) {
			return List.of();
		}
		return get(admin.listTopics().names()).stream().filter((topic) -> pattern.matcher(topic).matches()).toList();
	}

	private static Map<TopicPartition, Long> offsets(Admin admin, Set<TopicPartition> partitions, OffsetSpec spec) {
		Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
		partitions.forEach((partition) -> specs.put(partition, spec));
		Map<TopicPartition, Long> offsets = new HashMap<>();
		Map<TopicPartition, ListOffsetsResultInfo> infos = get(admin.listOffsets(specs).all());
		infos.forEach((partition, info) -> offsets.put(partition, info.offset()));
		return offsets;
	}

	private boolean startsAtEarliest() {
		Object reset = consumerConfig().get(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG);
		return reset != null && "earliest".equalsIgnoreCase(reset.toString());
	}

	private Admin admin() {
		Admin admin = this.admin;
		if (admin == null) {
			Map<String, Object> config = new HashMap<>();
			consumerConfig().forEach((key, value) -> {
				if (AdminClientConfig.configNames().contains(key)) {
					config.put(key, value);
				}
			});
			config.put(AdminClientConfig.CLIENT_ID_CONFIG, "poolpilot-lag-" + this.name);
			admin = Admin.create(config);
			this.admin = admin;
		}
		return admin;
	}

	/**
	 * The configuration of the container's consumers: its consumer factory's, with the
	 * container's overrides.
	 */
	private Map<String, Object> consumerConfig() {
		Map<String, Object> config = new HashMap<>();
		Object factory = PropertyAccessorFactory.forDirectFieldAccess(this.container)
			.getPropertyValue("consumerFactory");
		if (factory instanceof ConsumerFactory<?, ?> consumers) {
			config.putAll(consumers.getConfigurationProperties());
		}
		Properties overrides = this.container.getContainerProperties().getKafkaConsumerProperties();
		overrides.stringPropertyNames().forEach((key) -> config.put(key, overrides.getProperty(key)));
		return config;
	}

	private static <T> T get(KafkaFuture<T> future) {
		try {
			return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while reading the consumer lag", ex);
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new IllegalStateException("Could not read the consumer lag", ex);
		}
	}

	@Override
	public synchronized void close() {
		Admin admin = this.admin;
		if (admin != null) {
			admin.close(Duration.ofSeconds(TIMEOUT_SECONDS));
			this.admin = null;
		}
	}

	/**
	 * What was read.
	 *
	 * @param partitions the partitions of the container's topics
	 * @param lag the records its group has not committed, or -1 when unknown
	 */
	record Reading(int partitions, long lag) {

	}

}
