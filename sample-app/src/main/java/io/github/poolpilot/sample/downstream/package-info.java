/**
 * The talk API's slow downstream: the HTTP client that calls it, and a stub of it that
 * the application serves itself.
 */
@NullMarked
package io.github.poolpilot.sample.downstream;

import org.jspecify.annotations.NullMarked;
