/**
 * A scheduler's pool under management: its runs measured against when they were due.
 */
@NullMarked
package io.github.poolpilot.schedule;

import org.jspecify.annotations.NullMarked;
