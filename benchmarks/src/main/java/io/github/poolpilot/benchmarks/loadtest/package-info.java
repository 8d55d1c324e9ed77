/**
 * Figures and plots of the sample application's load test, read from the CSV files its
 * script writes.
 */
@NullMarked
package io.github.poolpilot.benchmarks.loadtest;

import org.jspecify.annotations.NullMarked;
