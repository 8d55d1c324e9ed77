package io.github.poolpilot.execution;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The threads of a virtual pool that run or are about to run a task, so that
 * {@code shutdownNow()} can interrupt them, kept without an allocation per task: each
 * thread takes a free slot of a fixed array, looked for from its id (ids count up, so
 * threads started one after another take slots one after another), and frees it when it
 * ends. The array holds twice the pool's most threads; a thread that finds none of the
 * few slots it looks at free (more tasks running than the pool's bounds allowed when it
 * was made) goes to a set beside it.
 *
 * @author poolpilot authors
 */
final class RunningThreads {

	private static final int PROBES = 8;

	private static final int MIN_SLOTS = 16;

	private static final int MAX_SLOTS = 4096;

	private final AtomicReferenceArray<Thread> slots;

	private final Set<Thread> overflow = ConcurrentHashMap.newKeySet();

	/**
	 * Keep room for about this many threads at once.
	 * @param threads how many threads run at most, as the pool's bounds say
	 */
	RunningThreads(int threads) {
		int wanted = Math.max(MIN_SLOTS, Math.min(MAX_SLOTS, threads * 2));
		this.slots = new AtomicReferenceArray<>(Integer.highestOneBit(wanted - 1) << 1);
	}

	/**
	 * Keep a thread until it is {@link #remove removed}.
	 * @param thread the thread
	 * @return its slot, to give back to {@link #remove}
	 */
	@SuppressWarnings("deprecation") // Thread.getId(): threadId() is Java 19+
	int add(Thread thread) {
		int mask = this.slots.length() - 1;
		int first = (int) thread.getId();
		for (int i = 0; i < PROBES; i++) {
			int slot = (first + i) & mask;
			if (this.slots.get(slot) == null && this.slots.compareAndSet(slot, null, thread)) {
				return slot;
			}
		}
		this.overflow.add(thread);
		return -1;
	}

	/**
	 * Forget a thread.
	 * @param slot the slot {@link #add} gave it
	 * @param thread the thread
	 */
	void remove(int slot, Thread thread) {
		if (slot >= 0) {
			this.slots.set(slot, null);
		}
		else {
			this.overflow.remove(thread);
		}
	}

	void interruptAll() {
		for (int i = 0; i < this.slots.length(); i++) {
			Thread thread = this.slots.get(i);
			if (thread != null) {
				thread.interrupt();
			}
		}
		this.overflow.forEach(Thread::interrupt);
	}

	/**
	 * Return the threads kept now.
	 * @return a copy of them
	 */
	Set<Thread> toSet() {
		Set<Thread> threads = new HashSet<>(this.overflow);
		for (int i = 0; i < this.slots.length(); i++) {
			Thread thread = this.slots.get(i);
			if (thread != null) {
				threads.add(thread);
			}
		}
		return threads;
	}

}
