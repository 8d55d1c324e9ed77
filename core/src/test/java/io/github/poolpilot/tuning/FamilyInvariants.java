package io.github.poolpilot.tuning;

import java.util.ArrayList;
import java.util.List;

import io.github.poolpilot.tuning.PoolSimulator.Run;
import io.github.poolpilot.tuning.PoolSimulator.Sample;

/**
 * What every drawn scenario ({@link TuningFamily}) must meet, the tuned pool against the
 * same pool fixed at its max-threads on the same arrivals and the same host. In this
 * simulator more threads never serve less (processor sharing has no overhead, a
 * downstream serves its calls in turn), so the pool at its max-threads is also the best
 * static size for throughput.
 * <ul>
 * <li><b>Refusals</b>: the tuned pool refuses at most {@value #MATERIAL} of the offered
 * tasks (and one task) more than the fixed pool; the tasks the fixed pool still holds at
 * the end beyond the tuned one's (its threads are a buffer too) count as refused by
 * it.</li>
 * <li><b>Throughput</b>: from second {@value #FROM} to the end, at least
 * {@value #THROUGHPUT} of the fixed pool's.</li>
 * <li><b>Knee</b>: where a downstream is the limit, once the pool was within its knee +
 * 50 % (or from second {@value #KNEE_BY}), never above it for more than
 * {@value #WINDOWS_ABOVE_KNEE} windows in a row. Where the pool's min-threads lies above
 * the knee + 50 %, min-threads is the limit: the user's floor, which no tuner may
 * cut.</li>
 * <li><b>Changes</b>: from second {@value #FROM}, at most {@value #CHANGES_A_MINUTE} size
 * changes in any minute.</li>
 * </ul>
 *
 * @author poolpilot authors
 */
final class FamilyInvariants {

	static final double MATERIAL = 0.01;

	static final double THROUGHPUT = 0.97;

	static final int FROM = 11;

	static final int KNEE_BY = 60;

	static final int WINDOWS_ABOVE_KNEE = 3;

	static final int CHANGES_A_MINUTE = 12;

	private FamilyInvariants() {
	}

	/**
	 * Return the invariants a tuned run broke, in words, none when it met them all.
	 * @param family the scenario
	 * @param tuned the tuned pool's run
	 * @param fixed the pool fixed at its max-threads, on the same arrivals
	 * @return what it broke
	 */
	static List<String> broken(TuningFamily family, List<Sample> tuned, List<Sample> fixed) {
		List<String> broken = new ArrayList<>();
		long offered = tuned.stream().mapToLong(Sample::arrivals).sum();
		long excess = excessRefusals(tuned, fixed);
		if (excess > MATERIAL * offered + 1) {
			broken.add(String.format("refused %d more of %d offered than the pool fixed at %d threads (%d against %d)",
					excess, offered, family.bounds().maxThreads(), refused(tuned), refused(fixed)));
		}
		int end = family.seconds();
		double throughput = Run.throughput(tuned, FROM, end);
		double best = Run.throughput(fixed, FROM, end);
		if (throughput < THROUGHPUT * best) {
			broken.add(String.format("served %.1f/s from %d s, %.3f of the %.1f/s of the pool fixed at %d threads",
					throughput, FROM, throughput / best, best, family.bounds().maxThreads()));
		}
		int limit = kneeLimit(family);
		if (limit > 0) {
			int longest = longestAbove(tuned, limit);
			if (longest > WINDOWS_ABOVE_KNEE) {
				broken.add(String.format("above the knee + 50 %% (%d threads, knee %.1f) for %d windows in a row",
						limit, family.knee(), longest));
			}
		}
		long changes = mostChangesInAMinute(tuned, end);
		if (changes > CHANGES_A_MINUTE) {
			broken.add(String.format("%d size changes in a minute", changes));
		}
		return broken;
	}

	static long refused(List<Sample> run) {
		return run.stream().mapToLong(Sample::rejected).sum();
	}

	/**
	 * The tasks the tuned pool refused beyond the fixed pool's refusals and the tasks the
	 * fixed pool still held at the end beyond the tuned one's.
	 */
	static long excessRefusals(List<Sample> tuned, List<Sample> fixed) {
		long heldByFixed = held(fixed.get(fixed.size() - 1)) - held(tuned.get(tuned.size() - 1));
		return refused(tuned) - refused(fixed) - Math.max(0, heldByFixed);
	}

	private static long held(Sample last) {
		return (long) last.queued() + last.running();
	}

	/**
	 * The most threads the knee's invariant allows a scenario's pool: the knee + 50 %, or
	 * its min-threads when those lie above; {@code 0} where no downstream is the limit.
	 */
	static int kneeLimit(TuningFamily family) {
		double knee = family.knee();
		return (knee > 0) ? Math.max(kneeLimit(knee), family.bounds().minThreads()) : 0;
	}

	/**
	 * The knee + 50 %, as {@link Knee#cap()} rounds it: at least one thread beyond it.
	 */
	static int kneeLimit(double knee) {
		return Math.max((int) (1.5 * knee), (int) Math.ceil(knee) + 1);
	}

	/**
	 * The most windows in a row in which the pool had more than {@code limit} threads at
	 * any moment, counted once it had been within the limit or from second
	 * {@value #KNEE_BY}.
	 */
	static int longestAbove(List<Sample> run, int limit) {
		boolean counting = false;
		int longest = 0;
		int above = 0;
		for (Sample sample : run) {
			counting = counting || sample.maxSize() <= limit || sample.second() >= KNEE_BY;
			above = (counting && sample.maxSize() > limit) ? above + 1 : 0;
			longest = Math.max(longest, above);
		}
		return longest;
	}

	static long mostChangesInAMinute(List<Sample> run, int end) {
		long most = 0;
		for (int from = FROM; from <= end; from++) {
			most = Math.max(most, Run.sizeChanges(run, from, Math.min(end, from + 59)));
		}
		return most;
	}

}
