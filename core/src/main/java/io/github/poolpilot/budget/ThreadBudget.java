package io.github.poolpilot.budget;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.budget.BudgetAllocator.Demand;

/**
 * The thread budget: how many live threads all managed pools may have together, and the
 * one owner of its rules. Every size change of every pool passes its check under its one
 * lock ({@link #change}), so that two changes to different pools cannot together pass the
 * budget; a pool may always shrink. It also says what share each pool is guaranteed
 * ({@link BudgetSizing#share}), shares the budget among the pools' demands and says what
 * each may have now ({@link #threadsNow}), applies a new configuration in an order that
 * stays within it ({@link #reconfigure}) and brings pools that joined late within it
 * ({@link #fit}), and each pool that joins after that ({@link #admit}). Nothing outside
 * this package computes with the budget.
 * <p>
 * Without a configured maximum the budget is the sum of the pools' max-threads: no limit
 * beyond each pool's own.
 *
 * @author poolpilot authors
 */
public final class ThreadBudget {

	private final Object lock = new Object();

	private final Supplier<? extends Collection<? extends BudgetMember>> members;

	private final IntSupplier departed;

	private volatile @Nullable Integer maxThreads;

	private volatile Lenders lenders = Lenders.NONE;

	private boolean fitted;

	/**
	 * The pool being admitted, under the lock: until it is brought within the budget it
	 * holds nothing the others must make room for.
	 */
	private @Nullable BudgetMember joining;

	/**
	 * Create a budget.
	 * @param maxThreads how many live threads the pools may have together, or
	 * {@code null} for no limit beyond each pool's own max-threads
	 * @param members the pools sharing it, as they are at each call
	 */
	public ThreadBudget(@Nullable Integer maxThreads, Supplier<? extends Collection<? extends BudgetMember>> members) {
		this(maxThreads, members, () -> 0);
	}

	/**
	 * Create a budget whose pools may leave it while their threads still run.
	 * @param maxThreads how many live threads the pools may have together, or
	 * {@code null} for no limit beyond each pool's own max-threads
	 * @param members the pools sharing it, as they are at each call
	 * @param departed the live threads of the pools that left it, as they are at each
	 * call: they count until they have finished their tasks
	 */
	public ThreadBudget(@Nullable Integer maxThreads, Supplier<? extends Collection<? extends BudgetMember>> members,
			IntSupplier departed) {
		checkMaxThreads(maxThreads);
		this.maxThreads = maxThreads;
		this.members = members;
		this.departed = departed;
	}

	/**
	 * Return a budget that limits nothing, for a pool that shares none.
	 * @return a budget without members or maximum
	 */
	public static ThreadBudget none() {
		return new ThreadBudget(null, List::of);
	}

	/**
	 * Return how many threads a pool holds against the budget: its maximum size, or its
	 * live threads while more than that are still finishing their tasks after it shrank.
	 * The one way the budget counts a pool's threads.
	 */
	static int holds(int maxPoolSize, int liveThreads) {
		return Math.max(maxPoolSize, liveThreads);
	}

	/**
	 * Run a change of pool sizes under the budget's lock, so that nothing else changes a
	 * pool between its checks and its resizes. Re-entrant: a resize within it takes the
	 * same lock.
	 * @param change the change
	 */
	public void change(Runnable change) {
		synchronized (this.lock) {
			change.run();
		}
	}

	/**
	 * Return the configured maximum.
	 * @return the maximum, or {@code null} when the budget is the sum of the pools'
	 * max-threads
	 */
	public @Nullable Integer getConfiguredMaxThreads() {
		return this.maxThreads;
	}

	/**
	 * Return how many live threads all pools may have together.
	 * @return the budget's maximum
	 */
	public int maxThreads() {
		return BudgetSizing.maxThreads(this.maxThreads, this.members.get().stream().mapToInt(BudgetMember::maxThreads));
	}

	/**
	 * Change the maximum.
	 * @param maxThreads how many live threads the pools may have together, or
	 * {@code null} for no limit beyond each pool's own max-threads
	 * @throws IllegalArgumentException if the pools may already grow past it; nothing
	 * changes then
	 */
	public void setMaxThreads(@Nullable Integer maxThreads) {
		checkMaxThreads(maxThreads);
		synchronized (this.lock) {
			int allocated = allocatedThreads();
			if (maxThreads != null && maxThreads < allocated) {
				throw new IllegalArgumentException("budget max-threads " + maxThreads + " is below the " + allocated
						+ " threads the pools may grow to now; lower their sizes first");
			}
			this.maxThreads = maxThreads;
		}
	}

