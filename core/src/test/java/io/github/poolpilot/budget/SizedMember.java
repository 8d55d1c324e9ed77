package io.github.poolpilot.budget;

import java.util.List;

import io.github.poolpilot.budget.ThreadBudget.Loan;

/**
 * A pool for the budget's tests that only holds its sizes: its floor, core and maximum
 * pool sizes and live threads are the test's to set, and a resize sets them without
 * asking the budget. A test whose pool checks the budget when it grows overrides
 * {@link #resize}.
 *
 * @author poolpilot authors
 */
class SizedMember implements BudgetMember {

	private final String name;

	private final int weight;

	private final int maxThreads;

	int min;

	int core;

	int max;

	int live;

	boolean settling;

	/**
	 * A pool that may be sized up to 1000 threads.
	 */
	SizedMember(String name, int weight, int min, int core, int max, int live) {
		this(name, weight, min, core, max, live, 1000);
	}

	SizedMember(String name, int weight, int min, int core, int max, int live, int maxThreads) {
		this.name = name;
		this.weight = weight;
		this.min = min;
		this.core = core;
		this.max = max;
		this.live = live;
		this.maxThreads = maxThreads;
	}

	/**
	 * Lenders that let the given pools lend, and tell each loan to {@code told}.
	 */
	static Lenders lenders(List<Loan> told, BudgetMember... members) {
		List<BudgetMember> lenders = List.of(members);
		return new Lenders() {

			@Override
			public boolean mayLend(BudgetMember member) {
				return lenders.contains(member);
			}

			@Override
			public void lent(Loan loan) {
				told.add(loan);
			}

		};
	}

	@Override
	public String getName() {
		return this.name;
	}

	@Override
	public int getWeight() {
		return this.weight;
	}

	@Override
	public int minThreads() {
		return this.min;
	}

	@Override
	public int maxThreads() {
		return this.maxThreads;
	}

	@Override
	public int corePoolSize() {
		return this.core;
	}

	@Override
	public int maxPoolSize() {
		return this.max;
	}

	@Override
	public int liveThreads() {
		return this.live;
	}

	@Override
	public boolean isSettling() {
		return this.settling;
	}

	@Override
	public List<Loan> resize(int corePoolSize, int maxPoolSize) {
		this.core = corePoolSize;
		this.max = maxPoolSize;
		return List.of();
	}

	@Override
	public String toString() {
		return this.name + " min " + this.min + " core " + this.core + " max " + this.max;
	}

}
