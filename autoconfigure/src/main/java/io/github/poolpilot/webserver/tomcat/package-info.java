/**
 * Tomcat's request executor as the managed pool {@code http}: its own executor, created
 * by its endpoint and resized through the endpoint's setters.
 */
@NullMarked
package io.github.poolpilot.webserver.tomcat;

import org.jspecify.annotations.NullMarked;