	private static void checkMaxThreads(@Nullable Integer maxThreads) {
		if (maxThreads != null && maxThreads < 1) {
			throw new IllegalArgumentException("budget max-threads must be at least 1 but was " + maxThreads);
		}
	}

	/**
	 * Return the threads the pools may grow to, the sum of their maximum sizes.
	 * @return the allocated threads
	 */
	public int allocatedThreads() {
		return this.members.get().stream().mapToInt(BudgetMember::maxPoolSize).sum();
	}

	/**
	 * Return the live threads of all pools together, those of pools that left and still
	 * finish their tasks included.
	 * @return the live threads
	 */
	public int liveThreads() {
		return this.departed.getAsInt() + this.members.get().stream().mapToInt(BudgetMember::liveThreads).sum();
	}

	/**
	 * Make room for a pool's new maximum size, so that the pools' live threads can never
	 * exceed the budget. Each other pool holds its maximum size, or its live threads
	 * while more than that are still finishing their tasks after it shrank, and a pool
	 * that left holds its live threads until they have finished theirs. When that leaves
	 * too little, the pools that may lend ({@link #setLenders}) give their idle threads,
	 * each down to its live threads and never below its min-threads, through their own
	 * doors; nothing is lent when even that would not make room. A pool that does not
	 * grow always fits: shrinking only helps. Call it within {@link #change}.
	 * @param member the pool to resize
	 * @param maxPoolSize its new maximum size
	 * @return the loans that made room, or what the change would break
	 */
	public Room makeRoom(BudgetMember member, int maxPoolSize) {
		Integer budget = this.maxThreads;
		if (budget == null || maxPoolSize <= member.maxPoolSize()) {
			return Room.FREE;
		}
		return lend(member, maxPoolSize, budget);
	}

	/**
	 * Make room for a pool's maximum size among the pools that share the budget now, less
	 * the one being admitted (a lender whose loan to it goes back grows back through its
	 * door into the room it had), and the threads of the pools that left.
	 */
	private Room lend(BudgetMember member, int maxPoolSize, int budget) {
		BudgetMember joining = this.joining;
		Collection<? extends BudgetMember> members = this.members.get();
		Collection<? extends BudgetMember> sharing = (joining != null)
				? members.stream().filter((other) -> other != joining).toList() : members;
		return Lending.makeRoom(sharing, this.departed.getAsInt(), member, maxPoolSize, budget, this.lenders);
	}

	/**
	 * Set which pools may lend their idle threads to a pool that grows.
	 * @param lenders the pools that may lend, and who is told of each loan
	 */
	public void setLenders(Lenders lenders) {
		this.lenders = lenders;
	}

	/**
	 * Return how many threads a pool could lend now: its maximum size above its live
	 * threads and its min-threads, when it may lend.
	 * @param member the pool
	 * @return the lendable threads, 0 for a pool that may not lend
	 */
	public int lendableThreads(BudgetMember member) {
		return Lending.mayLend(this.lenders, member) ? Lending.lendable(member) : 0;
	}

	/**
	 * Return how many threads all pools could lend now to a pool that grows.
	 * @return the lendable threads of every pool together
	 */
	public int lendableThreads() {
		return this.members.get().stream().mapToInt(this::lendableThreads).sum();
	}

	/**
	 * Share the budget among what the pools ask for ({@link BudgetAllocator}).
	 * @param demands what each pool asks for
	 * @return the threads each pool gets, by pool name, in the order given
	 */
	public Map<String, Integer> allocate(List<Demand> demands) {
		return BudgetAllocator.allocate(demands, maxThreads());
	}

	/**
	 * Return each pool's guaranteed share of the budget
	 * ({@link BudgetAllocator#guaranteed}).
	 * @param demands what each pool asks for
	 * @return the guaranteed share of each pool, by pool name, in the order given
	 */
	public Map<String, Integer> guaranteed(List<Demand> demands) {
		return BudgetAllocator.guaranteed(demands, maxThreads());
	}

