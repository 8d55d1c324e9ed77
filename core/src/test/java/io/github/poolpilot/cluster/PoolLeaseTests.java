package io.github.poolpilot.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.FakeClock;
import io.github.poolpilot.testsupport.TestPools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link PoolLease}: leases of a cluster-wide limit of 60 threads over an
 * in-memory store, on a fake clock, with a time to live of 3 s.
 *
 * @author poolpilot authors
 */
class PoolLeaseTests {

	private static final long TTL = Duration.ofSeconds(3).toNanos();

	private final FakeClock clock = new FakeClock();

	private final InMemoryClusterStore store = new InMemoryClusterStore(this.clock);

	@RegisterExtension
	final TestPools pools = new TestPools();

	private final List<String> events = new ArrayList<>();

	private final ClusterListener listener = new ClusterListener() {

		@Override
		public void degraded(String pool, int lease, RuntimeException cause) {
			PoolLeaseTests.this.events.add("degraded " + lease);
		}

		@Override
		public void fellBack(String pool, int share) {
			PoolLeaseTests.this.events.add("fell back " + share);
		}

		@Override
		public void rejoined(String pool, int lease) {
			PoolLeaseTests.this.events.add("rejoined " + lease);
		}

	};

	@Test
	void beforeTheFirstExchangeThePoolIsCappedAtItsMinThreads() {
		PoolLease lease = lease("a", 0);
		assertThat(lease.lease()).isEqualTo(2);
		assertThat(lease.pool().maxPoolSize()).isEqualTo(2);
		assertThat(lease.state()).isEqualTo(ClusterState.DEGRADED);
	}

	@Test
	void theLeaseCapsThePoolThroughItsDoor() {
		PoolLease lease = lease("a", 0);
		lease.exchange(this.store, new InstanceDemand(30, 30), this.listener);
		assertThat(lease.lease()).isEqualTo(30);
		assertThat(lease.state()).isEqualTo(ClusterState.OK);
		ManagedPool pool = lease.pool();
		pool.resize(30, 30);
		assertThatExceptionOfType(InvalidPoolSizeException.class).isThrownBy(() -> pool.resize(31, 31))
			.withMessage("maxPoolSize 31 of pool 'talk' is above its lease of the cluster-wide limit "
					+ "(allowed: at most 30)");
		assertThat(pool.maxPoolSize()).isEqualTo(30);
	}

	@Test
	void aLeaseBelowMinThreadsShrinksThePoolBelowThem() {
		PoolLease lease = new PoolLease(pool("talk", 10, 80), "a", 60, 0, TTL, this.clock);
		lease.exchange(this.store, new InstanceDemand(4, 4), this.listener);
		assertThat(lease.pool().maxPoolSize()).isEqualTo(4);
		assertThat(lease.pool().corePoolSize()).isEqualTo(4);
	}

	@Test
	void anInstanceGrowsOnlyIntoWhatTheOthersLeasesLeave() {
		PoolLease a = lease("a", 0);
		PoolLease b = lease("b", 0);
		a.exchange(this.store, new InstanceDemand(50, 50), this.listener);
		a.pool().resize(50, 50);
		b.exchange(this.store, new InstanceDemand(60, 60), this.listener);
		assertThat(a.lease()).isEqualTo(50);
		assertThat(b.lease()).isEqualTo(10);
		// a sees b's demand and shrinks to its fair share at once; the store still
		// counts its 50 threads until its next exchange releases them.
		a.exchange(this.store, new InstanceDemand(50, 50), this.listener);
		assertThat(a.lease()).isEqualTo(30);
		assertThat(a.pool().maxPoolSize()).isEqualTo(30);
		assertThat(this.store.entries("talk").get("a").lease()).isEqualTo(50);
		b.exchange(this.store, new InstanceDemand(60, 60), this.listener);
		assertThat(b.lease()).isEqualTo(10);
		a.exchange(this.store, new InstanceDemand(50, 50), this.listener);
		assertThat(this.store.entries("talk").get("a").lease()).isEqualTo(30);
		b.exchange(this.store, new InstanceDemand(60, 60), this.listener);
		assertThat(b.lease()).isEqualTo(30);
		assertThat(this.store.leases("talk")).isEqualTo(60);
	}

