package io.github.poolpilot.sample.testsupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.poolpilot.sample.testsupport.RealPostgres.Choice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link RealPostgres}'s decision table.
 *
 * @author poolpilot authors
 */
class RealPostgresTests {

	@ParameterizedTest(name = "docker={0}, local={1}, ci={2} -> {3}")
	@CsvSource({ "true, true, true, TESTCONTAINERS", "true, true, false, TESTCONTAINERS",
			"true, false, true, TESTCONTAINERS", "true, false, false, TESTCONTAINERS", "false, true, true, LOCAL",
			"false, true, false, LOCAL", "false, false, true, FAIL", "false, false, false, SKIP" })
	void prefersDockerThenTheLocalServerAndFailsOnlyOnCi(boolean docker, boolean local, boolean ci, Choice expected) {
		assertThat(RealPostgres.choose(docker, local, ci)).isEqualTo(expected);
	}

	@Test
	void withoutADatabaseTheTestIsSkippedWithAReasonOutsideCi() {
		ConditionEvaluationResult result = RealPostgres.evaluate(Choice.SKIP);
		assertThat(result.isDisabled()).isTrue();
		assertThat(result.getReason()).hasValueSatisfying(
				(reason) -> assertThat(reason).contains("no Docker engine", "127.0.0.1:5432", "CI=true"));
	}

	@Test
	void withoutADatabaseTheTestFailsOnCi() {
		assertThatIllegalStateException().isThrownBy(() -> RealPostgres.evaluate(Choice.FAIL))
			.withMessageContaining("CI=true");
	}

	@Test
	void withADatabaseTheTestRuns() {
		assertThat(RealPostgres.evaluate(Choice.LOCAL).isDisabled()).isFalse();
		assertThat(RealPostgres.evaluate(Choice.TESTCONTAINERS).isDisabled()).isFalse();
	}

	@Test
	void onlyCiEqualToTrueCountsAsCi() {
		assertThat(RealPostgres.isCi("true")).isTrue();
		assertThat(RealPostgres.isCi("TRUE")).isTrue();
		assertThat(RealPostgres.isCi(null)).isFalse();
		assertThat(RealPostgres.isCi("")).isFalse();
		assertThat(RealPostgres.isCi("false")).isFalse();
		assertThat(RealPostgres.isCi("1")).isFalse();
	}

}
