package io.github.poolpilot.benchmarks.scenarios;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link Figures}.
 *
 * @author poolpilot authors
 */
class FiguresTests {

	@Test
	void aStaticSizeIsSettledFromTheStart() {
		assertThat(Figures.settleSeconds(new int[] { 8, 8, 8, 8 }, new Window(0, 4))).isZero();
	}

	@Test
	void aPoolIsSettledFromTheFirstSecondAfterWhichItStaysWithinTenPercentOfItsFinalSize() {
		int[] sizes = { 2, 3, 5, 8, 11, 10, 10, 10 };
		// Final size 10: 11 is within 10 %, 8 is not.
		assertThat(Figures.settleSeconds(sizes, new Window(0, 8))).isEqualTo(4);
	}

	@Test
	void aSizeThatLeavesTheBandAgainIsNotSettledBeforeIt() {
		int[] sizes = { 10, 10, 14, 10, 10 };
		assertThat(Figures.settleSeconds(sizes, new Window(0, 5))).isEqualTo(3);
	}

	@Test
	void settleTimeCountsFromTheStartOfItsWindowToItsEnd() {
		int[] sizes = { 4, 4, 4, 4, 6, 9, 12, 12, 12, 3, 3 };
		assertThat(Figures.settleSeconds(sizes, new Window(3, 9))).isEqualTo(3);
		assertThat(Figures.settleSeconds(sizes, new Window(9, 11))).isZero();
	}

	@Test
	void aSeriesShorterThanItsWindowIsReadToItsEnd() {
		assertThat(Figures.settleSeconds(new int[] { 1, 2, 2 }, new Window(0, 10))).isEqualTo(1);
	}

	@Test
	void sizeChangesAreCountedPerMinuteOfTheWindows() {
		int[] sizes = new int[60];
		java.util.Arrays.fill(sizes, 8);
		sizes[20] = 9;
		sizes[21] = 9;
		sizes[40] = 7;
		// 8→9, 9→8, 8→7, 7→8 in [10, 50): four changes in 40 s.
		assertThat(Figures.changesPerMinute(sizes, List.of(new Window(10, 50)))).isCloseTo(6.0, within(1e-9));
		// Only 8→9 in [15, 21).
		assertThat(Figures.changesPerMinute(sizes, List.of(new Window(15, 21)))).isCloseTo(10.0, within(1e-9));
	}

	@Test
	void aChangeBetweenTwoWindowsIsNotCounted() {
		int[] sizes = { 2, 2, 2, 16, 16, 16 };
		assertThat(Figures.changesPerMinute(sizes, List.of(new Window(0, 3), new Window(3, 6)))).isZero();
		assertThat(Figures.changesPerMinute(sizes, List.of(new Window(0, 6)))).isCloseTo(10.0, within(1e-9));
	}

	@Test
	void overshootIsHowFarTheSizeWentBeyondWhereItEnded() {
		int[] sizes = { 2, 8, 20, 25, 20, 20 };
		assertThat(Figures.overshoot(sizes, new Window(0, 6))).isCloseTo(0.25, within(1e-9));
		assertThat(Figures.overshoot(new int[] { 2, 4, 8 }, new Window(0, 3))).isZero();
		// A step down has none.
		assertThat(Figures.overshoot(new int[] { 22, 22, 6 }, new Window(0, 3))).isNaN();
		assertThat(Figures.max(sizes, new Window(0, 3))).isEqualTo(20);
	}

	@Test
	void givingBackIsTimedFromTheEndOfTheLoadToTheFirstSecondAtTheMinimum() {
		int[] live = { 30, 38, 38, 38, 20, 5, 1, 1 };
		assertThat(Figures.giveBackSeconds(live, 3, 1, 8)).isEqualTo(3);
		assertThat(Figures.giveBackSeconds(live, 3, 5, 8)).isEqualTo(2);
		assertThat(Figures.giveBackSeconds(new int[] { 8, 8, 8 }, 1, 1, 3)).isEqualTo(-1);
	}

	@Test
	void threadsEndingInTheTeardownAfterTheRunAreNotGivenBack() {
		int[] live = { 30, 30, 30, 30, 0 };
		assertThat(Figures.giveBackSeconds(live, 1, 1, 4)).isEqualTo(-1);
	}

}