	@Test
	void aPoolThatShrinksIsRecordedWithTheThreadsStillRunningUntilTheyEnd() throws InterruptedException {
		PoolLease a = lease("a", 0);
		a.exchange(this.store, new InstanceDemand(6, 6), this.listener);
		a.pool().resize(6, 6);
		CountDownLatch release = new CountDownLatch(1);
		ManagedExecutor executor = this.pools.executors().get(0);
		for (int i = 0; i < 6; i++) {
			executor.execute(() -> awaitQuietly(release));
		}
		await().until(() -> a.pool().liveThreads() == 6);
		a.exchange(this.store, new InstanceDemand(2, 2), this.listener);
		assertThat(a.pool().maxPoolSize()).isEqualTo(2);
		assertThat(this.store.entries("talk").get("a").lease()).isEqualTo(6);
		release.countDown();
		await().until(() -> a.pool().liveThreads() <= 2);
		a.exchange(this.store, new InstanceDemand(2, 2), this.listener);
		assertThat(this.store.entries("talk").get("a").lease()).isEqualTo(2);
	}

	@Test
	void anInstanceThatStopsRenewingKeepsItsShareUntilItsLeaseExpired() {
		PoolLease a = lease("a", 0);
		PoolLease b = lease("b", 0);
		a.exchange(this.store, new InstanceDemand(40, 40), this.listener);
		b.exchange(this.store, new InstanceDemand(60, 60), this.listener);
		assertThat(b.lease()).isEqualTo(20);
		this.clock.advance(Duration.ofMillis(2900));
		b.exchange(this.store, new InstanceDemand(60, 60), this.listener);
		assertThat(b.lease()).isEqualTo(20);
		this.clock.advance(Duration.ofMillis(200));
		// Expired: the exchange that finds it gone asks for the whole limit next time.
		b.exchange(this.store, new InstanceDemand(60, 60), this.listener);
		b.exchange(this.store, new InstanceDemand(60, 60), this.listener);
		assertThat(b.lease()).isEqualTo(60);
	}

	@Test
	void aLeaseCheckedEveryQuarterSecondFallsBackByTheLastCheckBeforeItsTimeToLiveIsOver() {
		PoolLease a = new PoolLease(pool("talk", 2, 80), "a", 60, 0, TTL, Duration.ofMillis(250).toNanos(), this.clock);
		PoolLease b = lease("b", 0);
		a.exchange(this.store, new InstanceDemand(40, 40), this.listener);
		b.exchange(this.store, new InstanceDemand(60, 60), this.listener);
		a.exchange(this.store, new InstanceDemand(40, 40), this.listener);
		this.store.reachable(false);
		this.clock.advance(Duration.ofMillis(2740));
		a.expire(this.listener);
		assertThat(a.status().fallback()).as("2.74 s of a 3 s TTL, checked every 0.25 s").isFalse();
		this.clock.advance(Duration.ofMillis(20));
		a.expire(this.listener);
		assertThat(a.status().fallback()).as("2.76 s: the next check would come after the TTL").isTrue();
	}

