package io.github.poolpilot.smoke;

/**
 * A shape of application that the smoke tests start: its id (the first column of the
 * table in docs/compatibility.md), the folder of the application that is started, and the
 * test class that checks it.
 */
enum Shape {

	NO_WEB("no-web", "no-web", NoWebSmokeTests.class),

	WEBMVC_ACTUATOR("webmvc-actuator", "webmvc-actuator", WebMvcActuatorSmokeTests.class),

	WEBFLUX_ACTUATOR("webflux-actuator", "webflux-actuator", WebFluxActuatorSmokeTests.class),

	SECURITY("security", "security", SecuritySmokeTests.class),

	SECURITY_DEFAULTS("security-defaults", "security-defaults", SecurityDefaultsSmokeTests.class),

	VIRTUAL_THREADS("virtual-threads", "virtual-threads", VirtualThreadsSmokeTests.class),

	BOOT_4_0("boot-4.0", "boot-4.0", Boot40SmokeTests.class),

	JETTY("jetty", "jetty", JettySmokeTests.class),

	WEBMVC_NO_JACKSON("webmvc-no-jackson", "webmvc-no-jackson", WebMvcNoJacksonSmokeTests.class),

	RABBIT_LISTENER("rabbit-listener", "rabbit-listener", RabbitListenerSmokeTests.class),

	KUBERNETES_ENVIRONMENT("kubernetes-environment", "webmvc-actuator", KubernetesEnvironmentSmokeTests.class);

	private final String id;

	private final String application;

	private final Class<?> tests;

	Shape(String id, String application, Class<?> tests) {
		this.id = id;
		this.application = application;
		this.tests = tests;
	}

	String id() {
		return this.id;
	}

	/**
	 * The folder under smoke-tests/ of the application started for this shape.
	 */
	String application() {
		return this.application;
	}

	Class<?> tests() {
		return this.tests;
	}

}
