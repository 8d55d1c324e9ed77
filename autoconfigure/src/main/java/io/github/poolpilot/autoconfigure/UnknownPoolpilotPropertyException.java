package io.github.poolpilot.autoconfigure;

import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * Thrown at start-up when the configuration has {@code poolpilot.*} keys that poolpilot
 * does not have, typos most often.
 *
 * @author poolpilot authors
 */
public class UnknownPoolpilotPropertyException extends RuntimeException {

	private final List<UnknownKey> keys;

	/**
	 * Create a new exception.
	 * @param keys the unknown keys
	 */
	public UnknownPoolpilotPropertyException(List<UnknownKey> keys) {
		super("Unknown poolpilot properties: "
				+ keys.stream().map(UnknownKey::describe).collect(Collectors.joining("; ")));
		this.keys = List.copyOf(keys);
	}

	/**
	 * Return the unknown keys.
	 * @return the keys, in the order they were found
	 */
	public List<UnknownKey> getKeys() {
		return this.keys;
	}

	/**
	 * One unknown key.
	 *
	 * @param property the key as configured
	 * @param origin where it was configured, when known
	 * @param group the known group where the key leaves the known ones
	 * @param element the element the group does not have, or {@code null} when the key is
	 * a group given a value
	 * @param suggestion the nearest known key, when one is close
	 * @param allowed the keys the group has ({@code <name>} standing for any name)
	 */
	public record UnknownKey(String property, @Nullable String origin, String group, @Nullable String element,
			@Nullable String suggestion, List<String> allowed) {

		/**
		 * Say what is wrong, where.
		 * @return the description
		 */
		public String describe() {
			String where = (this.origin != null) ? " (" + this.origin + ")" : "";
			if (this.element == null) {
				return "'" + this.property + "'" + where + " is a group of keys, not a key";
			}
			return "'" + this.property + "'" + where + ": '" + this.group + "' has no key '" + this.element + "'";
		}

		/**
		 * Say what to write instead.
		 * @return the advice
		 */
		public String advice() {
			String keys = "the keys of '" + this.group + "' are " + String.join(", ", this.allowed);
			return (this.suggestion != null) ? "did you mean '" + this.suggestion + "'? (" + keys + ")" : keys;
		}

	}

}
