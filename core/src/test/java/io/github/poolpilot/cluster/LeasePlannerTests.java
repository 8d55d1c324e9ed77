package io.github.poolpilot.cluster;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LeasePlanner}.
 *
 * @author poolpilot authors
 */
class LeasePlannerTests {

	@Test
	void instancesThatAllWantMoreThanTheLimitShareItEvenly() {
		List<InstanceEntry> others = List.of(entry("b", 60), entry("c", 60));
		assertThat(LeasePlanner.target(60, "a", new InstanceDemand(60, 60), others)).isEqualTo(20);
	}

	@Test
	void idleInstancesLendTheirSharesToABusyOne() {
		List<InstanceEntry> others = List.of(entry("b", 2), entry("c", 3));
		assertThat(LeasePlanner.target(60, "a", new InstanceDemand(80, 80), others)).isEqualTo(55);
	}

	@Test
	void aQuietInstanceAsksOnlyForWhatItWants() {
		List<InstanceEntry> others = List.of(entry("b", 60), entry("c", 60));
		assertThat(LeasePlanner.target(60, "a", new InstanceDemand(4, 4), others)).isEqualTo(4);
	}

	@Test
	void anInstanceThatAsksForItsShareGetsItHoweverMuchTheOthersWant() {
		List<InstanceEntry> others = List.of(entry("b", 500), entry("c", 500), entry("d", 500));
		assertThat(LeasePlanner.target(60, "a", new InstanceDemand(15, 15), others)).isEqualTo(15);
	}

	@Test
	void aLeaseIsNeverBelowOneThread() {
		assertThat(LeasePlanner.target(60, "a", new InstanceDemand(0, 0), List.of(entry("b", 60)))).isEqualTo(1);
	}

	@Test
	void theFallbackIsTheLocalShareWhenOneIsConfigured() {
		assertThat(LeasePlanner.fallback(60, 7, 3, 2)).isEqualTo(7);
	}

	@Test
	void theFallbackIsTheLimitDividedByTheInstancesLastKnown() {
		assertThat(LeasePlanner.fallback(60, 0, 3, 2)).isEqualTo(20);
		assertThat(LeasePlanner.fallback(2, 0, 3, 2)).isEqualTo(1);
	}

	@Test
	void beforeAnyExchangeTheFallbackIsTheShareBeforeTheFirstExchange() {
		assertThat(LeasePlanner.fallback(60, 0, 0, 2)).isEqualTo(2);
	}

	private static InstanceEntry entry(String id, int demand) {
		return new InstanceEntry(id, demand, demand, 0, 0);
	}

}
