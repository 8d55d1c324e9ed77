package io.github.poolpilot.actuate;

import java.util.LinkedHashMap;
import java.util.Map;

import io.github.poolpilot.tuning.TuningMode;

import org.springframework.boot.actuate.audit.listener.AuditApplicationEvent;

/**
 * The Actuator audit event of a change of a pool's size or mode, whoever made it: a
 * person through the endpoint or the tuner.
 *
 * @author poolpilot authors
 */
final class PoolChangeAudit {

	/**
	 * The audit event type of a pool's change.
	 */
	static final String EVENT_TYPE = "THREAD_POOL_CHANGED";

	private PoolChangeAudit() {
	}

	/**
	 * Return the audit event of a change.
	 * @param principal who made it
	 * @param pool the pool's name
	 * @param fromCore its core size before
	 * @param fromMax its maximum size before
	 * @param toCore its core size after
	 * @param toMax its maximum size after
	 * @param mode its tuning mode after
	 * @param reason why
	 * @return the event
	 */
	static AuditApplicationEvent event(String principal, String pool, int fromCore, int fromMax, int toCore, int toMax,
			TuningMode mode, String reason) {
		Map<String, Object> data = new LinkedHashMap<>();
		data.put("pool", pool);
		data.put("from", Map.of("corePoolSize", fromCore, "maxPoolSize", fromMax));
		data.put("to", Map.of("corePoolSize", toCore, "maxPoolSize", toMax));
		data.put("tuning", mode.value());
		data.put("reason", reason);
		return new AuditApplicationEvent(principal, EVENT_TYPE, data);
	}

}
