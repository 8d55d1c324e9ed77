package io.github.poolpilot.tuning;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import io.github.poolpilot.tuning.PoolSimulator.LineCeiling;
import io.github.poolpilot.tuning.PoolSimulator.Overflow;
import io.github.poolpilot.tuning.PoolSimulator.Sample;

/**
 * A census of the simulator's families: every draw's broken invariants, one line a draw,
 * and the counts by invariant for draws 1-200 and the rest, written to
 * {@code target/families-census.txt}. Runs only when asked,
 * {@code -Dpoolpilot-tests.census=600} for draws 1 to 600. With
 * {@code -Dpoolpilot-tests.census.light-load=15} every draw is first offered a tenth of
 * its load for 15 s ({@link TuningFamily#afterALightLoad}); with
 * {@code -Dpoolpilot-tests.census.idle=2} every draw is idle for its first 2 s, so that
 * the pool meets its load before any window measured a service time. With
 * {@code -Dpoolpilot-tests.census.overflow=to-max} ({@code half-again},
 * {@code in-bursts}) the tuned pool starts threads beyond its size for the tasks that
 * find its queue full, and with {@code queue} it queues them beyond its queue's capacity
 * by the threads it may still add ({@link Overflow}). With
 * {@code -Dpoolpilot-tests.census.line-ceiling=1.5,5} (or {@code 1.5,5,hold}) each pool
 * with a downstream is capped by an oracle of the downstream's line
 * ({@link LineCeiling}). With {@code -Dpoolpilot-tests.census.knee-first=true} a draw
 * whose downstream is the limit below its max-threads is held to a pool fixed at the knee
 * + 50 % instead of one fixed at its max-threads, for its refusals and its throughput:
 * the reading in which the knee's invariant comes first where the two conflict.
 * <p>
 * It also counts the draws the knee's invariant applies to (a downstream the limit below
 * the pool's max-threads), those of them that fail, and lists those on which a pool fixed
 * at the knee + 50 % breaks the refusals' or the throughput's invariant: there no static
 * size meets them all, and a tuner that keeps to the knee trades one invariant for
 * another. Of the draws that refuse more than the fixed pool, it counts where they
 * started (at their min-threads, half their max-threads or their max-threads) against all
 * the draws that started there, and the share of what they refused more in the first
 * {@value #EARLY_SECONDS} s of the load, and the sum over them of what they refused
 * beyond the fixed pool (the invariant's own count,
 * {@link FamilyInvariants#excessRefusals}).
 *
 * @author poolpilot authors
 */
@EnabledIfSystemProperty(named = "poolpilot-tests.census", matches = "\\d+")
class TuningFamiliesCensusTests {

	/**
	 * The seconds from the load's start over which the refusals beyond the fixed pool's
	 * are counted apart: a pool that starts small meets its load there.
	 */
	private static final int EARLY_SECONDS = 10;

	private static final String[] INVARIANTS = { "refused", "served", "above the knee", "size changes" };

