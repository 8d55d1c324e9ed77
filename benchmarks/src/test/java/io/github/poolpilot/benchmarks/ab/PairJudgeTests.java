package io.github.poolpilot.benchmarks.ab;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.poolpilot.benchmarks.ab.PairJudge.Judged;
import io.github.poolpilot.benchmarks.ab.PairJudge.Round;
import io.github.poolpilot.testsupport.Draw;
import io.github.poolpilot.testsupport.Seeds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link PairJudge}: which rounds are kept, and the ratios over them.
 *
 * @author poolpilot authors
 */
class PairJudgeTests {

	private static final String RERUN = "./mvnw -B -ntp -pl benchmarks -am test -Dtest=PairJudgeTests "
			+ "-Dsurefire.failIfNoSpecifiedTests=false";

	private final PairJudge judge = new PairJudge(0.05);

	@Test
	void aRoundWhoseRawIsMoreThanTheToleranceBelowTheBestIsDiscarded() {
		List<Judged> judged = this.judge.judge(List.of(round(1, 8.6e6, 6.0e6), round(2, 4.1e6, 4.0e6),
				round(3, 8.3e6, 6.2e6), round(4, 8.16e6, 5.0e6)));
		assertThat(judged).extracting(Judged::kept).containsExactly(true, false, true, false);
		assertThat(judged.get(1).verdict())
			.isEqualTo("discarded: raw at 4.100 M/s is 52.3 % below this run's best raw, 8.600 M/s (more than 5 %)");
		assertThat(judged.get(3).verdict()).startsWith("discarded: raw at 8.160 M/s is 5.1 % below");
		assertThat(judged.get(0).verdict()).isEqualTo("kept");
	}

	@Test
	void aRoundExactlyAtTheToleranceIsKept() {
		List<Judged> judged = this.judge.judge(List.of(round(1, 1000, 900), round(2, 950, 940)));
		assertThat(judged).extracting(Judged::kept).containsExactly(true, true);
	}

	@Test
	void theRatiosAreTakenOverTheKeptRoundsOnly() {
		// The disturbed round's ratio (0.98) is the one a slowed raw pulls toward 1.
		List<Judged> judged = this.judge.judge(List.of(round(1, 10e6, 7.0e6), round(2, 5e6, 4.9e6),
				round(3, 9.9e6, 7.2e6), round(4, 9.8e6, 6.9e6), round(5, 10e6, 7.5e6), round(6, 9.7e6, 6.5e6)));
		Spread ratios = PairJudge.ratios(judged, 0);
		assertThat(ratios).isNotNull();
		assertThat(ratios.count()).isEqualTo(5);
		assertThat(ratios.median()).isCloseTo(0.7041, within(1e-4));
		assertThat(ratios.min()).isCloseTo(0.6701, within(1e-4));
		assertThat(ratios.max()).isCloseTo(0.75, within(1e-9));
	}

	@Test
	void withNoRoundKeptThereIsNoRatio() {
		assertThat(PairJudge.ratios(List.of(), 0)).isNull();
	}

	@Test
	void moreRoundsAreNeededUntilEnoughAreKept() {
		List<Round> rounds = new ArrayList<>(List.of(round(1, 10e6, 7e6), round(2, 5e6, 4e6)));
		assertThat(this.judge.needsMore(rounds, 2)).isTrue();
		rounds.add(round(3, 9.8e6, 7e6));
		assertThat(this.judge.needsMore(rounds, 2)).isFalse();
		// A new best can discard rounds kept before it.
		rounds.add(round(4, 12e6, 8e6));
		assertThat(this.judge.needsMore(rounds, 2)).isTrue();
	}

	@Test
	void aToleranceOutsideZeroToOneIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new PairJudge(1))
			.withMessage("The tolerance must be a fraction from 0 (included) to 1 (excluded) but was 1.0");
		assertThatIllegalArgumentException().isThrownBy(() -> new PairJudge(-0.01));
		assertThatIllegalArgumentException().isThrownBy(() -> new PairJudge(Double.NaN));
	}

	@Test
	void aRateThatIsNotAboveZeroIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> round(3, 0, 1))
			.withMessageStartingWith("Round 3 has a rate that is not above 0");
		assertThatIllegalArgumentException().isThrownBy(() -> round(3, 1, Double.NaN));
	}

	@ParameterizedTest
	@MethodSource("seeds")
	void everyDrawKeepsExactlyTheRoundsWithinTheToleranceOfTheBest(long seed) {
		Draw draw = new Draw(seed);
		double tolerance = draw.uniform(0, 0.2);
		PairJudge judge = new PairJudge(tolerance);
		List<Round> rounds = new ArrayList<>();
		int count = draw.between(1, 20);
		for (int i = 1; i <= count; i++) {
			rounds.add(round(i, draw.logUniform(1e5, 1e7), draw.logUniform(1e5, 1e7)));
		}
		List<Judged> judged = judge.judge(rounds);
		Seeds.check(seed, RERUN, () -> {
			double best = rounds.stream().mapToDouble(Round::raw).max().orElseThrow();
			assertThat(judged).extracting(Judged::round).containsExactlyElementsOf(rounds);
			for (Judged one : judged) {
				assertThat(one.kept()).as("round %d", one.round().index())
					.isEqualTo(one.round().raw() >= best * (1 - tolerance));
				assertThat(one.verdict().equals("kept")).isEqualTo(one.kept());
			}
			assertThat(judged).filteredOn(Judged::kept).anyMatch((one) -> one.round().raw() == best);
			Spread ratios = PairJudge.ratios(judged, 0);
			assertThat(ratios).isNotNull();
			assertThat(ratios.count()).isEqualTo((int) judged.stream().filter(Judged::kept).count());
			assertThat(ratios.min()).isLessThanOrEqualTo(ratios.lowerQuartile());
			assertThat(ratios.lowerQuartile()).isLessThanOrEqualTo(ratios.median());
			assertThat(ratios.median()).isLessThanOrEqualTo(ratios.upperQuartile());
			assertThat(ratios.upperQuartile()).isLessThanOrEqualTo(ratios.max());
		});
	}

	static LongStream seeds() {
		return Seeds.first(200);
	}

	private static Round round(int index, double raw, double managed) {
		return new Round(index, raw, List.of(managed));
	}

}
