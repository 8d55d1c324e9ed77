package io.github.poolpilot.webserver.jetty;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.webserver.HttpPool;
import io.github.poolpilot.webserver.HttpRefusal;
import io.github.poolpilot.webserver.RequestPermits;

/**
 * The hand-over point of Jetty's requests to the {@code http} pool, first in Jetty's
 * handler tree (inside Spring Boot's graceful-shutdown statistics, which count a waiting
 * request as active): each request is counted and timed from here, then served at once
 * when a permit is free, suspended in the pool's line when not (no thread waits with it,
 * as in Jetty's own {@code QoSHandler}), or, when the line is full, answered with the
 * refusal by the {@link io.github.poolpilot.webserver.HttpRefusalFilter} on the thread
 * that read it. A permit is released when its request completes.
 *
 * @author poolpilot authors
 */
public class HttpPoolHandler extends Handler.Wrapper {

	private final HttpPool http;

	private final RequestPermits permits;

	/**
	 * Create the handler.
	 * @param http the pool that counts and times the requests
	 * @param permits the requests served at once and the line of those waiting
	 */
	public HttpPoolHandler(HttpPool http, RequestPermits permits) {
		this.http = http;
		this.permits = permits;
	}

	@Override
	public boolean handle(Request request, Response response, Callback callback) {
		Runnable serve = () -> serve(request, response, callback);
		Runnable task;
		try {
			task = this.http.accept(serve, false);
		}
		catch (PoolRejectedException ex) {
			answer(() -> HttpRefusal.runRefused(serve, ex), request, response, callback);
			return true;
		}
		switch (this.permits.admit(() -> resume(task, serve, request, response, callback))) {
			case SERVE -> serveWithPermit(task, request, response, callback);
			case WAIT -> {
				// Resumed by the release of a permit, on a thread of Jetty's.
			}
			case REFUSE -> {
				PoolRejectedException rejection = this.http.refused(task);
				answer(() -> HttpRefusal.runRefused(serve, rejection), request, response, callback);
			}
		}
		return true;
	}

	/**
	 * Hand a request that waited for its permit to one of Jetty's threads, or, when
	 * Jetty's threads take no more jobs (a bounded job queue that is full, or a server
	 * stopping), give the permit back and answer the refusal on this thread.
	 */
	private void resume(Runnable task, Runnable serve, Request request, Response response, Callback callback) {
		try {
			request.getContext().execute(() -> serveWithPermit(task, request, response, callback));
		}
		catch (RuntimeException ex) {
			this.permits.release();
			PoolRejectedException rejection = this.http.refused(task);
			answer(() -> HttpRefusal.runRefused(serve, rejection), request, response, callback);
		}
	}

	private void serveWithPermit(Runnable task, Request request, Response response, Callback callback) {
		Request.addCompletionListener(request, (failure) -> this.permits.release());
		answer(task, request, response, callback);
	}

	private void serve(Request request, Response response, Callback callback) {
		try {
			if (!super.handle(request, response, callback)) {
				Response.writeError(request, response, callback, 404);
			}
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Run a request's work; the request is ours to complete once this handler returned
	 * true, so a failure is answered here rather than thrown to Jetty.
	 */
	private static void answer(Runnable work, Request request, Response response, Callback callback) {
		try {
			work.run();
		}
		catch (Throwable ex) {
			Response.writeError(request, response, callback, ex);
		}
	}

}
