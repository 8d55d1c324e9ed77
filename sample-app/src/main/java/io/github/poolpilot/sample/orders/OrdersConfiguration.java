package io.github.poolpilot.sample.orders;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import io.github.poolpilot.sample.SampleProperties;
import io.github.poolpilot.sample.downstream.DownstreamStub;

import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Orders taken from the queue {@value #QUEUE} by the listener {@code orders}, whose
 * consumers poolpilot manages as the pool {@code orders}, and handed to a downstream that
 * serves {@code sample.orders.downstream-capacity} at once; {@code POST /orders?count=N}
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
		return new OrdersListener(new DownstreamStub(properties.getOrders().getServiceTime(),
				properties.getOrders().getDownstreamCapacity(), "sample.orders.service-time",
				"sample.orders.downstream-capacity"));
	}

	/**
	 * Hands each order to a downstream that serves a few at once, each in the orders'
	 * service time, the others waiting in line: a consumer waits for its order's call to
	 * be served, so consumers beyond the downstream's capacity bring no more throughput.
	 */
	static class OrdersListener implements AutoCloseable {

		private static final Duration CALL_TIMEOUT = Duration.ofMinutes(1);

		private final DownstreamStub downstream;

		private final AtomicLong handled = new AtomicLong();

		private final Set<String> seen = ConcurrentHashMap.newKeySet();

		OrdersListener(DownstreamStub downstream) {
			this.downstream = downstream;
		}

		@RabbitListener(id = "orders", queues = QUEUE)
		void onOrder(String order) throws InterruptedException, ExecutionException, TimeoutException {
			this.downstream.call().get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			this.seen.add(order);
			this.handled.incrementAndGet();
		}

		long handled() {
			return this.handled.get();
		}

		long distinct() {
			return this.seen.size();
		}

		@Override
		public void close() {
			this.downstream.close();
		}

	}

	/**
	 * Puts orders on the queue, each with a name no other run of the sample gives, and
	 * counts them; found by the component scan, under the same condition.
	 */
	@RestController
	@ConditionalOnBooleanProperty("sample.orders.enabled")
	static class OrdersController {

		private final RabbitTemplate template;

		private final OrdersListener listener;

		private final String run = Long.toString(System.currentTimeMillis(), 36);

		private final AtomicLong published = new AtomicLong();

		OrdersController(RabbitTemplate template, OrdersListener listener) {
			this.template = template;
			this.listener = listener;
		}

		@PostMapping("/orders")
		String publish(@RequestParam(defaultValue = "1") int count) {
			IntStream.range(0, count)
				.forEach((i) -> this.template.convertAndSend("", QUEUE,
						"order-" + this.run + "-" + this.published.incrementAndGet()));
			return count + " orders queued\n";
		}

		/**
		 * Return how many orders this run of the sample put on the queue, how many the
		 * listener handled (with those an earlier run left on the queue) and how many of
		 * those were different orders: one handled twice counts once.
		 * @return the counts
		 */
		@GetMapping("/orders")
		OrderCounts counts() {
			return new OrderCounts(this.published.get(), this.listener.handled(), this.listener.distinct());
		}

	}

	/**
	 * The orders put on the queue, handled, and handled once at least.
	 *
	 * @param published the orders put on the queue
	 * @param handled the orders the listener handled
	 * @param distinct the different orders among them
	 */
	public record OrderCounts(long published, long handled, long distinct) {

	}

}