	@Test
	void census() throws IOException {
		int draws = Integer.getInteger("poolpilot-tests.census");
		int lightLoad = Integer.getInteger("poolpilot-tests.census.light-load", 0);
		int idle = Integer.getInteger("poolpilot-tests.census.idle", 0);
		Overflow overflow = overflow(System.getProperty("poolpilot-tests.census.overflow", "none"));
		@Nullable LineCeiling lineCeiling = lineCeiling(System.getProperty("poolpilot-tests.census.line-ceiling"));
		boolean kneeFirst = Boolean.getBoolean("poolpilot-tests.census.knee-first");
		List<String> lines = new ArrayList<>();
		Map<String, int[]> counts = new TreeMap<>();
		int[] failing = new int[2];
		int[] kneeDraws = new int[2];
		int[] kneeFailing = new int[2];
		List<List<Long>> conflicting = List.of(new ArrayList<>(), new ArrayList<>());
		Map<String, int[]> starts = new TreeMap<>();
		long[] excess = new long[3];
		for (long seed = 1; seed <= draws; seed++) {
			TuningFamily family = TuningFamily.draw(seed);
			if (lightLoad > 0) {
				family = family.afterALightLoad(lightLoad, 0.1);
			}
			else if (idle > 0) {
				family = family.afterALightLoad(idle, 0);
			}
			List<Sample> tuned = family.tuned()
				.overflow(overflow)
				.lineCeiling(lineCeiling)
				.run(family.seconds())
				.only();
			List<Sample> fixed = family.fixedAtMax().run(family.seconds()).only();
			int range = (seed <= 200) ? 0 : 1;
			int limit = FamilyInvariants.kneeLimit(family);
			boolean kneeApplies = limit > 0 && limit < family.bounds().maxThreads();
			List<Sample> atLimit = kneeApplies ? family.tuned().fixedSize(limit).run(family.seconds()).only() : fixed;
			if (kneeApplies && !FamilyInvariants.broken(family, atLimit, fixed).isEmpty()) {
				conflicting.get(range).add(seed);
			}
			if (kneeFirst) {
				fixed = atLimit;
			}
			List<String> broken = FamilyInvariants.broken(family, tuned, fixed);
			if (kneeApplies) {
				kneeDraws[range]++;
				kneeFailing[range] += broken.isEmpty() ? 0 : 1;
			}
			int[] start = starts.computeIfAbsent(start(family), (key) -> new int[2]);
			start[0]++;
			if (breaks(broken, "refused")) {
				start[1]++;
				int early = family.quietSeconds() + EARLY_SECONDS;
				excess[0] += refusedBefore(tuned, early) - refusedBefore(fixed, early);
				excess[1] += FamilyInvariants.refused(tuned) - FamilyInvariants.refused(fixed);
				excess[2] += FamilyInvariants.excessRefusals(tuned, fixed);
			}
			if (!broken.isEmpty()) {
				failing[range]++;
				lines.add("seed " + seed + ": " + String.join("; ", broken));
			}
			for (String invariant : INVARIANTS) {
				if (breaks(broken, invariant)) {
					counts.computeIfAbsent(invariant, (key) -> new int[2])[range]++;
				}
			}
		}
		lines.add(String.format("failing: %d of 1-200, %d of 201-%d", failing[0], failing[1], draws));
		counts.forEach((invariant, count) -> lines
			.add(String.format("%s: %d of 1-200, %d of 201-%d", invariant, count[0], count[1], draws)));
		lines.add(String.format("the knee applies: %d of 1-200, %d of 201-%d", kneeDraws[0], kneeDraws[1], draws));
		lines.add(String.format("failing where the knee applies: %d of 1-200, %d of 201-%d", kneeFailing[0],
				kneeFailing[1], draws));
		lines.add(String.format(
				"a pool fixed at the knee + 50 %% breaks another invariant: %d of 1-200 %s, %d of 201-%d %s",
				conflicting.get(0).size(), conflicting.get(0), conflicting.get(1).size(), draws, conflicting.get(1)));
		starts.forEach((where, count) -> lines
			.add(String.format("refused more, starting at %s: %d of %d", where, count[1], count[0])));
		lines.add(String.format("of what they refused more, in the first %d s of the load: %.0f %%", EARLY_SECONDS,
				100.0 * excess[0] / Math.max(1, excess[1])));
		lines.add(String.format("refused beyond the fixed pools, summed over those draws: %d", excess[2]));
		Files.write(Path.of("target", "families-census.txt"), lines);
	}

	private static @Nullable LineCeiling lineCeiling(@Nullable String value) {
		if (value == null) {
			return null;
		}
		String[] parts = value.split(",");
		try {
			if (parts.length == 2 || (parts.length == 3 && parts[2].equals("hold"))) {
				return new LineCeiling(Double.parseDouble(parts[0]), Integer.parseInt(parts[1]), parts.length == 3);
			}
		}
		catch (NumberFormatException ex) {
			// Named below.
		}
		throw new IllegalArgumentException("poolpilot-tests.census.line-ceiling is '" + value
				+ "'; allowed: a margin and a number of windows, optionally 'hold' (1.5,5 or 1.5,5,hold)");
	}

	private static Overflow overflow(String name) {
		for (Overflow overflow : Overflow.values()) {
			if (overflow.name().replace('_', '-').equalsIgnoreCase(name)) {
				return overflow;
			}
		}
		throw new IllegalArgumentException("poolpilot-tests.census.overflow is '" + name + "'; allowed: "
				+ Arrays.stream(Overflow.values())
					.map((overflow) -> overflow.name().replace('_', '-').toLowerCase(Locale.ROOT))
					.collect(Collectors.joining(", ")));
	}

	private static boolean breaks(List<String> broken, String invariant) {
		return broken.stream().anyMatch((line) -> line.startsWith(invariant) || line.contains(" " + invariant));
	}

	private static String start(TuningFamily family) {
		if (family.start() == family.bounds().minThreads()) {
			return "min-threads";
		}
		return (family.start() == family.bounds().maxThreads()) ? "max-threads" : "half the max-threads";
	}

	private static long refusedBefore(List<Sample> run, int second) {
		return run.stream().filter((sample) -> sample.second() < second).mapToLong(Sample::rejected).sum();
	}

}
