package io.github.poolpilot.smoke;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A batch application with the starter alone (no web server, no Jackson, no Actuator): it
 * starts, runs its task on the declared pool "batch", and exits 0.
 */
@ExtendWith(PrintsApplicationLog.class)
class NoWebSmokeTests {

	@Test
	void runsItsTaskOnTheDeclaredPoolAndExits() throws Exception {
		SmokeApplication application = SmokeApplication.start(Shape.NO_WEB, SmokeApplication.currentJava(), Map.of(),
				List.of());
		try {
			assertThat(application.awaitExit()).as("exit code").isZero();
		}
		finally {
			application.kill();
		}
		assertThat(application.log()).containsPattern("Batch task ran on batch-\\d+");
		assertThat(application.errors()).as("lines logged at ERROR").isEmpty();
	}

}
