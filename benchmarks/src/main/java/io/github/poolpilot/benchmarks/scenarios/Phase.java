package io.github.poolpilot.benchmarks.scenarios;

import java.util.List;

/**
 * A part of a run with one load, reported on its own: a load step of S4, a phase of S5.
 *
 * @param name what the load is, in a few words
 * @param window when it runs
 * @param loadedPools the pools offered work in it
 * @author poolpilot authors
 */
record Phase(String name, Window window, List<String> loadedPools) {

}
