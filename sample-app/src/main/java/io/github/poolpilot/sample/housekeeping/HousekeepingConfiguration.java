package io.github.poolpilot.sample.housekeeping;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * Turns on scheduling, and with it Spring Boot's {@code taskScheduler}, unless
 * {@code sample.housekeeping.enabled=false}.
 *
 * @author poolpilot authors
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
@ConditionalOnBooleanProperty(name = "sample.housekeeping.enabled", matchIfMissing = true)
class HousekeepingConfiguration {

}
