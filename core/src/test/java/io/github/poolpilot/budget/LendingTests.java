package io.github.poolpilot.budget;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.poolpilot.budget.ThreadBudget.Loan;
import io.github.poolpilot.budget.ThreadBudget.Overrun;
import io.github.poolpilot.budget.ThreadBudget.Room;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the budget's lending ({@link ThreadBudget#makeRoom}): a pool that grows past
 * what the budget has free borrows the idle threads of the pools that may lend, each down
 * to what it uses and never below its floor; nothing is lent when even that leaves no
 * room.
 *
 * @author poolpilot authors
 */
class LendingTests {

	private final List<Loan> told = new ArrayList<>();

	@Test
	void aPoolThatGrowsPastWhatIsFreeBorrowsFromIdlePoolsDownToWhatTheyUse() {
		// 400 held: start 282 (5 live), talk 50 and stop 50 idle, Boot's executor 8 at
		// its floor; http at its min-threads of 10 asks for 17.
		SizedMember start = member("start", 6, 10, 282, 5);
		SizedMember talk = member("talk", 1, 5, 50, 0);
		SizedMember stop = member("stop", 1, 5, 50, 0);
		SizedMember boot = member("applicationTaskExecutor", 1, 8, 8, 0);
		SizedMember http = member("http", 1, 10, 10, 10);
		ThreadBudget budget = budget(400, List.of(start, talk, stop, boot, http));
		budget.setLenders(lenders(start, talk, stop, boot));
		assertThat(budget.lendableThreads(start)).isEqualTo(272);
		assertThat(budget.lendableThreads(boot)).isZero();
		// start 272, talk and stop 45 each; Boot's executor and http may not lend.
		assertThat(budget.lendableThreads()).isEqualTo(362);
		Room room = budget.makeRoom(http, 17);
		assertThat(room.overrun()).isNull();
		// Start has 272 / 6 ≈ 45.3 threads to lend per unit of weight, talk and stop 45:
		// start lends until it has no more per unit of weight than they, then the one
		// with the most each time.
		assertThat(room.loans()).containsExactly(new Loan("start", "http", 282, 277), new Loan("talk", "http", 50, 49),
				new Loan("stop", "http", 50, 49));
		assertThat(this.told).isEqualTo(room.loans());
		assertThat(start.max + talk.max + stop.max + boot.max + 17).isEqualTo(400);
	}

	@Test
	void nothingIsLentWhenWhatThePoolsUseLeavesNoRoom() {
		SizedMember busy = member("busy", 1, 1, 30, 28);
		SizedMember idle = member("idle", 1, 2, 8, 0);
		SizedMember growing = member("growing", 1, 1, 2, 2);
		ThreadBudget budget = budget(40, List.of(busy, idle, growing));
		budget.setLenders(lenders(busy, idle));
		Room room = budget.makeRoom(growing, 11);
		// 38 held by the others, 2 + 6 of them idle: at most 2 + 8 = 10.
		assertThat(room.overrun()).isEqualTo(new Overrun(49, 40, 10, 8));
		assertThat(room.overrun().describe("growing", 11)).isEqualTo("maxPoolSize 11 of pool 'growing' would bring "
				+ "the pools' threads to 49, over the budget of 40 threads even with the 8 idle threads other pools "
				+ "can lend (allowed: at most 10)");
		assertThat(room.loans()).isEmpty();
		assertThat(this.told).isEmpty();
		assertThat(busy.max).isEqualTo(30);
		assertThat(idle.max).isEqualTo(8);
		assertThat(budget.makeRoom(growing, 10).loans()).containsExactlyInAnyOrder(new Loan("busy", "growing", 30, 28),
				new Loan("idle", "growing", 8, 2));
	}

	@Test
	void aPoolThatMayNotLendKeepsItsSize() {
		SizedMember manual = member("manual", 1, 1, 20, 0);
		SizedMember growing = member("growing", 1, 1, 20, 0);
		ThreadBudget budget = budget(40, List.of(manual, growing));
		assertThat(budget.lendableThreads(manual)).isZero();
		Room room = budget.makeRoom(growing, 21);
		assertThat(room.overrun()).isEqualTo(new Overrun(41, 40, 20, 0));
		assertThat(room.overrun().describe("growing", 21))
			.endsWith("over the budget of 40 threads (allowed: at most 20)");
		budget.setLenders(lenders(manual));
		assertThat(budget.lendableThreads(manual)).isEqualTo(19);
	}

