import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * One phase of the live page's cost measurement: a closed loop of CONCURRENCY clients
 * posting to /api/start for SECONDS, while "none" (nothing else), "poll" (the page's own
 * requests, without a browser: GET /actuator/threadpools and GET
 * /poolpilot/history.json?after=... once a second) or nothing of ours runs beside it (a
 * real browser is started by measure.sh). Prints "mode requests/s errors polls".
 *
 * Usage: java UiCost.java <base URL> <seconds> <concurrency> <none|poll|browser>
 */
public class UiCost {

	private static Thread started(Runnable task) {
		Thread thread = new Thread(task);
		thread.start();
		return thread;
	}

	public static void main(String[] args) throws Exception {
		String base = args[0];
		int seconds = Integer.parseInt(args[1]);
		int concurrency = Integer.parseInt(args[2]);
		String mode = args[3];
		HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
		AtomicBoolean running = new AtomicBoolean(true);
		LongAdder ok = new LongAdder();
		LongAdder errors = new LongAdder();
		LongAdder polls = new LongAdder();
		HttpRequest start = HttpRequest.newBuilder(URI.create(base + "/api/start"))
			.POST(HttpRequest.BodyPublishers.noBody())
			.timeout(Duration.ofSeconds(10))
			.build();
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < concurrency; i++) {
			threads.add(started(() -> {
				while (running.get()) {
					try {
						int status = client.send(start, HttpResponse.BodyHandlers.discarding()).statusCode();
						(status < 300 ? ok : errors).increment();
					}
					catch (Exception ex) {
						errors.increment();
					}
				}
			}));
		}
		if (mode.equals("poll")) {
			threads.add(started(() -> {
				String after = null;
				while (running.get()) {
					try {
						client.send(HttpRequest.newBuilder(URI.create(base + "/actuator/threadpools")).build(),
								HttpResponse.BodyHandlers.ofString());
						String history = client
							.send(HttpRequest.newBuilder(URI.create(base + "/poolpilot/history.json"
									+ (after != null ? "?after=" + after : ""))).build(),
									HttpResponse.BodyHandlers.ofString())
							.body();
						int at = history.indexOf("\"now\":");
						after = history.substring(at + 6, history.indexOf(',', at));
						polls.increment();
						Thread.sleep(1000);
					}
					catch (InterruptedException ex) {
						return;
					}
					catch (Exception ex) {
						errors.increment();
					}
				}
			}));
		}
		long began = System.nanoTime();
		Thread.sleep(seconds * 1000L);
		running.set(false);
		long okAtEnd = ok.sum();
		double elapsed = (System.nanoTime() - began) / 1e9;
		for (Thread thread : threads) {
			thread.join(15000);
		}
		System.out.printf("%s %.1f %d %d%n", mode, okAtEnd / elapsed, errors.sum(), polls.sum());
	}

}