	/**
	 * Share the budget among what the pools ask for, and return what each may have now:
	 * threads a pool gives back count until they ended, so a growing pool gets only what
	 * the others' live threads (and those of pools that left) leave, up to its
	 * allocation. A pool sized by hand keeps its size up to its guaranteed share (at
	 * least its min-threads): what it has beyond that was lent by the others, and goes
	 * back to a pool below its share that needs it.
	 * @param demands what each pool asks for
	 * @param pools each pool's size and live threads now, in the order of the demands
	 * @return the threads each pool may have now, by pool name, in the order given
	 */
	public Map<String, Integer> threadsNow(List<Demand> demands, List<Held> pools) {
		return Handover.threadsNow(demands, pools, maxThreads(),
				(this.maxThreads != null) ? this.departed.getAsInt() : 0);
	}

	/**
	 * Apply a new maximum and new pool settings all together or not at all, in an order
	 * in which every step stays within the budget of its moment: a larger maximum first
	 * and a smaller one last, the pools that shrink before those that grow. They are
	 * refused when what the pools really use (their live threads and new min-threads,
	 * what the others may grow to) leaves no room; idle pools lend the rest, and give
	 * threads to a lower maximum. Tasks may start threads in an idle pool while the
	 * settings apply: when a lower maximum no longer fits what the pools hold then, every
	 * pool gets its old settings and sizes back and the change is refused (a pool that
	 * shrank grows back only into the room that the threads started meanwhile in a pool
	 * that grew leave it). Call it within {@link #change}.
	 * @param maxThreads the new maximum, or {@code null} for no limit beyond each pool's
	 * own max-threads
	 * @param sizes every pool's min-threads and maximum size once its new settings apply
	 * @param apply applies one pool's new settings, through its door: a pool that grows
	 * may borrow from the idle ones
	 * @param restore puts one pool's old settings back, before the budget puts back its
	 * old sizes through its door
	 * @return what the new settings would break, nothing being applied then, or
	 * {@code null} once they are applied
	 * @throws RuntimeException what a pool's door threw while the settings applied, every
	 * pool having its old settings back
	 */
	public <M extends BudgetMember> @Nullable Overrun reconfigure(@Nullable Integer maxThreads,
			Map<M, Reconfigured> sizes, Consumer<M> apply, Consumer<M> restore) {
		checkMaxThreads(maxThreads);
		Integer current = this.maxThreads;
		try {
			return Reconfiguration.apply(this, this.members.get(), this.lenders, maxThreads, sizes, apply, restore);
		}
		catch (RuntimeException ex) {
			this.maxThreads = current;
			throw ex;
		}
	}

	/**
	 * Shrink pools until their maximum sizes together fit the budget, as after start-up
	 * when the application's own executors have joined pools that were sized for the
	 * whole budget. The pools with the most threads per unit of weight give first, each
	 * down to its min-threads at most.
	 * @return the cuts made and how many threads the budget is still short by
	 */
	public Fit fit() {
		List<Cut> cuts = new ArrayList<>();
		int[] shortBy = new int[1];
		change(() -> {
			this.fitted = true;
			Integer budget = this.maxThreads;
			if (budget != null) {
				shortBy[0] = Math.max(0, Fitting.cut(this.members.get(), allocatedThreads() - budget, budget, cuts));
			}
		});
		return new Fit(cuts, shortBy[0], maxThreads() + shortBy[0]);
	}

	/**
	 * Bring a pool that joins after the pools were fitted ({@link #fit}) within the
	 * budget, as an executor created lazily or a listener container started later. The
	 * others may be busy, so it alone gives way: it keeps its maximum size where the
	 * budget has room, idle pools lending to it as to a pool that grows, and otherwise
	 * shrinks to what is left, down to its min-threads at most. Until the first fit pools
	 * join as they are, to be fitted together. Call it with the pool among the members.
	 * @param member the pool that joins
	 * @return the cut made to it, if any, or how many threads the budget is short by when
	 * even its min-threads do not fit: nothing changes then
	 */
	public Fit admit(BudgetMember member) {
		List<Cut> cuts = new ArrayList<>(1);
		int[] shortBy = new int[1];
		change(() -> {
			Integer budget = this.maxThreads;
			if (!this.fitted || budget == null) {
				return;
			}
			int from = member.maxPoolSize();
			int to = from;
			this.joining = member;
			try {
				Overrun overrun = lend(member, to, budget).overrun();
				// Each try lends what the lenders leave idle then: tasks that reached
				// them since the last one leave less, and the pool gives way to what is
				// left.
				while (overrun != null) {
					to = overrun.allowed();
					shortBy[0] = Math.max(0, Math.max(1, member.minThreads()) - to);
					if (shortBy[0] > 0) {
						return;
					}
					overrun = lend(member, to, budget).overrun();
				}
			}
			finally {
				this.joining = null;
			}
			if (to < from) {
				member.resize(Math.min(member.corePoolSize(), to), to);
				cuts.add(new Cut(member.getName(), from, to, budget));
			}
		});
		return new Fit(cuts, shortBy[0], maxThreads() + shortBy[0]);
	}

