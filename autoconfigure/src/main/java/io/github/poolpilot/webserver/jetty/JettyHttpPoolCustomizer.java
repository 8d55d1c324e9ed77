package io.github.poolpilot.webserver.jetty;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool.SizedThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.webserver.HttpPool;
import io.github.poolpilot.webserver.PermitThreads;
import io.github.poolpilot.webserver.RequestPermits;
import io.github.poolpilot.webserver.ServerThreads;

import org.springframework.boot.jetty.servlet.JettyServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Puts the {@code http} pool's {@link HttpPoolHandler} first in the embedded Jetty's
 * handler tree and hands the pool Jetty's thread pool to size. It runs after Spring
 * Boot's own customizers, so that the pool's sizes replace
 * {@code server.jetty.threads.*}; Boot wraps the tree in its graceful-shutdown statistics
 * afterwards, which therefore count the requests waiting for a permit as active.
 *
 * @author poolpilot authors
 */
public class JettyHttpPoolCustomizer implements WebServerFactoryCustomizer<JettyServletWebServerFactory>, Ordered {

	/**
	 * The threads Jetty's pool keeps beyond the permits, its connectors' and its reserved
	 * threads, to read new requests while every permit is taken, so that a request beyond
	 * the limit waits in the pool's line or is refused at once rather than unread in
	 * Jetty's job queue. (Jetty's reserved threads take only the jobs offered to them and
	 * cannot be counted on for that.)
	 */
	public static final int ADMISSION_THREADS = 2;

	private static final Log logger = LogFactory.getLog(JettyHttpPoolCustomizer.class);

	private final HttpPool http;

	private final Duration keepAlive;

	/**
	 * Create the customizer.
	 * @param http the pool
	 * @param keepAlive how long an idle thread above the core size lives
	 */
	public JettyHttpPoolCustomizer(HttpPool http, Duration keepAlive) {
		this.http = http;
		this.keepAlive = keepAlive;
	}

	@Override
	public void customize(JettyServletWebServerFactory factory) {
		factory.addServerCustomizers(this::manage);
	}

	private void manage(Server server) {
		RequestPermits permits = new RequestPermits(0, this.http.getQueueCapacity());
		ThreadPool pool = server.getThreadPool();
		if (pool instanceof QueuedThreadPool queued) {
			queued.setIdleTimeout((int) Math.min(Integer.MAX_VALUE, this.keepAlive.toMillis()));
		}
		ServerThreads threads = threads(pool, permits, connectorThreads(server), () -> isShuttingDown(server));
		if (threads == null) {
			logger.warn("poolpilot.web-server.enabled is true but Jetty runs on a " + pool.getClass().getName()
					+ ", which poolpilot cannot size: the http pool stays empty");
			return;
		}
		HttpPoolHandler handler = new HttpPoolHandler(this.http, permits);
		handler.setHandler(server.getHandler());
		server.setHandler(handler);
		this.http.attach(threads);
	}

	/**
	 * Whether the server no longer takes requests: it stops, or its connectors were shut
	 * down for a graceful shutdown.
	 */
	private static boolean isShuttingDown(Server server) {
		if (server.isStopping()) {
			return true;
		}
		for (Connector connector : server.getConnectors()) {
			if (connector.isShutdown()) {
				return true;
			}
		}
		return false;
	}

	private static @Nullable ServerThreads threads(ThreadPool pool, RequestPermits permits, int connectorThreads,
			BooleanSupplier shuttingDown) {
		PermitThreads permitThreads = new PermitThreads(permits, shuttingDown);
		if (pool instanceof VirtualThreadPool virtual) {
			// The pool's permits are the limit: no second one under them.
			virtual.setMaxConcurrentTasks(0);
			return permitThreads;
		}
		if (pool instanceof QueuedThreadPool queued && queued.getReservedThreads() < 0) {
			// Jetty's heuristic depends on the pool's maximum, which the pool changes.
			queued.setReservedThreads(Math.min(2, Runtime.getRuntime().availableProcessors()));
		}
		if (pool instanceof SizedThreadPool sized) {
			int reserved = (pool instanceof QueuedThreadPool queued) ? queued.getReservedThreads() : 0;
			return new JettyThreads(permitThreads, sized, connectorThreads + reserved + ADMISSION_THREADS);
		}
		return null;
	}

	/**
	 * The threads Jetty's connectors lease from its pool: one for each acceptor and each
	 * selector.
	 */
	private static int connectorThreads(Server server) {
		int threads = 0;
		for (Connector connector : server.getConnectors()) {
			if (connector instanceof AbstractConnector abstractConnector) {
				threads += abstractConnector.getAcceptors();
			}
			if (connector instanceof ServerConnector serverConnector) {
				threads += serverConnector.getSelectorManager().getSelectorCount();
			}
		}
		return threads;
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
