package io.github.poolpilot.ui;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.OS;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import io.github.poolpilot.testsupport.Blocking;
import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolExecutor;
import io.github.poolpilot.pool.PoolRegistry;
import io.github.poolpilot.tuning.Tuner;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.http.MediaType;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Drives the live page in a real headless Chromium (Debian's {@code chromium} and
 * {@code chromium-driver}) against a running application under load. Without them the
 * tests fail on CI ({@code CI=true}) and are skipped with a warning elsewhere.
 *
 * @author poolpilot authors
 */
class PoolsPageBrowserTests {

	private static final Path CHROMIUM = Path.of(System.getProperty("poolpilot-tests.chromium", "/usr/bin/chromium"));

	private static final Path CHROMEDRIVER = Path
		.of(System.getProperty("poolpilot-tests.chromedriver", "/usr/bin/chromedriver"));

	private ConfigurableApplicationContext app;

	private ChromeDriver browser;

	private ScheduledExecutorService load;

	@BeforeAll
	static void chromiumIsThere() {
		boolean there = OS.LINUX.isCurrentOs() && Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
		if (!there && "true".equals(System.getenv("CI"))) {
			fail("Chromium is missing (" + CHROMIUM + ", " + CHROMEDRIVER
					+ "): apt-get install -y chromium chromium-driver; .ci/run installs them");
		}
		if (!there) {
			System.err.println("WARNING: the live page's browser tests are SKIPPED: no " + CHROMIUM + " and "
					+ CHROMEDRIVER + " (apt-get install -y chromium chromium-driver)");
		}
		assumeThat(there).as("Chromium and its driver are installed").isTrue();
	}

	@AfterEach
	void stop() {
		if (this.browser != null) {
			this.browser.quit();
		}
		if (this.load != null) {
			this.load.shutdownNow();
		}
		if (this.app != null) {
			this.app.close();
		}
	}

	@Test
	void thePageShowsThePoolsWithAGrowingSeriesAndAResizeThroughItChangesTheEndpoint() throws IOException {
		open("management.endpoint.threadpools.access=unrestricted");
		WebElement talk = await().atMost(Duration.ofSeconds(20))
			.until(() -> this.browser.findElements(By.cssSelector("section.pool[data-pool='talk']")),
					(found) -> !found.isEmpty())
			.get(0);
		assertThat(this.browser.findElements(By.cssSelector("section.pool[data-pool='report']"))).hasSize(1);
		int samples = await().atMost(Duration.ofSeconds(20)).until(() -> samples(talk), (n) -> n >= 2);
		await().atMost(Duration.ofSeconds(20)).until(() -> samples(talk) > samples);
		assertThat(this.browser.findElements(By.cssSelector("#budget-bar span.live[data-pool='talk']"))).hasSize(1);
		assertThat(talk.findElements(By.cssSelector(".chart canvas"))).hasSize(6);
		assertThat(this.browser.findElement(By.id("access")).getText()).isEqualTo("changes allowed");
		screenshot();

		// report, idle, handed back to the tuner at 4 threads: 3 of them above its
		// min-threads and never started, lendable. Its two changes are decisions
		// listed in its section, above talk's: talk's controls stay where they are,
		// under the pointer of whoever is about to press them.
		long reportDecisions = decisions("report");
		double controlsTop = top("talk", ".controls");
		post("report", "{\"corePoolSize\":1,\"maxPoolSize\":4}");
		post("report", "{\"tuning\":\"auto\"}");
		WebElement report = this.browser.findElement(By.cssSelector("section.pool[data-pool='report']"));
		await().atMost(Duration.ofSeconds(30))
			.ignoreException(StaleElementReferenceException.class)
			.until(() -> report.findElement(By.cssSelector("[data-figure='lendable'] b")).getText().equals("3"));
		await().atMost(Duration.ofSeconds(30))
			.ignoreException(StaleElementReferenceException.class)
			.until(() -> this.browser.findElement(By.cssSelector("#budget-legend [data-pool='report']"))
				.getText()
				.equals("report 0/4 (3 lendable)"));
		assertThat(this.browser.findElement(By.id("budget-figures")).getText())
			.matches("\\d+ live, \\d+ allocated, \\d+ lendable of \\d+ threads");
		await().atMost(Duration.ofSeconds(30)).until(() -> decisions("report") >= reportDecisions + 2);
		assertThat(top("talk", ".controls")).as("where talk's controls are on the page").isEqualTo(controlsTop);

		WebElement core = talk.findElement(By.name("corePoolSize"));
		WebElement max = talk.findElement(By.name("maxPoolSize"));
		core.clear();
		core.sendKeys("3");
		max.clear();
		max.sendKeys("3");
		talk.findElement(By.cssSelector("button[data-action='resize']")).click();
		ManagedPool pool = this.app.getBean(PoolRegistry.class).get("talk");
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(pool.corePoolSize() + "/" + pool.maxPoolSize())
				.as(() -> "talk's core/max; the page says '" + pageMessage(talk) + "', the tuner's last decision: "
						+ this.app.getBean(Tuner.class).state("talk").getLastDecision())
				.isEqualTo("3/3"));
		// The page redraws a pool's badges every second: a badge read as it is replaced
		// is read again.
		await().atMost(Duration.ofSeconds(30))
			.ignoreException(StaleElementReferenceException.class)
			.until(() -> talk.findElement(By.cssSelector(".badges .mode")).getText().equals("manual"));
		talk.findElement(By.cssSelector("button[data-action='auto']")).click();
		await().atMost(Duration.ofSeconds(30))
			.ignoreException(StaleElementReferenceException.class)
			.until(() -> talk.findElement(By.cssSelector(".badges .mode")).getText().equals("auto"));

