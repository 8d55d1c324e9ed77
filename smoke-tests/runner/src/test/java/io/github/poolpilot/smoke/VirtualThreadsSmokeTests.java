package io.github.poolpilot.smoke;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.github.poolpilot.smoke.Http.Answer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Spring MVC with Actuator on virtual threads
 * ({@code spring.threads.virtual.enabled=true}), on a JDK 21 or later: the declared pool
 * "reports" is a virtual pool, Boot's executor is managed as one, and Tomcat's virtual
 * threads are the pool "http".
 */
class VirtualThreadsSmokeTests extends WebApplicationSmokeTests {

	@Override
	Shape shape() {
		return Shape.VIRTUAL_THREADS;
	}

	@Override
	Set<String> pools() {
		return Set.of("reports", "applicationTaskExecutor", "http");
	}

	/**
	 * The first JDK 21 or later of: JAVA21_HOME, the JDKs Debian and Temurin's packages
	 * install, the JDK running the tests. None fails the tests on CI and skips them
	 * elsewhere.
	 */
	@Override
	Path java() {
		List<Path> candidates = new ArrayList<>();
		if (System.getenv("JAVA21_HOME") != null) {
			candidates.add(Path.of(System.getenv("JAVA21_HOME"), "bin", "java"));
		}
		for (String jdk : List.of("temurin-25-jdk-amd64", "java-25-openjdk-amd64", "temurin-21-jdk-amd64",
				"java-21-openjdk-amd64")) {
			candidates.add(Path.of("/usr/lib/jvm", jdk, "bin", "java"));
		}
		if (Runtime.version().feature() >= 21) {
			candidates.add(SmokeApplication.currentJava());
		}
		for (Path candidate : candidates) {
			if (Files.isExecutable(candidate)) {
				return candidate;
			}
		}
		String missing = "No JDK 21 or later for the virtual-threads smoke application: set JAVA21_HOME";
		if ("true".equals(System.getenv("CI"))) {
			fail(missing);
		}
		Assumptions.abort(missing);
		return null;
	}

	@Test
	void aReportRunsOnAVirtualThreadOfTheDeclaredPool() throws Exception {
		Answer report = this.http.post("/reports");
		assertThat(report.status()).as("%s", report).isEqualTo(200);
		assertThat(report.body()).containsPattern("VirtualThread\\[#\\d+,reports-\\d+\\]");
	}

}
