package io.github.poolpilot.sample.housekeeping;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.poolpilot.sample.SampleProperties;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Two scheduled jobs on Spring Boot's one-thread {@code taskScheduler}: a quick report of
 * the open sessions every few seconds, and a slow archive run once a minute, standing for
 * a batch that takes a while. While the archive runs, the report's runs start late
 * because the only thread is busy: poolpilot measures that lateness (the pool
 * {@code taskScheduler} on the live page and at {@code /actuator/threadpools}) and the
 * tuner gives the scheduler a second thread, after which the report runs on time.
 *
 * @author poolpilot authors
 */
@Component
class Housekeeping {

	private static final Log logger = LogFactory.getLog(Housekeeping.class);

	private final JdbcClient jdbc;

	private final Duration archiveTakes;

	private final AtomicInteger openSessions = new AtomicInteger();

	Housekeeping(JdbcClient jdbc, SampleProperties properties) {
		this.jdbc = jdbc;
		this.archiveTakes = properties.getHousekeeping().getArchiveTakes();
	}

	@Scheduled(fixedRateString = "${sample.housekeeping.report-every:5s}")
	void reportOpenSessions() {
		int open = this.jdbc.sql("SELECT COUNT(*) FROM sample_session WHERE stopped_at IS NULL")
			.query(Integer.class)
			.single();
		this.openSessions.set(open);
		logger.debug("Open sessions: " + open);
	}

	@Scheduled(cron = "${sample.housekeeping.archive-cron:0 * * * * *}")
	void archiveStoppedSessions() throws InterruptedException {
		int stopped = this.jdbc.sql("SELECT COUNT(*) FROM sample_session WHERE stopped_at IS NOT NULL")
			.query(Integer.class)
			.single();
		// Standing for the slow part of a real batch: writing the sessions elsewhere.
		Thread.sleep(this.archiveTakes.toMillis());
		logger.debug("Archived " + stopped + " stopped sessions");
	}

	int openSessions() {
		return this.openSessions.get();
	}

}
