package io.github.poolpilot.autoconfigure;

import org.springframework.context.SmartLifecycle;

import io.github.poolpilot.pool.PoolSampler;

/**
 * Starts the {@link PoolSampler}, and with it the tuner's windows and pulses, when the
 * context starts, after every singleton was created and the pools were fitted to the
 * budget; stops it first when the context stops, before the pools shut down.
 *
 * @author poolpilot authors
 */
final class SamplerLifecycle implements SmartLifecycle {

	private final PoolSampler sampler;

	SamplerLifecycle(PoolSampler sampler) {
		this.sampler = sampler;
	}

	@Override
	public void start() {
		this.sampler.start();
	}

	@Override
	public void stop() {
		this.sampler.close();
	}

	@Override
	public boolean isRunning() {
		return this.sampler.isRunning();
	}

}