	@Test
	void withoutTheStoreAnInstanceKeepsItsLeaseUntilItExpiresThenFallsBackAndRejoinsByItself() {
		PoolLease a = lease("a", 0);
		PoolLease b = lease("b", 0);
		PoolLease c = lease("c", 0);
		a.exchange(this.store, new InstanceDemand(40, 40), this.listener);
		b.exchange(this.store, new InstanceDemand(10, 10), this.listener);
		c.exchange(this.store, new InstanceDemand(10, 10), this.listener);
		a.exchange(this.store, new InstanceDemand(40, 40), this.listener);
		assertThat(a.lease()).isEqualTo(40);
		a.pool().resize(40, 40);
		this.store.reachable(false);
		this.clock.advance(Duration.ofSeconds(1));
		a.exchange(this.store, new InstanceDemand(40, 40), this.listener);
		a.exchange(this.store, new InstanceDemand(40, 40), this.listener);
		a.expire(this.listener);
		assertThat(a.state()).isEqualTo(ClusterState.DEGRADED);
		assertThat(a.lease()).isEqualTo(40);
		assertThat(this.events).containsExactly("degraded 40");
		this.clock.advance(Duration.ofSeconds(2));
		a.expire(this.listener);
		a.expire(this.listener);
		assertThat(a.lease()).isEqualTo(20);
		assertThat(a.pool().maxPoolSize()).isEqualTo(20);
		assertThat(a.status().fallback()).isTrue();
		assertThat(this.events).containsExactly("degraded 40", "fell back 20");
		this.store.reachable(true);
		a.exchange(this.store, new InstanceDemand(40, 40), this.listener);
		assertThat(a.state()).isEqualTo(ClusterState.OK);
		assertThat(this.events).containsExactly("degraded 40", "fell back 20", "rejoined " + a.lease());
	}

	@Test
	void aPoolBelowItsFallbackShareGrowsToItOnlyATimeToLiveAfterFallingBack() {
		PoolLease a = lease("a", 0);
		PoolLease b = lease("b", 0);
		a.exchange(this.store, new InstanceDemand(50, 50), this.listener);
		b.exchange(this.store, new InstanceDemand(10, 10), this.listener);
		b.exchange(this.store, new InstanceDemand(10, 10), this.listener);
		this.store.reachable(false);
		this.clock.advance(Duration.ofSeconds(3));
		b.expire(this.listener);
		assertThat(b.lease()).isEqualTo(10);
		assertThat(b.status().fallback()).isTrue();
		this.clock.advance(Duration.ofMillis(2900));
		b.expire(this.listener);
		assertThat(b.lease()).isEqualTo(10);
		this.clock.advance(Duration.ofMillis(100));
		b.expire(this.listener);
		assertThat(b.lease()).isEqualTo(30);
		assertThat(b.pool().ceiling()).isEqualTo(30);
	}

	@Test
	void instancesRejoiningAStoreThatLostEverythingFirstRecordWhatTheyHoldThenGrow() {
		PoolLease a = lease("a", 0);
		PoolLease b = lease("b", 0);
		a.exchange(this.store, new InstanceDemand(40, 40), this.listener);
		b.exchange(this.store, new InstanceDemand(40, 40), this.listener);
		a.exchange(this.store, new InstanceDemand(40, 40), this.listener);
		b.exchange(this.store, new InstanceDemand(40, 40), this.listener);
		this.store.reachable(false);
		this.clock.advance(Duration.ofSeconds(4));
		a.exchange(this.store, new InstanceDemand(40, 40), this.listener);
		b.exchange(this.store, new InstanceDemand(40, 40), this.listener);
		a.expire(this.listener);
		b.expire(this.listener);
		this.store.release("talk", "a");
		this.store.release("talk", "b");
		this.store.reachable(true);
		a.exchange(this.store, new InstanceDemand(60, 60), this.listener);
		b.exchange(this.store, new InstanceDemand(10, 10), this.listener);
		assertThat(a.lease() + b.lease()).isLessThanOrEqualTo(60);
		// a sees b back in this exchange, and grows from the next.
		a.exchange(this.store, new InstanceDemand(60, 60), this.listener);
		assertThat(a.lease()).isEqualTo(30);
		a.exchange(this.store, new InstanceDemand(60, 60), this.listener);
		assertThat(a.lease()).isEqualTo(50);
		assertThat(this.store.leases("talk")).isLessThanOrEqualTo(60);
	}

