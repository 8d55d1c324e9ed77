package io.github.poolpilot.webserver.tomcat;

import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

import org.apache.coyote.AbstractProtocol;
import org.apache.tomcat.util.threads.ThreadPoolExecutor;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.webserver.ServerThreads;

/**
 * Tomcat's request threads read and sized through its protocol's own setters
 * ({@code setMinSpareThreads}, {@code setMaxThreads}), which keep the endpoint's
 * settings, its JMX attributes (and so Spring Boot's {@code tomcat.threads.*} meters) and
 * its live executor in step.
 *
 * @author poolpilot authors
 */
final class TomcatThreads implements ServerThreads {

	private final AbstractProtocol<?> protocol;

	private final BooleanSupplier paused;

	TomcatThreads(AbstractProtocol<?> protocol, BooleanSupplier paused) {
		this.protocol = protocol;
		this.paused = paused;
	}

	@Override
	public int getCorePoolSize() {
		return this.protocol.getMinSpareThreads();
	}

	@Override
	public int getMaximumPoolSize() {
		return this.protocol.getMaxThreads();
	}

	@Override
	public int getPoolSize() {
		ThreadPoolExecutor executor = executor();
		return (executor != null) ? executor.getPoolSize() : 0;
	}

	@Override
	public int getActiveCount() {
		ThreadPoolExecutor executor = executor();
		return (executor != null) ? executor.getActiveCount() : 0;
	}

	@Override
	public int getQueueSize() {
		ThreadPoolExecutor executor = executor();
		return (executor != null) ? executor.getQueue().size() : 0;
	}

	@Override
	public boolean isShutdown() {
		ThreadPoolExecutor executor = executor();
		return this.paused.getAsBoolean() || (executor != null && executor.isShutdown());
	}

	@Override
	public void setCorePoolSize(int corePoolSize) {
		this.protocol.setMinSpareThreads(corePoolSize);
	}

	@Override
	public void setMaximumPoolSize(int maxPoolSize) {
		this.protocol.setMaxThreads(maxPoolSize);
	}

	private @Nullable ThreadPoolExecutor executor() {
		Executor executor = this.protocol.getExecutor();
		return (executor instanceof ThreadPoolExecutor tomcat) ? tomcat : null;
	}

}
