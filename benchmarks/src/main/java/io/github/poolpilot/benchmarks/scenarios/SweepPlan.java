package io.github.poolpilot.benchmarks.scenarios;

import java.util.function.DoubleUnaryOperator;

/**
 * How the best static size of a one-pool scenario is found: a short run per size under a
 * given load, judged over a window of it.
 *
 * @param sizes the static sizes to try
 * @param seconds how long each short run offers load
 * @param window the seconds of each short run that count
 * @param arrivalRate the load of the short runs, as a function of the second
 * @author poolpilot authors
 */
record SweepPlan(int[] sizes, int seconds, Window window, DoubleUnaryOperator arrivalRate) {

}
