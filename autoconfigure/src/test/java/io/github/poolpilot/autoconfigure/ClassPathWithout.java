package io.github.poolpilot.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Enumeration;
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

	private final List<String> hiddenPaths;

	private final List<String> hiddenJars;

	/**
	 * Hide the classes of some packages.
	 * @param packages the packages' names, such as
	 * {@code org.springframework.web.servlet}
	 */
	ClassPathWithout(String... packages) {
		super(packages);
		this.hidden = Arrays.asList(packages);
		this.hiddenPaths = this.hidden.stream().map((name) -> name.replace('.', '/') + "/").toList();
		this.hiddenJars = jars(getParent(), this.hiddenPaths);
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
	 * The jars that hold the hidden packages: what else they hold (their
	 * {@code META-INF/spring} lists) is hidden too.
	 */
	private static List<String> jars(ClassLoader parent, List<String> paths) {
		List<String> jars = new ArrayList<>();
		for (String path : paths) {
			try {
				for (URL url : Collections.list(parent.getResources(path))) {
					String location = url.toString();
					if (location.startsWith("jar:") && location.contains("!/")) {
						jars.add(location.substring(0, location.indexOf("!/") + 2));
					}
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return jars;
	}

	@Override
	public URL getResource(String name) {
		URL url = isHidden(name) ? null : super.getResource(name);
		return (url != null && !isHidden(url)) ? url : null;
	}

	@Override
	public Enumeration<URL> getResources(String name) throws IOException {
		if (isHidden(name)) {
			return Collections.emptyEnumeration();
		}
		return Collections
			.enumeration(Collections.list(super.getResources(name)).stream().filter((url) -> !isHidden(url)).toList());
	}

	@Override
	public InputStream getResourceAsStream(String name) {
		URL url = getResource(name);
		try {
			return (url != null) ? url.openStream() : null;
		}
		catch (IOException ex) {
			return null;
		}
	}

	private boolean isHidden(String name) {
		return this.hiddenPaths.stream().anyMatch(name::startsWith);
	}

	private boolean isHidden(URL url) {
		String location = url.toString();
		return this.hiddenJars.stream().anyMatch(location::startsWith);
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
