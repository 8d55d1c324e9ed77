package io.github.poolpilot.benchmarks.ab;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * Judges the rounds of an A/B run: a round (raw, then each executor compared with it) is
 * kept only when raw's rate in it is within a tolerance of raw's best rate in the run, so
 * that a round in which something else took the CPU is discarded rather than averaged in.
 * A disturbed machine slows the faster side more and pulls a ratio toward 1; raw, which
 * does the least, is the one whose slowdown shows it.
 *
 * @author poolpilot authors
 */
public final class PairJudge {

	private final double tolerance;

	/**
	 * @param tolerance how far below its best raw's rate may fall in a kept round, as a
	 * fraction in [0, 1)
	 * @throws IllegalArgumentException when the tolerance is outside [0, 1)
	 */
	public PairJudge(double tolerance) {
		if (!(tolerance >= 0 && tolerance < 1)) {
			throw new IllegalArgumentException(
					"The tolerance must be a fraction from 0 (included) to 1 (excluded) but was " + tolerance);
		}
		this.tolerance = tolerance;
	}

	/**
	 * Judge every round against raw's best rate among them.
	 * @param rounds the rounds, in the order they ran
	 * @return each round with its verdict, in the same order
	 */
	public List<Judged> judge(List<Round> rounds) {
		double best = bestRaw(rounds);
		double floor = best * (1 - this.tolerance);
		List<Judged> judged = new ArrayList<>(rounds.size());
		for (Round round : rounds) {
			if (round.raw() >= floor) {
				judged.add(new Judged(round, true, "kept"));
			}
			else {
				judged.add(new Judged(round, false,
						String.format(Locale.ROOT,
								"discarded: raw at %.3f M/s is %.1f %% below this run's best raw, %.3f M/s "
										+ "(more than %.0f %%)",
								round.raw() / 1e6, 100 * (1 - round.raw() / best), best / 1e6, 100 * this.tolerance)));
			}
		}
		return judged;
	}

	/**
	 * Return whether a run needs another round to have the kept rounds it asks for.
	 * @param rounds the rounds so far
	 * @param minKept the kept rounds asked for
	 * @return whether fewer are kept
	 */
	public boolean needsMore(List<Round> rounds, int minKept) {
		return judge(rounds).stream().filter(Judged::kept).count() < minKept;
	}

	/**
	 * Return the spread of one executor's ratio to raw over the kept rounds.
	 * @param judged the judged rounds
	 * @param executor the executor's index in each round's rates
	 * @return the spread, or {@code null} when no round was kept
	 */
	public static @Nullable Spread ratios(List<Judged> judged, int executor) {
		double[] ratios = judged.stream()
			.filter(Judged::kept)
			.mapToDouble((round) -> round.round().ratio(executor))
			.toArray();
		return (ratios.length > 0) ? Spread.of(ratios) : null;
	}

	private static double bestRaw(List<Round> rounds) {
		double best = 0;
		for (Round round : rounds) {
			best = Math.max(best, round.raw());
		}
		return best;
	}

	/**
	 * One round: raw's rate, then the rate of each executor compared with it, in tasks
	 * per second.
	 *
	 * @param index the round's number, from 1
	 * @param raw raw's rate
	 * @param others the other executors' rates, in the run's order
	 */
	public record Round(int index, double raw, List<Double> others) {

		public Round {
			if (!(raw > 0) || others.stream().anyMatch((rate) -> !(rate > 0))) {
				throw new IllegalArgumentException(
						"Round " + index + " has a rate that is not above 0: raw " + raw + ", others " + others);
			}
			others = List.copyOf(others);
		}

		/**
		 * Return an executor's rate over raw's in this round.
		 * @param executor its index
		 * @return the ratio
		 */
		public double ratio(int executor) {
			return this.others.get(executor) / this.raw;
		}

	}

	/**
	 * A round and whether it is kept, with the reason when it is not.
	 *
	 * @param round the round
	 * @param kept whether it is kept
	 * @param verdict {@code kept}, or why it was discarded
	 */
	public record Judged(Round round, boolean kept, String verdict) {

	}

}
