package io.github.poolpilot.smoke;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring MVC on Tomcat with Actuator, built with Spring Boot 4.0's parent: the starter,
 * built against 4.1, on the oldest Spring Boot it supports.
 */
class Boot40SmokeTests extends WebApplicationSmokeTests {

	@Override
	Shape shape() {
		return Shape.BOOT_4_0;
	}

	@Test
	void theApplicationRunsOnSpringBoot40() throws Exception {
		Path target = SmokeApplication.ROOT.resolve(shape().application()).resolve("target");
		Path jar;
		try (Stream<Path> files = Files.list(target)) {
			jar = files.filter((file) -> file.toString().endsWith(".jar")).findFirst().orElseThrow();
		}
		try (JarFile archive = new JarFile(jar.toFile())) {
			List<String> boot = archive.stream()
				.map((entry) -> entry.getName())
				.filter((name) -> name.matches("BOOT-INF/lib/spring-boot-[0-9].*\\.jar"))
				.toList();
			assertThat(boot).singleElement().asString().matches("BOOT-INF/lib/spring-boot-4\\.0\\.\\d+\\.jar");
		}
	}

}
