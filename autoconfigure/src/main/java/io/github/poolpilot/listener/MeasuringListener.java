package io.github.poolpilot.listener.rabbit;

import java.util.concurrent.atomic.AtomicInteger;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.PoolRecorder;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.amqp.core.MessageListener;

/**
 * Measures each delivery a container hands its listener, the way Spring's {@code @Async}
 * advice wraps methods: the listener is proxied on the interfaces it has (so that the
 * container still sees a batch or channel-aware listener as one), and each call of
 * {@code onMessage} or {@code onMessageBatch} is one task of the pool, arriving when the
 * consumer delivers it and served until the listener returns. A batch is one task.
 *
 * @author poolpilot authors
 */
final class MeasuringListenerInterceptor implements MethodInterceptor {

	private final PoolRecorder recorder;

	private final AtomicInteger handling;

	private MeasuringListenerInterceptor(PoolRecorder recorder, AtomicInteger handling) {
		this.recorder = recorder;
		this.handling = handling;
	}

	/**
	 * Return the listener measured.
	 * @param listener the container's listener
	 * @param recorder the recorder of its pool
	 * @param handling the count of deliveries being handled, updated here
	 * @return a proxy with the listener's interfaces
	 */
	static MessageListener measure(MessageListener listener, PoolRecorder recorder, AtomicInteger handling) {
		ProxyFactory factory = new ProxyFactory(listener);
		factory.addAdvice(new MeasuringListenerInterceptor(recorder, handling));
		return (MessageListener) factory.getProxy(listener.getClass().getClassLoader());
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		String method = invocation.getMethod().getName();
		if (!method.equals("onMessage") && !method.equals("onMessageBatch")) {
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
