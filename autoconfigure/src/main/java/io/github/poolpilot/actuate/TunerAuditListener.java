package io.github.poolpilot.actuate;

import java.util.LinkedHashMap;
import java.util.Map;

import io.github.poolpilot.core.ManagedPool;
import io.github.poolpilot.tuning.Tuner;

import org.springframework.boot.actuate.audit.listener.AuditApplicationEvent;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Publishes every resize the tuner makes as an Actuator audit event, of the same type as
 * a change made through the endpoint, with the tuner as its principal.
 *
 * @author poolpilot authors
 */
public class TunerAuditListener implements Tuner.ResizeListener {

	/**
	 * The principal of the tuner's audit events.
	 */
	public static final String PRINCIPAL = "poolpilot-tuner";

	private final ApplicationEventPublisher events;

	public TunerAuditListener(ApplicationEventPublisher events) {
		this.events = events;
	}

	@Override
	public void resized(ManagedPool pool, int from, int to, String reason) {
		Map<String, Object> data = new LinkedHashMap<>();
		data.put("pool", pool.getName());
		data.put("from", Map.of("corePoolSize", from, "maxPoolSize", from));
		data.put("to", Map.of("corePoolSize", to, "maxPoolSize", to));
		data.put("tuning", pool.getTuningMode().value());
		data.put("reason", reason);
		this.events.publishEvent(new AuditApplicationEvent(PRINCIPAL, ThreadPoolsEndpoint.AUDIT_EVENT_TYPE, data));
	}

}
