package io.github.poolpilot.benchmarks.scenarios;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Reports}.
 *
 * @author poolpilot authors
 */
class ReportsTests {

	@Test
	void aDecisionIsQuotedSoThatItsCommasStayInOneColumn() {
		assertThat(Reports.quoted("grow 2→3: queueing, busy 2.2 of 2"))
			.isEqualTo("\"grow 2→3: queueing, busy 2.2 of 2\"");
		assertThat(Reports.quoted("say \"no\"")).isEqualTo("\"say \"\"no\"\"\"");
	}

	@Test
	void anUnknownNumberIsLeftEmpty() {
		assertThat(Reports.number("%.2f", Double.NaN)).isEmpty();
		assertThat(Reports.number("%.2f", 2.5)).isEqualTo("2.50");
	}

	@Test
	void theTimeSeriesHeaderNamesEachPerSecondFigure() {
		assertThat(Reports.SERIES_HEADER.split(",")).containsExactly("scenario", "strategy", "pool", "second",
				"offered", "completed", "rejected", "p99_ms", "pool_size", "live_threads", "queued", "process_cpu",
				"machine_cpu");
	}

}
