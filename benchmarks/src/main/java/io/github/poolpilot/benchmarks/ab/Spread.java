package io.github.poolpilot.benchmarks.ab;

import java.util.Arrays;
import java.util.Locale;

/**
 * The median of a few values with their quartiles and range. Quartiles interpolate
 * linearly between the sorted values (the usual definition, R's type 7), so that five
 * values give a quartile at the second and the fourth.
 *
 * @param count how many values
 * @param median their median
 * @param lowerQuartile their first quartile
 * @param upperQuartile their third quartile
 * @param min the smallest
 * @param max the largest
 * @author poolpilot authors
 */
public record Spread(int count, double median, double lowerQuartile, double upperQuartile, double min, double max) {

	/**
	 * Return the spread of some values.
	 * @param values at least one value
	 * @return their spread
	 * @throws IllegalArgumentException when there is no value
	 */
	public static Spread of(double... values) {
		if (values.length == 0) {
			throw new IllegalArgumentException("A spread needs at least one value");
		}
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		return new Spread(sorted.length, quantile(sorted, 0.5), quantile(sorted, 0.25), quantile(sorted, 0.75),
				sorted[0], sorted[sorted.length - 1]);
	}

	private static double quantile(double[] sorted, double p) {
		double position = p * (sorted.length - 1);
		int below = (int) Math.floor(position);
		int above = Math.min(sorted.length - 1, below + 1);
		return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
	}

	/**
	 * Describe it as {@code 0.842 (IQR 0.830-0.861, range 0.801-0.880, n=6)}.
	 * @return the description
	 */
	public String describe() {
		return String.format(Locale.ROOT, "%.3f (IQR %.3f-%.3f, range %.3f-%.3f, n=%d)", this.median,
				this.lowerQuartile, this.upperQuartile, this.min, this.max, this.count);
	}

}
