package io.github.poolpilot.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;

import org.springframework.boot.test.context.FilteredClassLoader;

/**
 * The class path of an application without some dependencies. A
 * {@link FilteredClassLoader} alone hides a class from condition evaluation only:
 * poolpilot's classes, loaded by its parent, still see every type they name, so a bean
 * method whose signature names a missing type would pass. This loader defines poolpilot's
 * classes again itself, so that every type they name is looked up here, where the hidden
 * packages are missing, as in the application.
 *
 * @author poolpilot authors
 */
final class ClassPathWithout extends FilteredClassLoader {

	private static final String POOLPILOT = "io.github.poolpilot.";

	private final List<String> hidden;

	/**
	 * Hide the classes of some packages.
	 * @param packages the packages' names, such as
	 * {@code org.springframework.web.servlet}
	 */
	ClassPathWithout(String... packages) {
		super(packages);
		this.hidden = Arrays.asList(packages);
	}

	@Override
	protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
		if (!name.startsWith(POOLPILOT)) {
			return super.loadClass(name, resolve);
		}
		synchronized (getClassLoadingLock(name)) {
			Class<?> loaded = findLoadedClass(name);
			if (loaded == null) {
				loaded = define(name);
			}
			if (resolve) {
				resolveClass(loaded);
			}
			return loaded;
		}
	}

	private Class<?> define(String name) throws ClassNotFoundException {
		try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
			if (in == null) {
				throw new ClassNotFoundException(name);
			}
			byte[] bytes = in.readAllBytes();
			return defineClass(name, bytes, 0, bytes.length);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Load a class as the application sees it.
	 * @param name the class's name
	 * @return the class, or {@code null} when it is hidden or missing
	 */
	Class<?> find(String name) {
		try {
			return Class.forName(name, false, this);
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return null;
		}
	}

	@Override
	public String toString() {
		return "a class path without " + this.hidden;
	}

}