	@Test
	void anInstanceBackBeforeTheOthersDoesNotGrowIntoTheFallbackSharesTheyStillHold() {
		PoolLease a = lease("a", 0);
		PoolLease b = lease("b", 0);
		settle(a, b);
		// Redis goes away for 4 s: both fall back to 60 ÷ 2.
		this.store.reachable(false);
		seconds(4, a, b);
		assertThat(a.status().fallback()).isTrue();
		assertThat(b.status().fallback()).isTrue();
		// It comes back empty, and a's client reconnects first: b still holds its 30.
		this.store.lose();
		this.store.reachable(true);
		this.store.reachable("b", false);
		seconds(3, a, b);
		this.store.reachable("b", true);
		seconds(3, a, b);
		assertThat(a.lease()).isEqualTo(30);
		assertThat(b.lease()).isEqualTo(30);
		assertThat(a.state()).isEqualTo(ClusterState.OK);
		assertThat(b.state()).isEqualTo(ClusterState.OK);
	}

	@Test
	void anInstanceThatNeverLostContactDoesNotGrowIntoLeasesTheStoreForgot() {
		PoolLease a = lease("a", 0);
		PoolLease b = lease("b", 0);
		settle(a, b);
		// Redis restarts between two of a's exchanges; b's client is still reconnecting.
		this.store.lose();
		this.store.reachable("b", false);
		seconds(3, a, b);
		this.store.reachable("b", true);
		seconds(3, a, b);
		assertThat(a.lease()).isEqualTo(30);
		assertThat(b.lease()).isEqualTo(30);
	}

	@Test
	void anInstanceStillCutOffWhenTheHoldEndsIsTakenForGoneAndGetsWhatIsLeftWhenItReturns() {
		PoolLease a = lease("a", 0);
		PoolLease b = lease("b", 0);
		settle(a, b);
		this.store.reachable(false);
		seconds(4, a, b);
		this.store.lose();
		this.store.reachable(true);
		this.store.reachable("b", false);
		// a holds its 30 for as long as it was away (5 s since its last exchange, more
		// than the TTL of 3 s), then takes b, still away, for gone.
		for (int second = 1; second <= 5; second++) {
			this.clock.advance(Duration.ofSeconds(1));
			window(a, 60);
			assertThat(a.lease()).as("a's lease %d s after it rejoined", second).isEqualTo(30);
		}
		this.clock.advance(Duration.ofSeconds(1));
		window(a, 60);
		window(a, 60);
		assertThat(a.lease()).isEqualTo(60);
		// b, cut off all along, kept its fallback share: the excess the hold bounds.
		window(b, 60);
		assertThat(b.lease()).isEqualTo(30);
		this.store.reachable("b", true);
		window(b, 60);
		assertThat(b.lease()).isEqualTo(1);
		window(a, 60);
		window(b, 60);
		window(a, 60);
		window(b, 60);
		assertThat(a.lease()).isEqualTo(30);
		assertThat(b.lease()).isEqualTo(30);
	}

	@Test
	void aPoolOnItsFallbackShareKeepsItWhileItsExchangesFailWhateverItAsksFor() {
		PoolLease a = lease("a", 0);
		PoolLease b = lease("b", 0);
		settle(a, b);
		this.store.reachable(false);
		this.clock.advance(Duration.ofSeconds(4));
		a.expire(this.listener);
		assertThat(a.lease()).isEqualTo(30);
		// Asking for less while cut off gives nothing to anyone: the share stays, and the
		// tuner sizes the pool within it.
		for (int second = 0; second < 6; second++) {
			this.clock.advance(Duration.ofSeconds(1));
			a.exchange(this.store, new InstanceDemand(7, 7), this.listener);
			assertThat(a.lease()).as("lease after %d failed exchanges", second + 1).isEqualTo(30);
			a.expire(this.listener);
		}
	}

