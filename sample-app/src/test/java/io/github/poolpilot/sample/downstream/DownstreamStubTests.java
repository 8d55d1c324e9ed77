package io.github.poolpilot.sample.downstream;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link DownstreamStub}.
 *
 * @author poolpilot authors
 */
class DownstreamStubTests {

	@Test
	void callsBeyondItsCapacityWaitInLine() {
		try (DownstreamStub stub = new DownstreamStub(Duration.ofHours(1), 2)) {
			List<CompletableFuture<Duration>> calls = new ArrayList<>();
			for (int i = 0; i < 5; i++) {
				calls.add(stub.call());
			}
			assertThat(stub.waitingCalls()).isEqualTo(3);
			assertThat(calls).noneMatch(CompletableFuture::isDone);
		}
	}

	@Test
	void eachCallTakesItsLatencyAndWaitsForTheCallsAheadOfIt() {
		Duration latency = Duration.ofMillis(50);
		try (DownstreamStub stub = new DownstreamStub(latency, 1)) {
			long before = System.nanoTime();
			List<CompletableFuture<Duration>> calls = new ArrayList<>();
			List<CompletableFuture<Long>> served = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				CompletableFuture<Duration> call = stub.call();
				calls.add(call);
				served.add(call.thenApply((took) -> System.nanoTime()));
			}
			// One place: the i-th call ends no sooner than i + 1 latencies after the
			// first began. Only lower bounds, which a slow machine cannot break.
			for (int i = 0; i < calls.size(); i++) {
				assertThat(calls.get(i).join()).isGreaterThanOrEqualTo(latency);
				assertThat(Duration.ofNanos(served.get(i).join() - before))
					.isGreaterThanOrEqualTo(latency.multipliedBy(i + 1));
			}
			assertThat(stub.waitingCalls()).isZero();
		}
	}

	@Test
	void rejectsAnImpossibleConfiguration() {
		assertThatIllegalArgumentException().isThrownBy(() -> new DownstreamStub(Duration.ofMillis(-1), 1))
			.withMessageContaining("sample.talk.downstream-latency");
		assertThatIllegalArgumentException().isThrownBy(() -> new DownstreamStub(Duration.ZERO, 0))
			.withMessageContaining("sample.talk.downstream-capacity");
	}

}
