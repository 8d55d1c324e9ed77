package io.github.poolpilot.webserver.jetty;

import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.webserver.PermitThreads;
import io.github.poolpilot.webserver.RequestPermits;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link JettyThreads}: the pool's sizes are the permits, and Jetty's thread
 * pool is sized around them through its own setters.
 *
 * @author poolpilot authors
 */
class JettyThreadsTests {

	private static final int JETTY_OWN = 6;

	private final RequestPermits permits = new RequestPermits(0, 10);

	private final QueuedThreadPool pool = new QueuedThreadPool(200, 8);

	private final JettyThreads threads = new JettyThreads(new PermitThreads(this.permits, () -> false), this.pool,
			JETTY_OWN);

	@Test
	void theMaximumIsThePermitsAndJettysPoolKeepsItsOwnThreadsBeyondThem() {
		this.threads.setMaximumPoolSize(20);
		this.threads.setCorePoolSize(5);
		assertThat(this.threads.getMaximumPoolSize()).isEqualTo(20);
		assertThat(this.permits.getLimit()).isEqualTo(20);
		assertThat(this.threads.getCorePoolSize()).isEqualTo(5);
		assertThat(this.pool.getMaxThreads()).isEqualTo(20 + JETTY_OWN);
		assertThat(this.pool.getMinThreads()).isEqualTo(5 + JETTY_OWN);
	}

	@Test
	void shrinkingBelowJettysMinimumLowersItThroughTheCoreFirst() {
		this.threads.setMaximumPoolSize(20);
		this.threads.setCorePoolSize(20);
		// ManagedPool's order when shrinking: the core, then the maximum.
		this.threads.setCorePoolSize(2);
		this.threads.setMaximumPoolSize(3);
		assertThat(this.pool.getMinThreads()).isEqualTo(2 + JETTY_OWN);
		assertThat(this.pool.getMaxThreads()).isEqualTo(3 + JETTY_OWN);
		assertThat(this.permits.getLimit()).isEqualTo(3);
	}

	@Test
	void theLiveThreadsLeaveOutJettysOwnAndTheActiveOnesAreThePermitsInUse() {
		this.threads.setMaximumPoolSize(2);
		assertThat(this.threads.getPoolSize()).as("no thread started yet").isZero();
		this.permits.admit(() -> {
		});
		this.permits.admit(() -> {
		});
		this.permits.admit(() -> {
		});
		assertThat(this.threads.getActiveCount()).isEqualTo(2);
		assertThat(this.threads.getQueueSize()).isEqualTo(1);
	}

}
