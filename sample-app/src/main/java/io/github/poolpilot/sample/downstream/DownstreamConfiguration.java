package io.github.poolpilot.sample.downstream;

import java.net.http.HttpClient;

import io.github.poolpilot.sample.SampleProperties;

import org.springframework.boot.http.client.JdkClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The downstream stub, and the HTTP client settings of the calls to the downstream.
 *
 * @author poolpilot authors
 */
@Configuration(proxyBeanMethods = false)
class DownstreamConfiguration {

	@Bean(destroyMethod = "close")
	DownstreamStub downstreamStub(SampleProperties properties) {
		return new DownstreamStub(properties.getTalk().getDownstreamLatency(),
				properties.getTalk().getDownstreamCapacity());
	}

	/**
	 * Plain HTTP/1.1: the JDK client would otherwise offer every new connection an
	 * upgrade to HTTP/2 that the downstream does not speak.
	 */
	@Bean
	ClientHttpRequestFactoryBuilderCustomizer<JdkClientHttpRequestFactoryBuilder> http11() {
		return (builder) -> builder.withHttpClientCustomizer((client) -> client.version(HttpClient.Version.HTTP_1_1));
	}

}
