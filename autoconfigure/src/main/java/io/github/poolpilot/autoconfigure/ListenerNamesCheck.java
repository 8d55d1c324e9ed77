package io.github.poolpilot.autoconfigure;

import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.poolpilot.listener.ListenerPools;

import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextRefreshedEvent;

/**
 * Once the listener containers of every broker are managed (the context refreshed, its
 * lifecycle started), warns about {@code poolpilot.listeners.<name>} keys that name no
 * container: a misspelt id would otherwise leave its container on its own settings
 * without a word. Each broker's pools see only their own containers, so the names are
 * gathered here from all of them.
 *
 * @author poolpilot authors
 */
final class ListenerNamesCheck implements ApplicationListener<ContextRefreshedEvent> {

	private static final Log logger = LogFactory.getLog(ListenerNamesCheck.class);

	private final ApplicationContext context;

	ListenerNamesCheck(ApplicationContext context) {
		this.context = context;
	}

	@Override
	public void onApplicationEvent(ContextRefreshedEvent event) {
		if (event.getApplicationContext() != this.context) {
			return;
		}
		List<String> containers = this.context.getBeansOfType(ListenerPools.class, false, false)
			.values()
			.stream()
			.<String>flatMap((pools) -> pools.containerNames().stream())
			.sorted()
			.toList();
		ExistingExecutorsBinding
			.unmatchedNames(this.context.getEnvironment(), ListenersBinding.PREFIX_NAME, ListenersBinding.GLOBAL_KEYS,
					containers)
			.forEach((name) -> logger.warn("'" + name + "' configures no listener container: none has that id or "
					+ "bean name. The listener containers are " + containers + "."));
	}

}
