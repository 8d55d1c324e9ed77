package io.github.poolpilot.listener.kafka;

import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;

/**
 * Tells when the consumers a container started have all been given their partitions: the
 * end of a restart. It stands in the container's rebalance listener's place and calls it
 * as the container would have: a {@link ConsumerAwareRebalanceListener} through its
 * consumer-aware methods, another through its plain ones.
 *
 * @author poolpilot authors
 */
final class AssignmentWatch implements ConsumerAwareRebalanceListener {

	private final ConsumerRebalanceListener delegate;

	private final @Nullable ConsumerAwareRebalanceListener consumerAware;

	private final Set<Consumer<?, ?>> assigned = Collections.newSetFromMap(new IdentityHashMap<>());

	private int expected;

	private CountDownLatch done = new CountDownLatch(0);

	AssignmentWatch(ConsumerRebalanceListener delegate) {
		this.delegate = delegate;
		this.consumerAware = (delegate instanceof ConsumerAwareRebalanceListener aware) ? aware : null;
	}

	/**
	 * Start watching for the given number of new consumers, before they are started.
	 * @param consumers how many consumers the container starts, 0 for none to wait for
	 */
	synchronized void expect(int consumers) {
		this.assigned.clear();
		this.expected = consumers;
		this.done = new CountDownLatch((consumers > 0) ? 1 : 0);
	}

	/**
	 * Wait until every consumer expected was given its partitions (maybe none).
	 * @param timeoutMillis how long to wait at most
	 * @return whether they all were
	 * @throws InterruptedException if interrupted while waiting
	 */
	boolean await(long timeoutMillis) throws InterruptedException {
		CountDownLatch done;
		synchronized (this) {
			done = this.done;
		}
		return done.await(timeoutMillis, TimeUnit.MILLISECONDS);
	}

	/**
	 * Stop waiting: the application stops.
	 */
	synchronized void release() {
		this.done.countDown();
	}

	private synchronized void assigned(Consumer<?, ?> consumer) {
		if (this.done.getCount() > 0 && this.assigned.add(consumer) && this.assigned.size() >= this.expected) {
			this.done.countDown();
		}
	}

	@Override
	public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		try {
			if (this.consumerAware != null) {
				this.consumerAware.onPartitionsAssigned(consumer, partitions);
			}
			else {
				this.delegate.onPartitionsAssigned(partitions);
			}
		}
		finally {
			assigned(consumer);
		}
	}

	@Override
	public void onPartitionsRevokedBeforeCommit(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		if (this.consumerAware != null) {
			this.consumerAware.onPartitionsRevokedBeforeCommit(consumer, partitions);
		}
		else {
			this.delegate.onPartitionsRevoked(partitions);
		}
	}

	@Override
	public void onPartitionsRevokedAfterCommit(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		if (this.consumerAware != null) {
			this.consumerAware.onPartitionsRevokedAfterCommit(consumer, partitions);
		}
	}

	@Override
	public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		if (this.consumerAware != null) {
			this.consumerAware.onPartitionsLost(consumer, partitions);
		}
		else {
			this.delegate.onPartitionsLost(partitions);
		}
	}

	@Override
	public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
		this.delegate.onPartitionsRevoked(partitions);
	}

	@Override
	public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
		this.delegate.onPartitionsAssigned(partitions);
	}

	@Override
	public void onPartitionsLost(Collection<TopicPartition> partitions) {
		this.delegate.onPartitionsLost(partitions);
	}

}
