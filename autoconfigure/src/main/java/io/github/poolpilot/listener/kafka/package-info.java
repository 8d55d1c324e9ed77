/**
 * Spring Kafka's {@code ConcurrentMessageListenerContainer} consumers as managed pools,
 * measured per record, their concurrency changed through the container's restart and
 * capped at the partitions of its topics, the group's lag their queue.
 */
@NullMarked
package io.github.poolpilot.listener.kafka;

import org.jspecify.annotations.NullMarked;
