package io.github.poolpilot.autoconfigure;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;

import org.springframework.boot.autoconfigure.AutoConfigurationImportSelector;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.context.annotation.Import;
import org.springframework.core.annotation.AnnotationAttributes;
import org.springframework.core.type.AnnotationMetadata;

/**
 * The auto-configurations of {@link ClasspathMatrixTests}'s applications, listed in
 * {@code META-INF/spring/io.github.poolpilot.autoconfigure.MatrixAutoConfigurations.imports}:
 * all of poolpilot's, and those of Spring Boot and Resilience4j that meet them. Those
 * whose jar the class path has are imported by name, filtered and sorted as
 * {@code @EnableAutoConfiguration} does, so that their class-level conditions are read
 * from their bytes, as in an application.
 *
 * @author poolpilot authors
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Import(MatrixAutoConfigurations.Selector.class)
@interface MatrixAutoConfigurations {

	Class<?>[] exclude() default {};

	String[] excludeName() default {};

	/**
	 * Spring Boot's own selector, with the listed candidates that are on the class path.
	 */
	class Selector extends AutoConfigurationImportSelector {

		@Override
		protected Class<?> getAnnotationClass() {
			return MatrixAutoConfigurations.class;
		}

		@Override
		protected List<String> getCandidateConfigurations(AnnotationMetadata metadata,
				AnnotationAttributes attributes) {
			ClassLoader classLoader = getBeanClassLoader();
			return ImportCandidates.load(MatrixAutoConfigurations.class, classLoader)
				.getCandidates()
				.stream()
				.filter((name) -> classLoader.getResource(name.replace('.', '/') + ".class") != null)
				.toList();
		}

	}

}
