package io.github.poolpilot.history;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.poolpilot.history.PoolHistory.PoolRecord;
import io.github.poolpilot.measure.PoolSnapshot;
import io.github.poolpilot.measure.PoolSnapshot.Latency;
import io.github.poolpilot.measure.PoolSnapshot.LittlesLaw;
import io.github.poolpilot.measure.PoolSnapshot.Rejections;
import io.github.poolpilot.measure.PoolSnapshot.Sizes;
import io.github.poolpilot.measure.PoolSnapshot.TaskCounts;
import io.github.poolpilot.testsupport.FakeClock;
import io.github.poolpilot.tuning.Decision;
import io.github.poolpilot.tuning.Decision.Action;
import io.github.poolpilot.tuning.Decision.Cause.AtMaxThreads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link PoolHistory} on a fake clock.
 *
 * @author poolpilot authors
 */
class PoolHistoryTests {

	private static final long ORIGIN = 1_700_000_000_000L;

	private final FakeClock clock = new FakeClock();

	@Test
	void tenMinutesOfOneSecondWindowsAreKeptAndTheOldestAreOverwritten() {
		PoolHistory history = new PoolHistory(Duration.ofSeconds(1), this.clock, ORIGIN);
		assertThat(history.capacity()).isEqualTo(600);
		for (int i = 1; i <= 700; i++) {
			this.clock.advance(Duration.ofSeconds(1));
			history.record(snapshot("talk", i, 0), false);
		}
		Samples samples = history.read(Long.MIN_VALUE).get("talk").samples();
		assertThat(samples.size()).isEqualTo(600);
		assertThat(samples.time[0]).isEqualTo(ORIGIN + 101_000);
		assertThat(samples.time[599]).isEqualTo(ORIGIN + 700_000);
		assertThat(samples.activeCount[0]).isEqualTo(101);
		assertThat(samples.activeCount[599]).isEqualTo(700);
		assertThat(samples.throughput[599]).isEqualTo(700f);
	}

	@Test
	void theMemoryPerPoolIsFixedByTheCapacity() {
		PoolHistory history = new PoolHistory(Duration.ofSeconds(1), this.clock, ORIGIN);
		// 600 samples of 77 bytes (a long, 10 ints, 7 floats, a boolean) and 19 array
		// headers.
		assertThat(history.sampleBytesPerPool()).isEqualTo(600L * 77 + 19 * 16);
	}

	@Test
	void windowsShorterThanASecondAreKeptAtMostOnceASecond() {
		PoolHistory history = new PoolHistory(Duration.ofMillis(100), this.clock, ORIGIN);
		assertThat(history.capacity()).isEqualTo(600);
		for (int i = 1; i <= 30; i++) {
			this.clock.advance(Duration.ofMillis(100));
			history.record(snapshot("talk", i, 0), false);
		}
		Samples samples = history.read(Long.MIN_VALUE).get("talk").samples();
		assertThat(samples.activeCount).containsExactly(1, 11, 21);
	}

	@Test
	void longerWindowsAreEachKeptForTheWholeRetention() {
		PoolHistory history = new PoolHistory(Duration.ofSeconds(5), this.clock, ORIGIN);
		assertThat(history.capacity()).isEqualTo(120);
	}

	@Test
	void refusalsAreKeptPerSampleByReason() {
		PoolHistory history = new PoolHistory(Duration.ofSeconds(1), this.clock, ORIGIN);
		history.record(snapshot("talk", 1, new Rejections(5, 1, 0, 0)), false);
		this.clock.advance(Duration.ofSeconds(1));
		history.record(snapshot("talk", 1, new Rejections(8, 1, 4, 0)), true);
		Samples samples = history.read(Long.MIN_VALUE).get("talk").samples();
		assertThat(samples.rejectedQueueFull).containsExactly(0, 3);
		assertThat(samples.rejectedQueueWait).containsExactly(0, 0);
		assertThat(samples.rejectedCircuitOpen).containsExactly(0, 4);
		assertThat(samples.limited).containsExactly(false, true);
	}

