package io.github.poolpilot.testsupport;

import java.lang.reflect.Method;

/**
 * What tests of virtual pools need from the Java 21 API, reached by reflection: the test
 * sources are compiled for Java 17 like the library.
 *
 * @author poolpilot authors
 */
public final class VirtualThreadsSupport {

	private VirtualThreadsSupport() {
	}

	/**
	 * Return whether a thread is virtual.
	 * @param thread the thread
	 * @return whether it is a virtual thread; {@code false} before Java 21
	 */
	public static boolean isVirtual(Thread thread) {
		try {
			Method isVirtual = Thread.class.getMethod("isVirtual");
			return (boolean) isVirtual.invoke(thread);
		}
		catch (NoSuchMethodException ex) {
			return false;
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
