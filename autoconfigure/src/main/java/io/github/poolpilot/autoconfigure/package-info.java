/**
 * Auto-configuration for poolpilot: the pools declared under {@code poolpilot.pools}, the
 * registry they join and the sampler that measures them.
 */
@NullMarked
package io.github.poolpilot.autoconfigure;

import org.jspecify.annotations.NullMarked;
