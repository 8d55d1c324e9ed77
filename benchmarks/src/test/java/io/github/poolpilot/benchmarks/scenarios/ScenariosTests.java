package io.github.poolpilot.benchmarks.scenarios;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link Scenarios}.
 *
 * @author poolpilot authors
 */
class ScenariosTests {

	@Test
	void everyStrategyRunOfEveryScenarioLastsLessThanAMinute() {
		assertThat(Scenarios.all()).allSatisfy((scenario) -> {
			assertThat(scenario.seconds()).isLessThanOrEqualTo(60);
			assertThat(scenario.measured().to()).isLessThanOrEqualTo(scenario.seconds());
		});
	}

	@Test
	void oneScenarioHasNoSweepAndComparesWithItsStaticShares() {
		assertThat(Scenarios.all())
			.filteredOn((scenario) -> scenario.sweep() == null && scenario.maxQueueWait() == null)
			.singleElement()
			.satisfies((scenario) -> {
				assertThat(scenario.id()).isEqualTo("S5");
				assertThat(scenario.reference()).isEqualTo(Strategy.STATIC_SHARES);
				assertThat(scenario.staticSizes()).containsExactly(30, 5, 5);
				assertThat(scenario.budget()).isEqualTo(40);
			});
	}

	@Test
	void scenariosAreFoundByNameInAnyCase() {
		assertThat(Scenarios.named("s3").id()).isEqualTo("S3");
		assertThat(Scenarios.named("s9").id()).isEqualTo("S9");
		assertThat(Scenarios.named("s12").id()).isEqualTo("S12");
		assertThatIllegalArgumentException().isThrownBy(() -> Scenarios.named("S13"))
			.withMessageContaining("S1 to S12");
	}

	@Test
	void s7IsS4WithAMaxQueueWaitComparedWithPoolpilotWithoutOne() {
		Scenario s4 = Scenarios.s4();
		Scenario s7 = Scenarios.named("s7");
		assertThat(s7.maxQueueWait()).hasMillis(100);
		assertThat(s7.reference()).isEqualTo(Strategy.POOLPILOT);
		assertThat(s7.sweep()).isNull();
		assertThat(s7.pools()).isEqualTo(s4.pools());
		assertThat(s7.phases()).isEqualTo(s4.phases());
		assertThat(s7.seed()).isEqualTo(s4.seed());
	}

	@Test
	void s8StartsFarAboveItsDownstreamsKneeAndOffersOneAndAHalfTimesWhatItServes() {
		Scenario s8 = Scenarios.named("S8");
		PoolSpec pool = s8.pools().get(0);
		assertThat(pool.startSize()).isEqualTo(50);
		assertThat(pool.workload().downstreamPermits()).isEqualTo(8);
		// 8 calls of 50 ms at once: 160/s.
		assertThat(pool.arrivalRate().applyAsDouble(10)).isEqualTo(1.5 * 8 * 1000 / pool.workload().blockMs());
		assertThat(s8.reference()).isEqualTo(Strategy.BEST_STATIC);
		assertThat(s8.steadyWindows()).containsExactly(new Window(30, 50));
	}

	@Test
	void s10OffersAThirdMoreThanANarrowDownstreamServesToAPoolWithALargeMax() {
		Scenario s10 = Scenarios.named("S10");
		PoolSpec pool = s10.pools().get(0);
		assertThat(pool.bounds().maxThreads()).isEqualTo(300);
		assertThat(pool.startSize()).isEqualTo(pool.bounds().minThreads());
		assertThat(pool.arrivalRate().applyAsDouble(4.9)).isZero();
		// 5 calls of 50 ms at once: 100/s.
		double capacity = pool.workload().downstreamPermits() * 1000 / pool.workload().blockMs();
		assertThat(pool.arrivalRate().applyAsDouble(5) / capacity).isCloseTo(1.33, within(0.01));
	}

	@Test
	void s11OffersMixedWorkInBurstsAtUnderHalfOfWhatItsMaxServes() {
		Scenario s11 = Scenarios.named("S11");
		PoolSpec pool = s11.pools().get(0);
		assertThat(pool.queueCapacity()).isEqualTo(16);
		assertThat(pool.startSize()).isEqualTo(2);
		Workload work = pool.workload();
		double meanMs = (work.cpuMs() + work.blockMs())
				* (1 - work.heavyShare() + work.heavyShare() * work.heavyFactor());
		double capacity = pool.bounds().maxThreads() * 1000 / meanMs;
		double mean = 0;
		for (int millisecond = 0; millisecond < 1000; millisecond++) {
			mean += pool.arrivalRate().applyAsDouble(millisecond / 1000.0) / 1000;
		}
		assertThat(mean).isCloseTo(300, within(1.0));
		assertThat(mean / capacity).isBetween(0.3, 0.7);
		assertThat(pool.arrivalRate().applyAsDouble(0.05)).isGreaterThan(capacity);
	}

	@Test
	void s9StepsItsLoadTenfoldAndBack() {
		Scenario s9 = Scenarios.named("S9");
		PoolSpec pool = s9.pools().get(0);
		assertThat(pool.arrivalRate().applyAsDouble(14.9)).isEqualTo(50);
		assertThat(pool.arrivalRate().applyAsDouble(15)).isEqualTo(500);
		assertThat(pool.arrivalRate().applyAsDouble(35)).isEqualTo(50);
		assertThat(pool.workload().cpuMs()).isLessThan(pool.workload().blockMs() / 20);
		assertThat(s9.sweep().arrivalRate().applyAsDouble(0)).isEqualTo(500);
	}

	@Test
	void s5sPoolsStopTheirLoadWhereItsPhasesSay() {
		Scenario s5 = Scenarios.s5();
		assertThat(ScenarioResult.loadEnd(s5.pools().get(0), s5.seconds())).isEqualTo(30);
		assertThat(ScenarioResult.loadEnd(s5.pools().get(1), s5.seconds())).isEqualTo(40);
		assertThat(ScenarioResult.loadEnd(s5.pools().get(2), s5.seconds())).isEqualTo(30);
	}

}
