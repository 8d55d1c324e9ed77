/**
 * Scheduled jobs of the sample, on Spring Boot's {@code taskScheduler}, which poolpilot
 * manages as a pool of its own.
 */
@NullMarked
package io.github.poolpilot.sample.housekeeping;

import org.jspecify.annotations.NullMarked;
