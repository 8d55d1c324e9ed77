package io.github.poolpilot.tuning;

import java.util.Arrays;

import org.jspecify.annotations.Nullable;

/**
 * How much one of a pool's figures (its throughput, its service time) varies from window
 * to window while its size holds: the noise that a step's difference must exceed before
 * it is kept or undone, as the signal-to-noise test of the .NET thread pool's hill
 * climbing. Each window adds its value with the size it had throughout; the noise is the
 * pooled relative variance within the runs of windows at one size in the last
 * {@value #WINDOWS}, so that a step's own change is not counted as noise. A burst, a
 * lull, a mix of cheap and expensive tasks or a host stealing CPU all show in it; a
 * steady load on a quiet machine leaves only the noise of counting, which the judges take
 * as the least noise there is (a Poisson count's 1/N).
 *
 * @author poolpilot authors
 */
final class WindowNoise {

	/**
	 * The windows the noise is measured over.
	 */
	static final int WINDOWS = 12;

	/**
	 * The most windows at one size that make the level a step is compared with: older
	 * ones may have had another load.
	 */
	static final int LEVEL_WINDOWS = 4;

	/**
	 * How many standard errors a difference must exceed to count.
	 */
	static final double SIGNIFICANT = 2;

	/**
	 * How many times the mean squared deviation of the others a window's must exceed to
	 * be left out of the noise.
	 */
	static final double OUTLIER = 100;

	/**
	 * The fewest degrees of freedom from which a window may be left out of the noise.
	 */
	static final int FEWEST_FOR_OUTLIER = 4;

	private final int[] sizes = new int[WINDOWS];

	private final double[] values = new double[WINDOWS];

	private int count;

	/**
	 * Add a window's value.
	 * @param size the size the pool had throughout the window, or -1 when it changed
	 * during it (such a window starts a new run and belongs to none)
	 * @param value the figure, NaN when the window did not measure it
	 */
	void add(int size, double value) {
		int at = this.count % WINDOWS;
		this.sizes[at] = (Double.isNaN(value)) ? -1 : size;
		this.values[at] = value;
		this.count++;
	}

	/**
	 * The standard error of the relative difference of two means of a figure, over so
	 * many windows each, from the relative variance of one window's, √(v·(1/n₁ + 1/n₀)),
	 * and never less than the Poisson error of the tasks counted in them, √(1/N₁ + 1/N₀).
	 * @param relativeVariance the relative variance of one window's figure
	 * ({@link #relativeVariance()})
	 * @param windows the windows of one mean
	 * @param completions the tasks they counted
	 * @param windowsBefore the windows of the other
	 * @param completionsBefore the tasks those counted
	 * @return the standard error
	 */
	static double relativeError(double relativeVariance, int windows, long completions, int windowsBefore,
			long completionsBefore) {
		double measured = relativeVariance * (1.0 / Math.max(1, windows) + 1.0 / windowsBefore);
		return Math.sqrt(Math.max(measured, 1.0 / Math.max(1, completions) + 1.0 / Math.max(1, completionsBefore)));
	}

	/**
	 * Return the relative variance of one window's value, pooled within the runs of
	 * windows at one size, each window's deviation taken from its run's median: 0 until
	 * two windows in a row had one size. Once {@value #FEWEST_FOR_OUTLIER} degrees of
	 * freedom count, every window whose squared deviation is over {@value #OUTLIER} times
	 * the median of them all (ten times as far from its run's median as windows typically
	 * are) is left out, with a degree each: a window of another regime than its run's (a
	 * cold start, a pause, a load that changed while the size held), which would
	 * otherwise set the noise of the next {@value #WINDOWS} windows. A median, not a
	 * mean, is the measure of what is typical, so that several such windows (a cold start
	 * lasts a few) do not hide one another.
	 */
	double relativeVariance() {
		Deviations deviations = deviations();
		double sum = 0;
		int degrees = deviations.degrees();
		for (int i = 0; i < deviations.squares().length; i++) {
			double square = deviations.squares()[i];
			if (Double.isNaN(square)) {
				continue;
			}
			if (deviations.outlier(i)) {
				degrees--;
			}
			else {
				sum += square;
			}
		}
		return (degrees > 0) ? sum / degrees : 0;
	}

	/**
	 * Return whether the noise was measured: two windows in a row had one size.
	 */
	boolean measured() {
		return deviations().degrees() > 0;
	}

