/**
 * JMH benchmarks of poolpilot against its baselines; not run by the tests.
 */
@NullMarked
package io.github.poolpilot.benchmarks;

import org.jspecify.annotations.NullMarked;
