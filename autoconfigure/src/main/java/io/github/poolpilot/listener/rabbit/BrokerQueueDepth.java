package io.github.poolpilot.listener.rabbit;

import java.util.Properties;

import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.listener.SimpleMessageListenerContainer;

/**
 * Reads how many messages wait on a container's queues, as the broker reports them: the
 * ready messages of each queue, summed. Messages delivered to a consumer and not yet
 * acknowledged (its prefetch) are not among them.
 *
 * @author poolpilot authors
 */
final class BrokerQueueDepth {

	private final SimpleMessageListenerContainer container;

	private final RabbitAdmin admin;

	BrokerQueueDepth(SimpleMessageListenerContainer container) {
		this.container = container;
		this.admin = new RabbitAdmin(container.getConnectionFactory());
	}

	/**
	 * Return the messages ready on the container's queues.
	 * @return their number, or -1 when the broker could not tell (a queue is missing or
	 * the broker cannot be reached)
	 */
	int read() {
		long depth = 0;
		for (String queue : this.container.getQueueNames()) {
			Properties properties = this.admin.getQueueProperties(queue);
			Object count = (properties != null) ? properties.get(RabbitAdmin.QUEUE_MESSAGE_COUNT) : null;
			if (!(count instanceof Number number)) {
				return -1;
			}
			depth += number.longValue();
		}
		return (int) Math.min(Integer.MAX_VALUE, depth);
	}

}
