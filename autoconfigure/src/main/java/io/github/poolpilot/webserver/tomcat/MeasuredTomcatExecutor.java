package io.github.poolpilot.webserver.tomcat;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.apache.tomcat.util.threads.TaskQueue;
import org.apache.tomcat.util.threads.TaskThreadFactory;
import org.apache.tomcat.util.threads.ThreadPoolExecutor;

import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.webserver.HttpPool;
import io.github.poolpilot.webserver.RefusalLane;

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

	private final HttpPool http;

	private final RefusalLane lane;

	private final BooleanSupplier open;

	MeasuredTomcatExecutor(int corePoolSize, int maxPoolSize, long keepAliveMillis, TaskQueue queue,
			TaskThreadFactory threadFactory, HttpPool http, RefusalLane lane, BooleanSupplier open) {
		super(corePoolSize, maxPoolSize, keepAliveMillis, TimeUnit.MILLISECONDS, queue, threadFactory);
		this.http = http;
		this.lane = lane;
		this.open = open;
	}

	@Override
	public void execute(Runnable command) {
		Runnable task;
		try {
			task = this.http.accept(command, this.open.getAsBoolean());
		}
		catch (PoolRejectedException ex) {
			this.lane.refuse(command, ex);
			return;
		}
		try {
			super.execute(task);
		}
		catch (RejectedExecutionException ex) {
			PoolRejectedException rejection = this.http.refused(task);
			if (isShutdown()) {
				throw ex;
			}
			this.lane.refuse(command, rejection);
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
