/**
 * The {@code threadpools} Actuator endpoint: every managed pool's sizes, counts and
 * Little's-law figures, and its size changed at runtime.
 */
@NullMarked
package io.github.poolpilot.actuate;

import org.jspecify.annotations.NullMarked;
