package io.github.poolpilot.execution;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.testsupport.FakeClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A virtual pool counts the tasks that come through a task decorator as arrivals, timed
 * or not.
 *
 * @author poolpilot authors
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualTaskDecoratorArrivalsTests {

	@Test
	void tasksThroughATaskDecoratorAreCountedAsArrivals() throws InterruptedException {
		FakeClock clock = new FakeClock();
		VirtualManagedExecutor executor = ManagedExecutor.builder("decorated", new PoolBounds(1, 2), 10)
			.recorder(PoolRecorder.builder().clock(clock).timingSampleEvery(16).build())
			.taskDecorator((task) -> task::run)
			.buildVirtual();
		try {
			for (int i = 0; i < 3; i++) {
				executor.execute(() -> {
				});
			}
			await().atMost(Duration.ofSeconds(10))
				.until(() -> executor.getPool().getRecorder().taskCounts().completed() == 3);
			clock.advanceMillis(1000);
			PoolSnapshot snapshot = executor.getPool().takeSnapshot();
			assertThat(snapshot.windowArrivals()).isEqualTo(3);
			assertThat(snapshot.tasks().submitted()).isEqualTo(3);
			assertThat(snapshot.littlesLaw().arrivalRate()).isEqualTo(3);
		}
		finally {
			executor.shutdownNow();
			assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		}
	}

}
