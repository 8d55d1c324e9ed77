/**
 * The sample application that shows poolpilot's managed pools at work.
 */
@NullMarked
package io.github.poolpilot.sample;

import org.jspecify.annotations.NullMarked;
