package io.github.poolpilot.history;

import io.github.poolpilot.tuning.Decision;

/**
 * A decision about a pool's size and when it was recorded.
 *
 * @param epochMillis when, in epoch milliseconds
 * @param decision the decision
 * @author poolpilot authors
 */
public record TimedDecision(long epochMillis, Decision decision) {

}
