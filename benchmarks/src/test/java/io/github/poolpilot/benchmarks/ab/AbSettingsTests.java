package io.github.poolpilot.benchmarks.ab;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link AbSettings}.
 *
 * @author poolpilot authors
 */
class AbSettingsTests {

	@Test
	void theDefaultsAreBothShapesBothTasksAndFiveKeptRounds() {
		AbSettings settings = AbSettings.parse();
		assertThat(settings.shapes()).containsExactly("1x1", "2x2");
		assertThat(settings.tasks()).containsExactly("trivial", "1us");
		assertThat(settings.executors()).containsExactly("managed");
		assertThat(settings.minKept()).isEqualTo(5);
		assertThat(settings.pairs()).isEqualTo(7);
		assertThat(settings.maxPairs()).isEqualTo(15);
		assertThat(settings.tolerance()).isEqualTo(0.05);
		assertThat(settings.out()).isEqualTo(Path.of("benchmarks/results/ab"));
		assertThat(settings.jvm()).isNull();
	}

	@Test
	void optionsAreRead() {
		AbSettings settings = AbSettings.parse("--shapes", "1x1", "--tasks", "1us", "--executors", "managed,micrometer",
				"--pairs", "20", "--min-kept", "6", "--tolerance", "0.03", "--iteration-time", "500ms", "--out",
				"/tmp/ab");
		assertThat(settings.shapes()).containsExactly("1x1");
		assertThat(settings.tasks()).containsExactly("1us");
		assertThat(settings.executors()).containsExactly("managed", "micrometer");
		assertThat(settings.pairs()).isEqualTo(20);
		assertThat(settings.maxPairs()).isEqualTo(20);
		assertThat(settings.minKept()).isEqualTo(6);
		assertThat(settings.tolerance()).isEqualTo(0.03);
		assertThat(settings.iterationTime()).isEqualTo("500ms");
		assertThat(settings.out()).isEqualTo(Path.of("/tmp/ab"));
	}

	@Test
	void aShapeGivesTheProducersAndThePoolSize() {
		assertThat(List.of(AbSettings.producers("1x1"), AbSettings.poolSize("1x1"))).containsExactly(1, 1);
		assertThat(List.of(AbSettings.producers("2x2"), AbSettings.poolSize("2x2"))).containsExactly(2, 2);
	}

	@Test
	void badInputIsNamed() {
		assertThatIllegalArgumentException().isThrownBy(() -> AbSettings.parse("--shapes", "4x4"))
			.withMessage("Unknown shape '4x4': use 1x1 or 2x2");
		assertThatIllegalArgumentException().isThrownBy(() -> AbSettings.parse("--tasks", "1ms"))
			.withMessage("Unknown task '1ms': use trivial or 1us");
		assertThatIllegalArgumentException().isThrownBy(() -> AbSettings.parse("--executors", "raw"))
			.withMessage("--executors must name at least one executor other than raw");
		assertThatIllegalArgumentException().isThrownBy(() -> AbSettings.parse("--pairs", "9", "--max-pairs", "3"))
			.withMessageContaining("--max-pairs >= --pairs");
		assertThatIllegalArgumentException().isThrownBy(() -> AbSettings.parse("--frobnicate", "1"))
			.withMessageStartingWith("Unknown option --frobnicate");
		assertThatIllegalArgumentException().isThrownBy(() -> AbSettings.parse("--pairs"))
			.withMessageStartingWith("Option --pairs needs a value");
	}

}
