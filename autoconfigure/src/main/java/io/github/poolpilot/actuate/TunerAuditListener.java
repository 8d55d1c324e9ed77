package io.github.poolpilot.actuate;

import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.tuning.Decision;
import io.github.poolpilot.tuning.Tuner;
import io.github.poolpilot.tuning.TuningMode;

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
	public void resized(ManagedPool pool, Decision decision) {
		this.events.publishEvent(PoolChangeAudit.event(PRINCIPAL, pool.getName(), decision.from(), decision.from(),
				decision.to(), decision.to(), TuningMode.AUTO, decision.reason()));
	}

}
