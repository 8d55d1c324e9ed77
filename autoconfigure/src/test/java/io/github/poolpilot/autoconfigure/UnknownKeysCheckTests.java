package io.github.poolpilot.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link UnknownKeysCheck} and {@link UnknownPoolpilotPropertyFailureAnalyzer}.
 *
 * @author poolpilot authors
 */
@ExtendWith(OutputCaptureExtension.class)
class UnknownKeysCheckTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(TaskExecutionAutoConfiguration.class, PoolpilotAutoConfiguration.class))
		.withPropertyValues("poolpilot.existing-executors.enabled=false");

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			textBlock = """
					poolpilot.pools.work.max-thread=4                       | poolpilot.pools.work.max-threads
					poolpilot.pools.work.queue-capcity=10                   | poolpilot.pools.work.queue-capacity
					poolpilot.pool.work.max-threads=4                       | poolpilot.pools.work.max-threads
					poolpilot.budjet.max-threads=10                         | poolpilot.budget.max-threads
					poolpilot.budget.max-thread=10                          | poolpilot.budget.max-threads
					poolpilot.pools.work.resilience.timout=1s               | poolpilot.pools.work.resilience.timeout
					poolpilot.existing-executors.enabeld=false              | poolpilot.existing-executors.enabled
					poolpilot.existing-executors.reportExecutor.max-thread=3 | poolpilot.existing-executors.reportExecutor.max-threads
					poolpilot.tunning.enabled=false                         | poolpilot.tuning.enabled
					""")
	void anUnknownKeyFailsStartUpNamingTheNearestKnownKey(String setting, String suggestion) {
		this.runner.withPropertyValues("poolpilot.pools.work.min-threads=1", setting).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(UnknownPoolpilotPropertyException.class);
			FailureAnalysis analysis = new UnknownPoolpilotPropertyFailureAnalyzer()
				.analyze(context.getStartupFailure());
			String key = setting.substring(0, setting.indexOf('='));
			assertThat(analysis.getDescription()).contains("'" + key + "'");
			assertThat(analysis.getAction()).contains("'" + key + "': did you mean '" + suggestion + "'?");
		});
	}

	@Test
	void anUnknownKeyInAFileIsNamedWithItsLineAndColumn() {
		this.runner.withInitializer((context) -> {
			try {
				new YamlPropertySourceLoader().load("typo", new ClassPathResource("typo.yml", getClass()))
					.forEach(context.getEnvironment().getPropertySources()::addFirst);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}).run((context) -> {
			FailureAnalysis analysis = new UnknownPoolpilotPropertyFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).isEqualTo("Unknown poolpilot configuration:\n"
					+ "    - 'poolpilot.pools.work.max-thread' (class path resource "
					+ "[io/github/poolpilot/autoconfigure/typo.yml] - 5:19): 'poolpilot.pools.work' has no key "
					+ "'max-thread'");
			// docs/configuration.md shows this failure: its suggestion and list of keys
			// are the real ones.
			String documented = Files.readAllLines(Path.of("..", "docs", "configuration.md"))
				.stream()
				.filter((line) -> line.startsWith("    - 'poolpilot.pools.work.max-thread': did you mean"))
				.findFirst()
				.orElseThrow();
			assertThat(analysis.getAction()).contains(documented.strip());
		});
	}

	@Test
	void aKeyWithNothingCloseListsTheKeysOfItsGroup() {
		this.runner.withPropertyValues("poolpilot.pools.work.colour=red").run((context) -> {
			FailureAnalysis analysis = new UnknownPoolpilotPropertyFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).isEqualTo("Unknown poolpilot configuration:\n"
					+ "    - 'poolpilot.pools.work.colour' (\"poolpilot.pools.work.colour\" from property source "
					+ "\"test\"): 'poolpilot.pools.work' has no key 'colour'");
			assertThat(analysis.getAction()).endsWith("'poolpilot.pools.work.colour': the keys of "
					+ "'poolpilot.pools.work' are await-termination, cluster, initial-threads, keep-alive, max-queue-wait, max-threads, min-threads, "
					+ "queue-capacity, rejection-status, resilience, virtual-threads, weight")
				.doesNotContain("did you mean");
		});
	}

	@Test
	void everyUnknownKeyIsNamedAtOnce() {
		this.runner.withPropertyValues("poolpilot.pools.work.max-thread=4", "poolpilot.pool.talk.weight=2")
			.run((context) -> {
				UnknownPoolpilotPropertyException failure = (UnknownPoolpilotPropertyException) context
					.getStartupFailure();
				assertThat(failure.getKeys()).extracting(UnknownPoolpilotPropertyException.UnknownKey::suggestion)
					.containsExactlyInAnyOrder("poolpilot.pools.work.max-threads", "poolpilot.pools.talk.weight");
			});
	}

	@Test
	void aGroupGivenAValueIsRefused() {
		this.runner.withPropertyValues("poolpilot.budget=10").run((context) -> {
			FailureAnalysis analysis = new UnknownPoolpilotPropertyFailureAnalyzer()
				.analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("'poolpilot.budget' (")
				.contains("is a group of keys, not a key");
			assertThat(analysis.getAction()).contains("the keys of 'poolpilot.budget' are max-threads");
		});
	}

	@Test
	void knownKeysInTheirRelaxedFormsStartTheApplication() {
		this.runner
			.withPropertyValues("poolpilot.pools.work.maxThreads=4", "poolpilot.pools.work.min_threads=2",
					"poolpilot.pools.work.resilience.timeout=1s", "poolpilot.exclude[0]=reportExecutor",
					"poolpilot.existing-executors.report-executor.min-threads=1", "poolpilot.budget.max-threads=20")
			.withInitializer(
					(context) -> context.getEnvironment()
						.getPropertySources()
						.addFirst(new SystemEnvironmentPropertySource(
								StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
								Map.of("POOLPILOT_POOLS_WORK_QUEUECAPACITY", "7"))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				PoolProperties work = context.getBean(PoolpilotProperties.class).getPools().get("work");
				assertThat(work.getMaxThreads()).isEqualTo(4);
				assertThat(work.getMinThreads()).isEqualTo(2);
				assertThat(work.getQueueCapacity()).isEqualTo(7);
			});
	}

	@Test
	void anEmptyPoolEntryIsAPoolWithEveryDefaultFromSpringBoot41() {
		this.runner.withPropertyValues("poolpilot.pools.idle=").run((context) -> {
			if (SpringBootVersion.getVersion().startsWith("4.0.")) {
				// Spring Boot 4.0's binder refuses an empty entry (documented in the
				// README's compatibility table): the key is known, the value is not
				// bound.
				assertThat(context).getFailure()
					.rootCause()
					.hasMessageContaining("No converter found capable of converting");
				return;
			}
			assertThat(context).hasNotFailed();
			PoolProperties idle = context.getBean(PoolpilotProperties.class).getPools().get("idle");
			assertThat(idle).isNotNull();
			assertThat(idle.getMaxThreads()).isEqualTo(new PoolProperties().getMaxThreads());
		});
	}

	@Test
	void kubernetesServiceVariablesStartTheApplicationWithOneWarning(CapturedOutput output) {
		Map<String, Object> variables = Map.of("POOLPILOT_SERVICE_HOST", "10.96.12.7", "POOLPILOT_SERVICE_PORT", "8080",
				"POOLPILOT_PORT", "tcp://10.96.12.7:8080", "POOLPILOT_PORT_8080_TCP", "tcp://10.96.12.7:8080",
				"POOLPILOT_PORT_8080_TCP_PROTO", "tcp", "POOLPILOT_PORT_8080_TCP_PORT", "8080",
				"POOLPILOT_PORT_8080_TCP_ADDR", "10.96.12.7", "POOLPILOT_POOLS_WORK_MAXTHREADS", "3");
		this.runner.withPropertyValues("poolpilot.pools.work.min-threads=1")
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SystemEnvironmentPropertySource(
						StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables)))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(PoolpilotProperties.class).getPools().get("work").getMaxThreads())
					.isEqualTo(3);
			});
		assertThat(output.getOut().lines().filter((line) -> line.contains("Environment variables"))).singleElement()
			.satisfies((line) -> assertThat(line).contains("POOLPILOT_SERVICE_HOST", "POOLPILOT_PORT_8080_TCP_ADDR")
				.doesNotContain("POOLPILOT_POOLS_WORK_MAXTHREADS"));
	}

	@Test
	void aTypoInAFileIsRefusedWhateverTheEnvironmentHas() {
		this.runner.withPropertyValues("poolpilot.pools.work.max-thread=4")
			.withInitializer(
					(context) -> context.getEnvironment()
						.getPropertySources()
						.addFirst(new SystemEnvironmentPropertySource(
								StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
								Map.of("POOLPILOT_SERVICE_HOST", "10.96.12.7"))))
			.run((context) -> {
				UnknownPoolpilotPropertyException failure = (UnknownPoolpilotPropertyException) context
					.getStartupFailure();
				assertThat(failure.getKeys()).singleElement()
					.satisfies((key) -> assertThat(key.suggestion()).isEqualTo("poolpilot.pools.work.max-threads"));
			});
	}

}
