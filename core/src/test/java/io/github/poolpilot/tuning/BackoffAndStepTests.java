package io.github.poolpilot.tuning;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.testsupport.FakeClock;
import io.github.poolpilot.tuning.Step.Kind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

/**
 * Tests for the {@link Backoff} that rests growth and probes, and the {@link Step} a
 * controller judges.
 *
 * @author poolpilot authors
 */
class BackoffAndStepTests {

	private final FakeClock clock = new FakeClock();

	@Test
	void aRestLastsItsTimeAndDoublesUpToTheLongest() {
		Backoff backoff = new Backoff(this.clock);
		assertThat(backoff.resting()).isFalse();
		assertThat(backoff.remaining()).isZero();
		assertThat(backoff.take()).isEqualTo(Duration.ofSeconds(30));
		assertThat(backoff.resting()).isTrue();
		assertThat(backoff.remaining()).isEqualTo(Duration.ofSeconds(30));
		this.clock.advance(Duration.ofSeconds(10));
		assertThat(backoff.remaining()).isEqualTo(Duration.ofSeconds(20));
		this.clock.advance(Duration.ofSeconds(20).minusNanos(1));
		assertThat(backoff.resting()).isTrue();
		this.clock.advance(Duration.ofNanos(1));
		assertThat(backoff.resting()).isFalse();
		assertThat(backoff.remaining()).isZero();
		assertThat(backoff.take()).isEqualTo(Duration.ofSeconds(60));
		assertThat(backoff.take()).isEqualTo(Duration.ofSeconds(120));
		assertThat(backoff.take()).isEqualTo(Duration.ofSeconds(240));
		assertThat(backoff.take()).isEqualTo(Duration.ofMinutes(5));
		assertThat(backoff.take()).isEqualTo(Duration.ofMinutes(5));
		backoff.reset();
		assertThat(backoff.take()).isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void theErrorAStepWillHaveIsForecastFromTheWindowsBeforeIt() {
		// Four windows of 80 tasks before, three of as many after: √(1/240 + 1/320) from
		// the counts alone, √(0.06 · (1/3 + 1/4)) when the windows vary more than that.
		Step step = new Step(Kind.PROBE, 20, 15, 80, 80, 50, 5).levelBefore(80, 4);
		assertThat(step.relativeErrorAfter(3, 0)).isCloseTo(Math.sqrt(1.0 / 240 + 1.0 / 320), offset(1e-12));
		assertThat(step.relativeErrorAfter(3, 0.06)).isCloseTo(Math.sqrt(0.06 * (1.0 / 3 + 1.0 / 4)), offset(1e-12));
		// Measured as forecast, the step has that error.
		for (int i = 0; i < 3; i++) {
			step.measure(80, 80);
		}
		assertThat(step.relativeError(0.06)).isEqualTo(step.relativeErrorAfter(3, 0.06));
		assertThat(step.relativeError(0)).isEqualTo(step.relativeErrorAfter(3, 0));
	}

	@Test
	void aStepIsJudgedByItsMeanThroughputAgainstTheWindowBeforeIt() {
		Step step = new Step(Kind.SATURATED, 10, 15, 100, 100, 50, 5);
		assertThat(step.added()).isEqualTo(0.5);
		step.measure(110, 110);
		step.measure(130, 130);
		assertThat(step.windows).isEqualTo(2);
		assertThat(step.gain()).isEqualTo(0.2);
		// √(1/240 + 1/100)
		assertThat(step.relativeError()).isEqualTo(Math.sqrt(1.0 / 240 + 1.0 / 100));
		Step budgetAllowed = step.to(12);
		assertThat(budgetAllowed.kind).isEqualTo(Kind.SATURATED);
		assertThat(budgetAllowed.from).isEqualTo(10);
		assertThat(budgetAllowed.to).isEqualTo(12);
		assertThat(budgetAllowed.throughputBefore).isEqualTo(100);
		assertThat(budgetAllowed.completionsBefore).isEqualTo(100);
		assertThat(budgetAllowed.serviceMsBefore).isEqualTo(50);
		assertThat(budgetAllowed.queueWaitMsBefore).isEqualTo(5);
	}

	@Test
	void aStepFromNoThroughputHasNoGain() {
		Step step = new Step(Kind.STAFFING, 1, 2, 0, 0, 0, 0);
		step.measure(50, 50);
		assertThat(step.gain()).isZero();
		assertThat(step.relativeError()).isEqualTo(Math.sqrt(1.0 / 50 + 1.0));
	}

}
