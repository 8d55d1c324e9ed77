package io.github.poolpilot.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Random draws from one seed, for families of test cases. A range's bounds come up more
 * often than a uniform draw would give them (one draw in eight is a bound), because that
 * is where the mistakes live.
 *
 * @author poolpilot authors
 */
public final class Draw {

	private final SplittableRandom random;

	public Draw(long seed) {
		this.random = new SplittableRandom(seed);
	}

	/**
	 * An integer from {@code min} to {@code max}, both included.
	 * @param min the smallest
	 * @param max the largest
	 * @return the integer
	 */
	public int between(int min, int max) {
		if (this.random.nextInt(8) == 0) {
			return this.random.nextBoolean() ? min : max;
		}
		return this.random.nextInt(min, max + 1);
	}

	/**
	 * A number from {@code min} to {@code max}, uniform.
	 * @param min the smallest
	 * @param max the largest
	 * @return the number
	 */
	public double uniform(double min, double max) {
		return min + (max - min) * this.random.nextDouble();
	}

	/**
	 * A number from {@code min} to {@code max}, uniform on a log scale, so that each
	 * decade is drawn as often as the others.
	 * @param min the smallest, above zero
	 * @param max the largest
	 * @return the number
	 */
	public double logUniform(double min, double max) {
		return Math.exp(uniform(Math.log(min), Math.log(max)));
	}

	/**
	 * Any long, its extremes and zero included more often than chance would.
	 * @return the long
	 */
	public long anyLong() {
		return switch (this.random.nextInt(10)) {
			case 0 -> Long.MIN_VALUE;
			case 1 -> Long.MAX_VALUE;
			case 2 -> 0;
			default -> this.random.nextLong();
		};
	}

	/**
	 * Any finite double, zero and the extremes included more often than chance would.
	 * @return the double
	 */
	public double anyDouble() {
		return switch (this.random.nextInt(10)) {
			case 0 -> -Double.MAX_VALUE;
			case 1 -> Double.MAX_VALUE;
			case 2 -> 0.0;
			case 3 -> Double.MIN_VALUE;
			default -> (this.random.nextDouble() - 0.5) * Math.pow(10, this.random.nextInt(-3, 20));
		};
	}

	/**
	 * Whether an event of probability {@code p} happened.
	 * @param p the probability
	 * @return whether it happened
	 */
	public boolean chance(double p) {
		return this.random.nextDouble() < p;
	}

	/**
	 * One of the values, each as likely.
	 * @param <T> the values' type
	 * @param values the values
	 * @return one of them
	 */
	@SafeVarargs
	public final <T> T oneOf(T... values) {
		return values[this.random.nextInt(values.length)];
	}

	/**
	 * A list of {@code min} to {@code max} elements, each drawn by {@code element}.
	 * @param <T> the elements' type
	 * @param min the fewest elements
	 * @param max the most elements
	 * @param element draws one element
	 * @return the list
	 */
	public <T> List<T> list(int min, int max, Function<Draw, T> element) {
		int size = between(min, max);
		List<T> list = new ArrayList<>(size);
		for (int i = 0; i < size; i++) {
			list.add(element.apply(this));
		}
		return list;
	}

}
