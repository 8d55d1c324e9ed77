package io.github.poolpilot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.stream.LongStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.poolpilot.budget.ThreadBudget;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.task.ManagedTaskExecutor;
import io.github.poolpilot.testsupport.Blocking;
import io.github.poolpilot.testsupport.Draw;
import io.github.poolpilot.testsupport.Seeds;
import io.github.poolpilot.tuning.Decision;
import io.github.poolpilot.tuning.Decision.Cause.Lent;
import io.github.poolpilot.tuning.Tuner;

import org.springframework.aop.framework.Advised;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The budget holds whatever the order of the changes: on a real application (three
 * declared pools and Spring Boot's own executor under management, the endpoint over
 * HTTP), producers keep the pools busy while every path that resizes a pool runs at once
 * (POSTs to the endpoint that switch pools to manual and back to auto, the executors' own
 * setters, configuration refreshes that move the budget and a pool's bounds, the tuner's
 * windows and pulses), idle pools lending to the resizes that need their threads. Sampled
 * every millisecond under the budget's lock, the pools' maximum sizes never pass the
 * budget of that moment, nor their live threads but for the one worker per pool above its
 * maximum that {@code ThreadPoolExecutor} itself may hold as it shrinks
 * (docs/guarantees.md), and every task submitted is accounted for: completed, failed or
 * refused, as its caller saw it. The budget, the bounds and every actor's choices are
 * drawn from the seed.
 * <p>
 * Each seed runs for a few seconds in the default build;
 * {@code -Dpoolpilot-tests.stress.duration=PT1M} runs longer.
 *
 * @author poolpilot authors
 */
class BudgetStressTests {

	private static final Duration DURATION = Duration
		.parse(System.getProperty("poolpilot-tests.stress.duration", "PT4S"));

	private static final List<String> POOLS = List.of("alpha", "beta", "gamma", "applicationTaskExecutor");

	private static final String RERUN = "./mvnw -pl autoconfigure test-compile surefire:test@default-test "
			+ "-Dtest=BudgetStressTests";

	private final AtomicBoolean running = new AtomicBoolean(true);

	private final Queue<String> violations = new ConcurrentLinkedQueue<>();

	private final AtomicInteger mostLiveThreads = new AtomicInteger();

	private final LongAdder samples = new LongAdder();

	private final Map<String, LongAdder> outcomes = new LinkedHashMap<>();

	static LongStream seeds() {
		return Seeds.first(2);
	}

