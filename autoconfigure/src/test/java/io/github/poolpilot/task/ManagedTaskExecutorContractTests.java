package io.github.poolpilot.task;

/**
 * The contract run against a declared pool, a {@link ManagedTaskExecutor} on platform
 * threads. The deliberate differences it shares with the virtual pool are pinned in
 * {@link ManagedTaskExecutorContract}.
 *
 * @author poolpilot authors
 */
class ManagedTaskExecutorContractTests extends ManagedTaskExecutorContract {

}
