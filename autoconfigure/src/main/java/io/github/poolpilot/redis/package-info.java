/**
 * The cluster's meeting point in Redis: one atomic script per pool and window.
 */
@NullMarked
package io.github.poolpilot.redis;

import org.jspecify.annotations.NullMarked;