	@Test
	void theFallbackIsTheLocalShareWhenOneIsConfigured() {
		PoolLease a = lease("a", 5);
		a.exchange(this.store, new InstanceDemand(40, 40), this.listener);
		this.store.reachable(false);
		this.clock.advance(Duration.ofSeconds(4));
		a.expire(this.listener);
		assertThat(a.lease()).isEqualTo(5);
	}

	@Test
	void theStatusShowsTheLimitTheLeaseAndEveryLiveInstance() {
		PoolLease a = lease("a", 0);
		PoolLease b = lease("b", 0);
		a.exchange(this.store, new InstanceDemand(10, 10), this.listener);
		b.exchange(this.store, new InstanceDemand(20, 20), this.listener);
		this.clock.advance(Duration.ofMillis(300));
		ClusterStatus status = b.status();
		assertThat(status.limit()).isEqualTo(60);
		assertThat(status.lease()).isEqualTo(20);
		assertThat(status.leaseAgeMs()).isEqualTo(300);
		assertThat(status.state()).isEqualTo(ClusterState.OK);
		assertThat(status.instances()).containsExactly(new ClusterStatus.Instance("b", 20, 20, true),
				new ClusterStatus.Instance("a", 10, 10, false));
	}

	@Test
	void whateverTheDemandsTheLeasesRecordedNeverExceedTheLimit() {
		List<PoolLease> leases = List.of(lease("a", 0), lease("b", 0), lease("c", 0));
		Random random = new Random(42);
		for (int round = 0; round < 500; round++) {
			PoolLease lease = leases.get(random.nextInt(3));
			int threads = random.nextInt(80);
			lease.exchange(this.store, new InstanceDemand(threads, threads), this.listener);
			assertThat(this.store.leases("talk")).isLessThanOrEqualTo(60);
			assertThat(leases.stream().mapToInt(PoolLease::lease).sum()).isLessThanOrEqualTo(60);
			this.clock.advance(Duration.ofMillis(100));
		}
	}

	/**
	 * Two instances that both ask for the whole limit of 60 settle at 30 each, their
	 * pools grown to it.
	 */
	private void settle(PoolLease a, PoolLease b) {
		for (int round = 0; round < 3; round++) {
			window(a, 60);
			window(b, 60);
		}
		assertThat(a.lease()).isEqualTo(30);
		assertThat(b.lease()).isEqualTo(30);
		assertThat(threads(a, b)).isEqualTo(60);
	}

	/**
	 * Some seconds of two instances asking for the whole limit of 60, their threads
	 * together within it after each.
	 */
	private void seconds(int seconds, PoolLease a, PoolLease b) {
		for (int second = 1; second <= seconds; second++) {
			this.clock.advance(Duration.ofSeconds(1));
			window(a, 60);
			window(b, 60);
			assertThat(threads(a, b)).as("threads of a and b after %d s", second).isLessThanOrEqualTo(60);
		}
	}

	/**
	 * One window of an instance's control loop, and its tuner growing the pool as far as
	 * the door lets it, as a saturated pool's tuner does.
	 */
	private void window(PoolLease lease, int demand) {
		lease.exchange(this.store, new InstanceDemand(demand, demand), this.listener);
		lease.expire(this.listener);
		ManagedPool pool = lease.pool();
		int size = Math.min(demand, pool.ceiling());
		if (size > pool.maxPoolSize()) {
			pool.resize(size, size);
		}
		assertThatExceptionOfType(InvalidPoolSizeException.class)
			.isThrownBy(() -> pool.resize(pool.maxPoolSize() + 1, pool.maxPoolSize() + 1));
	}

	private static int threads(PoolLease... leases) {
		int threads = 0;
		for (PoolLease lease : leases) {
			threads += lease.pool().maxPoolSize();
		}
		return threads;
	}

	private PoolLease lease(String id, int localShare) {
		return new PoolLease(pool("talk", 2, 80), id, 60, localShare, TTL, this.clock);
	}

	private ManagedPool pool(String name, int min, int max) {
		return this.pools.pool(name, new PoolBounds(min, max), 100, min);
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
