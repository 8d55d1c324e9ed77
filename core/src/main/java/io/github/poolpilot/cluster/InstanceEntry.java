package io.github.poolpilot.cluster;

/**
 * One live instance of a pool's cluster as the shared store holds it.
 *
 * @param id the instance's id
 * @param demand the threads it asked for
 * @param needed how many of those its load needed
 * @param lease the threads it may hold: its lease, or more while threads it gave back are
 * still running their tasks
 * @param heartbeatMillis when it last renewed its lease, on the store's clock
 * @author poolpilot authors
 */
public record InstanceEntry(String id, int demand, int needed, int lease, long heartbeatMillis) {

}
