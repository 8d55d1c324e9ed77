/**
 * The recent past of every pool: a bounded, fixed-size ring per pool of its last minutes
 * of measurement windows and of the tuner's decisions, for the live page and for scripts.
 */
@NullMarked
package io.github.poolpilot.history;

import org.jspecify.annotations.NullMarked;
