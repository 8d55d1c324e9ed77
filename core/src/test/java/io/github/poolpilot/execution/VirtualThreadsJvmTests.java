package io.github.poolpilot.execution;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fails the build's virtual-thread test run when it was given a JVM older than Java 21,
 * where every other virtual-thread test would be skipped and the run would pass without
 * testing anything.
 *
 * @author poolpilot authors
 */
@EnabledIfSystemProperty(named = "poolpilot-tests.virtual-threads.execution", matches = "true")
class VirtualThreadsJvmTests {

	@Test
	void theVirtualThreadTestsRunOnJava21OrLater() {
		assertThat(Runtime.version().feature()).as("Java version of the virtual-thread test run (virtual-threads.jvm)")
			.isGreaterThanOrEqualTo(21);
		assertThat(VirtualManagedExecutor.isSupported()).isTrue();
	}

}
