package io.github.poolpilot.budget;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.budget.ThreadBudget.Loan;
import io.github.poolpilot.budget.ThreadBudget.Overrun;
import io.github.poolpilot.budget.ThreadBudget.Room;

/**
 * Room for a pool that grows: what the budget has free, else threads lent by the pools
 * that may lend, each down to what it uses (its live threads) and never below its floor
 * (min-threads). The pool with the most lendable threads per unit of weight lends first,
 * one thread at a time, so that lenders of greater weight keep more. Nothing is lent when
 * the loans would not make room: the pools' real use then refuses the change.
 *
 * @author poolpilot authors
 */
final class Lending {

	/**
	 * How often a pool may borrow again after tasks reached its lenders while they lent,
	 * before it is refused what the budget has free without loans.
	 */
	private static final int LENDING_ATTEMPTS = 3;

	private Lending() {
	}

	/**
	 * Return whether a pool may lend now: the lenders let it, and it does not settle
	 * after a resize that restarted its workers (each loan would be another restart).
	 */
	static boolean mayLend(Lenders lenders, BudgetMember member) {
		return !member.isSettling() && lenders.mayLend(member);
	}

	/**
	 * Return how many threads a pool could lend now: its maximum size above what it uses
	 * and above its floor.
	 */
	static int lendable(BudgetMember member) {
		return Math.max(0, member.maxPoolSize() - Math.max(member.minThreads(), member.liveThreads()));
	}

	/**
	 * Make room for a pool that grows ({@link ThreadBudget#makeRoom}), telling the
	 * lenders of the loans once they made room. Tasks may reach a lender while it lends:
	 * its threads end only with them, so the loans go back and the pools lend again what
	 * they leave idle then, a few times before the pool gets only what is free.
	 * {@code departed} threads, those of pools that left the budget and still finish
	 * their tasks, hold room that nobody can lend.
	 */
	static Room makeRoom(Collection<? extends BudgetMember> members, int departed, BudgetMember member, int maxPoolSize,
			int maxThreads, Lenders lenders) {
		for (int attempt = 1; attempt <= LENDING_ATTEMPTS; attempt++) {
			Snapshot before = new Snapshot(members);
			Room room = attempt(members, departed, member, maxPoolSize, maxThreads, lenders);
			int others = departed + Snapshot.held(members, member);
			if (room.loans().isEmpty() || others + maxPoolSize <= maxThreads) {
				room.loans().forEach(lenders::lent);
				return room;
			}
			// Tasks reached a lender while it lent: its threads end only with them. The
			// loans go back, and the pools lend again what they leave idle now.
			before.restore((lender) -> {
			});
		}
		return attempt(members, departed, member, maxPoolSize, maxThreads, Lenders.NONE);
	}

	private static Room attempt(Collection<? extends BudgetMember> members, int departed, BudgetMember member,
			int maxPoolSize, int maxThreads, Lenders lenders) {
		int others = departed;
		Map<BudgetMember, Integer> lendable = new LinkedHashMap<>();
		int canLend = 0;
		for (BudgetMember other : members) {
			if (other == member) {
				continue;
			}
			others += ThreadBudget.holds(other.maxPoolSize(), other.liveThreads());
			int threads = mayLend(lenders, other) ? lendable(other) : 0;
			if (threads > 0) {
				lendable.put(other, threads);
				canLend += threads;
			}
		}
		int over = others + maxPoolSize - maxThreads;
		if (over <= 0) {
			return Room.FREE;
		}
		if (over > canLend) {
			return new Room(
					new Overrun(others + maxPoolSize, maxThreads, Math.max(0, maxThreads - others + canLend), canLend),
					List.of());
		}
		return new Room(null, lend(take(lendable, over), member.getName()));
	}

	/**
	 * Shrink the pools that may lend by the given threads in all, as when the budget's
	 * maximum is lowered below what the pools hold.
	 * @return the loans, or {@code null} when the lenders cannot give that many
	 */
	static @Nullable List<Loan> reclaim(Collection<? extends BudgetMember> members, int threads, Lenders lenders) {
		Map<BudgetMember, Integer> lendable = new LinkedHashMap<>();
		int canLend = 0;
		for (BudgetMember member : members) {
			int lend = mayLend(lenders, member) ? lendable(member) : 0;
			if (lend > 0) {
				lendable.put(member, lend);
				canLend += lend;
			}
		}
		return (canLend < threads) ? null : lend(take(lendable, threads), null);
	}

	/**
	 * Resize the lenders; who is told of the loans is for the budget to say once it
	 * checked that they made room.
	 */
	private static List<Loan> lend(Map<BudgetMember, Integer> taken, @Nullable String borrower) {
		List<Loan> loans = new ArrayList<>();
		taken.forEach((lender, threads) -> {
			int from = lender.maxPoolSize();
			int to = from - threads;
			lender.resize(Math.min(lender.corePoolSize(), to), to);
			loans.add(new Loan(lender.getName(), borrower, from, to));
		});
		return List.copyOf(loans);
	}

	/**
	 * Take threads one at a time from the lender with the most left to lend per unit of
	 * weight.
	 */
	private static Map<BudgetMember, Integer> take(Map<BudgetMember, Integer> lendable, int threads) {
		Map<BudgetMember, Integer> left = new LinkedHashMap<>(lendable);
		Map<BudgetMember, Integer> taken = new LinkedHashMap<>();
		for (int i = 0; i < threads; i++) {
			BudgetMember richest = null;
			double most = 0;
			for (Map.Entry<BudgetMember, Integer> lender : left.entrySet()) {
				double perWeight = (double) lender.getValue() / lender.getKey().getWeight();
				if (lender.getValue() > 0 && perWeight > most) {
					richest = lender.getKey();
					most = perWeight;
				}
			}
			left.merge(richest, -1, Integer::sum);
			taken.merge(richest, 1, Integer::sum);
		}
		return taken;
	}

}
