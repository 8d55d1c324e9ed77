package io.github.poolpilot.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The poolpilot sample application: start, talk and stop APIs, each on its own managed
 * pool.
 *
 * @author poolpilot authors
 */
@SpringBootApplication
public class SampleApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}
