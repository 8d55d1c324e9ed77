package io.github.poolpilot.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for poolpilot's live page of the pools.
 *
 * @author poolpilot authors
 */
@ConfigurationProperties("poolpilot.ui")
public class PoolpilotUiProperties {

	/**
	 * Whether to serve the live page of the pools (and keep their last ten minutes for
	 * it) while the threadpools endpoint is exposed over HTTP.
	 */
	private boolean enabled = true;

	/**
	 * Path of the live page, on the management server when it has a port of its own.
	 */
	private String path = "/poolpilot";

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getPath() {
		return this.path;
	}

	public void setPath(String path) {
		this.path = path;
	}

}