		core.clear();
		core.sendKeys("9");
		max.clear();
		max.sendKeys("2");
		talk.findElement(By.cssSelector("button[data-action='resize']")).click();
		await().atMost(Duration.ofSeconds(30))
			.ignoreException(StaleElementReferenceException.class)
			.until(() -> talk.findElement(By.cssSelector(".controls .message")).getText(),
					(message) -> message.contains("corePoolSize"));
	}

	@Test
	void withReadOnlyAccessThePageHasNoControls() {
		open();
		WebElement talk = await().atMost(Duration.ofSeconds(20))
			.until(() -> this.browser.findElements(By.cssSelector("section.pool[data-pool='talk']")),
					(found) -> !found.isEmpty())
			.get(0);
		await().atMost(Duration.ofSeconds(20)).until(() -> samples(talk) >= 1);
		assertThat(this.browser.findElements(By.cssSelector(".controls"))).isEmpty();
		assertThat(this.browser.findElements(By.tagName("button"))).isEmpty();
		assertThat(this.browser.findElements(By.tagName("input"))).isEmpty();
		assertThat(this.browser.findElement(By.id("access")).getText()).isEqualTo("read-only");
	}

	@Test
	void aListenersQueueIsShownAsTheBrokersDepth() {
		open();
		// A listener's consumers, as the RabbitMQ adapter gives them to their pool: 7
		// messages ready at the broker, a queue of no capacity the pool knows.
		BrokerConsumers consumers = new BrokerConsumers(7);
		this.app.getBean(PoolRegistry.class)
			.register(new ManagedPool("orders", consumers, consumers, PoolRecorder.builder().build(),
					new PoolBounds(1, 4)));
		await().atMost(Duration.ofSeconds(60)).until(() -> queueFigure("orders"), "7 (broker)"::equals);
		await().atMost(Duration.ofSeconds(60))
			.until(() -> queueFigure("talk"), (figure) -> String.valueOf(figure).matches("\\d+ of 20"));
	}

	/**
	 * Read a pool's queue figure in one step in the page: it is drawn again every second,
	 * faster than two steps of the driver on a busy machine.
	 */
	private @Nullable Object queueFigure(String pool) {
		return this.browser.executeScript("var b = document.querySelector(\"section.pool[data-pool='\" + arguments[0]"
				+ " + \"'] [data-figure='queue'] b\"); return b ? b.textContent : null;", pool);
	}

	private void open(String... properties) {
		String[] all = new String[properties.length + 4];
		all[0] = "management.endpoints.web.exposure.include=threadpools";
		all[1] = "poolpilot.pools.report.max-threads=4";
		all[2] = "poolpilot.pools.talk.queue-capacity=20";
		// Selenium warns that the system Chromium is newer than the CDP versions it
		// knows;
		// nothing here uses CDP.
		all[3] = "logging.level.org.openqa.selenium=error";
		System.arraycopy(properties, 0, all, 4, properties.length);
		this.app = PoolsPageHttpTests.start(all);
		ThreadPoolTaskExecutor talk = this.app.getBean("talk", ThreadPoolTaskExecutor.class);
		this.load = Executors.newSingleThreadScheduledExecutor();
		// About 150 tasks a second of 20 ms each: more than four threads serve.
		this.load.scheduleAtFixedRate(() -> {
			for (int i = 0; i < 3; i++) {
				try {
					talk.execute(() -> Blocking.sleep(Duration.ofMillis(20)));
				}
				catch (TaskRejectedException ex) {
					// The refusals are part of the picture.
				}
			}
		}, 0, 20, TimeUnit.MILLISECONDS);
		ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
			.usingAnyFreePort()
			.withLogOutput(OutputStream.nullOutputStream())
			.build();
		ChromeOptions options = new ChromeOptions();
		options.setBinary(CHROMIUM.toFile());
		options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
				"--disable-component-update", "--disable-sync", "--window-size=1400,1800");
		this.browser = new ChromeDriver(service, options);
		this.browser.get("http://localhost:" + PoolsPageHttpTests.port(this.app, "local.server.port") + "/poolpilot/");
	}

	/**
	 * Consumers of a broker's queue that only report their sizes.
	 */
	private static final class BrokerConsumers implements PoolExecutor, ManagedPool.SizeControl {

		private final int ready;

		private volatile int core = 1;

		private volatile int max = 1;

		BrokerConsumers(int ready) {
			this.ready = ready;
		}

		@Override
		public void setCorePoolSize(int corePoolSize) {
			this.core = corePoolSize;
		}

		@Override
		public void setMaximumPoolSize(int maxPoolSize) {
			this.max = maxPoolSize;
		}

		@Override
		public int getCorePoolSize() {
			return this.core;
		}

		@Override
		public int getMaximumPoolSize() {
			return this.max;
		}

		@Override
		public int getPoolSize() {
			return this.max;
		}

		@Override
		public int getActiveCount() {
			return 0;
		}

		@Override
		public int getQueueSize() {
			return this.ready;
		}

		@Override
		public int getQueueCapacity() {
			return 0;
		}

		@Override
		public boolean isQueueAtBroker() {
			return true;
		}

		@Override
		public boolean isShutdown() {
			return false;
		}

	}

	private void post(String pool, String body) {
		RestClient.create("http://localhost:" + PoolsPageHttpTests.port(this.app, "local.server.port"))
			.post()
			.uri("/actuator/threadpools/" + pool)
			.contentType(MediaType.APPLICATION_JSON)
			.body(body)
			.retrieve()
			.toBodilessEntity();
	}

	/**
	 * Return how many decisions a pool's section lists.
	 */
	private long decisions(String pool) {
		return (Long) this.browser.executeScript(
				"return document.querySelectorAll(\"section.pool[data-pool='\" + arguments[0] + \"'] ol.decisions li\").length;",
				pool);
	}

	/**
	 * Return where a part of a pool's section starts, from the top of the page.
	 */
	private double top(String pool, String part) {
		return ((Number) this.browser.executeScript(
				"var e = document.querySelector(\"section.pool[data-pool='\" + arguments[0]"
						+ " + \"'] \" + arguments[1]); return e.getBoundingClientRect().top + window.scrollY;",
				pool, part))
			.doubleValue();
	}

	private @Nullable Object pageMessage(WebElement pool) {
		return this.browser.executeScript("return arguments[0].querySelector('.controls .message').textContent;", pool);
	}

	private static int samples(WebElement pool) {
		String samples = pool.getDomAttribute("data-samples");
		return (samples != null) ? Integer.parseInt(samples) : 0;
	}

	/**
	 * Save what the page looks like: into target/, or where
	 * {@code -Dpoolpilot-tests.ui.screenshot} says (the documentation's image).
	 */
	private void screenshot() throws IOException {
		Path to = Path.of(System.getProperty("poolpilot-tests.ui.screenshot", "target/poolpilot-ui.png"));
		Files.createDirectories(to.toAbsolutePath().getParent());
		Files.write(to, this.browser.getScreenshotAs(OutputType.BYTES));
	}

}
