package io.github.poolpilot.tuning;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link BaseServiceTime}: the least service time of the last windows, kept beyond them
 * while the pool stays saturated at as many threads.
 *
 * @author poolpilot authors
 */
class BaseServiceTimeTests {

	private final BaseServiceTime base = new BaseServiceTime();

	@Test
	void theBaseIsTheLeastOfTheLastWindows() {
		assertThat(this.base.min()).isNaN();
		this.base.add(80, 100, 10, false);
		this.base.add(50, 100, 10, false);
		this.base.add(70, 100, 10, false);
		assertThat(this.base.min()).isEqualTo(50);
	}

	@Test
	void aRebasedServiceTimeIsTheBaseWhateverWasMeasuredBefore() {
		this.base.add(20, 100, 8, false);
		saturated(5, 60, 12);
		assertThat(this.base.min()).isEqualTo(20);
		this.base.rebase(60, 100, 9);
		assertThat(this.base.min()).isEqualTo(60);
		this.base.add(55, 100, 12, true);
		assertThat(this.base.min()).isEqualTo(55);
	}

	@Test
	void windowsThatFinishedFarFewerTasksThanTheLastDoNotSetTheBase() {
		// A web server's pool idle but for its health checks (4 a second, 5 ms each),
		// then serving 32 requests of 300 ms a second: the checks say nothing of them.
		this.base.add(5, 4, 10, false);
		assertThat(this.base.min()).isEqualTo(5);
		// Warm-up, 20 a second: the checks' window finished a fifth of that.
		this.base.add(150, 20, 10, false);
		assertThat(this.base.min()).isEqualTo(150);
		this.base.add(300, 32, 10, true);
		assertThat(this.base.min()).isEqualTo(150);
		this.base.add(320, 100, 40, true);
		assertThat(this.base.min()).isEqualTo(300);
		// As light again: the checks' windows count once more.
		this.base.add(6, 4, 40, false);
		assertThat(this.base.min()).isEqualTo(5);
	}

	@Test
	void aLeastFromAWindowOfFarFewerTasksIsNotKept() {
		this.base.add(5, 4, 10, false);
		this.base.add(300, 32, 10, true);
		saturated(2, 310, 10);
		assertThat(this.base.min()).isEqualTo(300);
	}

	@Test
	void aLeastFromALightLoadIsKeptWhileThePoolGrownForItsStepWaitsAtADownstream() {
		// 10 calls of 300 ms a second at 10 threads, then 204 a second for a downstream
		// that admits 20: the surge's 94 threads, then 129, finish 60 to 70 calls a
		// window, each waiting for the others' at the downstream.
		for (int i = 0; i < 15; i++) {
			this.base.add(300, 10, 10, false);
		}
		this.base.add(415, 43, 94, true);
		this.base.add(971, 69, 94, true);
		for (int i = 0; i < 2 * PoolController.BASE_WINDOWS; i++) {
			this.base.add(1900, 60 + i % 11, 129, true);
		}
		assertThat(this.base.min()).isEqualTo(300);
		// Congested at the light load's threads or fewer, and far slower: the work's own.
		this.base.add(1200, 66, 10, true);
		assertThat(this.base.min()).isEqualTo(1200);
	}

	@Test
	void aPoolThatStaysSaturatedWithMoreThreadsKeepsItsLeastBeyondTheLastWindows() {
		// 8 calls of 50 ms at a time downstream: 100 threads wait 625 ms for them.
		this.base.add(50, 100, 8, true);
		saturated(2 * PoolController.BASE_WINDOWS, 625, 100);
		assertThat(this.base.min()).isEqualTo(50);
	}

	@Test
	void aWindowThatIsNotSaturatedLetsAnOlderLeastGo() {
		this.base.add(50, 100, 8, true);
		this.base.add(300, 100, 40, false);
		saturated(2 * PoolController.BASE_WINDOWS, 625, 100);
		assertThat(this.base.min()).isEqualTo(300);
	}

	@Test
	void aSlowerServiceAtNoMoreThreadsLetsTheLeastGo() {
		// The downstream became slower for every caller: the same 8 threads take 100 ms.
		this.base.add(50, 100, 8, true);
		saturated(2 * PoolController.BASE_WINDOWS, 100, 8);
		assertThat(this.base.min()).isEqualTo(100);
	}

	@Test
	void theLeastIsKeptForAtMostSoManyWindows() {
		this.base.add(50, 100, 8, true);
		saturated(BaseServiceTime.KEPT_WINDOWS + PoolController.BASE_WINDOWS, 625, 100);
		assertThat(this.base.min()).isEqualTo(625);
	}

	@Test
	void anEstimateCountsAmongTheLastWindowsOnly() {
		this.base.estimate(200);
		assertThat(this.base.min()).isEqualTo(200);
		saturated(PoolController.BASE_WINDOWS, 625, 100);
		assertThat(this.base.min()).isEqualTo(625);
	}

	/**
	 * So many saturated windows at a service time and a size.
	 */
	private void saturated(int windows, double serviceMs, int size) {
		for (int i = 0; i < windows; i++) {
			this.base.add(serviceMs, 100, size, true);
		}
	}

}
