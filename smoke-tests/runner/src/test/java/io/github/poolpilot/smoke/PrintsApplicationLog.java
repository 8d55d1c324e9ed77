package io.github.poolpilot.smoke;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.TestAbortedException;

/**
 * Prints a smoke application's whole log, once its test class is done, when any of its
 * checks failed (its start and its stop included): the log says why, the assertion only
 * what.
 */
final class PrintsApplicationLog
		implements TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler, AfterAllCallback {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
		.create(PrintsApplicationLog.class);

	@Override
	public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
		throw failed(context, failure);
	}

	@Override
	public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
		throw failed(context, failure);
	}

	@Override
	public void handleAfterAllMethodExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
		throw failed(context, failure);
	}

	private Throwable failed(ExtensionContext context, Throwable failure) {
		if (failure instanceof TestAbortedException) {
			return failure;
		}
		classContext(context).getStore(NAMESPACE).put("failed", Boolean.TRUE);
		return failure;
	}

	@Override
	public void afterAll(ExtensionContext context) throws IOException {
		if (context.getStore(NAMESPACE).get("failed") == null) {
			return;
		}
		Class<?> tests = context.getRequiredTestClass();
		Shape shape = Arrays.stream(Shape.values())
			.filter((candidate) -> candidate.tests() == tests)
			.findFirst()
			.orElseThrow();
		Path log = SmokeApplication.log(shape);
		if (Files.exists(log)) {
			System.out.printf("%n---- %s failed: its log (%s) ----%n%s---- end of %s's log ----%n%n", shape.id(), log,
					Files.readString(log), shape.id());
		}
	}

	private static ExtensionContext classContext(ExtensionContext context) {
		ExtensionContext current = context;
		while (current.getTestMethod().isPresent()) {
			current = current.getParent().orElseThrow();
		}
		return current;
	}

}
