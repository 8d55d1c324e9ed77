package io.github.poolpilot.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;

import io.github.poolpilot.execution.ManagedExecutorService;
import io.github.poolpilot.task.ManagedTaskExecutor;
import io.github.poolpilot.testsupport.Blocking;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What closing the context does to a pool's tasks with an await-termination, checked the
 * same way for platform and virtual pools: each test passes the runner of its own.
 *
 * @author poolpilot authors
 */
final class AwaitTerminationChecks {

	private AwaitTerminationChecks() {
	}

	/**
	 * Check that queued tasks finish when the context closes within the await period.
	 * @param runner the runner that makes the context
	 */
	static void queuedTasksFinishWithinTheAwaitPeriod(ApplicationContextRunner runner) {
		CountDownLatch finished = new CountDownLatch(5);
		runner.withPropertyValues("poolpilot.pools.talk.max-threads=1", "poolpilot.pools.talk.await-termination=30s")
			.run((context) -> {
				ManagedTaskExecutor talk = context.getBean("talk", ManagedTaskExecutor.class);
				for (int i = 0; i < 5; i++) {
					talk.execute(() -> {
						Blocking.sleep(Duration.ofMillis(20));
						finished.countDown();
					});
				}
			});
		assertThat(finished.getCount()).isZero();
	}

	/**
	 * Close the context while a pool of one thread runs a task that never finishes and
	 * has two more queued, with the given await period, and check that the two queued
	 * tasks are cancelled, their futures too, and counted abandoned, and that the log
	 * says so only when the pool waited (with none, Spring's executor stops it at once).
	 * @param runner the runner that makes the context
	 * @param awaitTermination the pool's await period, such as {@code 100ms}, or
	 * {@code 0} for none
	 * @param output the test's output
	 * @return the pool's executor, terminated, for the test's own checks
	 */
	static ManagedExecutorService tasksLeftAfterTheAwaitPeriodAreAbandoned(ApplicationContextRunner runner,
			String awaitTermination, CapturedOutput output) {
		CountDownLatch never = new CountDownLatch(1);
		ManagedExecutorService[] executor = new ManagedExecutorService[1];
		List<Future<?>> queued = new ArrayList<>();
		runner
			.withPropertyValues("poolpilot.pools.talk.max-threads=1",
					"poolpilot.pools.talk.await-termination=" + awaitTermination)
			.run((context) -> {
				ManagedTaskExecutor talk = context.getBean("talk", ManagedTaskExecutor.class);
				executor[0] = talk.getManagedExecutor();
				talk.execute(() -> Blocking.await(never));
				queued.add(talk.submit(() -> Blocking.await(never)));
				queued.add(talk.submit(() -> Blocking.await(never)));
			});
		await().atMost(Duration.ofSeconds(10)).until(executor[0]::isTerminated);
		assertThat(executor[0].getPool().getRecorder().taskCounts().abandoned()).isEqualTo(2);
		assertThat(queued).allSatisfy((future) -> assertThat(future).isCancelled());
		if (Duration.ZERO.equals(DurationStyle.detectAndParse(awaitTermination))) {
			assertThat(output).doesNotContain("queued and interrupted");
		}
		else {
			assertThat(output).contains("Pool 'talk' did not finish within",
					": cancelled 2 queued and interrupted 1 running tasks");
		}
		return executor[0];
	}

}
