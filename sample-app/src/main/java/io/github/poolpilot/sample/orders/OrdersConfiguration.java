package io.github.poolpilot.sample.orders;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import io.github.poolpilot.sample.SampleProperties;

import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Orders taken from the queue {@value #QUEUE} by the listener {@code orders}, whose
 * consumers poolpilot manages as the pool {@code orders}; {@code POST /orders?count=N}
 * puts N orders on the queue. On only with {@code sample.orders.enabled=true} (the
 * {@code rabbit} profile), as it needs a RabbitMQ broker: without one the sample starts
 * as before.
 *
 * @author poolpilot authors
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty("sample.orders.enabled")
public class OrdersConfiguration {

	static final String QUEUE = "poolpilot-sample-orders";

	@Bean
	Queue ordersQueue() {
		return new Queue(QUEUE, false);
	}

	@Bean
	OrdersListener ordersListener(SampleProperties properties) {
		return new OrdersListener(properties.getOrders().getServiceTime());
	}

	/**
	 * Handles each order in the given time, as a call to a slow service would.
	 */
	static class OrdersListener {

		private final Duration serviceTime;

		private final AtomicLong handled = new AtomicLong();

		OrdersListener(Duration serviceTime) {
			this.serviceTime = serviceTime;
		}

		@RabbitListener(id = "orders", queues = QUEUE)
		void onOrder(String order) throws InterruptedException {
			Thread.sleep(this.serviceTime.toMillis());
			this.handled.incrementAndGet();
		}

		long handled() {
			return this.handled.get();
		}

	}

	/**
	 * Puts orders on the queue; found by the component scan, under the same condition.
	 */
	@RestController
	@ConditionalOnBooleanProperty("sample.orders.enabled")
	static class OrdersController {

		private final RabbitTemplate template;

		OrdersController(RabbitTemplate template) {
			this.template = template;
		}

		@PostMapping("/orders")
		String publish(@RequestParam(defaultValue = "1") int count) {
			IntStream.range(0, count).forEach((i) -> this.template.convertAndSend("", QUEUE, "order-" + i));
			return count + " orders queued\n";
		}

	}

}
