package io.github.poolpilot.history;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.execution.ManagedExecutor;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.testsupport.FakeClock;
import io.github.poolpilot.tuning.Decision;
import io.github.poolpilot.tuning.Tuner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link HistoryFeed} on a real pool and tuner with a fake clock.
 *
 * @author poolpilot authors
 */
class HistoryFeedTests {

	private final FakeClock clock = new FakeClock();

	private final PoolRegistry registry = new PoolRegistry(100);

	private final ManagedExecutor executor = ManagedExecutor.builder("talk", new PoolBounds(1, 40), 10)
		.sizes(4, 4)
		.build();

	private final Tuner tuner = new Tuner(this.registry, this.clock, () -> 0.1, (pool, decision) -> {
	});

	private final PoolHistory history = new PoolHistory(Duration.ofSeconds(1), this.clock, 0);

	private final HistoryFeed feed = new HistoryFeed(this.history, this.registry, this.tuner);

	@AfterEach
	void shutDown() throws InterruptedException {
		this.executor.shutdownNow();
		this.executor.awaitTermination(10, TimeUnit.SECONDS);
	}

	@Test
	void eachWindowRecordsEveryPoolsSnapshotAndItsLastDecisionOnce() {
		ManagedPool pool = this.executor.getPool();
		this.registry.register(pool);
		this.feed.afterWindow();
		assertThat(this.history.read(Long.MIN_VALUE)).isEmpty();
		pool.takeSnapshot();
		Decision manual = PoolHistoryTests.decision(4, 6);
		this.tuner.record("talk", manual);
		this.feed.afterWindow();
		this.clock.advance(Duration.ofSeconds(1));
		pool.takeSnapshot();
		this.feed.afterWindow();
		PoolHistory.PoolRecord record = this.history.read(Long.MIN_VALUE).get("talk");
		assertThat(record.samples().time).containsExactly(0L, 1_000L);
		assertThat(record.samples().maxPoolSize).containsExactly(4, 4);
		assertThat(record.decisions()).containsExactly(new TimedDecision(0, manual));
	}

	@Test
	void aResizeBetweenWindowsIsRecordedWhenItHappens() {
		this.registry.register(this.executor.getPool());
		this.clock.advance(Duration.ofMillis(300));
		Decision surge = PoolHistoryTests.decision(4, 9);
		this.feed.resized(this.executor.getPool(), surge);
		assertThat(this.history.read(Long.MIN_VALUE).get("talk").decisions())
			.containsExactly(new TimedDecision(300, surge));
	}

	@Test
	void aPoolThatLeftTheRegistryIsForgottenAtTheNextWindow() {
		ManagedPool pool = this.executor.getPool();
		this.registry.register(pool);
		pool.takeSnapshot();
		this.feed.afterWindow();
		this.registry.unregister(pool);
		this.feed.afterWindow();
		assertThat(this.history.read(Long.MIN_VALUE)).isEmpty();
	}

}
