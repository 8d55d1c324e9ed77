package io.github.poolpilot.tuning;

import io.github.poolpilot.tuning.Decision.KeptStep;

/**
 * How a probe down went ({@link DownProbe#judge}).
 *
 * @param from the size before it
 * @param to the size it tried
 * @param throughputBefore the throughput it had to hold
 * @param change the relative change of throughput
 * @param fell whether it lost throughput, beyond the tolerance, while work waited
 * @param drained whether the queue drained meanwhile
 * @param verdict whether it was judged, is judged again, or was unclear
 * @author poolpilot authors
 */
record ProbeOutcome(int from, int to, double throughputBefore, double change, boolean fell, boolean drained,
		Verdict verdict) {

	KeptStep kept() {
		return new KeptStep(this.from, this.to, this.change, this.drained);
	}

	/**
	 * What judging a probe came to.
	 */
	enum Verdict {

		/**
		 * Held or fell, beyond the windows' noise or after the most windows.
		 */
		JUDGED,

		/**
		 * Within the windows' noise: judged again in the next window.
		 */
		AGAIN,

		/**
		 * Held, but within the windows' noise after the most windows.
		 */
		UNCLEAR

	}

}