	@Test
	void aPoolThatSettlesAfterARestartLendsNothingUntilItSettled() {
		// A Kafka listener's consumers restarting: none live, and a loan would be
		// one more restart.
		SizedMember kafka = member("orders", 1, 1, 3, 0);
		kafka.settling = true;
		SizedMember idle = member("idle", 1, 1, 5, 0);
		SizedMember growing = member("growing", 1, 1, 2, 2);
		ThreadBudget budget = budget(10, List.of(kafka, idle, growing));
		budget.setLenders(lenders(kafka, idle));
		assertThat(budget.lendableThreads(kafka)).isZero();
		assertThat(budget.lendableThreads()).isEqualTo(4);
		Room room = budget.makeRoom(growing, 7);
		assertThat(room.overrun()).isEqualTo(new Overrun(15, 10, 6, 4));
		assertThat(kafka.max).isEqualTo(3);
		assertThat(budget.makeRoom(growing, 6).loans()).containsExactly(new Loan("idle", "growing", 5, 1));
		assertThat(kafka.max).isEqualTo(3);
		kafka.settling = false;
		assertThat(budget.lendableThreads(kafka)).isEqualTo(2);
	}

	static LongStream seeds() {
		return LongStream.range(0, 300);
	}

	/**
	 * Pools of random sizes, floors, live threads and weights within a budget, some of
	 * which may lend, and one that asks to grow by a random amount.
	 */
	@ParameterizedTest(name = "seed {0}")
	@MethodSource("seeds")
	void aResizeFitsWithLoansExactlyWhenWhatThePoolsUseLeavesRoom(long seed) {
		SplittableRandom random = new SplittableRandom(seed);
		int maxThreads = random.nextInt(4, 200);
		List<SizedMember> members = new ArrayList<>();
		List<SizedMember> lending = new ArrayList<>();
		int held = 0;
		for (int i = 0, pools = random.nextInt(2, 6); i < pools && held < maxThreads; i++) {
			int max = random.nextInt(1, Math.max(2, (maxThreads - held) / 2 + 1));
			int min = random.nextInt(1, max + 1);
			SizedMember member = member("p" + i, random.nextInt(1, 7), min, max, random.nextInt(0, max + 1));
			members.add(member);
			held += max;
			if (random.nextBoolean()) {
				lending.add(member);
			}
		}
		SizedMember grower = members.get(random.nextInt(members.size()));
		lending.remove(grower);
		ThreadBudget budget = budget(maxThreads, members);
		budget.setLenders(lenders(lending.toArray(SizedMember[]::new)));
		int others = held - grower.max;
		int lendable = lending.stream().mapToInt((member) -> member.max - Math.max(member.min, member.live)).sum();
		int asked = grower.max + random.nextInt(1, maxThreads);
		List<Integer> before = members.stream().map((member) -> member.max).toList();
		Room room = budget.makeRoom(grower, asked);
		String why = "seed " + seed;
		if (others + asked - maxThreads > lendable) {
			assertThat(room.overrun()).as(why).isNotNull();
			assertThat(room.overrun().allowed()).as(why).isEqualTo(maxThreads - others + lendable).isLessThan(asked);
			assertThat(members.stream().map((member) -> member.max).toList()).as(why).isEqualTo(before);
			return;
		}
		assertThat(room.overrun()).as(why).isNull();
		int after = asked;
		for (SizedMember member : members) {
			if (member != grower) {
				after += Math.max(member.max, member.live);
				assertThat(member.max).as(why)
					.isGreaterThanOrEqualTo(
							Math.max(member.min, Math.min(member.live, before.get(members.indexOf(member)))));
				if (!lending.contains(member)) {
					assertThat(member.max).as(why).isEqualTo(before.get(members.indexOf(member)));
				}
			}
		}
		assertThat(after).as(why).isLessThanOrEqualTo(maxThreads);
		int lent = room.loans().stream().mapToInt(Loan::threads).sum();
		assertThat(lent).as(why).isEqualTo(Math.max(0, others + asked - maxThreads));
	}

	private static ThreadBudget budget(int maxThreads, List<SizedMember> members) {
		return new ThreadBudget(maxThreads, () -> members);
	}

	private Lenders lenders(SizedMember... members) {
		return SizedMember.lenders(this.told, members);
	}

	/**
	 * A pool that only holds its sizes, starting at its maximum.
	 */
	private static SizedMember member(String name, int weight, int min, int max, int live) {
		return new SizedMember(name, weight, min, max, max, live);
	}

}
