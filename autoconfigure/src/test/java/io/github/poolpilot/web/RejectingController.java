package io.github.poolpilot.web;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;

import io.github.poolpilot.testsupport.Blocking;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The endpoints the pool rejection tests fill their pools through: {@code POST /direct}
 * runs a task on the pool named {@code small}, {@code POST /async} calls the test's
 * {@code @Async} {@link SlowWork}. Each task holds its thread until the test releases it.
 *
 * @author poolpilot authors
 */
@RestController
class RejectingController {

	private static volatile CountDownLatch release = new CountDownLatch(1);

	private final Executor small;

	private final SlowWork slowWork;

	RejectingController(@Qualifier("small") Executor small, SlowWork slowWork) {
		this.small = small;
		this.slowWork = slowWork;
	}

	/**
	 * Hold the tasks started from now on until {@link #release()}. Call it once the pools
	 * are idle: a task queued before and started after it would be held too.
	 */
	static void hold() {
		release = new CountDownLatch(1);
	}

	/**
	 * Let the held tasks finish.
	 */
	static void release() {
		release.countDown();
	}

	/**
	 * Wait, on a task's thread, until the test releases the held tasks.
	 */
	static void awaitRelease() {
		Blocking.await(release);
	}

	@PostMapping("/direct")
	ResponseEntity<Void> direct() {
		this.small.execute(RejectingController::awaitRelease);
		return ResponseEntity.accepted().build();
	}

	@PostMapping("/async")
	ResponseEntity<Void> async() {
		this.slowWork.work();
		return ResponseEntity.accepted().build();
	}

	/**
	 * Work that a test runs through {@code @Async} on the executor it names.
	 */
	interface SlowWork {

		void work();

	}

}
