package io.github.poolpilot.benchmarks.scenarios;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link Workload}.
 *
 * @author poolpilot authors
 */
class WorkloadTests {

	@Test
	void goetzSizeComesFromTheKnownMeans() {
		assertThat(Scenarios.CPU_BOUND.goetzSize(2, 64)).isEqualTo(2);
		// 2 · (1 + 18/2) = 20
		assertThat(Scenarios.BLOCKING.goetzSize(2, 64)).isEqualTo(20);
	}

	@Test
	void goetzSizeWithoutCpuTimeIsTheCap() {
		assertThat(Scenarios.DOWNSTREAM.goetzSize(2, 64)).isEqualTo(64);
		assertThat(Scenarios.CALL.goetzSize(2, 60)).isEqualTo(60);
	}

	@Test
	void lognormalTimesKeepTheirMean() {
		SplittableRandom random = new SplittableRandom(6);
		double sum = 0;
		int draws = 200_000;
		for (int i = 0; i < draws; i++) {
			sum += Scenarios.LOGNORMAL.draw(18, random);
		}
		assertThat(sum / draws / 1_000_000).isCloseTo(18, within(0.5));
	}

	@Test
	void exactTimesAreExact() {
		assertThat(Scenarios.DOWNSTREAM.draw(20, new SplittableRandom(1))).isEqualTo(20_000_000L);
		assertThat(Scenarios.DOWNSTREAM.draw(0, new SplittableRandom(1))).isZero();
	}

}
