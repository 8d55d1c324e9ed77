package io.github.poolpilot.grpc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import com.google.common.util.concurrent.ListenableFuture;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.Draw;
import io.github.poolpilot.testsupport.Seeds;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Bursts of calls drawn from a seed on the {@code grpc} pool of a real server and client:
 * every call is answered, served or refused with RESOURCE_EXHAUSTED and a pushback; none
 * is refused while the calls fit the pool's queue (gRPC hands over each call's events one
 * at a time, so a call takes one place at most; beyond the queue's places a burst may be
 * refused before idle threads wake to take its calls, as docs/adapters.md says); and each
 * refusal the client sees is one the pool counted.
 *
 * @author poolpilot authors
 */
class GrpcServerPoolBurstTests {

	private static final String RERUN = "./mvnw -pl autoconfigure -am test-compile surefire:test@default-test "
			+ "-Dtest=GrpcServerPoolBurstTests -Dsurefire.failIfNoSpecifiedTests=false";

	private static final int QUEUE_CAPACITY = 4;

	private static final int MAX_THREADS = 4;

	private static ConfigurableApplicationContext context;

	private static ManagedChannel channel;

	static LongStream seeds() {
		return Seeds.first(8);
	}

	@BeforeAll
	static void start() {
		context = new SpringApplicationBuilder(GrpcPoolApplication.class).web(WebApplicationType.NONE)
			.properties("spring.grpc.server.port=0", "spring.grpc.server.address=127.0.0.1",
					"poolpilot.grpc-server.enabled=true", "poolpilot.grpc-server.min-threads=1",
					"poolpilot.grpc-server.max-threads=" + MAX_THREADS,
					"poolpilot.grpc-server.queue-capacity=" + QUEUE_CAPACITY, "poolpilot.tuning.enabled=false",
					"poolpilot.existing-executors.enabled=false", "spring.main.banner-mode=off")
			.run();
		int port = context.getEnvironment().getRequiredProperty("local.grpc.server.port", Integer.class);
		channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
	}

	@AfterAll
	static void stop() {
		channel.shutdownNow();
		context.close();
	}

	@ParameterizedTest(name = "seed {0}")
	@MethodSource("seeds")
	void everyCallOfABurstIsServedOrRefusedAndNoneThatFitsIsRefused(long seed) throws Exception {
		Draw draw = new Draw(seed);
		int threads = draw.between(1, MAX_THREADS);
		int calls = draw.between(1, 3 * (threads + QUEUE_CAPACITY));
		List<Integer> sleeps = new ArrayList<>();
		for (int i = 0; i < calls; i++) {
			sleeps.add(draw.between(0, 40));
		}
		ManagedPool pool = context.getBean(PoolRegistry.class).get(GrpcPool.NAME);
		assertThat(pool).isNotNull();
		pool.resize(threads, threads);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> pool.getExecutor().getActiveCount() == 0 && pool.getExecutor().getQueueSize() == 0);
		long queueFullBefore = pool.getRecorder().taskCounts().rejections().queueFull();
		List<ListenableFuture<String>> answers = new ArrayList<>();
		for (int sleep : sleeps) {
			answers.add(ClientCalls.futureUnaryCall(channel.newCall(GrpcPoolApplication.SLEEP, CallOptions.DEFAULT),
					Integer.toString(sleep)));
		}
		int served = 0;
		int refused = 0;
		List<String> unexpected = new ArrayList<>();
		for (int i = 0; i < calls; i++) {
			try {
				String answer = answers.get(i).get(30, TimeUnit.SECONDS);
				if (answer.equals("slept " + sleeps.get(i))) {
					served++;
				}
				else {
					unexpected.add(answer);
				}
			}
			catch (ExecutionException ex) {
				if (ex.getCause() instanceof StatusRuntimeException status
						&& status.getStatus().getCode() == Status.Code.RESOURCE_EXHAUSTED
						&& pushbackMs(status.getTrailers()) >= 1000) {
					refused++;
				}
				else {
					unexpected.add(String.valueOf(ex.getCause()));
				}
			}
		}
		int answered = served + refused;
		int refusedCalls = refused;
		System.out.println("seed " + seed + ": " + calls + " calls on " + threads + " threads, " + served + " served, "
				+ refused + " refused");
		long queueFull = pool.getRecorder().taskCounts().rejections().queueFull() - queueFullBefore;
		Seeds.check(seed, RERUN, () -> {
			assertThat(unexpected).as("threads %d, calls %d", threads, calls).isEmpty();
			assertThat(answered).isEqualTo(calls);
			if (calls <= QUEUE_CAPACITY) {
				assertThat(refusedCalls).as("refused of %d calls, %d places", calls, QUEUE_CAPACITY).isZero();
			}
			assertThat(queueFull).isGreaterThanOrEqualTo(refusedCalls);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> pool.getExecutor().getActiveCount() == 0 && pool.getExecutor().getQueueSize() == 0);
		});
	}

	private static long pushbackMs(Metadata trailers) {
		String pushback = (trailers != null) ? trailers.get(GrpcRefusalInterceptor.RETRY_PUSHBACK) : null;
		return (pushback != null) ? Long.parseLong(pushback) : -1;
	}

}
