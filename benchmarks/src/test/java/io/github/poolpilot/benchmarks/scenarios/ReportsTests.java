package io.github.poolpilot.benchmarks.scenarios;

import java.util.List;

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
	void aScenarioRunAgainReplacesItsRowsInTheSummaryAndTheOthersStay() {
		List<String> earlier = List.of(Summary.HEADER, "S1,best-static,1", "S1,poolpilot,1", "S2,best-static,1",
				"S3,best-static,1");
		assertThat(Reports.merged(earlier, List.of("S2,best-static,2", "S2,poolpilot,2"))).containsExactly(
				"S1,best-static,1", "S1,poolpilot,1", "S2,best-static,2", "S2,poolpilot,2", "S3,best-static,1");
	}

	@Test
	void aSummaryWithAnotherHeaderIsNotMerged() {
		assertThat(Reports.merged(List.of("old,header", "S1,x"), List.of("S2,y"))).containsExactly("S2,y");
		assertThat(Reports.merged(List.of(), List.of("S2,y"))).containsExactly("S2,y");
	}

	@Test
	void theTimeSeriesHeaderNamesEachPerSecondFigure() {
		assertThat(Reports.SERIES_HEADER.split(",")).containsExactly("scenario", "strategy", "pool", "second",
				"offered", "completed", "rejected", "p99_ms", "pool_size", "live_threads", "queued", "process_cpu",
				"machine_cpu");
	}

}
