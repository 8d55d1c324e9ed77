/**
 * The managed executor and its measurements (counts, latency distributions, CPU time and
 * the Little's-law figures derived from them), in plain Java with no Spring dependency.
 */
@NullMarked
package io.github.poolpilot.core;

import org.jspecify.annotations.NullMarked;
