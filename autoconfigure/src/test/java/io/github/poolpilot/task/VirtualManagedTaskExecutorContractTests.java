package io.github.poolpilot.task;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import io.github.poolpilot.testsupport.VirtualThreadsSupport;

import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The contract run against a declared pool on virtual threads, a
 * {@link ManagedTaskExecutor} with {@code setVirtualThreads(true)}: each task runs on a
 * virtual thread of its own, at most the maximum size at once. The differences it shares
 * with the platform pool are pinned in {@link ManagedTaskExecutorContract}; those here
 * come from keeping no idle thread: its pool size is the tasks running, keep-alive and
 * core thread time-out are kept and checked but have no effect, and nothing is
 * prestarted.
 *
 * @author poolpilot authors
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualManagedTaskExecutorContractTests extends ManagedTaskExecutorContract {

	@Override
	void configure(ManagedTaskExecutor executor) {
		executor.setVirtualThreads(true);
	}

	/**
	 * Difference: no thread is kept idle; the pool size is the tasks running.
	 */
	@Override
	int idlePoolSize(int corePoolSize) {
		return 0;
	}

	@Test
	void eachTaskRunsOnAVirtualThreadNamedWithThePrefix() throws Exception {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
		});
		Thread thread = executor.submit(Thread::currentThread).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(VirtualThreadsSupport.isVirtual(thread)).isTrue();
		assertThat(thread.getName()).startsWith(this.prefix);
	}

	/**
	 * Difference: the keep-alive is kept and read back, and has no effect: a task's
	 * thread ends with it.
	 */
	@Override
	@Test
	void threadsAboveTheCoreSizeEndOnceIdleForTheKeepAlive() {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			settings.setMaxPoolSize(2);
			settings.setKeepAliveSeconds(60);
		});
		assertThat(executor.getThreadPoolExecutor().getKeepAliveTime(TimeUnit.SECONDS)).isEqualTo(60);
		occupy(executor);
		occupy(executor);
		assertThat(executor.getPoolSize()).isEqualTo(2);
		this.release.countDown();
		await().atMost(WAIT).until(() -> executor.getPoolSize() == 0);
	}

	/**
	 * Difference: core thread time-out is kept and read back, and has no effect: no
	 * thread waits for a task, whether core threads may time out or not.
	 */
	@Override
	@Test
	void coreThreadsEndOnceIdleOnlyWhenAllowedToTimeOut() throws Exception {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			settings.setKeepAliveSeconds(60);
			settings.setAllowCoreThreadTimeOut(false);
		});
		assertThat(executor.getThreadPoolExecutor().allowsCoreThreadTimeOut()).isFalse();
		executor.submit(new Task()).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
		await().atMost(WAIT).until(() -> executor.getPoolSize() == 0);
		executor.setAllowCoreThreadTimeOut(true);
		assertThat(executor.getThreadPoolExecutor().allowsCoreThreadTimeOut()).isTrue();
	}

	/**
	 * Difference: no thread is started before a task, so prestarting starts none.
	 */
	@Override
	@Test
	void prestartingStartsTheCoreThreadsAtInitialization() {
		ThreadPoolTaskExecutor executor = executor((settings) -> {
			settings.setCorePoolSize(2);
			settings.setMaxPoolSize(2);
			settings.setPrestartAllCoreThreads(true);
		});
		assertThat(executor.getPoolSize()).isZero();
		assertThat(executor.getThreadPoolExecutor().prestartAllCoreThreads()).isZero();
	}

}
