package io.github.poolpilot.execution;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRejectedException;

/**
 * Builds a {@link ManagedExecutor}, or a {@link VirtualManagedExecutor} from the same
 * settings ({@link ManagedExecutor#builder}).
 *
 * @author poolpilot authors
 */
public class ManagedExecutorBuilder {

	private final String name;

	private final PoolBounds bounds;

	private final int queueCapacity;

	private int corePoolSize;

	private int maxPoolSize;

	private Duration keepAlive = Duration.ofSeconds(60);

	private boolean allowCoreThreadTimeOut;

	private @Nullable ThreadFactory threadFactory;

	private @Nullable RejectedExecutionHandler rejectionPolicy;

	private PoolRecorder recorder;

	private @Nullable UnaryOperator<Runnable> taskDecorator;

	protected ManagedExecutorBuilder(String name, PoolBounds bounds, int queueCapacity) {
		if (queueCapacity < 1) {
			throw new IllegalArgumentException(
					"queue-capacity of pool '" + name + "' must be at least 1 but was " + queueCapacity);
		}
		this.name = name;
		this.bounds = bounds;
		this.queueCapacity = queueCapacity;
		this.corePoolSize = bounds.minThreads();
		this.maxPoolSize = bounds.maxThreads();
		this.recorder = PoolRecorder.builder().build();
	}

	/**
	 * Set the initial core and maximum sizes (by default min-threads and max-threads).
	 * @param corePoolSize the initial core size
	 * @param maxPoolSize the initial maximum size
	 * @return this builder
	 */
	public ManagedExecutorBuilder sizes(int corePoolSize, int maxPoolSize) {
		this.corePoolSize = corePoolSize;
		this.maxPoolSize = maxPoolSize;
		return this;
	}

	/**
	 * Set how long an idle thread above the core size lives (60 seconds by default).
	 * @param keepAlive the keep-alive time
	 * @return this builder
	 */
	public ManagedExecutorBuilder keepAlive(Duration keepAlive) {
		this.keepAlive = keepAlive;
		return this;
	}

	/**
	 * Set whether core threads also time out when idle.
	 * @param allow whether core threads time out
	 * @return this builder
	 */
	public ManagedExecutorBuilder allowCoreThreadTimeOut(boolean allow) {
		this.allowCoreThreadTimeOut = allow;
		return this;
	}

	/**
	 * Set the factory for the pool's threads: by default non-daemon threads named
	 * {@code <name>-<n>}, or virtual threads all named {@code <name>} (no string per
	 * task).
	 * @param threadFactory the thread factory
	 * @return this builder
	 */
	public ManagedExecutorBuilder threadFactory(ThreadFactory threadFactory) {
		this.threadFactory = threadFactory;
		return this;
	}

	/**
	 * Set the policy for refused tasks; {@code null} or Java's {@code AbortPolicy} means
	 * the default, one that throws a {@link PoolRejectedException}.
	 * @param rejectionPolicy the rejection policy
	 * @return this builder
	 */
	public ManagedExecutorBuilder rejectionPolicy(@Nullable RejectedExecutionHandler rejectionPolicy) {
		this.rejectionPolicy = rejectionPolicy;
		return this;
	}

	/**
	 * Set a decorator applied to every submitted task before it is queued, such as
	 * Spring's {@code TaskDecorator} that propagates context. The decorated task is what
	 * runs; the submitted one is what {@code shutdownNow()} hands back and whose outcome
	 * is counted.
	 * @param taskDecorator the decorator
	 * @return this builder
	 */
	public ManagedExecutorBuilder taskDecorator(UnaryOperator<Runnable> taskDecorator) {
		this.taskDecorator = taskDecorator;
		return this;
	}

	/**
	 * Set the recorder that measures the pool.
	 * @param recorder the recorder
	 * @return this builder
	 */
	public ManagedExecutorBuilder recorder(PoolRecorder recorder) {
		this.recorder = recorder;
		return this;
	}

	/**
	 * Build a pool of platform threads.
	 * @return a new managed executor
	 * @throws InvalidPoolSizeException if the initial sizes violate the bounds
	 */
	public ManagedExecutor build() {
		return new ManagedExecutor(this);
	}

	/**
	 * Build a pool that runs each task on a virtual thread of its own, its maximum size
	 * being a limit on how many run at once rather than a number of threads kept
	 * ({@link VirtualManagedExecutor}). Needs Java 21 or later.
	 * @return a new virtual managed executor
	 * @throws InvalidPoolSizeException if the initial sizes violate the bounds
	 * @throws UnsupportedOperationException if the JVM is older than Java 21
	 */
	public VirtualManagedExecutor buildVirtual() {
		return new VirtualManagedExecutor(this);
	}

	ThreadFactory threadFactory(boolean virtual) {
		if (this.threadFactory != null) {
			return this.threadFactory;
		}
		if (virtual) {
			return VirtualThreads.namedFactory(this.name);
		}
		String prefix = this.name + "-";
		AtomicInteger count = new AtomicInteger();
		PoolRecorder recorder = this.recorder;
		return (runnable) -> recorder.newThread(runnable, prefix + count.incrementAndGet());
	}

	String name() {
		return this.name;
	}

	PoolBounds bounds() {
		return this.bounds;
	}

	int queueCapacity() {
		return this.queueCapacity;
	}

	int corePoolSize() {
		return this.corePoolSize;
	}

	int maxPoolSize() {
		return this.maxPoolSize;
	}

	Duration keepAlive() {
		return this.keepAlive;
	}

	boolean allowsCoreThreadTimeOut() {
		return this.allowCoreThreadTimeOut;
	}

	@Nullable RejectedExecutionHandler rejectionPolicy() {
		return this.rejectionPolicy;
	}

	@Nullable UnaryOperator<Runnable> taskDecorator() {
		return this.taskDecorator;
	}

	PoolRecorder recorder() {
		return this.recorder;
	}

}
