package io.github.poolpilot.history;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.tuning.Decision;

/**
 * One pool's last decisions in a fixed array: the oldest is overwritten when it is full.
 * A decision already recorded (the same value, seen again by the next window) is not
 * added twice.
 *
 * @author poolpilot authors
 */
final class DecisionRing {

	private final long[] time;

	private final @Nullable Decision[] decisions;

	private int next;

	private int size;

	DecisionRing(int capacity) {
		this.time = new long[capacity];
		this.decisions = new Decision[capacity];
	}

	synchronized void add(long epochMillis, Decision decision) {
		for (int k = 0; k < this.size; k++) {
			if (this.decisions[Math.floorMod(this.next - 1 - k, this.decisions.length)] == decision) {
				return;
			}
		}
		this.time[this.next] = epochMillis;
		this.decisions[this.next] = decision;
		this.next = (this.next + 1) % this.decisions.length;
		this.size = Math.min(this.size + 1, this.decisions.length);
	}

	synchronized List<TimedDecision> read(long afterEpochMillis, long notBeforeEpochMillis, long upToEpochMillis) {
		List<TimedDecision> read = new ArrayList<>();
		int first = Math.floorMod(this.next - this.size, this.decisions.length);
		for (int k = 0; k < this.size; k++) {
			int i = (first + k) % this.decisions.length;
			Decision decision = this.decisions[i];
			if (decision != null && this.time[i] > afterEpochMillis && this.time[i] >= notBeforeEpochMillis
					&& this.time[i] <= upToEpochMillis) {
				read.add(new TimedDecision(this.time[i], decision));
			}
		}
		return read;
	}

}
