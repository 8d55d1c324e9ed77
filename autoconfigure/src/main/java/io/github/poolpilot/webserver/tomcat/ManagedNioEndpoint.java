package io.github.poolpilot.webserver.tomcat;

import java.util.concurrent.Executor;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.tomcat.util.net.NioEndpoint;
import org.apache.tomcat.util.threads.TaskQueue;
import org.apache.tomcat.util.threads.TaskThreadFactory;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.webserver.HttpPool;
import io.github.poolpilot.webserver.RefusalLane;

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
				getThreadsMaxIdleTime(), queue, threads, binding.http(), binding.lane(), () -> !super.isPaused());
		queue.setParent(executor);
		setExecutor(executor);
		// Still the endpoint's own executor: its setters resize it, its getters read it.
		this.internalExecutor = true;
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
		if (binding != null && binding.graceful() && super.isPaused()
				&& executor instanceof MeasuredTomcatExecutor measured
				&& !measured.awaitIdle(binding.drainTimeoutMillis())) {
			logger.warn("The http pool still had " + measured.getQueue().size() + " queued and "
					+ measured.getActiveCount() + " running requests after " + binding.drainTimeoutMillis()
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
