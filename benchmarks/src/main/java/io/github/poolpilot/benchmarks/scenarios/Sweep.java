package io.github.poolpilot.benchmarks.scenarios;

import java.util.Comparator;
import java.util.List;

/**
 * The choice of the best static size from short runs at each size, by the simulator's
 * rule: the most throughput; among the sizes within 1 % of it, the least p99; among those
 * within 5 % of that p99, the fewest threads.
 *
 * @author poolpilot authors
 */
final class Sweep {

	static final double THROUGHPUT_TOLERANCE = 0.01;

	static final double P99_TOLERANCE = 0.05;

	private Sweep() {
	}

	/**
	 * Choose the best static size.
	 * @param points what each size did
	 * @return the best of them
	 */
	static Point best(List<Point> points) {
		if (points.isEmpty()) {
			throw new IllegalArgumentException("A sweep needs at least one size");
		}
		double most = points.stream().mapToDouble(Point::throughput).max().getAsDouble();
		List<Point> fastest = points.stream()
			.filter((point) -> point.throughput() >= (1 - THROUGHPUT_TOLERANCE) * most)
			.toList();
		double least = fastest.stream().mapToDouble(Point::p99Ms).min().getAsDouble();
		return fastest.stream()
			.filter((point) -> point.p99Ms() <= (1 + P99_TOLERANCE) * least)
			.min(Comparator.comparingInt(Point::size))
			.get();
	}

	/**
	 * What one static size did in its short run.
	 *
	 * @param size the size
	 * @param throughput tasks completed per second
	 * @param p99Ms the 99th percentile of the latencies from the intended start
	 */
	record Point(int size, double throughput, double p99Ms) {

	}

}
