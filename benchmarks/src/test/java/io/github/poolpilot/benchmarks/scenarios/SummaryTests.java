package io.github.poolpilot.benchmarks.scenarios;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.benchmarks.scenarios.Summary.Row;
import io.github.poolpilot.benchmarks.scenarios.Summary.StrategyFigures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link Summary}.
 *
 * @author poolpilot authors
 */
class SummaryTests {

	@Test
	void theHeaderIsTheOneTheDocsDefine() {
		assertThat(Summary.HEADER).isEqualTo("scenario,strategy,throughput_per_s,p99_ms,throughput_vs_best_static,"
				+ "p99_vs_best_static,settle_seconds,size_changes_per_minute,max_live_threads,unserved_pct,mean_live_threads");
	}

	@Test
	void eachStrategyIsComparedWithTheReference() {
		List<Row> rows = Summary.rows("S2", List.of(new StrategyFigures("best-static", 300, 40, 0, 0, 10, 0, 10),
				new StrategyFigures("poolpilot", 297, 48, 4, 1.5, 11, 0.0123, 6.25)), "best-static");
		assertThat(rows).hasSize(2);
		assertThat(rows.get(0).throughputVsBest()).isEqualTo(1.0);
		assertThat(rows.get(0).p99VsBest()).isEqualTo(1.0);
		assertThat(rows.get(1).throughputVsBest()).isCloseTo(0.99, within(1e-9));
		assertThat(rows.get(1).p99VsBest()).isCloseTo(1.2, within(1e-9));
		assertThat(rows.get(1).toCsv()).isEqualTo("S2,poolpilot,297.0,48.00,0.990,1.200,4,1.50,11,1.23,6.3");
	}

	@Test
	void withoutTheReferenceTheRatiosAreLeftEmpty() {
		List<Row> rows = Summary.rows("S1", List.of(new StrategyFigures("poolpilot", 990, 12.345, 2, 0, 3, 0, 3)),
				"best-static");
		assertThat(rows.get(0).toCsv()).isEqualTo("S1,poolpilot,990.0,12.35,,,2,0.00,3,0.00,3.0");
	}

	@Test
	void anUnknownSettleTimeOrP99IsLeftEmpty() {
		List<Row> rows = Summary
			.rows("S5",
					List.of(new StrategyFigures("static-shares", 2000, 25, null, 0, 40, 0.5, 40),
							new StrategyFigures("spring-default", 1000, Double.NaN, null, 0, 24, 0, 24)),
					"static-shares");
		assertThat(rows.get(0).toCsv()).isEqualTo("S5,static-shares,2000.0,25.00,1.000,1.000,,0.00,40,50.00,40.0");
		assertThat(rows.get(1).toCsv()).isEqualTo("S5,spring-default,1000.0,,0.500,,,0.00,24,0.00,24.0");
	}

	@Test
	void everyLineHasAsManyColumnsAsTheHeader() {
		Row row = Summary
			.rows("S3", List.of(new StrategyFigures("gradient2", 400, 30, 12, 45.5, 200, 0, 150)), "gradient2")
			.get(0);
		assertThat(row.toCsv().split(",", -1)).hasSameSizeAs(Summary.HEADER.split(","));
	}

}
