package io.github.poolpilot.listener;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The orders a listener contract test's listener handled, each counted once handled: the
 * listener waits at a gate the test may close, then takes {@link #serviceMillis} for the
 * order. A broker's listener extends it with its own listener method.
 *
 * @author poolpilot authors
 */
public class HandledOrders {

	/**
	 * How many times each order was handled, by its id.
	 */
	public final Map<String, AtomicInteger> handled = new ConcurrentHashMap<>();

	/**
	 * Where the listener waits, up to 30 seconds, before it handles an order: open unless
	 * the test closes it.
	 */
	public volatile CountDownLatch gate = new CountDownLatch(0);

	/**
	 * How long the listener takes for an order.
	 */
	public volatile int serviceMillis;

	/**
	 * Wait at the gate, then take the order's service time.
	 * @throws InterruptedException if interrupted meanwhile
	 */
	protected void serve() throws InterruptedException {
		this.gate.await(30, TimeUnit.SECONDS);
		if (this.serviceMillis > 0) {
			Thread.sleep(this.serviceMillis);
		}
	}

	/**
	 * Count the order as handled.
	 * @param id the order's id
	 */
	protected void count(String id) {
		this.handled.computeIfAbsent(id, (key) -> new AtomicInteger()).incrementAndGet();
	}

}
