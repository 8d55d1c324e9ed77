/**
 * Message listener containers' consumers as managed pools: what every broker's adapter
 * shares.
 */
@NullMarked
package io.github.poolpilot.listener;

import org.jspecify.annotations.NullMarked;
