package io.github.poolpilot.webserver;

import java.util.List;

import org.eclipse.jetty.util.thread.QueuedThreadPool;

import io.github.poolpilot.webserver.jetty.JettyHttpPoolCustomizer;

import org.springframework.boot.jetty.JettyWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The {@code http} pool's contract on the embedded Jetty, run without Tomcat on the
 * classpath.
 *
 * @author poolpilot authors
 */
class JettyWebServerPoolTests extends WebServerPoolContractTests {

	@Override
	String meterPrefix() {
		return "jetty";
	}

	@Override
	List<String> serverProperties() {
		return List.of();
	}

	@Override
	Integer serverMaxThreads(ConfigurableApplicationContext context, int maxPoolSize) {
		// Jetty's pool also runs its connectors' acceptors and selectors and its reserved
		// threads, as Jetty itself counts them, and the threads that read new requests.
		JettyWebServer server = (JettyWebServer) ((WebServerApplicationContext) context).getWebServer();
		QueuedThreadPool threads = (QueuedThreadPool) server.getServer().getThreadPool();
		return maxPoolSize + threads.getLeasedThreads() + threads.getMaxReservedThreads()
				+ JettyHttpPoolCustomizer.ADMISSION_THREADS;
	}

}
