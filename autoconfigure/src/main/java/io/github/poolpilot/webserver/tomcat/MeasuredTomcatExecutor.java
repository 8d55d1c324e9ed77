package io.github.poolpilot.webserver.tomcat;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.tomcat.util.threads.TaskQueue;
import org.apache.tomcat.util.threads.TaskThreadFactory;
import org.apache.tomcat.util.threads.ThreadPoolExecutor;

/**
 * Tomcat's own request executor (its {@link ThreadPoolExecutor} and {@link TaskQueue},
 * made by the endpoint as its internal executor, so that the endpoint's setters resize it
 * and its JMX attributes read it), with each request handed over through the {@code http}
 * pool: timed from the hand-over, admitted by the pool's guard, and, when the queue is
 * full, answered by the refusal lane instead of the connection being closed.
 *
 * @author poolpilot authors
 */
final class MeasuredTomcatExecutor extends ThreadPoolExecutor implements HttpExecutor {

	private final TomcatHandOver handOver;

	MeasuredTomcatExecutor(int corePoolSize, int maxPoolSize, long keepAliveMillis, TaskQueue queue,
			TaskThreadFactory threadFactory, TomcatHandOver handOver) {
		super(corePoolSize, maxPoolSize, keepAliveMillis, TimeUnit.MILLISECONDS, queue, threadFactory);
		this.handOver = handOver;
	}

	@Override
	public void execute(Runnable command) {
		Runnable task = this.handOver.accept(command);
		if (task == null) {
			return;
		}
		try {
			super.execute(task);
		}
		catch (RejectedExecutionException ex) {
			if (isShutdown()) {
				this.handOver.http().refused(task);
				throw ex;
			}
			this.handOver.refuse(command, task);
		}
	}

	@Override
	public int queued() {
		return getQueue().size();
	}

	@Override
	public int running() {
		return getActiveCount();
	}

}