	@Test
	void readingAfterATimeGivesOnlyWhatCameLater() {
		PoolHistory history = new PoolHistory(Duration.ofSeconds(1), this.clock, ORIGIN);
		Decision grow = decision(4, 8);
		for (int i = 1; i <= 5; i++) {
			this.clock.advance(Duration.ofSeconds(1));
			history.record(snapshot("talk", i, 0), false);
			if (i == 2) {
				history.decided("talk", grow);
			}
		}
		PoolRecord later = history.read(ORIGIN + 3_000).get("talk");
		assertThat(later.samples().activeCount).containsExactly(4, 5);
		assertThat(later.decisions()).isEmpty();
		assertThat(history.read(ORIGIN + 1_000).get("talk").decisions())
			.containsExactly(new TimedDecision(ORIGIN + 2_000, grow));
	}

	@Test
	void readingUpToATimeLeavesWhatCameLaterForTheNextRead() {
		PoolHistory history = new PoolHistory(Duration.ofSeconds(1), this.clock, ORIGIN);
		history.record(snapshot("talk", 1, 0), false);
		long now = history.now();
		this.clock.advance(Duration.ofSeconds(1));
		history.record(snapshot("talk", 2, 0), false);
		assertThat(history.read(Long.MIN_VALUE, now).get("talk").samples().activeCount).containsExactly(1);
		assertThat(history.read(now, history.now()).get("talk").samples().activeCount).containsExactly(2);
	}

	@Test
	void nothingOlderThanTheRetentionIsRead() {
		PoolHistory history = new PoolHistory(Duration.ofSeconds(1), this.clock, ORIGIN);
		history.record(snapshot("talk", 1, 0), false);
		history.decided("talk", decision(4, 8));
		this.clock.advance(Duration.ofMinutes(10).plusSeconds(1));
		PoolRecord record = history.read(Long.MIN_VALUE).get("talk");
		assertThat(record.samples().size()).isZero();
		assertThat(record.decisions()).isEmpty();
	}

	@Test
	void aDecisionSeenAgainIsKeptOnceAndOnlyTheLastDecisionsAreKept() {
		PoolHistory history = new PoolHistory(Duration.ofSeconds(1), this.clock, ORIGIN);
		Decision first = decision(4, 8);
		history.decided("talk", first);
		history.decided("talk", first);
		assertThat(history.read(Long.MIN_VALUE).get("talk").decisions()).hasSize(1);
		for (int i = 0; i < PoolHistory.DECISIONS_PER_POOL; i++) {
			history.decided("talk", decision(i, i + 1));
		}
		List<TimedDecision> decisions = history.read(Long.MIN_VALUE).get("talk").decisions();
		assertThat(decisions).hasSize(PoolHistory.DECISIONS_PER_POOL);
		assertThat(decisions.get(0).decision().from()).isZero();
		assertThat(decisions).noneMatch((timed) -> timed.decision() == first);
	}

	@Test
	void poolsThatAreGoneAreForgotten() {
		PoolHistory history = new PoolHistory(Duration.ofSeconds(1), this.clock, ORIGIN);
		history.record(snapshot("talk", 1, 0), false);
		history.record(snapshot("report", 1, 0), false);
		history.retain(Set.of("report"));
		assertThat(history.read(Long.MIN_VALUE)).containsOnlyKeys("report");
	}

	@Test
	void aWindowLongerThanTheRetentionKeepsItsLastSample() {
		PoolHistory history = new PoolHistory(Duration.ofHours(1), this.clock, ORIGIN);
		assertThat(history.capacity()).isOne();
		history.record(snapshot("talk", 1, 0), false);
		this.clock.advance(Duration.ofMinutes(30));
		assertThat(history.read(Long.MIN_VALUE).get("talk").samples().activeCount).containsExactly(1);
	}

