/**
 * Spring AMQP's {@code SimpleMessageListenerContainer} consumers as managed pools,
 * measured per message and resized through the pool's one door.
 */
@NullMarked
package io.github.poolpilot.listener.rabbit;

import org.jspecify.annotations.NullMarked;
