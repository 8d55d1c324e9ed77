/**
 * The A/B harness: a raw pool and the executors compared with it, run in interleaved
 * short JMH runs, each pair judged by whether the raw run of its round was undisturbed.
 */
@NullMarked
package io.github.poolpilot.benchmarks.ab;

import org.jspecify.annotations.NullMarked;