	@Test
	void aWindowThatIsNotPositiveIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new PoolHistory(Duration.ZERO, this.clock, ORIGIN))
			.withMessageContaining("window and retention must be positive");
	}

	@Test
	void theRetentionIsWhatTheHistoryWasCreatedWith() {
		assertThat(new PoolHistory(Duration.ofMinutes(3), Duration.ofSeconds(1), this.clock, ORIGIN).retention())
			.isEqualTo(Duration.ofMinutes(3));
	}

	@Test
	void thePresentTimeCountsFromWhenTheHistoryWasCreated() {
		this.clock.advance(Duration.ofSeconds(5));
		PoolHistory history = new PoolHistory(Duration.ofSeconds(1), this.clock, ORIGIN);
		assertThat(history.now()).isEqualTo(ORIGIN);
		this.clock.advance(Duration.ofMillis(1500));
		assertThat(history.now()).isEqualTo(ORIGIN + 1500);
	}

	@Test
	void windowsOfASecondAreNeverThinnedHoweverCloseTheyClose() {
		PoolHistory history = new PoolHistory(Duration.ofSeconds(1), this.clock, ORIGIN);
		history.record(snapshot("talk", 1, 0), false);
		this.clock.advance(Duration.ofMillis(400));
		history.record(snapshot("talk", 2, 0), false);
		assertThat(history.read(Long.MIN_VALUE).get("talk").samples().activeCount).containsExactly(1, 2);
	}

	@Test
	void aShortWindowClosingExactlyHalfAWindowShortOfASecondLaterIsKept() {
		// 100 ms windows are kept once a second, or 50 ms early.
		PoolHistory history = new PoolHistory(Duration.ofMillis(100), this.clock, ORIGIN);
		history.record(snapshot("talk", 1, 0), false);
		this.clock.advance(Duration.ofMillis(950));
		history.record(snapshot("talk", 2, 0), false);
		assertThat(history.read(Long.MIN_VALUE).get("talk").samples().activeCount).containsExactly(1, 2);
	}

	@Test
	void aDecisionSeenAgainAfterAnotherIsStillKeptOnce() {
		PoolHistory history = new PoolHistory(Duration.ofSeconds(1), this.clock, ORIGIN);
		Decision first = decision(4, 8);
		Decision second = decision(8, 12);
		history.decided("talk", first);
		history.decided("talk", second);
		history.decided("talk", first);
		assertThat(history.read(Long.MIN_VALUE).get("talk").decisions()).extracting(TimedDecision::decision)
			.containsExactly(first, second);
	}

	@Test
	void whatWasRecordedExactlyAtTheStartOfTheRetentionIsReadAndWhatWasReadAlreadyIsNot() {
		PoolHistory history = new PoolHistory(Duration.ofSeconds(1), this.clock, ORIGIN);
		history.record(snapshot("talk", 1, 0), false);
		Decision grow = decision(4, 8);
		history.decided("talk", grow);
		long upTo = ORIGIN + Duration.ofMinutes(10).toMillis();
		PoolRecord record = history.read(Long.MIN_VALUE, upTo).get("talk");
		assertThat(record.samples().activeCount).containsExactly(1);
		assertThat(record.decisions()).containsExactly(new TimedDecision(ORIGIN, grow));
		PoolRecord again = history.read(ORIGIN, upTo).get("talk");
		assertThat(again.samples().size()).isZero();
		assertThat(again.decisions()).isEmpty();
	}

	static Decision decision(int from, int to) {
		return new Decision(Action.GROW, from, to, new AtMaxThreads(to), null, null, to, true, false);
	}

	static PoolSnapshot snapshot(String pool, int active, int queueFull) {
		return snapshot(pool, active, new Rejections(queueFull, 0, 0, 0));
	}

	static PoolSnapshot snapshot(String pool, int active, Rejections rejections) {
		long rejected = rejections.queueFull() + rejections.queueWait() + rejections.circuitOpen()
				+ rejections.shutdown();
		return new PoolSnapshot(pool, 1, new Sizes(active, active, active, active, 0, 100, 1, 1000),
				new TaskCounts(0, 0, 0, rejected, 0, rejections, 0), active, active, Latency.NONE, Latency.NONE,
				Latency.NONE, new LittlesLaw(active, active, 10, 0, 10, 10, 0, 0, 0, 0, null, null));
	}

}
