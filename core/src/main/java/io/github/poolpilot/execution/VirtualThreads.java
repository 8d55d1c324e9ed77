package io.github.poolpilot.execution;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ThreadFactory;

import org.jspecify.annotations.Nullable;

/**
 * Makes virtual threads when the running JVM has them (Java 21 or later) while the
 * library stays Java 17 bytecode: {@code Thread.ofVirtual().name(prefix, 1).factory()}
 * and {@code Thread.ofVirtual().name(name).factory()} are looked up once through method
 * handles, so nothing refers to the Java 21 API at compile time.
 *
 * @author poolpilot authors
 */
final class VirtualThreads {

	/**
	 * The first Java release whose virtual threads are not a preview feature.
	 */
	static final int FIRST_RELEASE = 21;

	private static final @Nullable MethodHandle FACTORY = lookUpFactory(true);

	private static final @Nullable MethodHandle NAMED_FACTORY = lookUpFactory(false);

	private VirtualThreads() {
	}

	/**
	 * Return whether this JVM can run virtual threads.
	 * @return whether the running Java is 21 or later
	 */
	static boolean isSupported() {
		return FACTORY != null;
	}

	/**
	 * Return a factory of virtual threads named {@code <prefix><n>} from 1.
	 * @param prefix the thread name prefix
	 * @return the factory
	 * @throws UnsupportedOperationException if the JVM is older than Java 21
	 */
	static ThreadFactory factory(String prefix) {
		MethodHandle factory = FACTORY;
		if (factory == null) {
			throw new UnsupportedOperationException(unsupportedMessage());
		}
		try {
			return (ThreadFactory) factory.invoke(prefix, 1L);
		}
		catch (Throwable ex) {
			throw new IllegalStateException("Could not make a factory of virtual threads", ex);
		}
	}

	/**
	 * Return a factory of virtual threads that all carry the same name: unlike a numbered
	 * name, it costs no string per thread.
	 * @param name the threads' name
	 * @return the factory
	 * @throws UnsupportedOperationException if the JVM is older than Java 21
	 */
	static ThreadFactory namedFactory(String name) {
		MethodHandle factory = NAMED_FACTORY;
		if (factory == null) {
			throw new UnsupportedOperationException(unsupportedMessage());
		}
		try {
			return (ThreadFactory) factory.invoke(name);
		}
		catch (Throwable ex) {
			throw new IllegalStateException("Could not make a factory of virtual threads", ex);
		}
	}

	/**
	 * Return why virtual threads cannot be used here, naming the running Java version.
	 * @return the message
	 */
	static String unsupportedMessage() {
		return "Virtual threads need Java " + FIRST_RELEASE + " or later; this JVM is Java " + Runtime.version();
	}

	/**
	 * Return a handle taking a name prefix and a first number ({@code numbered}), or a
	 * name, and returning a thread factory, or {@code null} before Java 21 (on 19 and 20
	 * virtual threads are a preview feature and fail unless previews are enabled).
	 */
	private static @Nullable MethodHandle lookUpFactory(boolean numbered) {
		if (Runtime.version().feature() < FIRST_RELEASE) {
			return null;
		}
		try {
			MethodHandles.Lookup lookup = MethodHandles.publicLookup();
			Class<?> builder = Class.forName("java.lang.Thread$Builder");
			Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
			MethodHandle newBuilder = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtual));
			MethodType nameType = numbered ? MethodType.methodType(ofVirtual, String.class, long.class)
					: MethodType.methodType(ofVirtual, String.class);
			MethodHandle name = lookup.findVirtual(ofVirtual, "name", nameType);
			MethodHandle factory = lookup.findVirtual(builder, "factory", MethodType.methodType(ThreadFactory.class));
			// (prefix, start) -> Thread.ofVirtual().name(prefix, start).factory(), or
			// (name) -> Thread.ofVirtual().name(name).factory()
			MethodHandle named = MethodHandles.foldArguments(name, newBuilder);
			return MethodHandles.filterReturnValue(named,
					factory.asType(MethodType.methodType(ThreadFactory.class, ofVirtual)));
		}
		catch (ReflectiveOperationException ex) {
			return null;
		}
	}

}
