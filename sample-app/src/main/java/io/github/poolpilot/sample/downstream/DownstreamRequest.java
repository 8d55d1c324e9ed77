package io.github.poolpilot.sample.downstream;

/**
 * What the talk API sends its downstream.
 *
 * @param message the message
 * @author poolpilot authors
 */
public record DownstreamRequest(String message) {

}
