package io.github.poolpilot.listener.kafka;

/**
 * What became of a concurrency asked of {@link ConcurrencyRestarts}.
 *
 * @author poolpilot authors
 */
enum ConcurrencyOutcome {

	/**
	 * The container was not running: it starts with it next time.
	 */
	SET,

	/**
	 * A restart on the restarter's thread brings it.
	 */
	RESTARTING,

	/**
	 * Refused, changing nothing: the application stops, and its containers with it.
	 */
	REFUSED_CLOSED

}
