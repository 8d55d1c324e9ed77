package io.github.poolpilot.sample.session;

/**
 * The answer to {@code POST /api/talk}.
 *
 * @param sessionId the session
 * @param exchangeId the recorded exchange's id
 * @param reply the downstream's reply
 * @param downstreamMs how long the downstream call took, in milliseconds
 * @author poolpilot authors
 */
public record TalkReply(long sessionId, long exchangeId, String reply, long downstreamMs) {

}
