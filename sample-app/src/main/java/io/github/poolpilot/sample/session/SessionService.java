package io.github.poolpilot.sample.session;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import io.github.poolpilot.sample.downstream.DownstreamClient;
import io.github.poolpilot.sample.downstream.DownstreamReply;
import io.github.poolpilot.sample.session.SessionRepository.SessionRow;

import org.springframework.scheduling.annotation.Async;
import org.springframework.stereotype.Service;

/**
 * The work behind each API, each method on its own pool: {@code start}, {@code talk} and
 * {@code stop} by default ({@code sample.executors.*}). A pool that refuses the work
 * throws at once, on the caller's thread, and poolpilot answers the request with 429 and
 * Retry-After.
 *
 * @author poolpilot authors
 */
@Service
public class SessionService {

	private final SessionRepository sessions;

	private final DownstreamClient downstream;

	SessionService(SessionRepository sessions, DownstreamClient downstream) {
		this.sessions = sessions;
		this.downstream = downstream;
	}

	/**
	 * Start a session.
	 * @return the started session
	 */
	@Async("${sample.executors.start:start}")
	public CompletableFuture<StartedSession> start() {
		OffsetDateTime now = now();
		return CompletableFuture.completedFuture(new StartedSession(this.sessions.start(now), now));
	}

	/**
	 * Send a message of an open session to the downstream and record the exchange.
	 * @param sessionId the session
	 * @param message the message
	 * @return the downstream's reply
	 * @throws SessionNotFoundException if there is no such session
	 * @throws SessionStoppedException if the session was stopped
	 */
	@Async("${sample.executors.talk:talk}")
	public CompletableFuture<TalkReply> talk(long sessionId, String message) {
		return CompletableFuture.completedFuture(exchange(sessionId, message, this.downstream::send));
	}

	/**
	 * Do what {@link #talk} does on the calling thread, the request's own: the work of
	 * the thread-per-request API, which the web server's request pool protects.
	 * @param sessionId the session
	 * @param message the message
	 * @return the downstream's reply
	 * @throws SessionNotFoundException if there is no such session
	 * @throws SessionStoppedException if the session was stopped
	 */
	public TalkReply talkOnThisThread(long sessionId, String message) {
		return exchange(sessionId, message, this.downstream::sendFromRequestThread);
	}

	private TalkReply exchange(long sessionId, String message, Function<String, DownstreamReply> downstream) {
		SessionRow session = this.sessions.find(sessionId).orElseThrow(() -> new SessionNotFoundException(sessionId));
		if (session.stoppedAt() != null) {
			throw new SessionStoppedException(sessionId, session.stoppedAt());
		}
		long start = System.nanoTime();
		DownstreamReply reply = downstream.apply(message);
		long downstreamMs = (System.nanoTime() - start) / 1_000_000;
		long exchangeId = this.sessions.addExchange(sessionId, message, reply.reply(), downstreamMs, now());
		return new TalkReply(sessionId, exchangeId, reply.reply(), downstreamMs);
	}

	/**
	 * Stop an open session.
	 * @param sessionId the session
	 * @return the stopped session
	 * @throws SessionNotFoundException if there is no such session
	 * @throws SessionStoppedException if the session was stopped already
	 */
	@Async("${sample.executors.stop:stop}")
	public CompletableFuture<StoppedSession> stop(long sessionId) {
		OffsetDateTime now = now();
		if (!this.sessions.stop(sessionId, now)) {
			SessionRow session = this.sessions.find(sessionId)
				.orElseThrow(() -> new SessionNotFoundException(sessionId));
			throw new SessionStoppedException(sessionId, session.stoppedAt());
		}
		return CompletableFuture
			.completedFuture(new StoppedSession(sessionId, now, this.sessions.countExchanges(sessionId)));
	}

	/**
	 * Now, to the microsecond that both H2 and PostgreSQL keep.
	 */
	private static OffsetDateTime now() {
		return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
	}

}
