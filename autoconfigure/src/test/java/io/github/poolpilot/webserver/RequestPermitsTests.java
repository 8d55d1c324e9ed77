package io.github.poolpilot.webserver;

import java.util.ArrayList;
import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import io.github.poolpilot.webserver.RequestPermits.Admission;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RequestPermits}.
 *
 * @author poolpilot authors
 */
class RequestPermitsTests {

	private final List<String> started = new ArrayList<>();

	@Test
	void aRequestIsServedWhileAPermitIsFreeThenWaitsThenIsRefusedWhenTheLineIsFull() {
		RequestPermits permits = new RequestPermits(2, 2);
		assertThat(permits.admit(start("a"))).isEqualTo(Admission.SERVE);
		assertThat(permits.admit(start("b"))).isEqualTo(Admission.SERVE);
		assertThat(permits.admit(start("c"))).isEqualTo(Admission.WAIT);
		assertThat(permits.admit(start("d"))).isEqualTo(Admission.WAIT);
		assertThat(permits.admit(start("e"))).isEqualTo(Admission.REFUSE);
		assertThat(permits.getInUse()).isEqualTo(2);
		assertThat(permits.getWaiting()).isEqualTo(2);
		assertThat(this.started).as("served at once or refused: the caller starts them, not the permits").isEmpty();
	}

	@Test
	void aReleasedPermitGoesToTheFirstInLine() {
		RequestPermits permits = new RequestPermits(1, 5);
		permits.admit(start("a"));
		permits.admit(start("b"));
		permits.admit(start("c"));
		permits.release();
		assertThat(this.started).containsExactly("b");
		assertThat(permits.getInUse()).isEqualTo(1);
		assertThat(permits.getWaiting()).isEqualTo(1);
		permits.release();
		assertThat(this.started).containsExactly("b", "c");
		permits.release();
		assertThat(permits.getInUse()).isZero();
		assertThat(permits.getWaiting()).isZero();
	}

	@Test
	void nobodyWaitsWhileAPermitIsFree() {
		RequestPermits permits = new RequestPermits(1, 5);
		permits.admit(start("a"));
		permits.release();
		assertThat(permits.admit(start("b"))).isEqualTo(Admission.SERVE);
		assertThat(this.started).isEmpty();
	}

	@Test
	void aGrownLimitStartsThoseWaitingAtOnce() {
		RequestPermits permits = new RequestPermits(1, 5);
		permits.admit(start("a"));
		permits.admit(start("b"));
		permits.admit(start("c"));
		permits.admit(start("d"));
		quietly(() -> permits.setLimit(3));
		assertThat(this.started).containsExactly("b", "c");
		assertThat(permits.getInUse()).isEqualTo(3);
		assertThat(permits.getWaiting()).isEqualTo(1);
		assertThat(permits.getLimit()).isEqualTo(3);
	}

	@Test
	void aShrunkLimitStartsNobodyUntilTheRequestsServedFallBelowIt() {
		RequestPermits permits = new RequestPermits(3, 5);
		permits.admit(start("a"));
		permits.admit(start("b"));
		permits.admit(start("c"));
		permits.setLimit(1);
		assertThat(permits.admit(start("d"))).isEqualTo(Admission.WAIT);
		permits.release();
		permits.release();
		assertThat(this.started).isEmpty();
		assertThat(permits.getInUse()).isEqualTo(1);
		permits.release();
		assertThat(this.started).containsExactly("d");
		assertThat(permits.getInUse()).isEqualTo(1);
	}

	@Test
	void aStartThatThrowsGivesItsPermitToTheNextInLine() {
		RequestPermits permits = new RequestPermits(1, 5);
		permits.admit(start("a"));
		permits.admit(() -> {
			throw new IllegalStateException("the server's threads take no more jobs");
		});
		permits.admit(start("c"));
		quietly(permits::release);
		assertThat(this.started).containsExactly("c");
		assertThat(permits.getInUse()).isEqualTo(1);
		assertThat(permits.getWaiting()).isZero();
	}

	@Test
	void aGrownLimitStartsEveryoneItCanEvenWhenOneStartThrows() {
		RequestPermits permits = new RequestPermits(1, 5);
		permits.admit(start("a"));
		permits.admit(() -> {
			throw new IllegalStateException("the server's threads take no more jobs");
		});
		permits.admit(start("c"));
		permits.admit(start("d"));
		quietly(() -> permits.setLimit(3));
		assertThat(this.started).containsExactly("c", "d");
		assertThat(permits.getInUse()).isEqualTo(3);
		assertThat(permits.getWaiting()).isZero();
	}

	@Test
	void aRequestStartedOnReleaseIsStartedOutsideTheLock() throws InterruptedException {
		RequestPermits permits = new RequestPermits(1, 5);
		permits.admit(start("a"));
		List<Integer> seenInUse = new ArrayList<>();
		// The start of a waiting request reads the permits from another thread, as
		// Jetty's thread pool does when it runs the resumed request at once.
		permits.admit(() -> {
			Thread reader = new Thread(() -> seenInUse.add(permits.getInUse()));
			reader.start();
			try {
				reader.join(10_000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		permits.release();
		assertThat(seenInUse).containsExactly(1);
	}

	/**
	 * Run without the warning each failed start logs, which these tests provoke.
	 */
	private static void quietly(Runnable action) {
		Logger logger = (Logger) LoggerFactory.getLogger(RequestPermits.class);
		Level level = logger.getLevel();
		logger.setLevel(Level.ERROR);
		try {
			action.run();
		}
		finally {
			logger.setLevel(level);
		}
	}

	private Runnable start(String name) {
		return () -> this.started.add(name);
	}

}
