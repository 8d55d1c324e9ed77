/**
 * The tuner: deciding each pool's size from its measurements, in plain Java with an
 * injectable clock so that it can be driven on virtual time.
 */
@NullMarked
package io.github.poolpilot.tuning;

import org.jspecify.annotations.NullMarked;
