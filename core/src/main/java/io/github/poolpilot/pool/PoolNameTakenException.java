package io.github.poolpilot.pool;

/**
 * Thrown when a pool joins the registry under a name another pool has.
 *
 * @author poolpilot authors
 */
public class PoolNameTakenException extends IllegalStateException {

	private final String name;

	/**
	 * Create an exception.
	 * @param name the name taken
	 */
	public PoolNameTakenException(String name) {
		super("A pool named '" + name + "' is registered already");
		this.name = name;
	}

	/**
	 * Return the name taken.
	 * @return the pool's name
	 */
	public String getName() {
		return this.name;
	}

}
