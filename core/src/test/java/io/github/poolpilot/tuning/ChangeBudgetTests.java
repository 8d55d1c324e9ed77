package io.github.poolpilot.tuning;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.testsupport.FakeClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ChangeBudget}: how many size changes a minute a pool makes before the
 * changes that can wait do.
 *
 * @author poolpilot authors
 */
class ChangeBudgetTests {

	private final FakeClock clock = new FakeClock();

	private final ChangeBudget budget = new ChangeBudget(this.clock);

	@Test
	void theBudgetIsSpentByTheEighthChangeInAMinute() {
		for (int i = 0; i < ChangeBudget.CHANGES - 1; i++) {
			this.budget.changed();
			this.clock.advance(Duration.ofSeconds(5));
		}
		assertThat(this.budget.spent()).isFalse();
		assertThat(this.budget.remaining()).isZero();
		this.budget.changed();
		assertThat(this.budget.spent()).isTrue();
		assertThat(this.budget.recent()).isEqualTo(8);
		// The first change was 35 s ago: a minute old in 25 s.
		assertThat(this.budget.remaining()).isEqualTo(Duration.ofSeconds(25));
	}

	@Test
	void aChangeAMinuteOldNoLongerCounts() {
		for (int i = 0; i < ChangeBudget.CHANGES; i++) {
			this.budget.changed();
			this.clock.advance(Duration.ofSeconds(1));
		}
		this.clock.advance(Duration.ofSeconds(51));
		assertThat(this.budget.spent()).isTrue();
		assertThat(this.budget.remaining()).isEqualTo(Duration.ofSeconds(1));
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.budget.spent()).isFalse();
		assertThat(this.budget.recent()).isEqualTo(7);
		// One more change spends it again, until the second change is a minute old.
		this.budget.changed();
		assertThat(this.budget.spent()).isTrue();
		assertThat(this.budget.remaining()).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	void theDecisionSaysHowManyChangesAndHowLongUntilTheNext() {
		Decision hold = Decision.hold(12, new Decision.Cause.ChangesSpent(8, Duration.ofMillis(12500)), null, true);
		assertThat(hold.reason()).isEqualTo("hold: 8 size changes in the last 60 s, next change in 12.5 s");
	}

}
