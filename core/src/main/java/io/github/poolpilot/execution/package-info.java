/**
 * The executors behind managed pools, on platform or virtual threads, and the wrapper
 * that carries each task's submit time through them.
 */
@NullMarked
package io.github.poolpilot.execution;

import org.jspecify.annotations.NullMarked;
