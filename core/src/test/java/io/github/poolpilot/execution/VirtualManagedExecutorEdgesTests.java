package io.github.poolpilot.execution;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import io.github.poolpilot.guard.TaskGuard;
import io.github.poolpilot.pool.InvalidPoolSizeException;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.Blocking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link VirtualManagedExecutor} and its {@code ThreadPoolExecutor} view: what
 * they say of themselves, their guard, the sizes they are built with, and the purge of
 * cancelled tasks.
 *
 * @author poolpilot authors
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualManagedExecutorEdgesTests {

	private final CountDownLatch release = new CountDownLatch(1);

	private final VirtualManagedExecutor pool = ManagedExecutor.builder("talk", new PoolBounds(1, 16), 10)
		.sizes(1, 1)
		.buildVirtual();

	@AfterEach
	void shutDown() throws InterruptedException {
		this.release.countDown();
		this.pool.shutdownNow();
		assertThat(this.pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void whyAJvmCannotRunAVirtualPoolNamesTheJavaNeededAndTheJavaRunning() {
		assertThat(VirtualManagedExecutor.unsupportedMessage())
			.isEqualTo("Virtual threads need Java 21 or later; this JVM is Java " + Runtime.version());
	}

	@Test
	void sizesOutsideTheBoundsAreRefusedWhenThePoolIsBuilt() {
		assertThatExceptionOfType(InvalidPoolSizeException.class)
			.isThrownBy(() -> ManagedExecutor.builder("large", new PoolBounds(1, 4), 10).sizes(1, 8).buildVirtual())
			.withMessage("maxPoolSize 8 of pool 'large' is above its max-threads 4 (allowed: 1 to 4)");
	}

	@Test
	void theGuardIsTheOneSet() {
		TaskGuard guard = new TaskGuard() {
		};
		assertThat(this.pool.getGuard()).isNull();
		this.pool.setGuard(guard);
		assertThat(this.pool.getGuard()).isSameAs(guard);
	}

	@Test
	void thePoolAndItsViewSayWhetherTheyRunOrTerminated() throws InterruptedException {
		ThreadPoolExecutor view = this.pool.asThreadPoolExecutor();
		assertThat(this.pool.toString()).startsWith("VirtualManagedExecutor[talk, Running, limit = 1,");
		assertThat(view).hasToString(this.pool.toString());
		assertThat(view.getThreadFactory()).isSameAs(this.pool.getThreadFactory());
		assertThat(view.isTerminated()).isFalse();
		this.pool.execute(() -> Blocking.await(this.release));
		this.pool.shutdown();
		assertThat(this.pool.toString()).contains(", Shutting down,");
		this.release.countDown();
		assertThat(view.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		assertThat(view.isTerminated()).isTrue();
		assertThat(this.pool.toString()).contains(", Terminated,");
	}

	@Test
	void cancelledQueuedTasksArePurgedAndCountedAsAbandoned() {
		this.pool.execute(() -> Blocking.await(this.release));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.pool.getActiveCount() == 1);
		Future<?> cancelled = this.pool.submit(() -> {
		});
		Future<?> kept = this.pool.submit(() -> {
		});
		cancelled.cancel(false);
		this.pool.purge();
		assertThat(this.pool.getQueue()).hasSize(1);
		assertThat(this.pool.getPool().getRecorder().taskCounts().abandoned()).isOne();
		assertThat(kept.isCancelled()).isFalse();
	}

}
