package io.github.poolpilot.tuning;

import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;

/**
 * The model behind the tuner: how many threads an offered load needs. Little's law turns
 * the arrival rate λ and a service time S into busy threads R = λ·S; square-root staffing
 * (Halfin and Whitt) adds a margin that grows with √R, N = ⌈R + β·√R⌉ with β =
 * {@value #SAFETY_MARGIN}, so that only a few percent of the tasks wait for a thread
 * whatever the load; Goetz's size, Ncpu·U·(1 + W/C) from the measured wait/compute ratio,
 * caps it: beyond it the CPU is the bottleneck.
 *
 * @author poolpilot authors
 */
public final class SizingModel {

	/**
	 * β of square-root staffing.
	 */
	public static final double SAFETY_MARGIN = 2;

	private SizingModel() {
	}

	/**
	 * Return the threads the offered load of a window needs at a given service time.
	 * @param law the window's figures: its arrival rate and Goetz's size
	 * @param serviceMs the service time to staff for, in milliseconds
	 * @return the threads needed; 0 with no load, -1 while no service time is known
	 */
	public static int need(LittlesLaw law, double serviceMs) {
		if (law.arrivalRate() <= 0) {
			return 0;
		}
		if (Double.isNaN(serviceMs) || serviceMs <= 0) {
			return -1;
		}
		// Little's law: the offered load keeps λ·S threads busy.
		int staffed = staffed(law.arrivalRate() * serviceMs / 1000);
		Integer goetz = law.recommendedThreads();
		return (goetz != null) ? Math.min(staffed, Math.max(1, goetz)) : staffed;
	}

	/**
	 * Square-root staffing on Little's law: the threads an offered load of R busy threads
	 * needs, ⌈R + β·√R⌉.
	 * @param busyThreads the offered load in busy threads, R = λ·S
	 * @return the threads needed
	 */
	public static int staffed(double busyThreads) {
		return (busyThreads <= 0) ? 0 : (int) Math.ceil(busyThreads + SAFETY_MARGIN * Math.sqrt(busyThreads));
	}

}
