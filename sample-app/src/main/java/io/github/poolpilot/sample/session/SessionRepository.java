package io.github.poolpilot.sample.session;

import java.time.OffsetDateTime;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Repository;
import org.springframework.util.Assert;

/**
 * Sessions and their exchanges in the {@code sample_session} and {@code sample_exchange}
 * tables ({@code schema.sql}).
 *
 * @author poolpilot authors
 */
@Repository
class SessionRepository {

	private final JdbcClient jdbc;

	SessionRepository(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	long start(OffsetDateTime startedAt) {
		KeyHolder key = new GeneratedKeyHolder();
		this.jdbc.sql("INSERT INTO sample_session (started_at) VALUES (:startedAt)")
			.param("startedAt", startedAt)
			.update(key, "id");
		return id(key);
	}

	Optional<SessionRow> find(long id) {
		return this.jdbc.sql("SELECT id, started_at, stopped_at FROM sample_session WHERE id = :id")
			.param("id", id)
			.query((rs, row) -> new SessionRow(rs.getLong("id"), rs.getObject("started_at", OffsetDateTime.class),
					rs.getObject("stopped_at", OffsetDateTime.class)))
			.optional();
	}

	/**
	 * Stop a session that is still open.
	 * @return whether it was open
	 */
	boolean stop(long id, OffsetDateTime stoppedAt) {
		return this.jdbc.sql("UPDATE sample_session SET stopped_at = :stoppedAt WHERE id = :id AND stopped_at IS NULL")
			.param("stoppedAt", stoppedAt)
			.param("id", id)
			.update() == 1;
	}

	long addExchange(long sessionId, String message, String reply, long downstreamMs, OffsetDateTime at) {
		KeyHolder key = new GeneratedKeyHolder();
		this.jdbc
			.sql("INSERT INTO sample_exchange (session_id, message, reply, downstream_ms, created_at) "
					+ "VALUES (:sessionId, :message, :reply, :downstreamMs, :at)")
			.param("sessionId", sessionId)
			.param("message", message)
			.param("reply", reply)
			.param("downstreamMs", downstreamMs)
			.param("at", at)
			.update(key, "id");
		return id(key);
	}

	int countExchanges(long sessionId) {
		return this.jdbc.sql("SELECT COUNT(*) FROM sample_exchange WHERE session_id = :sessionId")
			.param("sessionId", sessionId)
			.query(Integer.class)
			.single();
	}

	private static long id(KeyHolder key) {
		Number id = key.getKey();
		Assert.state(id != null, "The database returned no generated id");
		return id.longValue();
	}

	/**
	 * One row of {@code sample_session}.
	 *
	 * @param id the session's id
	 * @param startedAt when it started
	 * @param stoppedAt when it stopped, {@code null} while open
	 */
	record SessionRow(long id, OffsetDateTime startedAt, @Nullable OffsetDateTime stoppedAt) {

	}

}
