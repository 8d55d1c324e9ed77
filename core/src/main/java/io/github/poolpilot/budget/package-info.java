/**
 * Sharing the thread budget between pools by weight, in plain Java.
 */
@NullMarked
package io.github.poolpilot.budget;

import org.jspecify.annotations.NullMarked;
