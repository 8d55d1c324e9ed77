package io.github.poolpilot.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.pool.PoolRejectedException;
import io.github.poolpilot.pool.QueueOverflow;
import io.github.poolpilot.testsupport.Blocking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for a {@link ManagedExecutor} whose tuner lets it add threads for tasks that find
 * its queue full ({@link QueueOverflow}): the pool grows through its door, one thread a
 * task, and refuses only at what it is allowed. Tasks block on a latch, so that every
 * figure is known when it is read.
 *
 * @author poolpilot authors
 */
class ManagedExecutorOverflowTests {

	private final List<ManagedExecutor> pools = new ArrayList<>();

	private final CountDownLatch release = new CountDownLatch(1);

	@AfterEach
	void shutDown() throws InterruptedException {
		this.release.countDown();
		for (ManagedExecutor pool : this.pools) {
			pool.shutdownNow();
			assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		}
	}

	@Test
	void aPoolItsTunerAllowsMoreAddsAThreadRatherThanRefuse() {
		ManagedExecutor pool = pool(1, 8, 1);
		pool.getPool().allowOverflow(3);
		for (int i = 0; i < 4; i++) {
			pool.execute(this::waitForRelease);
		}
		// One running, one queued, then a thread for each of the two that found the
		// queue full.
		assertThat(pool.getMaximumPoolSize()).isEqualTo(3);
		assertThat(pool.getCorePoolSize()).isEqualTo(3);
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> pool.execute(this::waitForRelease));
		assertThat(pool.getMaximumPoolSize()).isEqualTo(3);
		assertThat(pool.getPool().getRecorder().taskCounts().rejected()).isEqualTo(1);
		this.release.countDown();
		await().atMost(Duration.ofSeconds(30)).until(() -> pool.getCompletedTaskCount() == 4);
	}

	@Test
	void aPoolAllowedNothingRefusesAtItsSize() {
		ManagedExecutor pool = pool(1, 8, 1);
		pool.execute(this::waitForRelease);
		pool.execute(this::waitForRelease);
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> pool.execute(this::waitForRelease));
		assertThat(pool.getMaximumPoolSize()).isEqualTo(1);
		assertThat(pool.getPool().overflowAllowed()).isEqualTo(QueueOverflow.NONE);
	}

	@Test
	void aPoolNeverPassesItsBudget() {
		PoolRegistry registry = new PoolRegistry(3);
		ManagedExecutor pool = pool(1, 8, 1);
		ManagedExecutor other = pool("other", 2, 8, 1);
		registry.register(pool.getPool());
		registry.register(other.getPool());
		pool.getPool().allowOverflow(8);
		pool.execute(this::waitForRelease);
		pool.execute(this::waitForRelease);
		// The other pool holds 2 of the budget's 3 threads: no room for a second.
		assertThatExceptionOfType(PoolRejectedException.class).isThrownBy(() -> pool.execute(this::waitForRelease));
		assertThat(pool.getMaximumPoolSize()).isEqualTo(1);
	}

	@Test
	void aResizeThroughTheDoorEndsWhatTheTunerAllowed() {
		ManagedExecutor pool = pool(1, 8, 1);
		pool.getPool().allowOverflow(5);
		pool.setMaximumPoolSize(2);
		assertThat(pool.getPool().overflowAllowed()).isEqualTo(QueueOverflow.NONE);
	}

	@Test
	void aNegativeAllowanceIsRefusedNamingThePool() {
		ManagedExecutor pool = pool(1, 8, 1);
		assertThatIllegalArgumentException().isThrownBy(() -> pool.getPool().allowOverflow(-1))
			.withMessageContaining("'overflow'");
	}

	private ManagedExecutor pool(int size, int maxThreads, int queueCapacity) {
		return pool("overflow", size, maxThreads, queueCapacity);
	}

	private ManagedExecutor pool(String name, int size, int maxThreads, int queueCapacity) {
		ManagedExecutor pool = ManagedExecutor.builder(name, new PoolBounds(1, maxThreads), queueCapacity)
			.sizes(size, size)
			.build();
		this.pools.add(pool);
		return pool;
	}

	private void waitForRelease() {
		Blocking.await(this.release);
	}

}
