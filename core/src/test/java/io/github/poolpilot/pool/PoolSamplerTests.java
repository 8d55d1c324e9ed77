package io.github.poolpilot.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link PoolSampler}: its windows and the cheaper action it runs between them.
 *
 * @author poolpilot authors
 */
class PoolSamplerTests {

	@Test
	void thePulseRunsBetweenWindowsOnTheSamplersOneThread() {
		List<String> ticks = Collections.synchronizedList(new ArrayList<>());
		List<String> threads = Collections.synchronizedList(new ArrayList<>());
		try (PoolSampler sampler = new PoolSampler(new PoolRegistry(null), Duration.ofMillis(200), () -> {
			ticks.add("window");
			threads.add(Thread.currentThread().getName());
		}, Duration.ofMillis(20), () -> {
			ticks.add("pulse");
			threads.add(Thread.currentThread().getName());
		})) {
			sampler.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> ticks.contains("window"));
		}
		synchronized (ticks) {
			assertThat(ticks.stream().filter("pulse"::equals).count()).isGreaterThan(1);
		}
		assertThat(threads).containsOnly("poolpilot-sampler");
	}

	@Test
	void aFailingPulseDoesNotStopTheNextOnes() {
		List<String> pulses = Collections.synchronizedList(new ArrayList<>());
		try (PoolSampler sampler = new PoolSampler(new PoolRegistry(null), Duration.ofSeconds(10), () -> {
		}, Duration.ofMillis(10), () -> {
			pulses.add("pulse");
			if (pulses.size() == 1) {
				throw new IllegalStateException("no figures");
			}
		})) {
			sampler.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> pulses.size() >= 3);
		}
	}

	@Test
	void aPulseAsLongAsTheWindowIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new PoolSampler(new PoolRegistry(null), Duration.ofSeconds(1), () -> {
			}, Duration.ofSeconds(1), () -> {
			}))
			.withMessage("the pulse interval must be zero (off) or shorter than the window PT1S but was PT1S");
	}

}
