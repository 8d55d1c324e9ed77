package io.github.poolpilot.webserver.tomcat;

import java.util.concurrent.Executor;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.tomcat.util.net.NioEndpoint;
import org.apache.tomcat.util.threads.TaskQueue;
import org.apache.tomcat.util.threads.TaskThreadFactory;
import org.apache.tomcat.util.threads.VirtualThreadExecutor;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.webserver.HttpPool;
import io.github.poolpilot.webserver.RefusalLane;
import io.github.poolpilot.webserver.RequestPermits;

/**
 * Tomcat's NIO endpoint whose internal executor hands each request through the
 * {@code http} pool ({@link MeasuredTomcatExecutor}), and whose graceful shutdown answers
 * every request handed to the pool before it: the requests still queued when Spring Boot
 * pauses the connector are served rather than closed unanswered (Tomcat closes a paused
 * connection's next request without a word), and the endpoint stops once no request is
 * queued or running.
 *
 * @author poolpilot authors
 */
class ManagedNioEndpoint extends NioEndpoint {

	private static final Log logger = LogFactory.getLog(ManagedNioEndpoint.class);

	private volatile @Nullable Binding binding;

	void manage(HttpPool http, boolean graceful, long drainTimeoutMillis) {
		this.binding = new Binding(http, new RefusalLane(HttpPool.NAME + "-refusals-"), graceful, drainTimeoutMillis);
	}

	/**
	 * Put the pool in front of the virtual threads the connector was given.
	 * @param threads Tomcat's virtual-thread executor
	 * @param permits the requests served at once and the line of those waiting
	 */
	void permitVirtualThreads(VirtualThreadExecutor threads, RequestPermits permits) {
		Binding binding = this.binding;
		if (binding != null) {
			setExecutor(new PermittedVirtualExecutor(threads, permits, handOver(binding)));
		}
	}

	@Override
	public void createExecutor() {
		Binding binding = this.binding;
		if (binding == null || getUseVirtualThreads()) {
			super.createExecutor();
			return;
		}
		TaskQueue queue = new TaskQueue(getMaxQueueSize());
		TaskThreadFactory threads = new TaskThreadFactory(getName() + "-exec-", getDaemon(), getThreadPriority());
		MeasuredTomcatExecutor executor = new MeasuredTomcatExecutor(getMinSpareThreads(), getMaxThreads(),
				getThreadsMaxIdleTime(), queue, threads, handOver(binding));
		queue.setParent(executor);
		setExecutor(executor);
		// Still the endpoint's own executor: its setters resize it, its getters read it.
		this.internalExecutor = true;
	}

	private TomcatHandOver handOver(Binding binding) {
		return new TomcatHandOver(binding.http(), binding.lane(), () -> !super.isPaused());
	}

	/**
	 * Return whether the connector was paused for a graceful shutdown (whatever thread
	 * asks).
	 * @return whether it was paused
	 */
	boolean isPausedForShutdown() {
		return super.isPaused();
	}

	/**
	 * A thread serving a request handed to the pool before the pause sees the endpoint
	 * running, so that the request is answered; every other thread sees it paused.
	 */
	@Override
	public boolean isPaused() {
		return super.isPaused() && !HttpPool.servesRequestFromBeforeShutdown();
	}

	@Override
	public void stopInternal() {
		Binding binding = this.binding;
		Executor executor = getExecutor();
		if (binding != null && binding.graceful() && super.isPaused() && executor instanceof HttpExecutor measured
				&& !measured.awaitIdle(binding.drainTimeoutMillis())) {
			logger.warn("The http pool still had " + measured.queued() + " queued and " + measured.running()
					+ " running requests after " + binding.drainTimeoutMillis()
					+ " ms of graceful shutdown (poolpilot.web-server.await-termination); they are cut off");
		}
		super.stopInternal();
		if (binding != null) {
			binding.lane().close();
		}
	}

	private record Binding(HttpPool http, RefusalLane lane, boolean graceful, long drainTimeoutMillis) {

	}

}
