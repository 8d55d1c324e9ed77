/**
 * A managed pool: its name, bounds and size, the one way to resize it within the budget,
 * the registry of all pools and the sampler that closes their measurement windows.
 */
@NullMarked
package io.github.poolpilot.pool;

import org.jspecify.annotations.NullMarked;