	/**
	 * Each kept window's squared relative deviation from the median of its run of windows
	 * at one size, and the degrees of freedom they count.
	 */
	private Deviations deviations() {
		int filled = Math.min(this.count, WINDOWS);
		double[] squares = new double[filled];
		Arrays.fill(squares, Double.NaN);
		int degrees = 0;
		int run = 0;
		for (int i = filled - 1; i >= -1; i--) {
			int size = (i >= 0) ? sizeAt(i) : -1;
			boolean continues = i >= 0 && size >= 0 && run > 0 && size == sizeAt(i + 1);
			if (!continues) {
				double median = (run >= 2) ? median(i + 1, run) : 0;
				if (median > 0) {
					for (int j = i + 1; j <= i + run; j++) {
						double deviation = valueAt(j) / median - 1;
						squares[j] = deviation * deviation;
					}
					degrees += run - 1;
				}
				run = 0;
			}
			if (i >= 0 && size >= 0) {
				run++;
			}
		}
		double typical = (degrees < FEWEST_FOR_OUTLIER) ? 0
				: median(Arrays.stream(squares).filter((square) -> !Double.isNaN(square)).toArray());
		return new Deviations(squares, degrees, typical);
	}

	/**
	 * The median of the values of the windows from the i-th, so many.
	 */
	private double median(int from, int windows) {
		double[] values = new double[windows];
		for (int j = 0; j < windows; j++) {
			values[j] = valueAt(from + j);
		}
		return median(values);
	}

	/**
	 * The median of some values, at least one, sorting them in place.
	 */
	private static double median(double[] values) {
		Arrays.sort(values);
		int n = values.length;
		return (n % 2 == 1) ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
	}

	/**
	 * Return the level of the last run of windows, when they were at the given size: the
	 * mean of its last {@value #LEVEL_WINDOWS} values of the last window's regime, and
	 * how many. A window the noise leaves out as of another regime than its run ends the
	 * level when the last window is not one, and the others end it when the last window
	 * is one: the level of a pool whose load rose while its size held is not the mean of
	 * the windows before the rise and after it.
	 * @param size the size
	 * @return the level, of no windows when the last window was at another size
	 */
	Level level(int size) {
		int filled = Math.min(this.count, WINDOWS);
		int windows = 0;
		double sum = 0;
		Deviations deviations = deviations();
		boolean regime = filled > 0 && deviations.outlier(filled - 1);
		for (int i = filled - 1; i >= 0 && windows < LEVEL_WINDOWS && sizeAt(i) == size
				&& deviations.outlier(i) == regime; i--) {
			windows++;
			sum += valueAt(i);
		}
		return new Level((windows > 0) ? sum / windows : Double.NaN, windows);
	}

	/**
	 * Return the least level of the sizes below a given one among the windows kept: for
	 * each size, the mean of its last {@value #LEVEL_WINDOWS} windows, wherever they lie.
	 * @param below the size the others must be below
	 * @param fewest the fewest windows a size needs to count
	 * @return the least level and its size, or {@code null} when no size counts
	 */
	@Nullable Sized leastBelow(int below, int fewest) {
		int filled = Math.min(this.count, WINDOWS);
		Sized least = null;
		for (int i = filled - 1; i >= 0; i--) {
			int size = sizeAt(i);
			if (size < 0 || size >= below || seenLater(size, i)) {
				continue;
			}
			int windows = 0;
			double sum = 0;
			for (int j = i; j >= 0 && windows < LEVEL_WINDOWS; j--) {
				if (sizeAt(j) == size) {
					windows++;
					sum += valueAt(j);
				}
			}
			if (windows >= fewest && (least == null || sum / windows < least.level().mean())) {
				least = new Sized(size, new Level(sum / windows, windows));
			}
		}
		return least;
	}

	/**
	 * Whether a window after the i-th had the given size.
	 */
	private boolean seenLater(int size, int i) {
		int filled = Math.min(this.count, WINDOWS);
		for (int j = i + 1; j < filled; j++) {
			if (sizeAt(j) == size) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The i-th of the windows kept, oldest first.
	 */
	private int sizeAt(int i) {
		return this.sizes[index(i)];
	}

	private double valueAt(int i) {
		return this.values[index(i)];
	}

	private int index(int i) {
		int oldest = (this.count > WINDOWS) ? this.count % WINDOWS : 0;
		return (oldest + i) % WINDOWS;
	}

	/**
	 * The windows' squared relative deviations from their runs' medians, oldest first
	 * (NaN for a window in no run of two or more), the degrees of freedom they count, and
	 * the median of them, 0 while fewer than {@value #FEWEST_FOR_OUTLIER} degrees count.
	 */
	private record Deviations(double[] squares, int degrees, double typical) {

		/**
		 * Whether the i-th window is of another regime than its run: over
		 * {@value #OUTLIER} times the typical squared deviation.
		 */
		boolean outlier(int i) {
			return this.typical > 0 && this.squares[i] > OUTLIER * this.typical;
		}

	}

	/**
	 * A figure's level over a few windows at one size.
	 *
	 * @param mean its mean, NaN over no windows
	 * @param windows how many windows
	 */
	record Level(double mean, int windows) {

	}

	/**
	 * A figure's level at one size.
	 *
	 * @param size the size
	 * @param level its level there
	 */
	record Sized(int size, Level level) {

	}

}
