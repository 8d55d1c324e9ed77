package io.github.poolpilot.measure;

/**
 * A source of monotonic nanosecond time, injectable so that measurements can be driven by
 * a virtual clock in tests and in the simulator.
 *
 * @author poolpilot authors
 */
@FunctionalInterface
public interface NanoClock {

	/**
	 * The clock of the running JVM, {@link System#nanoTime()}.
	 */
	NanoClock SYSTEM = System::nanoTime;

	/**
	 * Return the current value of this clock, in nanoseconds. Only differences between
	 * two readings are meaningful.
	 * @return the current time in nanoseconds
	 */
	long nanoTime();

}
