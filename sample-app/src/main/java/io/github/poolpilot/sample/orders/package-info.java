/**
 * The sample's RabbitMQ listener, on with the {@code rabbit} profile: orders taken from a
 * queue by a listener container whose consumers are the managed pool {@code orders}.
 */
@NullMarked
package io.github.poolpilot.sample.orders;

import org.jspecify.annotations.NullMarked;
