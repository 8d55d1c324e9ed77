package io.github.poolpilot.smoke.noweb;

import java.util.concurrent.TimeUnit;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * A batch application with the starter alone: no web server, no Jackson. It runs one task
 * on its declared pool, prints where it ran and exits.
 */
@SpringBootApplication
public class NoWebApplication {

	public static void main(String[] args) {
		System.exit(SpringApplication.exit(SpringApplication.run(NoWebApplication.class, args)));
	}

	@Bean
	ApplicationRunner batchJob(@Qualifier("batch") ThreadPoolTaskExecutor batch) {
		return (args) -> {
			String thread = batch.submit(() -> Thread.currentThread().getName()).get(30, TimeUnit.SECONDS);
			System.out.println("Batch task ran on " + thread);
		};
	}

}
