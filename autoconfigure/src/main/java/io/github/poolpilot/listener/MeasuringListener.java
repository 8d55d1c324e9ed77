package io.github.poolpilot.listener;

import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.PoolRecorder;

import org.springframework.aop.framework.ProxyFactory;

/**
 * Measures each delivery a container hands its listener, the way Spring's {@code @Async}
 * advice wraps methods: the listener is proxied on the interfaces it has (so that the
 * container still sees a batch, acknowledging or channel-aware listener as one), and each
 * call of one of its delivery methods is one task of the pool, arriving when the consumer
 * delivers it and served until the listener returns. A batch is one task.
 *
 * @author poolpilot authors
 */
final class MeasuringListener implements MethodInterceptor {

	private final Set<String> deliveries;

	private final PoolRecorder recorder;

	private final AtomicInteger handling;

	private MeasuringListener(Set<String> deliveries, PoolRecorder recorder, AtomicInteger handling) {
		this.deliveries = deliveries;
		this.recorder = recorder;
		this.handling = handling;
	}

	/**
	 * Return the listener measured.
	 * @param <T> the type the container expects of its listener
	 * @param listener the container's listener
	 * @param type the type the container expects of its listener, which it has
	 * @param deliveries the names of the methods the container delivers through, such as
	 * {@code onMessage}
	 * @param recorder the recorder of its pool
	 * @param handling the count of deliveries being handled, updated here
	 * @return a proxy with the listener's interfaces
	 */
	static <T> T measure(T listener, Class<T> type, Set<String> deliveries, PoolRecorder recorder,
			AtomicInteger handling) {
		ProxyFactory factory = new ProxyFactory(listener);
		factory.addAdvice(new MeasuringListener(deliveries, recorder, handling));
		return type.cast(factory.getProxy(listener.getClass().getClassLoader()));
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		if (!this.deliveries.contains(invocation.getMethod().getName())) {
			return invocation.proceed();
		}
		PoolRecorder recorder = this.recorder;
		recorder.taskSubmitted();
		this.handling.incrementAndGet();
		try {
			if (!recorder.timesThisTask()) {
				return untimed(invocation);
			}
			long startedAt = recorder.now();
			long cpuStart = recorder.cpuSampleStart();
			boolean failed = true;
			try {
				Object result = invocation.proceed();
				failed = false;
				return result;
			}
			finally {
				recorder.timedTaskFinished(startedAt, startedAt, cpuStart, failed);
			}
		}
		finally {
			this.handling.decrementAndGet();
		}
	}

	private @Nullable Object untimed(MethodInvocation invocation) throws Throwable {
		boolean failed = true;
		try {
			Object result = invocation.proceed();
			failed = false;
			return result;
		}
		finally {
			this.recorder.untimedTaskFinished(failed);
		}
	}

}
