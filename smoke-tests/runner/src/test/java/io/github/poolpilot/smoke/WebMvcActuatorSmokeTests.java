package io.github.poolpilot.smoke;

/**
 * Spring MVC on Tomcat with Actuator: the shape the getting-started guide builds.
 */
class WebMvcActuatorSmokeTests extends WebApplicationSmokeTests {

	@Override
	Shape shape() {
		return Shape.WEBMVC_ACTUATOR;
	}

}
