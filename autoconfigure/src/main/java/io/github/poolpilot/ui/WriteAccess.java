package io.github.poolpilot.ui;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.access.WebInvocationPrivilegeEvaluator;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.util.ClassUtils;

/**
 * Whether the page may offer its controls to the person asking for it: the
 * {@code threadpools} endpoint's write operation is available
 * ({@code management.endpoint.threadpools.access=unrestricted}) and, with Spring
 * Security, the person may POST to it (the same rules the endpoint is protected by). The
 * CSRF token the page must send back with a change, when Spring Security gives one.
 *
 * @author poolpilot authors
 */
final class WriteAccess {

	private static final boolean SECURITY_PRESENT = ClassUtils.isPresent(
			"org.springframework.security.web.access.WebInvocationPrivilegeEvaluator",
			WriteAccess.class.getClassLoader());

	private final EndpointAccessResolver accessResolver;

	private final BeanFactory beanFactory;

	/**
	 * Create a check.
	 * @param accessResolver the endpoints' access as configured
	 * @param beanFactory where Spring Security's {@code WebInvocationPrivilegeEvaluator}
	 * is, when it is there
	 */
	WriteAccess(EndpointAccessResolver accessResolver, BeanFactory beanFactory) {
		this.accessResolver = accessResolver;
		this.beanFactory = beanFactory;
	}

	/**
	 * Return whether the person asking may change a pool through the endpoint.
	 * @param request the page's request
	 * @param poolPath the path of a pool's resource at the endpoint, within the
	 * application's context path
	 * @return whether the controls may be shown
	 */
	boolean allowed(HttpServletRequest request, String poolPath) {
		Access access = this.accessResolver.accessFor(EndpointId.of("threadpools"), Access.READ_ONLY);
		if (access != Access.UNRESTRICTED) {
			return false;
		}
		return !SECURITY_PRESENT || Security.allowed(this.beanFactory, request, poolPath);
	}

	/**
	 * Return the CSRF header and token the page must send with a change.
	 * @param request the page's request
	 * @return the header's name and the token, or {@code null} when there is none
	 */
	String @Nullable [] csrf(HttpServletRequest request) {
		return SECURITY_PRESENT ? Security.csrf(request) : null;
	}

	/**
	 * What needs Spring Security's classes, kept apart so that they are loaded only when
	 * it is there.
	 */
	private static final class Security {

		static boolean allowed(BeanFactory beanFactory, HttpServletRequest request, String poolPath) {
			WebInvocationPrivilegeEvaluator evaluator = beanFactory
				.getBeanProvider(WebInvocationPrivilegeEvaluator.class)
				.getIfUnique();
			if (evaluator == null) {
				return true;
			}
			Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
			return evaluator.isAllowed(request.getContextPath(), poolPath, "POST", authentication);
		}

		static String @Nullable [] csrf(HttpServletRequest request) {
			if (request.getAttribute(CsrfToken.class.getName()) instanceof CsrfToken token) {
				return new String[] { token.getHeaderName(), token.getToken() };
			}
			return null;
		}

	}

}