	@ParameterizedTest(name = "seed {0}")
	@MethodSource("seeds")
	void liveThreadsStayWithinTheBudgetAndEveryTaskIsAccountedFor(long seed) throws Exception {
		Draw draw = new Draw(seed);
		int budget = draw.between(12, 40);
		List<String> properties = new ArrayList<>(List.of("server.port=0", "spring.main.banner-mode=off",
				"logging.level.root=warn", "logging.level.io.github.poolpilot=error",
				"logging.level.io.github.poolpilot.autoconfigure.PoolsConfigurationRefresher=off",
				"management.endpoints.web.exposure.include=threadpools",
				"management.endpoint.threadpools.access=unrestricted", "poolpilot.budget.max-threads=" + budget,
				"poolpilot.measurement.window=100ms", "poolpilot.tuning.fast-path-interval=25ms",
				"spring.task.execution.pool.core-size=1", "spring.task.execution.pool.max-size=" + draw.between(2, 6),
				"spring.task.execution.pool.queue-capacity=50"));
		for (String pool : POOLS.subList(0, 3)) {
			String prefix = "poolpilot.pools." + pool + ".";
			properties.addAll(List.of(prefix + "min-threads=" + draw.between(1, 2),
					prefix + "max-threads=" + draw.between(4, 16), prefix + "weight=" + draw.between(1, 6),
					prefix + "queue-capacity=50", prefix + "keep-alive=1s"));
		}
		System.out.println("seed " + seed + ": "
				+ properties.stream()
					.filter((property) -> property.startsWith("poolpilot.") || property.startsWith("spring.task"))
					.toList());
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(StressApplication.class)
			.web(WebApplicationType.SERVLET)
			.properties(properties.toArray(String[]::new))
			.run()) {
			Seeds.check(seed, RERUN, () -> run(context, seed));
		}
	}

	private void run(ConfigurableApplicationContext context, long seed) {
		PoolRegistry registry = context.getBean(PoolRegistry.class);
		Map<String, ThreadPoolTaskExecutor> executors = new LinkedHashMap<>();
		Map<ManagedPool, ThreadPoolExecutor> workers = new LinkedHashMap<>();
		Map<String, Ledger> ledgers = new LinkedHashMap<>();
		for (String name : POOLS) {
			ThreadPoolTaskExecutor executor = context.getBean(name, ThreadPoolTaskExecutor.class);
			executors.put(name, executor);
			workers.put(registry.get(name), threadPoolExecutor(executor));
			ledgers.put(name, new Ledger());
		}
		RestClient client = RestClient.create(
				"http://localhost:" + context.getEnvironment().getRequiredProperty("local.server.port", Integer.class)
						+ "/actuator/threadpools/");
		// Warm up the paths the actors take, so that the run's seconds go to them.
		post(client, "alpha", "{\"tuning\":\"auto\"}");
		context.publishEvent(new EnvironmentChangeEvent(context, Set.of("poolpilot")));
		this.outcomes.clear();
		List<Thread> actors = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			actors.add(start(seed, "producer-" + i, (draw) -> produce(draw, executors, ledgers)));
		}
		actors.add(start(seed, "poster", (draw) -> post(draw, client, registry)));
		actors.add(start(seed, "setter", (draw) -> set(draw, executors)));
		actors.add(start(seed, "refresher", (draw) -> refresh(draw, context, registry)));
		Thread monitor = start(seed, "monitor", (draw) -> watch(registry.budget(), workers));
		LoanCounter loans = context.getBean(LoanCounter.class);
		LockSupport.parkNanos(DURATION.toNanos());
		// A loan needs an idle pool and a resize that wants its threads at the same
		// moment, which a busy machine makes rarer: the actors go on, for at most four
		// times as long, until one has happened.
		long deadline = System.nanoTime() + 4 * DURATION.toNanos();
		while (loans.total() == 0 && System.nanoTime() < deadline) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
		}
		this.running.set(false);
		actors.forEach(BudgetStressTests::join);
		join(monitor);
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			for (ManagedPool pool : workers.keySet()) {
				TaskCounts counts = pool.getRecorder().taskCounts();
				assertThat(counts.completed() + counts.failed() + counts.rejected()).as(pool.getName() + " settled")
					.isEqualTo(counts.submitted());
			}
		});
		System.out.println("most live threads " + this.mostLiveThreads + " in " + this.samples + " samples; "
				+ outcomes() + "; loans to resizes " + loans.toPools + ", to lower budgets " + loans.toBudget);
		assertThat(this.violations).as("samples over the budget").isEmpty();
		ledgers.forEach((name, ledger) -> ledger.settle(registry.get(name)));
		assertThat(this.samples.sum()).as("samples").isPositive();
		assertThat(counted("POST 200") + counted("POST 400")).as("POSTs answered").isPositive();
		assertThat(counted("refresh applied")).as("refreshes applied").isPositive();
		assertThat(counted("setter applied")).as("setters applied").isPositive();
		assertThat(loans.total()).as("loans").isPositive();
	}

	/**
	 * Submit tasks of 0 to 2 ms, one in twenty failing, to the pools, most of them to
	 * those the current phase (a fifth of the run, drawn) keeps busy, so that the others
	 * go idle and have threads to lend.
	 */
	private void produce(Draw draw, Map<String, ThreadPoolTaskExecutor> executors, Map<String, Ledger> ledgers) {
		long started = System.nanoTime();
		while (this.running.get()) {
			long phase = (System.nanoTime() - started) / (DURATION.toNanos() / 5 + 1);
			Draw phaseDraw = new Draw(phase * 31 + 7);
			String name = draw.chance(0.8) ? POOLS.get(phaseDraw.between(0, 1) + (int) (phase % 3))
					: draw.oneOf(POOLS.toArray(String[]::new));
			Ledger ledger = ledgers.get(name);
			boolean fail = draw.chance(0.05);
			Duration work = Duration.ofMillis(draw.between(0, 2));
			ledger.attempts.increment();
			try {
				// A failure stays in the future, where a caller would read it.
				executors.get(name).submit(() -> {
					Blocking.sleep(work);
					if (fail) {
						ledger.failedOnPurpose.increment();
						throw new IllegalStateException("failed on purpose");
					}
					ledger.completed.increment();
					return null;
				});
			}
			catch (TaskRejectedException ex) {
				ledger.rejected.increment();
			}
			LockSupport.parkNanos(draw.between(50_000, 200_000));
		}
	}

	/**
	 * POST to the endpoint as an operator would: sizes (within a pool's bounds or not,
	 * within what the budget and the idle pools leave or not) and the tuning mode.
	 */
	private void post(Draw draw, RestClient client, PoolRegistry registry) {
		while (this.running.get()) {
			String pool = draw.oneOf(POOLS.toArray(String[]::new));
			int max = draw.between(1, 16);
			switch (draw.between(0, 4)) {
				case 0 ->
					post(client, pool, "{\"corePoolSize\":" + draw.between(1, max) + ",\"maxPoolSize\":" + max + "}");
				case 1 -> post(client, pool, "{\"maxPoolSize\":" + max + "}");
				case 2 -> post(client, pool, "{\"tuning\":\"auto\"}");
				case 3 -> {
					// A pool handed back to the tuner with threads it does not use: a
					// lender.
					post(client, pool, "{\"corePoolSize\":1,\"maxPoolSize\":" + max + "}");
					post(client, pool, "{\"tuning\":\"auto\"}");
				}
				default -> {
					// A pool that asks for what the budget has free and some of what the
					// idle pools could lend, as they were a moment ago.
					ManagedPool borrower = registry.get(pool);
					ThreadBudget budget = registry.budget();
					int free = budget.maxThreads() - budget.allocatedThreads();
					int lendable = registry.pools().stream().mapToInt(budget::lendableThreads).sum();
					int asked = borrower.maxPoolSize() + Math.max(0, free) + draw.between(1, Math.max(1, lendable));
					post(client, pool, "{\"maxPoolSize\":" + Math.min(asked, borrower.maxThreads()) + "}");
				}
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(draw.between(1, 10)));
		}
	}

	private void post(RestClient client, String pool, String body) {
		ResponseEntity<String> answer = client.post()
			.uri(pool)
			.contentType(MediaType.APPLICATION_JSON)
			.body(body)
			.retrieve()
			.onStatus((status) -> true, (request, response) -> {
			})
			.toEntity(String.class);
		int status = answer.getStatusCode().value();
		if (status != 200 && status != 400) {
			this.violations.add("POST " + body + " to " + pool + " answered " + status + ": " + answer.getBody());
		}
		count("POST " + status);
		if (status == 200 && answer.getBody().contains("\"lentBy\"")) {
			count("POST 200 lentBy");
		}
	}

	/**
	 * Resize through the executors' own setters and those of the
	 * {@code ThreadPoolExecutor} they hand out, as the application's code would.
	 */
	private void set(Draw draw, Map<String, ThreadPoolTaskExecutor> executors) {
		while (this.running.get()) {
			ThreadPoolTaskExecutor executor = executors.get(draw.oneOf(POOLS.toArray(String[]::new)));
			int size = draw.between(1, 16);
			try {
				switch (draw.between(0, 3)) {
					case 0 -> executor.setMaxPoolSize(size);
					case 1 -> executor.setCorePoolSize(size);
					case 2 -> executor.getThreadPoolExecutor().setMaximumPoolSize(size);
					default -> executor.getThreadPoolExecutor().setCorePoolSize(size);
				}
				count("setter applied");
			}
			catch (IllegalArgumentException ex) {
				count("setter refused");
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(draw.between(1, 10)));
		}
	}

	/**
	 * Change the configuration at runtime: a new budget (below the pools' floors at
	 * times) and one pool's new bounds and weight.
	 */
	private void refresh(Draw draw, ConfigurableApplicationContext context, PoolRegistry registry) {
		ThreadBudget budget = registry.budget();
		boolean lower = false;
		while (this.running.get()) {
			// Lower and higher in turn: a lower one takes what idle pools lend, or is
			// refused.
			lower = !lower;
			int lendable = registry.pools().stream().mapToInt(budget::lendableThreads).sum();
			int maxThreads = lower ? Math.max(4, budget.allocatedThreads() - draw.between(0, lendable + 2))
					: draw.between(budget.maxThreads(), 48);
			String pool = "poolpilot.pools." + draw.oneOf("alpha", "beta", "gamma") + ".";
			TestPropertyValues
				.of("poolpilot.budget.max-threads=" + maxThreads, pool + "max-threads=" + draw.between(1, 16),
						pool + "weight=" + draw.between(1, 6))
				.applyTo(context);
			try {
				context.publishEvent(new EnvironmentChangeEvent(context, Set.of("poolpilot")));
				count((Integer.valueOf(maxThreads).equals(budget.getConfiguredMaxThreads())) ? "refresh applied"
						: "refresh refused");
			}
			catch (RuntimeException ex) {
				this.violations.add("a refresh to a budget of " + maxThreads + " failed: " + ex);
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(draw.between(10, 40)));
		}
	}

	/**
	 * Every millisecond, under the budget's lock so that no change falls between the
	 * reads of two pools: the workers each {@code ThreadPoolExecutor} counts and the
	 * pools' maximum sizes, against the budget of that moment.
	 */
	private void watch(ThreadBudget budget, Map<ManagedPool, ThreadPoolExecutor> workers) {
		while (this.running.get()) {
			budget.change(() -> {
				int maxThreads = budget.maxThreads();
				Workers.Census census = Workers.census(workers);
				if (!census.within(maxThreads)) {
					this.violations.add(census + " over a budget of " + maxThreads);
				}
				this.mostLiveThreads.accumulateAndGet(census.workers(), Math::max);
				this.samples.increment();
			});
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
		}
	}

	private void count(String outcome) {
		synchronized (this.outcomes) {
			this.outcomes.computeIfAbsent(outcome, (key) -> new LongAdder()).increment();
		}
	}

	private String outcomes() {
		synchronized (this.outcomes) {
			return this.outcomes.toString();
		}
	}

	private long counted(String outcome) {
		synchronized (this.outcomes) {
			LongAdder adder = this.outcomes.get(outcome);
			return (adder != null) ? adder.sum() : 0;
		}
	}

	/**
	 * The {@code ThreadPoolExecutor} that runs a pool's tasks: a declared pool's own, or
	 * the one Spring Boot's executor made itself, behind poolpilot's proxy.
	 */
	private static ThreadPoolExecutor threadPoolExecutor(ThreadPoolTaskExecutor executor) {
		if (executor instanceof ManagedTaskExecutor) {
			return executor.getThreadPoolExecutor();
		}
		try {
			return ((ThreadPoolTaskExecutor) ((Advised) executor).getTargetSource().getTarget())
				.getThreadPoolExecutor();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static Thread start(long seed, String name, Consumer<Draw> actor) {
		Draw draw = new Draw(seed * 1_000_003 + name.hashCode());
		Thread thread = new Thread(() -> actor.accept(draw), "stress-" + name);
		thread.start();
		return thread;
	}

	private static void join(Thread thread) {
		try {
			thread.join();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * What the callers of one pool saw.
	 */
	private static final class Ledger {

		private final LongAdder attempts = new LongAdder();

		private final LongAdder rejected = new LongAdder();

		private final LongAdder completed = new LongAdder();

		private final LongAdder failedOnPurpose = new LongAdder();

		void settle(ManagedPool pool) {
			TaskCounts counts = pool.getRecorder().taskCounts();
			String name = pool.getName();
			assertThat(counts.submitted()).as(name + " submitted").isEqualTo(this.attempts.sum());
			assertThat(counts.rejected()).as(name + " rejected").isEqualTo(this.rejected.sum());
			assertThat(counts.completed()).as(name + " completed").isEqualTo(this.completed.sum());
			assertThat(counts.failed()).as(name + " failed").isEqualTo(this.failedOnPurpose.sum());
			assertThat(counts.abandoned()).as(name + " abandoned").isZero();
		}

	}

	/**
	 * Counts the threads idle pools lent, to a pool that grew or to a lower budget.
	 */
	static final class LoanCounter implements Tuner.ResizeListener {

		private final LongAdder toPools = new LongAdder();

		private final LongAdder toBudget = new LongAdder();

		long total() {
			return this.toPools.sum() + this.toBudget.sum();
		}

		@Override
		public void resized(ManagedPool pool, Decision decision) {
			if (decision.cause() instanceof Lent lent) {
				((lent.borrower() != null) ? this.toPools : this.toBudget).add(decision.from() - decision.to());
			}
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class StressApplication {

		@Bean
		LoanCounter loanCounter() {
			return new LoanCounter();
		}

	}

}
