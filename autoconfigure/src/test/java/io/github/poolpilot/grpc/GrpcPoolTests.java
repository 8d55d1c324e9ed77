package io.github.poolpilot.grpc;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link GrpcPool} on its own.
 *
 * @author poolpilot authors
 */
class GrpcPoolTests {

	@Test
	void whatTheAwaitPeriodLeavesIsInterruptedAndCountedAbandonedAtClose() throws Exception {
		GrpcPool grpc = new GrpcPool(PoolRecorder.builder().build(), new PoolBounds(1, 1), 10, Duration.ofSeconds(60),
				Duration.ZERO);
		ManagedPool pool = grpc.getPool();
		CountDownLatch running = new CountDownLatch(1);
		CountDownLatch interrupted = new CountDownLatch(1);
		AtomicBoolean queuedRan = new AtomicBoolean();
		grpc.execute(() -> {
			running.countDown();
			try {
				new CountDownLatch(1).await();
			}
			catch (InterruptedException ex) {
				interrupted.countDown();
			}
		});
		grpc.execute(() -> queuedRan.set(true));
		assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(pool.getExecutor().getQueueSize()).isEqualTo(1);
		grpc.close();
		assertThat(interrupted.await(30, TimeUnit.SECONDS)).isTrue();
		await().atMost(Duration.ofSeconds(30)).until(() -> grpc.asThreadPoolExecutor().isTerminated());
		assertThat(queuedRan).isFalse();
		assertThat(pool.getRecorder().taskCounts().abandoned()).isEqualTo(1);
	}

}
