package io.github.poolpilot.tuning;

import java.util.Arrays;

/**
 * The last few values of a figure, for its least, its largest and its mean.
 *
 * @author poolpilot authors
 */
final class RecentValues {

	private final double[] values;

	private int count;

	RecentValues(int capacity) {
		this.values = new double[capacity];
	}

	void add(double value) {
		this.values[this.count % this.values.length] = value;
		this.count++;
	}

	double min() {
		return (this.count == 0) ? Double.NaN : Arrays.stream(this.values, 0, filled()).min().getAsDouble();
	}

	double max() {
		return (this.count == 0) ? Double.NaN : Arrays.stream(this.values, 0, filled()).max().getAsDouble();
	}

	double mean() {
		return (this.count == 0) ? Double.NaN : Arrays.stream(this.values, 0, filled()).average().getAsDouble();
	}

	/**
	 * Return how many values are kept, at most the capacity.
	 */
	int size() {
		return filled();
	}

	void clear() {
		this.count = 0;
	}

	private int filled() {
		return Math.min(this.count, this.values.length);
	}

}
