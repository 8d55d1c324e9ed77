package io.github.poolpilot.cluster;

/**
 * What one instance's pool asks of the cluster-wide limit: the threads its tuner wants
 * now, and how many of those its load needs (the rest it would keep idle for a while).
 *
 * @param threads the threads it asks for
 * @param needed how many of those its load needs now
 * @author poolpilot authors
 */
public record InstanceDemand(int threads, int needed) {

	public InstanceDemand {
		if (threads < 0 || needed < 0) {
			throw new IllegalArgumentException(
					"a demand must not be negative but was " + threads + " threads, " + needed + " needed");
		}
	}

}
