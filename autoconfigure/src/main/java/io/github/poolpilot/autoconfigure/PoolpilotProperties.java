package io.github.poolpilot.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Configuration properties for poolpilot's managed pools.
 *
 * @author poolpilot authors
 */
@ConfigurationProperties("poolpilot")
public class PoolpilotProperties {

	/**
	 * Whether poolpilot manages any pool; false turns it off entirely: no pools, no
	 * managed executors, no endpoint, metrics, health or rejection handling.
	 */
	private boolean enabled = true;

	private final Budget budget = new Budget();

	private final Tuning tuning = new Tuning();

	private final Measurement measurement = new Measurement();

	private final Web web = new Web();

	private final WebServer webServer = new WebServer();

	@NestedConfigurationProperty
	private final ExistingExecutorsProperties existingExecutors = new ExistingExecutorsProperties();

	@NestedConfigurationProperty
	private final ListenersProperties listeners = new ListenersProperties();

	@NestedConfigurationProperty
	private final SchedulerProperties scheduler = new SchedulerProperties();

	/**
	 * Bean names of existing ThreadPoolTaskExecutors and ThreadPoolTaskSchedulers to
	 * leave unmanaged.
	 */
	private List<String> exclude = new ArrayList<>();

	/**
	 * Pools to create, by bean name.
	 */
	private final Map<String, PoolProperties> pools = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Budget getBudget() {
		return this.budget;
	}

	public Tuning getTuning() {
		return this.tuning;
	}

	public Measurement getMeasurement() {
		return this.measurement;
	}

	public Web getWeb() {
		return this.web;
	}

	public WebServer getWebServer() {
		return this.webServer;
	}

	public Map<String, PoolProperties> getPools() {
		return this.pools;
	}

	public ExistingExecutorsProperties getExistingExecutors() {
		return this.existingExecutors;
	}

	public ListenersProperties getListeners() {
		return this.listeners;
	}

	public SchedulerProperties getScheduler() {
		return this.scheduler;
	}

	public List<String> getExclude() {
		return this.exclude;
	}

	public void setExclude(List<String> exclude) {
		this.exclude = exclude;
	}

	/**
	 * The thread budget that all managed pools share.
	 */
	public static class Budget {

		/**
		 * Maximum number of live threads across all managed pools. Defaults to the sum of
		 * the pools' max-threads.
		 */
		private @Nullable Integer maxThreads;

		public @Nullable Integer getMaxThreads() {
			return this.maxThreads;
		}

		public void setMaxThreads(@Nullable Integer maxThreads) {
			this.maxThreads = maxThreads;
		}

	}

	/**
	 * Self-tuning settings.
	 */
	public static class Tuning {

		/**
		 * Whether the pools tune their own sizes.
		 */
		private boolean enabled = true;

		/**
		 * How often the tuner's fast path reads every pool between measurement windows,
		 * to meet a load step and hand a pool its share of the budget at once; 0 turns it
		 * off. Shorter than the measurement window.
		 */
		private Duration fastPathInterval = Duration.ofMillis(100);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getFastPathInterval() {
			return this.fastPathInterval;
		}

		public void setFastPathInterval(Duration fastPathInterval) {
			this.fastPathInterval = fastPathInterval;
		}

	}

	/**
	 * How the pools' tasks are measured.
	 */
	public static class Measurement {

		/**
		 * Length of a measurement window: how often every pool's snapshot is taken.
		 */
		private Duration window = Duration.ofSeconds(1);

		/**
		 * Time at most one task in this many; 1 lets the load decide (every task below
		 * about a thousand a window, a sample of about a thousand above). Counts are
		 * exact either way.
		 */
		private int timingSampleEvery = 1;

		/**
		 * Read the thread CPU time of at most one timed task in this many; 0 turns CPU
		 * sampling off.
		 */
		private int cpuSampleEvery = 16;

		public Duration getWindow() {
			return this.window;
		}

		public void setWindow(Duration window) {
			this.window = window;
		}

		public int getTimingSampleEvery() {
			return this.timingSampleEvery;
		}

		public void setTimingSampleEvery(int timingSampleEvery) {
			this.timingSampleEvery = timingSampleEvery;
		}

		public int getCpuSampleEvery() {
			return this.cpuSampleEvery;
		}

		public void setCpuSampleEvery(int cpuSampleEvery) {
			this.cpuSampleEvery = cpuSampleEvery;
		}

	}

	/**
	 * How rejected work is answered over HTTP.
	 */
	public static class Web {

		/**
		 * Whether work rejected by a managed pool is answered with a problem response
		 * (429 or 503 with Retry-After).
		 */
		private boolean rejectionHandlerEnabled = true;

		public boolean isRejectionHandlerEnabled() {
			return this.rejectionHandlerEnabled;
		}

		public void setRejectionHandlerEnabled(boolean rejectionHandlerEnabled) {
			this.rejectionHandlerEnabled = rejectionHandlerEnabled;
		}

	}

	/**
	 * The embedded web server's request pool, managed as the pool named {@code http}: the
	 * keys of a declared pool, with the server's defaults.
	 */
	public static class WebServer extends PoolProperties {

		/**
		 * Whether the embedded Tomcat's or Jetty's request threads are the managed pool
		 * named {@code http}: bounded, measured, tuned and refusing with 503 when full.
		 */
		private boolean enabled;

		public WebServer() {
			super(10);
			setMaxThreads(200);
			setQueueCapacity(100);
			setRejectionStatus(503);
		}

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

}
