package io.github.poolpilot.execution;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

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
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowable;
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

	/**
	 * A virtual pool keeps no idle thread, so its keep-alive and core thread time-out
	 * have no effect; it still refuses what a platform pool refuses, with the same
	 * message, and reads back what it took.
	 */
	@Test
	void keepAliveAndCoreThreadTimeOutAreRefusedAsAPlatformPoolRefusesThem() {
		ManagedExecutor platform = ManagedExecutor.builder("talk", new PoolBounds(1, 16), 10)
			.sizes(1, 1)
			.keepAlive(Duration.ofSeconds(60))
			.build();
		try {
			ThreadPoolExecutor view = this.pool.asThreadPoolExecutor();
			assertThat(view.getKeepAliveTime(TimeUnit.SECONDS)).isEqualTo(60);
			assertSameRefusal(platform, view, (executor) -> executor.setKeepAliveTime(-10, TimeUnit.SECONDS));
			view.setKeepAliveTime(3, TimeUnit.SECONDS);
			platform.setKeepAliveTime(3, TimeUnit.SECONDS);
			view.allowCoreThreadTimeOut(true);
			platform.allowCoreThreadTimeOut(true);
			assertThat(this.pool.allowsCoreThreadTimeOut()).isTrue();
			assertSameRefusal(platform, view, (executor) -> executor.setKeepAliveTime(0, TimeUnit.SECONDS));
			view.allowCoreThreadTimeOut(false);
			platform.allowCoreThreadTimeOut(false);
			view.setKeepAliveTime(0, TimeUnit.SECONDS);
			platform.setKeepAliveTime(0, TimeUnit.SECONDS);
			assertSameRefusal(platform, view, (executor) -> executor.allowCoreThreadTimeOut(true));
			assertThat(this.pool.getKeepAliveTime(TimeUnit.NANOSECONDS)).isZero();
		}
		finally {
			platform.shutdownNow();
		}
	}

	@Test
	void buildingWithARefusedKeepAliveFailsAsForAPlatformPool() {
		ManagedExecutorBuilder negative = ManagedExecutor.builder("talk", new PoolBounds(1, 4), 10)
			.keepAlive(Duration.ofSeconds(-10));
		assertThatIllegalArgumentException().isThrownBy(negative::buildVirtual)
			.withMessage("keep-alive -10 s of pool 'talk' is negative (allowed: 0 or more)");
		ManagedExecutorBuilder zero = ManagedExecutor.builder("talk", new PoolBounds(1, 4), 10)
			.keepAlive(Duration.ZERO)
			.allowCoreThreadTimeOut(true);
		assertThatIllegalArgumentException().isThrownBy(zero::buildVirtual)
			.withMessageStartingWith("keep-alive 0 of pool 'talk' would end its core threads");
	}

	/**
	 * Apply a change both pools refuse: the same message, and neither changed.
	 */
	private static void assertSameRefusal(ThreadPoolExecutor platform, ThreadPoolExecutor virtual,
			Consumer<ThreadPoolExecutor> change) {
		long platformKeepAlive = platform.getKeepAliveTime(TimeUnit.NANOSECONDS);
		long virtualKeepAlive = virtual.getKeepAliveTime(TimeUnit.NANOSECONDS);
		boolean platformTimeOut = platform.allowsCoreThreadTimeOut();
		boolean virtualTimeOut = virtual.allowsCoreThreadTimeOut();
		Throwable platformRefusal = catchThrowable(() -> change.accept(platform));
		Throwable virtualRefusal = catchThrowable(() -> change.accept(virtual));
		assertThat(platformRefusal).isInstanceOf(IllegalArgumentException.class);
		assertThat(virtualRefusal).isInstanceOf(IllegalArgumentException.class)
			.hasMessage(platformRefusal.getMessage());
		assertThat(platform.getKeepAliveTime(TimeUnit.NANOSECONDS)).isEqualTo(platformKeepAlive);
		assertThat(virtual.getKeepAliveTime(TimeUnit.NANOSECONDS)).isEqualTo(virtualKeepAlive);
		assertThat(platform.allowsCoreThreadTimeOut()).isEqualTo(platformTimeOut);
		assertThat(virtual.allowsCoreThreadTimeOut()).isEqualTo(virtualTimeOut);
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
