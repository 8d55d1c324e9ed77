package io.github.poolpilot.budget;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.poolpilot.budget.ThreadBudget.Loan;
import io.github.poolpilot.budget.ThreadBudget.Overrun;
import io.github.poolpilot.budget.ThreadBudget.Reconfigured;
import io.github.poolpilot.budget.ThreadBudget.Room;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for a new maximum and new pool settings applied together
 * ({@link ThreadBudget#reconfigure}) and for loans ({@link ThreadBudget#makeRoom}) while
 * the pools' threads grow between the budget's check and its resizes: tasks start threads
 * without the budget's lock, so a pool that looked idle when the check ran may be busy
 * when it lends. The tests start those threads themselves, from the hooks the budget
 * calls between its steps.
 *
 * @author poolpilot authors
 */
class ReconfigureTests {

	private static final int SEEDS = 400;

	/**
	 * How the seeded family's cases ended, so that it is known to reach each outcome.
	 */
	private static final Map<String, Integer> OUTCOMES = new ConcurrentHashMap<>();

	private final List<Member> restored = new ArrayList<>();

	@Test
	void aLowerBudgetIsRefusedAndNothingChangesWhenThreadsStartedMeanwhileLeaveNoRoom() {
		// 20 threads: "idle" may lend 8 of its 10 (2 live), "busy" has 10 live and
		// is to shrink to 6; its threads end only with their tasks. 10 + 10 - 8 = 12
		// fits a budget of 14, until 6 tasks reach "idle" while the pools are applied.
		Member idle = new Member("idle", 1, 10, 2);
		Member busy = new Member("busy", 1, 10, 10);
		List<Member> members = List.of(idle, busy);
		ThreadBudget budget = budget(20, members, idle);
		Map<Member, Reconfigured> sizes = new LinkedHashMap<>();
		sizes.put(idle, new Reconfigured(1, 10));
		sizes.put(busy, new Reconfigured(1, 6));
		Overrun overrun = budget.reconfigure(14, sizes, apply(sizes, () -> idle.live = 8), this::restore);
		// "busy" holds its 10 live threads, "idle" its 10 with 8 live: only 2 to lend.
		assertThat(overrun).isEqualTo(new Overrun(20, 14, 14, 2));
		assertThat(budget.getConfiguredMaxThreads()).isEqualTo(20);
		assertThat(idle.max).isEqualTo(10);
		assertThat(busy.max).isEqualTo(10);
		assertThat(busy.core).isEqualTo(10);
		assertThat(this.restored).containsExactlyInAnyOrder(busy, idle);
	}

	@Test
	void aLowerBudgetTakesWhatIdlePoolsLendWhenTheirThreadsStayIdle() {
		Member idle = new Member("idle", 1, 10, 2);
		Member busy = new Member("busy", 1, 10, 10);
		ThreadBudget budget = budget(20, List.of(idle, busy), idle);
		Map<Member, Reconfigured> sizes = new LinkedHashMap<>();
		sizes.put(idle, new Reconfigured(1, 10));
		sizes.put(busy, new Reconfigured(1, 6));
		assertThat(budget.reconfigure(14, sizes, apply(sizes, () -> {
		}), this::restore)).isNull();
		// "busy" still holds its 10 live threads until their tasks end: "idle" lends 6.
		assertThat(budget.getConfiguredMaxThreads()).isEqualTo(14);
		assertThat(idle.max).isEqualTo(4);
		assertThat(busy.max).isEqualTo(6);
		assertThat(this.restored).isEmpty();
	}

	@Test
	void aLoanIsGivenBackAndTheResizeRefusedWhenTheLendersThreadsGrewWhileItLent() {
		// "idle" may lend 8 of its 10 threads to "growing", which asks for 6 more, but 5
		// tasks reach "idle" as it lends: its 7 live threads end only with their tasks.
		Member idle = new Member("idle", 1, 10, 2);
		Member growing = new Member("growing", 1, 10, 10);
		ThreadBudget budget = budget(20, List.of(idle, growing), idle);
		idle.beforeResize = () -> idle.live = 7;
		List<Loan> told = new ArrayList<>();
		budget.setLenders(SizedMember.lenders(told, idle));
		Room room = budget.makeRoom(growing, 16);
		assertThat(room.overrun()).isEqualTo(new Overrun(26, 20, 13, 3));
		assertThat(room.loans()).isEmpty();
		assertThat(told).isEmpty();
		assertThat(idle.max).isEqualTo(10);
		assertThat(budget.makeRoom(growing, 13).loans()).containsExactly(new Loan("idle", "growing", 10, 7));
		assertThat(told).containsExactly(new Loan("idle", "growing", 10, 7));
	}

	@Test
	void aLowerBudgetIsRefusedWithEveryPoolsSettingsBackWhenAPoolThatGrewGotBusy() {
		// 16 threads: "grows" is to go from 4 to 8, "shrinks" from 5 to 4 and "shrinks
		// more" from 5 to 2, in a budget of 15 with the 1 thread "idle" can lend. Tasks
		// reach "grows" once it grew, and "idle": the pools hold 16 threads with none to
		// lend, and the 8 threads of "grows" end only with their tasks, so neither pool
		// that shrank finds the room it had to grow back into.
		Member grows = new Member("grows", 1, 4, 0);
		Member shrinks = new Member("shrinks", 1, 5, 0);
		Member shrinksMore = new Member("shrinks more", 1, 5, 0);
		Member idle = new Member("idle", 1, 2, 0);
		List<Member> members = List.of(grows, shrinks, shrinksMore, idle);
		ThreadBudget budget = budget(16, members, idle);
		Map<Member, Reconfigured> sizes = new LinkedHashMap<>();
		sizes.put(grows, new Reconfigured(8, 8));
		sizes.put(shrinks, new Reconfigured(2, 4));
		sizes.put(shrinksMore, new Reconfigured(2, 2));
		sizes.put(idle, new Reconfigured(1, 2));
		Consumer<Member> apply = apply(sizes, () -> {
		});
		Overrun overrun = budget.reconfigure(15, sizes, (member) -> {
			apply.accept(member);
			if (member == grows) {
				grows.live = 8;
				idle.live = 2;
			}
		}, this::restore);
		assertThat(overrun).isEqualTo(new Overrun(16, 15, 15, 0));
		assertThat(budget.getConfiguredMaxThreads()).isEqualTo(16);
		assertThat(this.restored).containsExactlyInAnyOrder(grows, shrinks, shrinksMore, idle);
		assertThat(members).extracting((member) -> member.min).containsOnly(1);
		assertThat(grows.max).isEqualTo(4);
		int holds = members.stream().mapToInt((member) -> Math.max(member.max, member.live)).sum();
		assertThat(holds).as("threads the pools hold").isLessThanOrEqualTo(16);
	}

	@ParameterizedTest(name = "to {0}")
	@ValueSource(ints = { 16, 30 })
	void aDoorThatThrowsWhileTheSettingsApplyPutsEveryPoolBack(int maxThreads) {
		Member shrinking = new Member("shrinking", 1, 10, 0);
		Member growing = new Member("growing", 1, 10, 0);
		ThreadBudget budget = budget(20, List.of(shrinking, growing));
		Map<Member, Reconfigured> sizes = new LinkedHashMap<>();
		sizes.put(shrinking, new Reconfigured(2, 4));
		sizes.put(growing, new Reconfigured(2, 12));
		Consumer<Member> apply = apply(sizes, () -> {
		});
		IllegalStateException refused = new IllegalStateException("the executor refused");
		assertThatThrownBy(() -> budget.reconfigure(maxThreads, sizes, (member) -> {
			if (member == growing) {
				throw refused;
			}
			apply.accept(member);
		}, this::restore)).isSameAs(refused);
		assertThat(budget.getConfiguredMaxThreads()).isEqualTo(20);
		assertThat(shrinking).hasToString("shrinking min 1 core 10 max 10");
		assertThat(growing).hasToString("growing min 1 core 10 max 10");
		assertThat(this.restored).containsExactlyInAnyOrder(shrinking, growing);
	}

	static LongStream seeds() {
		return LongStream.range(0, SEEDS);
	}

	/**
	 * The seeded family is only as good as the outcomes it reaches: a lower budget
	 * refused, and one applied, each in many cases. (Its doors never refuse to grow: a
	 * door that throws is
	 * {@link #aDoorThatThrowsWhileTheSettingsApplyPutsEveryPoolBack}.)
	 */
	@AfterAll
	static void theSeededFamilyReachesEveryOutcome() {
		if (OUTCOMES.values().stream().mapToInt(Integer::intValue).sum() < SEEDS) {
			return; // the family did not run in full
		}
		assertThat(OUTCOMES).as("outcomes of %d seeds", SEEDS).containsKeys("overrun", "applied");
		assertThat(OUTCOMES.values()).as("outcomes of %d seeds: %s", SEEDS, OUTCOMES)
			.allSatisfy((count) -> assertThat(count).isGreaterThanOrEqualTo(SEEDS / 20));
	}

	/**
	 * Pools of random sizes, floors, live threads and weights, some of which may lend,
	 * get a lower budget and random new sizes while random tasks start threads in them
	 * between the check and the resizes: the new settings apply and the pools' threads
	 * fit the new budget, or nothing changes.
	 */
	@ParameterizedTest(name = "seed {0}")
	@MethodSource("seeds")
	void aLowerBudgetFitsWhatThePoolsHoldOrChangesNothing(long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		int maxThreads = random.nextInt(8, 120);
		List<Member> members = new ArrayList<>();
		List<Member> lending = new ArrayList<>();
		int held = 0;
		for (int i = 0, pools = random.nextInt(2, 6); i < pools && held < maxThreads; i++) {
			int max = random.nextInt(1, Math.max(2, (maxThreads - held) / 2 + 1));
			Member member = new Member("p" + i, random.nextInt(1, 5), max, random.nextInt(0, max + 1));
			member.min = random.nextInt(1, max + 1);
			members.add(member);
			held += max;
			if (random.nextBoolean()) {
				lending.add(member);
			}
		}
		ThreadBudget budget = budget(maxThreads, members, lending.toArray(Member[]::new));
		Map<Member, Reconfigured> sizes = new LinkedHashMap<>();
		for (Member member : members) {
			int max = random.nextBoolean() ? member.max : random.nextInt(1, member.max + 3);
			sizes.put(member, new Reconfigured(random.nextInt(1, max + 1), max));
		}
		int lower = random.nextInt(1, maxThreads);
		List<String> before = members.stream().map(Member::toString).toList();
		Runnable tasksArrive = () -> members.forEach((member) -> {
			if (random.nextInt(3) == 0) {
				member.live = Math.max(member.live, random.nextInt(member.live, member.max + 1));
			}
		});
		String why = "seed " + seed;
		Overrun overrun;
		try {
			overrun = budget.reconfigure(lower, sizes, apply(sizes, tasksArrive), this::restore);
		}
		catch (IllegalStateException ex) {
			// A pool's door refused to grow: nothing may have changed.
			OUTCOMES.merge("door", 1, Integer::sum);
			assertThat(budget.getConfiguredMaxThreads()).as(why).isEqualTo(maxThreads);
			assertThat(members.stream().map(Member::toString).toList()).as(why).isEqualTo(before);
			return;
		}
		if (overrun != null) {
			OUTCOMES.merge("overrun", 1, Integer::sum);
			assertThat(budget.getConfiguredMaxThreads()).as(why).isEqualTo(maxThreads);
			assertThat(members.stream().map(Member::toString).toList()).as(why).isEqualTo(before);
			assertThat(overrun.maxThreads()).as(why).isEqualTo(lower);
			return;
		}
		OUTCOMES.merge("applied", 1, Integer::sum);
		assertThat(this.restored).as(why + ": pools given their old settings back").isEmpty();
		assertThat(budget.getConfiguredMaxThreads()).as(why).isEqualTo(lower);
		int holds = members.stream().mapToInt((member) -> Math.max(member.max, member.live)).sum();
		assertThat(holds).as(why + ": threads the pools hold").isLessThanOrEqualTo(lower);
		for (Member member : members) {
			assertThat(member.max).as(why).isLessThanOrEqualTo(sizes.get(member).maxPoolSize());
			assertThat(member.min).as(why).isEqualTo(sizes.get(member).minThreads());
		}
	}

	/**
	 * Apply a pool's new settings as a pool does: its new floor, then its new size
	 * through its door. The tasks arrive once, after the budget's check.
	 */
	private static Consumer<Member> apply(Map<Member, Reconfigured> sizes, Runnable tasksArrive) {
		boolean[] arrived = new boolean[1];
		return (member) -> {
			if (!arrived[0]) {
				arrived[0] = true;
				tasksArrive.run();
			}
			Reconfigured after = sizes.get(member);
			member.saved = new int[] { member.min };
			member.min = after.minThreads();
			member.resize(Math.min(member.core, after.maxPoolSize()), after.maxPoolSize());
		};
	}

	/**
	 * Put a pool's old settings back as a pool does: its old floor.
	 */
	private void restore(Member member) {
		this.restored.add(member);
		if (member.saved != null) {
			member.min = member.saved[0];
		}
	}

	private ThreadBudget budget(int maxThreads, List<Member> members, Member... lenders) {
		ThreadBudget budget = new ThreadBudget(maxThreads, () -> members);
		members.forEach((member) -> member.budget = budget);
		budget.setLenders(SizedMember.lenders(new ArrayList<>(), lenders));
		return budget;
	}

	/**
	 * A pool whose threads the test starts, resized through a door that checks the budget
	 * when it grows. Putting its old settings back restores its floor.
	 */
	private static final class Member extends SizedMember {

		ThreadBudget budget;

		int[] saved;

		Runnable beforeResize = () -> {
		};

		Member(String name, int weight, int max, int live) {
			super(name, weight, 1, max, max, live);
		}

		@Override
		public List<Loan> resize(int corePoolSize, int maxPoolSize) {
			Runnable hook = this.beforeResize;
			this.beforeResize = () -> {
			};
			hook.run();
			List<Loan> loans = List.of();
			if (maxPoolSize > this.max) {
				Room room = this.budget.makeRoom(this, maxPoolSize);
				if (room.overrun() != null) {
					throw new IllegalStateException(room.overrun().describe(getName(), maxPoolSize));
				}
				loans = room.loans();
			}
			this.core = corePoolSize;
			this.max = maxPoolSize;
			return loans;
		}

	}

}
