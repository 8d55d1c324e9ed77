/**
 * Jetty's requests as the managed pool {@code http}: a handler before the application
 * that admits each request to a number of permits, and Jetty's own thread pool sized
 * around them through its setters.
 */
@NullMarked
package io.github.poolpilot.webserver.jetty;

import org.jspecify.annotations.NullMarked;
