/**
 * The embedded web server's request threads as the managed pool named {@code http}:
 * admitted, measured and refused (503 with Retry-After) whatever server runs them.
 */
@NullMarked
package io.github.poolpilot.webserver;

import org.jspecify.annotations.NullMarked;
