package io.github.poolpilot.listener.kafka;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * Tests for {@link AssignmentWatch}: the container's own rebalance listener is called as
 * the container would have called it, and a restart ends when every new consumer was
 * assigned, whether it got partitions or none.
 *
 * @author poolpilot authors
 */
class AssignmentWatchTests {

	private final List<String> calls = new ArrayList<>();

	private final Consumer<?, ?> first = mock(Consumer.class);

	private final Consumer<?, ?> second = mock(Consumer.class);

	private final List<TopicPartition> partitions = List.of(new TopicPartition("orders", 0));

	@Test
	void aPlainListenerIsCalledThroughItsPlainMethods() {
		AssignmentWatch watch = new AssignmentWatch(new ConsumerRebalanceListener() {

			@Override
			public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
				AssignmentWatchTests.this.calls.add("revoked " + partitions.size());
			}

			@Override
			public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
				AssignmentWatchTests.this.calls.add("assigned " + partitions.size());
			}

			@Override
			public void onPartitionsLost(Collection<TopicPartition> partitions) {
				AssignmentWatchTests.this.calls.add("lost " + partitions.size());
			}

		});
		watch.onPartitionsRevokedBeforeCommit(this.first, this.partitions);
		watch.onPartitionsRevokedAfterCommit(this.first, this.partitions);
		watch.onPartitionsLost(this.first, this.partitions);
		watch.onPartitionsAssigned(this.first, List.of());
		assertThat(this.calls).containsExactly("revoked 1", "lost 1", "assigned 0");
	}

	@Test
	void aConsumerAwareListenerIsCalledThroughItsConsumerAwareMethods() {
		AssignmentWatch watch = new AssignmentWatch(new ConsumerAwareRebalanceListener() {

			@Override
			public void onPartitionsRevokedBeforeCommit(Consumer<?, ?> consumer,
					Collection<TopicPartition> partitions) {
				AssignmentWatchTests.this.calls.add("before commit");
			}

			@Override
			public void onPartitionsRevokedAfterCommit(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
				AssignmentWatchTests.this.calls.add("after commit");
			}

			@Override
			public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
				AssignmentWatchTests.this.calls
					.add("assigned to " + ((consumer == AssignmentWatchTests.this.first) ? "first" : "another"));
			}

		});
		watch.onPartitionsRevokedBeforeCommit(this.first, this.partitions);
		watch.onPartitionsRevokedAfterCommit(this.first, this.partitions);
		watch.onPartitionsAssigned(this.first, this.partitions);
		assertThat(this.calls).containsExactly("before commit", "after commit", "assigned to first");
	}

	@Test
	void aRestartEndsWhenEveryNewConsumerWasAssignedEvenNothing() throws InterruptedException {
		AssignmentWatch watch = new AssignmentWatch(new ConsumerAwareRebalanceListener() {
		});
		// Assignments before a restart was expected do not count.
		watch.onPartitionsAssigned(this.first, this.partitions);
		watch.expect(2);
		assertThat(watch.await(10)).isFalse();
		watch.onPartitionsAssigned(this.first, this.partitions);
		watch.onPartitionsAssigned(this.first, List.of());
		assertThat(watch.await(10)).isFalse();
		watch.onPartitionsAssigned(this.second, List.of());
		assertThat(watch.await(10)).isTrue();
	}

	@Test
	void aReleasedWatchWaitsNoMore() throws InterruptedException {
		AssignmentWatch watch = new AssignmentWatch(new ConsumerAwareRebalanceListener() {
		});
		watch.expect(3);
		watch.release();
		assertThat(watch.await(10_000)).isTrue();
	}

}
