package io.github.poolpilot.sample.session;

import java.time.OffsetDateTime;

/**
 * The answer to {@code POST /api/start}.
 *
 * @param sessionId the new session's id
 * @param startedAt when it started
 * @author poolpilot authors
 */
public record StartedSession(long sessionId, OffsetDateTime startedAt) {

}
