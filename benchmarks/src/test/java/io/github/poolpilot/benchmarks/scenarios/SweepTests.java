package io.github.poolpilot.benchmarks.scenarios;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.benchmarks.scenarios.Sweep.Point;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link Sweep}.
 *
 * @author poolpilot authors
 */
class SweepTests {

	@Test
	void theSizeWithClearlyMoreThroughputWinsWhateverItsP99() {
		Point best = Sweep.best(List.of(new Point(2, 500, 10), new Point(4, 900, 80), new Point(8, 700, 20)));
		assertThat(best.size()).isEqualTo(4);
	}

	@Test
	void withinOnePercentOfTheMostThroughputTheLeastP99Wins() {
		Point best = Sweep
			.best(List.of(new Point(4, 1000, 90), new Point(6, 995, 40), new Point(8, 991, 30), new Point(12, 980, 5)));
		// 12 is 2 % short of the most throughput: out, however good its p99.
		assertThat(best.size()).isEqualTo(8);
	}

	@Test
	void withinFivePercentOfTheLeastP99TheFewestThreadsWin() {
		Point best = Sweep.best(
				List.of(new Point(16, 300, 50), new Point(8, 299, 52), new Point(10, 300, 51), new Point(6, 299, 60)));
		assertThat(best.size()).isEqualTo(8);
	}

	@Test
	void theOrderOfThePointsDoesNotMatter() {
		List<Point> points = List.of(new Point(10, 300, 51), new Point(8, 299, 52), new Point(16, 300, 50));
		List<Point> reversed = new ArrayList<>(points);
		Collections.reverse(reversed);
		assertThat(Sweep.best(points)).isEqualTo(Sweep.best(reversed));
	}

	@Test
	void anEmptySweepIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> Sweep.best(List.of()));
	}

}
