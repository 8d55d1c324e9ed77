/**
 * The live page of the pools and its JSON history, served by the application (on the
 * management server when it has a port of its own).
 */
@NullMarked
package io.github.poolpilot.ui;

import org.jspecify.annotations.NullMarked;
