package io.github.poolpilot.ui;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import io.github.poolpilot.history.PoolHistory;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.http.HttpStatus;
import org.springframework.util.StreamUtils;
import org.springframework.web.HttpRequestHandler;
import org.springframework.web.util.HtmlUtils;

/**
 * Serves the live page of the pools at {@code poolpilot.ui.path}: the page itself, its
 * script and style, uPlot from its WebJar, and the pools' history as JSON
 * ({@code history.json}, {@code ?after=} epoch milliseconds for what is newer). The page
 * reads the {@code threadpools} endpoint for the present and changes pools through it, so
 * that the endpoint's access and security rules apply to the page's controls too.
 *
 * @author poolpilot authors
 */
public class PoolsPage implements HttpRequestHandler {

	static final String UPLOT = "META-INF/resources/webjars/uplot/1.6.30/dist/";

	private static final Map<String, Asset> ASSETS = Map.of("app.js",
			new Asset("META-INF/poolpilot/ui/app.js", "text/javascript"), "app.css",
			new Asset("META-INF/poolpilot/ui/app.css", "text/css"), "uPlot.iife.min.js",
			new Asset(UPLOT + "uPlot.iife.min.js", "text/javascript"), "uPlot.min.css",
			new Asset(UPLOT + "uPlot.min.css", "text/css"));

	private final String path;

	private final PoolHistory history;

	private final Supplier<String> endpointPath;

	private final WriteAccess writeAccess;

	private final JsonMapper json;

	private final String template;

	private final Map<String, byte[]> assets = new ConcurrentHashMap<>();

	/**
	 * Create the page.
	 * @param path where it is served, such as {@code /poolpilot}
	 * @param history the pools' history
	 * @param endpointPath the {@code threadpools} endpoint's path within the context path
	 * @param accessResolver the endpoints' access as configured
	 * @param beanFactory where Spring Security's rules are, when it is there
	 * @param json how to write JSON
	 */
	public PoolsPage(String path, PoolHistory history, Supplier<String> endpointPath,
			EndpointAccessResolver accessResolver, BeanFactory beanFactory, JsonMapper json) {
		this.path = path;
		this.history = history;
		this.endpointPath = endpointPath;
		this.writeAccess = new WriteAccess(accessResolver, beanFactory);
		this.json = json;
		this.template = new String(read("META-INF/poolpilot/ui/index.html"), StandardCharsets.UTF_8);
	}

	@Override
	public void handleRequest(HttpServletRequest request, HttpServletResponse response) throws IOException {
		String uri = request.getRequestURI();
		String within = uri.substring(Math.min(uri.length(), request.getContextPath().length()));
		if (within.equals(this.path)) {
			response.sendRedirect(uri + "/");
			return;
		}
		String name = within.substring(within.lastIndexOf('/') + 1);
		if (name.isEmpty()) {
			page(request, response);
		}
		else if (name.equals("history.json")) {
			history(request, response);
		}
		else if (ASSETS.containsKey(name)) {
			Asset asset = ASSETS.get(name);
			response.setContentType(asset.contentType() + ";charset=UTF-8");
			response.setHeader("Cache-Control", "max-age=3600");
			response.getOutputStream().write(this.assets.computeIfAbsent(name, (key) -> read(asset.location())));
		}
		else {
			response.sendError(HttpStatus.NOT_FOUND.value());
		}
	}

	private void page(HttpServletRequest request, HttpServletResponse response) throws IOException {
		String endpoint = this.endpointPath.get();
		boolean writable = this.writeAccess.allowed(request, endpoint + "/any");
		String[] csrf = writable ? this.writeAccess.csrf(request) : null;
		String html = this.template.replace("{{endpoint}}", escape(request.getContextPath() + endpoint))
			.replace("{{writable}}", Boolean.toString(writable))
			.replace("{{csrfHeader}}", escape((csrf != null) ? csrf[0] : ""))
			.replace("{{csrfToken}}", escape((csrf != null) ? csrf[1] : ""));
		response.setContentType("text/html;charset=UTF-8");
		response.setHeader("Cache-Control", "no-store");
		response.getOutputStream().write(html.getBytes(StandardCharsets.UTF_8));
	}

	private void history(HttpServletRequest request, HttpServletResponse response) throws IOException {
		String after = request.getParameter("after");
		long afterMillis;
		try {
			afterMillis = (after != null) ? Long.parseLong(after) : Long.MIN_VALUE;
		}
		catch (NumberFormatException ex) {
			response.setStatus(HttpStatus.BAD_REQUEST.value());
			response.setContentType("application/problem+json");
			this.json.writeValue(response.getOutputStream(),
					Map.of("status", 400, "title", "Bad Request", "parameter", "after", "detail",
							"after \"" + after + "\" is not a time: give epoch milliseconds, such as the \"now\" "
									+ "of the previous answer"));
			return;
		}
		response.setContentType("application/json");
		response.setHeader("Cache-Control", "no-store");
		this.json.writeValue(response.getOutputStream(), HistoryDescriptor.of(this.history, afterMillis));
	}

	private static String escape(String value) {
		return HtmlUtils.htmlEscape(value, StandardCharsets.UTF_8.name());
	}

	private static byte[] read(String location) {
		try (InputStream in = PoolsPage.class.getClassLoader().getResourceAsStream(location)) {
			if (in == null) {
				throw new IllegalStateException("The live page's " + location + " is missing from the classpath");
			}
			return StreamUtils.copyToByteArray(in);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not read " + location, ex);
		}
	}

	private record Asset(String location, String contentType) {

	}

}
