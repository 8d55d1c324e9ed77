package io.github.poolpilot.measure;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Virtual threads that submit, such as a request each on a virtual thread of its own, are
 * counted exactly without making totals of their own: one per request would be an
 * allocation per task.
 *
 * @author poolpilot authors
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualProducerCountsTests {

	@Test
	void submitsOfVirtualThreadsAreCountedWithoutTotalsOfTheirOwn() throws Exception {
		PoolRecorder recorder = PoolRecorder.builder().build();
		recorder.taskSubmitted();
		assertThat(recorder.threadTotals()).as("a platform thread's own totals").isEqualTo(1);
		ExecutorService requests = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
			.invoke(null);
		for (int i = 0; i < 500; i++) {
			requests.execute(() -> {
				recorder.taskSubmitted();
				recorder.taskSubmitted();
			});
		}
		requests.shutdown();
		assertThat(requests.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
		assertThat(recorder.taskCounts().submitted()).isEqualTo(1 + 500 * 2);
		assertThat(recorder.threadTotals()).as("no virtual thread made totals of its own").isEqualTo(1);
	}

}
