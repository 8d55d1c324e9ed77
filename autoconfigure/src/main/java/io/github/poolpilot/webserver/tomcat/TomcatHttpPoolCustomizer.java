package io.github.poolpilot.webserver.tomcat;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.catalina.connector.Connector;

import io.github.poolpilot.webserver.HttpPool;

import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.boot.tomcat.TomcatWebServerFactory;
import org.springframework.boot.web.server.Shutdown;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Makes the embedded Tomcat's connector run {@link ManagedHttp11NioProtocol} with the
 * {@code http} pool. It runs after Spring Boot's own customizers, so that the pool's
 * sizes and queue replace {@code server.tomcat.threads.*}, and it reads the server's
 * {@code server.shutdown} as Boot set it. A connector configured with another protocol is
 * left alone, with a warning.
 *
 * @author poolpilot authors
 */
public class TomcatHttpPoolCustomizer implements WebServerFactoryCustomizer<TomcatWebServerFactory>, Ordered {

	private static final Log logger = LogFactory.getLog(TomcatHttpPoolCustomizer.class);

	private final HttpPool http;

	private final Duration keepAlive;

	private final Duration drainTimeout;

	/**
	 * Create the customizer.
	 * @param http the pool
	 * @param keepAlive how long an idle thread above the core size lives
	 * @param drainTimeout how long a graceful shutdown waits at most for the requests
	 * still queued or running
	 */
	public TomcatHttpPoolCustomizer(HttpPool http, Duration keepAlive, Duration drainTimeout) {
		this.http = http;
		this.keepAlive = keepAlive;
		this.drainTimeout = drainTimeout;
	}

	@Override
	public void customize(TomcatWebServerFactory factory) {
		if (!TomcatWebServerFactory.DEFAULT_PROTOCOL.equals(factory.getProtocol())) {
			logger.warn("poolpilot.web-server.enabled is true but Tomcat's connector runs " + factory.getProtocol()
					+ ": only " + TomcatWebServerFactory.DEFAULT_PROTOCOL
					+ " (Spring Boot's default) can be managed, so the http pool stays empty");
			return;
		}
		factory.setProtocol(ManagedHttp11NioProtocol.class.getName());
		boolean graceful = factory.getShutdown() == Shutdown.GRACEFUL;
		factory.addConnectorCustomizers(new Manage(this.http,
				(int) Math.min(Integer.MAX_VALUE, this.keepAlive.toMillis()), graceful, this.drainTimeout.toMillis()));
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	/**
	 * A connector customizer, as Spring Boot applies {@code server.tomcat.threads.*}:
	 * added after Boot's, it runs after them.
	 */
	private record Manage(HttpPool http, int keepAliveMillis, boolean graceful,
			long drainTimeoutMillis) implements TomcatConnectorCustomizer {

		@Override
		public void customize(Connector connector) {
			if (connector.getProtocolHandler() instanceof ManagedHttp11NioProtocol protocol) {
				protocol.setThreadsMaxIdleTime(this.keepAliveMillis);
				protocol.manage(this.http, this.graceful, this.drainTimeoutMillis);
			}
		}

	}

}
