package io.github.poolpilot.sample;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SampleProperties}.
 *
 * @author poolpilot authors
 */
class SamplePropertiesTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withUserConfiguration(PropertiesConfiguration.class);

	@Test
	void defaultsRunEachAPIOnItsOwnPoolAgainstTheBuiltInStub() {
		this.contextRunner.run((context) -> {
			SampleProperties properties = context.getBean(SampleProperties.class);
			assertThat(properties.getExecutors().getStart()).isEqualTo("start");
			assertThat(properties.getExecutors().getTalk()).isEqualTo("talk");
			assertThat(properties.getExecutors().getStop()).isEqualTo("stop");
			assertThat(properties.getTalk().getDownstreamUrl()).isNull();
			assertThat(properties.getTalk().getDownstreamLatency()).isEqualTo(Duration.ofMillis(300));
			assertThat(properties.getTalk().getDownstreamCapacity()).isEqualTo(20);
		});
	}

	@Test
	void everySettingBindsFromProperties() {
		this.contextRunner
			.withPropertyValues("sample.executors.talk=applicationTaskExecutor",
					"sample.talk.downstream-url=http://downstream.example:9000/talk",
					"sample.talk.downstream-latency=1500ms", "sample.talk.downstream-capacity=4")
			.run((context) -> {
				SampleProperties properties = context.getBean(SampleProperties.class);
				assertThat(properties.getExecutors().getTalk()).isEqualTo("applicationTaskExecutor");
				assertThat(properties.getTalk().getDownstreamUrl())
					.isEqualTo(URI.create("http://downstream.example:9000/talk"));
				assertThat(properties.getTalk().getDownstreamLatency()).isEqualTo(Duration.ofMillis(1500));
				assertThat(properties.getTalk().getDownstreamCapacity()).isEqualTo(4);
			});
	}

	@Test
	void everyKeyIsInTheGeneratedMetadataWithItsDescription() throws IOException {
		String metadata = null;
		for (URL url : Collections
			.list(getClass().getClassLoader().getResources("META-INF/spring-configuration-metadata.json"))) {
			try (InputStream in = url.openStream()) {
				String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
				if (json.contains("\"sample.talk.downstream-latency\"")) {
					metadata = json;
				}
			}
		}
		assertThat(metadata).as("the sample's configuration metadata").isNotNull();
		for (String key : new String[] { "sample.executors.start", "sample.executors.talk", "sample.executors.stop",
				"sample.talk.downstream-url", "sample.talk.downstream-latency", "sample.talk.downstream-capacity",
				"sample.orders.enabled", "sample.orders.service-time", "sample.orders.downstream-capacity" }) {
			assertThat(JsonPath
				.parse(metadata).<java.util.List<String>>read("$.properties[?(@.name == '" + key + "')].description"))
				.as(key)
				.singleElement()
				.asString()
				.isNotBlank();
		}
		assertThat(JsonPath.parse(metadata).<java.util.List<String>>read(
				"$.properties[?(@.name == 'sample.talk.downstream-latency')].type"))
			.containsExactly("java.time.Duration");
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(SampleProperties.class)
	static class PropertiesConfiguration {

	}

}
