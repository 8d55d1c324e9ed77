package io.github.poolpilot.sample;

import java.net.URI;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the sample application.
 *
 * @author poolpilot authors
 */
@ConfigurationProperties("sample")
public class SampleProperties {

	private final Executors executors = new Executors();

	private final Talk talk = new Talk();

	private final Housekeeping housekeeping = new Housekeeping();

	private final Orders orders = new Orders();

	public Executors getExecutors() {
		return this.executors;
	}

	public Housekeeping getHousekeeping() {
		return this.housekeeping;
	}

	public Talk getTalk() {
		return this.talk;
	}

	public Orders getOrders() {
		return this.orders;
	}

	/**
	 * The executor bean each API runs its work on.
	 */
	public static class Executors {

		/**
		 * Executor bean that runs the start API's work.
		 */
		private String start = "start";

		/**
		 * Executor bean that runs the talk API's work.
		 */
		private String talk = "talk";

		/**
		 * Executor bean that runs the stop API's work.
		 */
		private String stop = "stop";

		public String getStart() {
			return this.start;
		}

		public void setStart(String start) {
			this.start = start;
		}

		public String getTalk() {
			return this.talk;
		}

		public void setTalk(String talk) {
			this.talk = talk;
		}

		public String getStop() {
			return this.stop;
		}

		public void setStop(String stop) {
			this.stop = stop;
		}

	}

	/**
	 * The talk API's downstream.
	 */
	public static class Talk {

		/**
		 * URL the talk API posts each message to. Defaults to the stub this application
		 * serves itself at /downstream/talk.
		 */
		private @Nullable URI downstreamUrl;

		/**
		 * How long the built-in downstream stub takes to answer one call.
		 */
		private Duration downstreamLatency = Duration.ofMillis(300);

		/**
		 * How many calls the built-in downstream stub serves at once; further calls wait
		 * for a free place, as at a saturated downstream.
		 */
		private int downstreamCapacity = 20;

		public @Nullable URI getDownstreamUrl() {
			return this.downstreamUrl;
		}

		public void setDownstreamUrl(@Nullable URI downstreamUrl) {
			this.downstreamUrl = downstreamUrl;
		}

		public Duration getDownstreamLatency() {
			return this.downstreamLatency;
		}

		public void setDownstreamLatency(Duration downstreamLatency) {
			this.downstreamLatency = downstreamLatency;
		}

		public int getDownstreamCapacity() {
			return this.downstreamCapacity;
		}

		public void setDownstreamCapacity(int downstreamCapacity) {
			this.downstreamCapacity = downstreamCapacity;
		}

	}

	/**
	 * The orders listener, a RabbitMQ listener whose consumers are the pool "orders".
	 */
	public static class Orders {

		/**
		 * Whether the orders listener runs; it needs a RabbitMQ broker (the rabbit
		 * profile turns it on).
		 */
		private boolean enabled;

		/**
		 * How long the orders' downstream takes per order once it serves it.
		 */
		private Duration serviceTime = Duration.ofMillis(50);

		/**
		 * How many orders the orders' downstream serves at once; the others wait in line,
		 * holding their consumers.
		 */
		private int downstreamCapacity = 4;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getServiceTime() {
			return this.serviceTime;
		}

		public void setServiceTime(Duration serviceTime) {
			this.serviceTime = serviceTime;
		}

		public int getDownstreamCapacity() {
			return this.downstreamCapacity;
		}

		public void setDownstreamCapacity(int downstreamCapacity) {
			this.downstreamCapacity = downstreamCapacity;
		}

	}

	/**
	 * The scheduled jobs, on Spring Boot's taskScheduler.
	 */
	public static class Housekeeping {

		/**
		 * Whether the scheduled jobs run.
		 */
		private boolean enabled = true;

		/**
		 * Period of the open-sessions report.
		 */
		private Duration reportEvery = Duration.ofSeconds(5);

		/**
		 * Cron expression of the slow archive run.
		 */
		private String archiveCron = "0 * * * * *";

		/**
		 * How long an archive run takes.
		 */
		private Duration archiveTakes = Duration.ofSeconds(2);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getReportEvery() {
			return this.reportEvery;
		}

		public void setReportEvery(Duration reportEvery) {
			this.reportEvery = reportEvery;
		}

		public String getArchiveCron() {
			return this.archiveCron;
		}

		public void setArchiveCron(String archiveCron) {
			this.archiveCron = archiveCron;
		}

		public Duration getArchiveTakes() {
			return this.archiveTakes;
		}

		public void setArchiveTakes(Duration archiveTakes) {
			this.archiveTakes = archiveTakes;
		}

	}

}