	/**
	 * A size change that would take the pools past the budget.
	 *
	 * @param threads the threads the pools would have together
	 * @param maxThreads the budget's maximum
	 * @param allowed the largest maximum size the pool may have now, with what the other
	 * pools can lend
	 * @param lendable the idle threads the other pools could have lent
	 */
	public record Overrun(int threads, int maxThreads, int allowed, int lendable) {

		/**
		 * Say why a pool may not grow to a maximum size.
		 * @param pool the pool's name
		 * @param maxPoolSize the maximum size it asked for
		 * @return the sentence
		 */
		public String describe(String pool, int maxPoolSize) {
			return "maxPoolSize " + maxPoolSize + " of pool '" + pool + "' would bring the pools' threads to "
					+ this.threads + ", over the budget of " + this.maxThreads + " threads" + ((this.lendable > 0)
							? " even with the " + this.lendable + " idle threads other pools can lend" : "")
					+ " (allowed: at most " + this.allowed + ")";
		}

	}

	/**
	 * Room for a pool that grows: the loans that made it, or what refused it.
	 *
	 * @param overrun what the change would break, or {@code null} when it fits
	 * @param loans the pools that lent threads for it, none when the budget had them free
	 */
	public record Room(@Nullable Overrun overrun, List<Loan> loans) {

		static final Room FREE = new Room(null, List.of());

	}

	/**
	 * Threads an idle pool lent to a pool that grew: the lender's maximum size before and
	 * after.
	 *
	 * @param lender the pool that lent
	 * @param borrower the pool that grew, or {@code null} when the budget's maximum was
	 * lowered
	 * @param from the lender's maximum size before
	 * @param to its maximum size after
	 */
	public record Loan(String lender, @Nullable String borrower, int from, int to) {

		/**
		 * Return how many threads were lent.
		 * @return the threads
		 */
		public int threads() {
			return this.from - this.to;
		}

	}

	/**
	 * The outcome of fitting the pools to the budget.
	 *
	 * @param cuts the pools that were shrunk
	 * @param shortBy how many threads the budget is still short by: 0 when everything
	 * fits
	 * @param neededMaxThreads the smallest budget that gives every pool its min-threads
	 * and keeps what the others may grow to
	 */
	public record Fit(List<Cut> cuts, int shortBy, int neededMaxThreads) {

	}

	/**
	 * A pool's settings once a new configuration applies.
	 *
	 * @param minThreads its new min-threads
	 * @param maxPoolSize its maximum size within its new bounds
	 */
	public record Reconfigured(int minThreads, int maxPoolSize) {

	}

	/**
	 * A pool's size and live threads, as the budget counts them when it shares itself.
	 *
	 * @param name the pool's name
	 * @param size its maximum size
	 * @param liveThreads its live threads, which may exceed its size for a while after it
	 * shrank
	 * @param byHand whether a person set its size (manual tuning): it keeps it up to its
	 * guaranteed share
	 */
	public record Held(String name, int size, int liveThreads, boolean byHand) {

		/**
		 * A pool its tuner sizes.
		 * @param name the pool's name
		 * @param size its maximum size
		 * @param liveThreads its live threads
		 */
		public Held(String name, int size, int liveThreads) {
			this(name, size, liveThreads, false);
		}

	}

	/**
	 * A pool shrunk to fit the budget.
	 *
	 * @param pool the pool's name
	 * @param from its maximum size before
	 * @param to its maximum size now
	 * @param maxThreads the budget's maximum
	 */
	public record Cut(String pool, int from, int to, int maxThreads) {

	}

}
