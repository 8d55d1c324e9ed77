/**
 * A limit shared by every instance of an application: each instance's lease of a pool's
 * cluster-wide limit, computed from all instances' demands, and what an instance does
 * while it cannot reach the others.
 */
@NullMarked
package io.github.poolpilot.cluster;

import org.jspecify.annotations.NullMarked;
