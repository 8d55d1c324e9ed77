package io.github.poolpilot.actuate;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.poolpilot.measure.NanoClock;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.Blocking;
import io.github.poolpilot.testsupport.TestPools;
import io.github.poolpilot.tuning.Tuner;
import io.github.poolpilot.tuning.TuningMode;

import org.springframework.boot.actuate.endpoint.SecurityContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ThreadPoolsEndpoint}'s write operation against changes made to the
 * pools and the tuner at the same time.
 *
 * @author poolpilot authors
 */
class ThreadPoolsEndpointTests {

	@RegisterExtension
	final TestPools pools = new TestPools();

	@Test
	void aChangeThatWaitedForARefreshTurningTuningOffIsRefusedAndChangesNothing() throws Exception {
		PoolRegistry registry = new PoolRegistry(10);
		ManagedPool talk = this.pools.pool("talk", new PoolBounds(1, 8), 10, 2);
		registry.register(talk);
		Tuner tuner = new Tuner(registry, NanoClock.SYSTEM, () -> -1, (pool, decision) -> {
		});
		tuner.setMode("talk", TuningMode.MANUAL);
		ThreadPoolsEndpoint endpoint = new ThreadPoolsEndpoint(registry, tuner, (event) -> {
		});
		// A configuration refresh applies under the budget's lock, and turns tuning off.
		CountDownLatch refreshing = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Thread refresh = new Thread(() -> registry.budget().change(() -> {
			refreshing.countDown();
			Blocking.await(release);
			tuner.setEnabled(false);
		}));
		refresh.start();
		refreshing.await();
		AtomicReference<Throwable> refused = new AtomicReference<>();
		Thread post = new Thread(() -> {
			try {
				endpoint.updateThreadPool(SecurityContext.NONE, "talk", null, 6, "auto");
			}
			catch (Throwable ex) {
				refused.set(ex);
			}
		});
		post.start();
		await().atMost(Duration.ofSeconds(10)).until(() -> post.getState() == Thread.State.BLOCKED);
		release.countDown();
		refresh.join(Duration.ofSeconds(10).toMillis());
		post.join(Duration.ofSeconds(10).toMillis());
		assertThat(refused.get()).isInstanceOf(InvalidChangeException.class)
			.hasMessage("tuning \"auto\" is not available: self-tuning is off (poolpilot.tuning.enabled=false)");
		assertThat(talk.maxPoolSize()).isEqualTo(2);
		assertThat(tuner.state("talk").getMode()).isEqualTo(TuningMode.MANUAL);
	}

}
