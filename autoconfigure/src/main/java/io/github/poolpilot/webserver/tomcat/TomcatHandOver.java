package io.github.poolpilot.webserver.tomcat;

import java.util.function.BooleanSupplier;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.webserver.HttpPool;
import io.github.poolpilot.webserver.RefusalLane;

/**
 * How Tomcat hands a connection's turn to the {@code http} pool, whatever executor then
 * runs it: counted and timed from here, and, when the pool refuses it, answered by the
 * refusal lane instead of the connection being closed.
 *
 * @param http the pool
 * @param lane the threads that answer refused requests
 * @param open whether the connector still takes requests (not paused for a graceful
 * shutdown)
 * @author poolpilot authors
 */
record TomcatHandOver(HttpPool http, RefusalLane lane, BooleanSupplier open) {

	/**
	 * Hand a request to the pool.
	 * @param command Tomcat's unit of work
	 * @return the task to run, or {@code null} when the pool refused it, which the lane
	 * then answers
	 */
	@Nullable Runnable accept(Runnable command) {
		try {
			return this.http.accept(command, this.open.getAsBoolean());
		}
		catch (PoolRejectedException ex) {
			this.lane.refuse(command, ex);
			return null;
		}
	}

	/**
	 * Count a request accepted but then found no room, and answer it on the lane.
	 * @param command Tomcat's unit of work
	 * @param task what {@link #accept} returned for it
	 */
	void refuse(Runnable command, Runnable task) {
		this.lane.refuse(command, this.http.refused(task));
	}

}
