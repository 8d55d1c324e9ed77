package io.github.poolpilot.webserver.tomcat;

import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.util.threads.VirtualThreadExecutor;

import io.github.poolpilot.webserver.HttpPool;
import io.github.poolpilot.webserver.PermitThreads;
import io.github.poolpilot.webserver.RequestPermits;

/**
 * Tomcat's default HTTP/1.1 NIO protocol on a {@link ManagedNioEndpoint}: what Spring
 * Boot's connector runs when {@code poolpilot.web-server.enabled=true}. It is made by
 * name, as Tomcat makes every protocol, and handed its pool by a protocol handler
 * customizer before it starts.
 *
 * @author poolpilot authors
 */
public class ManagedHttp11NioProtocol extends Http11NioProtocol {

	private final ManagedNioEndpoint endpoint;

	/**
	 * Create the protocol.
	 */
	public ManagedHttp11NioProtocol() {
		this(new ManagedNioEndpoint());
	}

	private ManagedHttp11NioProtocol(ManagedNioEndpoint endpoint) {
		super(endpoint);
		this.endpoint = endpoint;
	}

	/**
	 * Set how long an idle thread above the core size lives.
	 * @param keepAliveMillis the idle time in milliseconds
	 */
	void setThreadsMaxIdleTime(int keepAliveMillis) {
		this.endpoint.setThreadsMaxIdleTime(keepAliveMillis);
	}

	/**
	 * Run the connector's requests through the given pool, sized by it from now on:
	 * Tomcat's own executor, or, on virtual threads, the pool's permits in front of them.
	 * @param http the pool
	 * @param graceful whether the server shuts down gracefully, answering the queued
	 * requests first
	 * @param drainTimeoutMillis how long a graceful shutdown waits for them at most
	 */
	void manage(HttpPool http, boolean graceful, long drainTimeoutMillis) {
		this.endpoint.manage(http, graceful, drainTimeoutMillis);
		if (getExecutor() instanceof VirtualThreadExecutor virtual) {
			RequestPermits permits = new RequestPermits(0, http.getQueueCapacity());
			this.endpoint.permitVirtualThreads(virtual, permits);
			http.attach(new PermitThreads(permits, () -> this.endpoint.isPausedForShutdown() || virtual.isShutdown()));
			return;
		}
		setMaxQueueSize(http.getQueueCapacity());
		http.attach(new TomcatThreads(this, this.endpoint::isPausedForShutdown));
	}

}
