package io.github.poolpilot.smoke.rabbit;

import java.util.concurrent.atomic.AtomicInteger;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.amqp.rabbit.annotation.Queue;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Spring MVC with Actuator and one {@code @RabbitListener}, whose consumers are the
 * managed pool "orders"; {@code POST /orders} sends it a message.
 */
@SpringBootApplication
public class RabbitListenerApplication {

	/**
	 * The listener's queue, left to the broker to delete once the application is gone.
	 */
	static final String QUEUE = "poolpilot-smoke-orders";

	public static void main(String[] args) {
		SpringApplication.run(RabbitListenerApplication.class, args);
	}

	@Component
	public static class Orders {

		private static final Log logger = LogFactory.getLog(Orders.class);

		@RabbitListener(id = "orders", queuesToDeclare = @Queue(name = QUEUE, durable = "false", autoDelete = "true"))
		public void handle(String order) {
			logger.info("Handled " + order + " on " + Thread.currentThread().getName());
		}

	}

	@RestController
	public static class OrderController {

		private final AtomicInteger sent = new AtomicInteger();

		private final RabbitTemplate rabbit;

		public OrderController(RabbitTemplate rabbit) {
			this.rabbit = rabbit;
		}

		@PostMapping("/orders")
		public String send() {
			String order = "order-" + this.sent.incrementAndGet();
			this.rabbit.convertAndSend("", QUEUE, order);
			return order;
		}

	}

}
