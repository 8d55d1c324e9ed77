package io.github.poolpilot.autoconfigure;

import org.junit.jupiter.api.Test;

import static io.github.poolpilot.autoconfigure.ClasspathMatrixTests.ENDPOINT;
import static io.github.poolpilot.autoconfigure.ClasspathMatrixTests.METERS;
import static io.github.poolpilot.autoconfigure.ClasspathMatrixTests.plain;
import static io.github.poolpilot.autoconfigure.ClasspathMatrixTests.servlet;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The classpath matrix's case for Spring Boot's gRPC server (see
 * {@link ClasspathMatrixTests}): without it the gRPC pool steps aside and enabling it is
 * refused; with it the pool is there. A class of its own so that the compatibility run on
 * Spring Boot 4.0, which has no gRPC server, can leave it out with the other gRPC tests.
 *
 * @author poolpilot authors
 */
class GrpcClasspathMatrixTests {

	private static final String[] GRPC = { "io.grpc", "org.springframework.grpc", "org.springframework.boot.grpc" };

	private static final String GRPC_POOL = "poolpilotGrpcPool";

	private static final String GRPC_EXECUTOR = "poolpilotGrpcServerExecutorProvider";

	@Test
	void withoutGrpcItsPoolStepsAsideAndEnablingItIsRefused() {
		ClassPathWithout classPath = new ClassPathWithout(GRPC);
		servlet(classPath).run((context) -> assertThat(context).hasNotFailed()
			.hasBean("work")
			.hasBean(ENDPOINT)
			.hasBean(METERS)
			.doesNotHaveBean(GRPC_POOL));
		servlet(classPath).withPropertyValues("poolpilot.grpc-server.enabled=true")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("poolpilot.grpc-server.enabled")
				.hasMessageContaining("spring-boot-starter-grpc-server"));
		plain(new ClassPathWithout()).withPropertyValues("poolpilot.grpc-server.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed().hasBean(GRPC_POOL).hasBean(GRPC_EXECUTOR));
	}

}
