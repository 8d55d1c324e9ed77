package io.github.poolpilot.webserver;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The {@code http} pool as a number of requests served at once, with a bounded line of
 * requests waiting for one of them: what the pool is on a server whose threads do not
 * queue requests themselves (Jetty, whose threads read and run requests alike, and any
 * server on virtual threads). A request either gets a permit at once, waits in line, or
 * is refused because the line is full; a released permit goes to the first in line.
 * <p>
 * As in Tomcat's executor, nobody waits while a permit is free: a request waits only when
 * every permit is taken, and a grown limit starts those waiting at once. A waiting
 * request's start runs on the thread that released the permit or changed the limit (the
 * pool's resize door, under the budget's lock), so it only hands the request to the
 * server's threads: it must not block. A start that throws is logged and its permit goes
 * to the next in line, so that no permit is lost.
 *
 * @author poolpilot authors
 */
public final class RequestPermits {

	private static final Log logger = LogFactory.getLog(RequestPermits.class);

	private final int capacity;

	private final ArrayDeque<Runnable> waiting;

	// Guarded by this.

	private int limit;

	private int inUse;

	/**
	 * Create the permits.
	 * @param limit the requests served at once
	 * @param capacity the requests that may wait for a permit
	 */
	public RequestPermits(int limit, int capacity) {
		this.limit = limit;
		this.capacity = capacity;
		this.waiting = new ArrayDeque<>(Math.min(capacity, 1024));
	}

	/**
	 * What became of a request that asked for a permit.
	 */
	public enum Admission {

		/**
		 * It holds a permit: serve it now, and release the permit when it ends.
		 */
		SERVE,

		/**
		 * It waits in line: its start runs when a permit is released for it.
		 */
		WAIT,

		/**
		 * Every permit is taken and the line is full: refuse it.
		 */
		REFUSE

	}

	/**
	 * Ask for a permit for a request.
	 * @param start what starts the request once it waited for a permit (the request then
	 * holds it); not run when the request is served at once or refused
	 * @return what became of the request
	 */
	public synchronized Admission admit(Runnable start) {
		if (this.inUse < this.limit && this.waiting.isEmpty()) {
			this.inUse++;
			return Admission.SERVE;
		}
		if (this.waiting.size() < this.capacity) {
			this.waiting.add(start);
			return Admission.WAIT;
		}
		return Admission.REFUSE;
	}

	/**
	 * Release the permit of a request that ended, handing it to the first request in
	 * line.
	 */
	public void release() {
		Runnable next;
		synchronized (this) {
			this.inUse--;
			next = next();
		}
		if (next != null && !started(next)) {
			release();
		}
	}

	/**
	 * Set how many requests are served at once; those waiting start at once when the
	 * limit grew.
	 * @param limit the new limit
	 */
	public void setLimit(int limit) {
		List<Runnable> started = new ArrayList<>();
		synchronized (this) {
			this.limit = limit;
			for (Runnable next = next(); next != null; next = next()) {
				started.add(next);
			}
		}
		int failed = 0;
		for (Runnable start : started) {
			failed += started(start) ? 0 : 1;
		}
		// Given back once every start ran, so that those in line start in their order.
		for (int i = 0; i < failed; i++) {
			release();
		}
	}

	/**
	 * Run a waiting request's start. One that throws is logged, not thrown: the thread
	 * running it released a permit or resized the pool, which must finish.
	 */
	private boolean started(Runnable start) {
		try {
			start.run();
			return true;
		}
		catch (RuntimeException ex) {
			logger.warn("A request waiting for the http pool could not be started; its permit goes to the next", ex);
			return false;
		}
	}

	private @Nullable Runnable next() {
		if (this.inUse < this.limit && !this.waiting.isEmpty()) {
			this.inUse++;
			return this.waiting.poll();
		}
		return null;
	}

	/**
	 * Return how many requests are served at once at most.
	 * @return the limit
	 */
	public synchronized int getLimit() {
		return this.limit;
	}

	/**
	 * Return the permits taken: requests started and not yet ended.
	 * @return the permits in use
	 */
	public synchronized int getInUse() {
		return this.inUse;
	}

	/**
	 * Return the requests waiting for a permit.
	 * @return the line's length
	 */
	public synchronized int getWaiting() {
		return this.waiting.size();
	}

}
