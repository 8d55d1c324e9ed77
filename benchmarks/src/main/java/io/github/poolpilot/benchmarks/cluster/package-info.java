/**
 * The documented run of a limit shared by three sample-app instances through Redis: the
 * run itself and its plot.
 */
@NullMarked
package io.github.poolpilot.benchmarks.cluster;

import org.jspecify.annotations.NullMarked;
