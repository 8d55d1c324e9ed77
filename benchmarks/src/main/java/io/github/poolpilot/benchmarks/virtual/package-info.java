/**
 * Scenarios S2 and S3 with pools on platform threads and on virtual threads, side by side
 * under the same tuner; not run by the tests.
 */
@NullMarked
package io.github.poolpilot.benchmarks.virtual;

import org.jspecify.annotations.NullMarked;
