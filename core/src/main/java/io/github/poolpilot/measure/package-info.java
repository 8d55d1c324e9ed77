/**
 * What a pool's tasks did, counted and timed without locks, and the per-window snapshot
 * with the Little's-law figures derived from it.
 */
@NullMarked
package io.github.poolpilot.measure;

import org.jspecify.annotations.NullMarked;
