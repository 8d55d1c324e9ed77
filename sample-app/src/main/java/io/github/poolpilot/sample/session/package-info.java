/**
 * The start, talk and stop APIs: sessions and their exchanges, written through JDBC, each
 * API's work running on its own pool.
 */
@NullMarked
package io.github.poolpilot.sample.session;

import org.jspecify.annotations.NullMarked;
