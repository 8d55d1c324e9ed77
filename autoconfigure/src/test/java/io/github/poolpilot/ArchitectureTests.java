package io.github.poolpilot;

import java.util.List;
import java.util.stream.IntStream;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures;
import org.junit.jupiter.api.Test;

import io.github.poolpilot.budget.BudgetAllocator;
import io.github.poolpilot.budget.BudgetSizing;
import io.github.poolpilot.budget.ThreadBudget;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.ManagedPool.SizeControl;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The rooms of poolpilot and the doors between them, checked on the compiled classes: the
 * plain-Java rooms (the {@code poolpilot-core} module) import no Spring and no library
 * they do not need, no room depends on another in a cycle, each core room depends only on
 * those below it, the budget's arithmetic stays in its room, and sizes are set only
 * through a pool's one door.
 *
 * @author poolpilot authors
 */
class ArchitectureTests {

	private static final JavaClasses CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		// The core module's test support (its test jar) is no room of the library.
		.withImportOption((location) -> !location.contains("/io/github/poolpilot/testsupport/"))
		.importPackages("io.github.poolpilot");

	private static final String[] CORE = { "io.github.poolpilot.measure..", "io.github.poolpilot.budget..",
			"io.github.poolpilot.pool..", "io.github.poolpilot.guard..", "io.github.poolpilot.execution..",
			"io.github.poolpilot.tuning..", "io.github.poolpilot.history..", "io.github.poolpilot.cluster.." };

	@Test
	void thePlainJavaRoomsImportNoSpringAndNoMetricsOrResilienceLibrary() {
		ArchRule rule = noClasses().that()
			.resideInAnyPackage(CORE)
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework..", "io.micrometer..", "io.github.resilience4j..", "jakarta..");
		rule.check(CLASSES);
	}

	@Test
	void theRoomsHaveNoCycles() {
		slices().matching("io.github.poolpilot.(*)..").should().beFreeOfCycles().check(CLASSES);
	}

	@Test
	void eachCoreRoomDependsOnlyOnTheRoomsBelowIt() {
		Architectures.layeredArchitecture()
			.consideringOnlyDependenciesInAnyPackage("io.github.poolpilot..")
			.layer("measure")
			.definedBy("io.github.poolpilot.measure..")
			.layer("budget")
			.definedBy("io.github.poolpilot.budget..")
			.layer("pool")
			.definedBy("io.github.poolpilot.pool..")
			.layer("guard")
			.definedBy("io.github.poolpilot.guard..")
			.layer("execution")
			.definedBy("io.github.poolpilot.execution..")
			.layer("schedule")
			.definedBy("io.github.poolpilot.schedule..")
			.layer("tuning")
			.definedBy("io.github.poolpilot.tuning..")
			.layer("history")
			.definedBy("io.github.poolpilot.history..")
			.layer("cluster")
			.definedBy("io.github.poolpilot.cluster..")
			.layer("spring")
			.definedBy("io.github.poolpilot.autoconfigure..", "io.github.poolpilot.actuate..",
					"io.github.poolpilot.metrics..", "io.github.poolpilot.web..", "io.github.poolpilot.webserver..",
					"io.github.poolpilot.grpc..", "io.github.poolpilot.task..", "io.github.poolpilot.resilience..",
					"io.github.poolpilot.ui..", "io.github.poolpilot.redis..", "io.github.poolpilot.listener..",
					"io.github.poolpilot.scheduling..")
			.whereLayer("spring")
			.mayNotBeAccessedByAnyLayer()
			.whereLayer("history")
			.mayOnlyBeAccessedByLayers("spring")
			.whereLayer("cluster")
			.mayOnlyBeAccessedByLayers("spring")
			.whereLayer("tuning")
			.mayOnlyBeAccessedByLayers("history", "spring")
			.whereLayer("execution")
			.mayOnlyBeAccessedByLayers("spring")
			.whereLayer("schedule")
			.mayOnlyBeAccessedByLayers("spring")
			.whereLayer("guard")
			.mayOnlyBeAccessedByLayers("execution", "spring")
			.whereLayer("pool")
			.mayOnlyBeAccessedByLayers("guard", "execution", "schedule", "tuning", "history", "cluster", "spring")
			.whereLayer("budget")
			.mayOnlyBeAccessedByLayers("pool", "tuning", "cluster", "spring")
			.whereLayer("measure")
			.mayOnlyBeAccessedByLayers("pool", "guard", "execution", "schedule", "tuning", "history", "cluster",
					"spring")
			.check(CLASSES);
	}

	@Test
	void theWebServerRoomKnowsNoServerAndEachServerAdapterNoOther() {
		noClasses().that()
			.resideInAPackage("io.github.poolpilot.webserver")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.apache.catalina..", "org.apache.coyote..", "org.apache.tomcat..",
					"org.eclipse.jetty..", "io.github.poolpilot.webserver.tomcat..",
					"io.github.poolpilot.webserver.jetty..")
			.check(CLASSES);
		noClasses().that()
			.resideInAPackage("io.github.poolpilot.webserver.tomcat..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.eclipse.jetty..", "io.github.poolpilot.webserver.jetty..")
			.check(CLASSES);
		noClasses().that()
			.resideInAPackage("io.github.poolpilot.webserver.jetty..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.apache.catalina..", "org.apache.coyote..", "org.apache.tomcat..",
					"io.github.poolpilot.webserver.tomcat..")
			.check(CLASSES);
	}

	@Test
	void theBudgetsArithmeticLivesInTheBudgetRoom() {
		noClasses().that()
			.resideOutsideOfPackages("io.github.poolpilot.budget..", "io.github.poolpilot.cluster..")
			.should()
			.callMethod(BudgetAllocator.class, "allocate", List.class, int.class)
			.orShould()
			.callMethod(BudgetSizing.class, "share", int.class, int.class, int.class)
			.orShould()
			.callMethod(BudgetSizing.class, "maxThreads", Integer.class, IntStream.class)
			.because("shares, floors, what a pool may have now and how threads are counted have one owner, "
					+ "the budget room; the cluster's leases reuse its water-filling")
			.check(CLASSES);
		noClasses().that()
			.resideOutsideOfPackages("io.github.poolpilot.budget..", "io.github.poolpilot.actuate..",
					"io.github.poolpilot.metrics..", "io.github.poolpilot.ui..")
			.should()
			.callMethod(ThreadBudget.class, "maxThreads")
			.orShould()
			.callMethod(ThreadBudget.class, "getConfiguredMaxThreads")
			.orShould()
			.callMethod(ThreadBudget.class, "allocatedThreads")
			.orShould()
			.callMethod(ThreadBudget.class, "liveThreads")
			.orShould()
			.callMethod(ThreadBudget.class, "lendableThreads")
			.because("outside the budget room its figures are shown, never computed with")
			.check(CLASSES);
	}

	@Test
	void sizesAreSetOnlyThroughAPoolsOneDoor() {
		noClasses().that()
			.doNotBelongToAnyOf(ManagedPool.class)
			.should()
			.callMethod(SizeControl.class, "setCorePoolSize", int.class)
			.orShould()
			.callMethod(SizeControl.class, "setMaximumPoolSize", int.class)
			.because("every size change goes through ManagedPool.resize, which checks the bounds and the budget")
			.check(CLASSES);
	}

}
