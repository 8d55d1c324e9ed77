package io.github.poolpilot.benchmarks.ab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The machine's load average, as {@code /proc/loadavg} gives it: the 1, 5 and 15 minute
 * averages of runnable (and uninterruptible) tasks.
 *
 * @author poolpilot authors
 */
final class LoadAverage {

	private static final Path LOADAVG = Path.of("/proc/loadavg");

	private LoadAverage() {
	}

	/**
	 * Return the three averages separated by spaces, or {@code n/a} where there is no
	 * {@code /proc/loadavg}.
	 * @return the load average
	 */
	static String read() {
		try {
			String[] fields = Files.readString(LOADAVG).trim().split("\\s+");
			return fields[0] + " " + fields[1] + " " + fields[2];
		}
		catch (IOException | RuntimeException ex) {
			return "n/a";
		}
	}

	/**
	 * Return the range of the 1-minute averages of some readings.
	 * @param readings readings as {@link #read()} returns them
	 * @return {@code min-max}, or {@code n/a}
	 */
	static String range(List<String> readings) {
		double[] ones = readings.stream()
			.filter((reading) -> !reading.equals("n/a"))
			.mapToDouble((reading) -> Double.parseDouble(reading.split(" ")[0]))
			.toArray();
		if (ones.length == 0) {
			return "n/a";
		}
		Spread spread = Spread.of(ones);
		return String.format(Locale.ROOT, "%.2f-%.2f", spread.min(), spread.max());
	}

}
