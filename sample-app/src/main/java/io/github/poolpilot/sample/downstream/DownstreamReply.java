package io.github.poolpilot.sample.downstream;

/**
 * What the downstream answers.
 *
 * @param reply its reply to the message
 * @param tookMs how long the downstream took, in milliseconds, as it says
 * @author poolpilot authors
 */
public record DownstreamReply(String reply, long tookMs) {

}
