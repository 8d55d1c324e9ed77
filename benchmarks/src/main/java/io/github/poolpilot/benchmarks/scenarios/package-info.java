/**
 * The tuning scenarios S1 to S9 on real threads, with their baselines run side by side:
 * workloads, open-loop arrivals, strategies, and what a run measured.
 */
@NullMarked
package io.github.poolpilot.benchmarks.scenarios;

import org.jspecify.annotations.NullMarked;
