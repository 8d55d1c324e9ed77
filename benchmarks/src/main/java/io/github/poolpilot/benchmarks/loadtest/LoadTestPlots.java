package io.github.poolpilot.benchmarks.loadtest;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.XYSeries.XYSeriesRenderStyle;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.markers.SeriesMarkers;

import io.github.poolpilot.benchmarks.loadtest.LoadTestRun.ExecutorSample;
import io.github.poolpilot.benchmarks.loadtest.LoadTestRun.PoolSample;
import io.github.poolpilot.benchmarks.loadtest.LoadTestRun.Request;
import io.github.poolpilot.benchmarks.loadtest.LoadTestSummary.Side;

/**
 * Plots and figures of the sample application's load test, both sides of one run: the
 * sample on Spring Boot's executor with its unbounded queue ({@code baseline}) and on
 * poolpilot's pools ({@code poolpilot}). Reads what {@code sample-app/load-test/run.sh}
 * wrote, writes PNG files and {@code summary.md}.
 * <p>
 * Usage: {@code LoadTestPlots <results folder> <images folder>}, the results folder
 * holding {@code run.properties} and a folder per side.
 *
 * @author poolpilot authors
 */
public final class LoadTestPlots {

	private static final Color OK = new Color(0x2E7D32);

	private static final Color REJECTED = new Color(0xEF6C00);

	private static final Color UNAVAILABLE = new Color(0x6A1B9A);

	private static final Color UNANSWERED = new Color(0xC62828);

	private static final Color OFFERED = new Color(0x616161);

	private static final Color[] LINES = { new Color(0x1565C0), new Color(0xEF6C00), new Color(0x2E7D32),
			new Color(0x6A1B9A), new Color(0xC62828), new Color(0x616161) };

	private static final BasicStroke DASHED = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10,
			new float[] { 6, 4 }, 0);

	private static final int WIDTH = 900;

	private static final int HEIGHT = 480;

	private final LoadTestSettings settings;

	private final List<Side> sides;

	private LoadTestPlots(LoadTestSettings settings, List<Side> sides) {
		this.settings = settings;
		this.sides = sides;
	}

	public static void main(String[] args) throws IOException {
		if (args.length != 2) {
			System.err.println("Usage: LoadTestPlots <results folder> <images folder>");
			System.exit(2);
		}
		Path results = Path.of(args[0]);
		Path images = Path.of(args[1]);
		Files.createDirectories(images);
		LoadTestSettings settings = LoadTestSettings.read(results.resolve("run.properties"));
		List<Side> sides = List.of(
				new Side(LoadTestRun.read("baseline", results.resolve("baseline")), settings.baselineExecutor()),
				new Side(LoadTestRun.read("poolpilot", results.resolve("poolpilot")), settings.talkPool()));
		LoadTestPlots plots = new LoadTestPlots(settings, sides);
		plots.talkLatency(images.resolve("talk-latency.png"));
		plots.talkAnswers(images.resolve("talk-answers.png"));
		plots.startStopLatency(images.resolve("start-stop-latency.png"));
		plots.queues(images.resolve("queues.png"));
		plots.pools(sides.get(1).run(), images.resolve("pools.png"));
		String summary = new LoadTestSummary(settings, sides).markdown();
		Files.writeString(results.resolve("summary.md"), summary, StandardCharsets.UTF_8);
		System.out.println(summary);
	}

	/**
	 * Each talk request's latency at the time it was sent, by answer.
	 */
	private void talkLatency(Path file) throws IOException {
		List<XYChart> charts = new ArrayList<>();
		double timeout = this.settings.timeoutSeconds();
		for (Side side : this.sides) {
			XYChart chart = chart(side.run().label() + ": talk latency by the time the request was sent", "time (s)",
					"latency (s)");
			List<Request> talk = side.run().requests("talk", 0, Double.MAX_VALUE);
			scatter(chart, "200", talk, (request) -> request.is("200"), OK);
			scatter(chart, "429", talk, (request) -> request.is("429"), REJECTED);
			scatter(chart, "503", talk, (request) -> request.is("503"), UNAVAILABLE);
			scatter(chart, "no answer within " + this.settings.timeoutSeconds() + " s", talk,
					(request) -> request.is("timeout"), UNANSWERED);
			chart.getStyler().setYAxisMin(0.0).setYAxisMax(timeout * 1.05);
			markOverload(chart);
			charts.add(chart);
		}
		save(charts, file);
	}

	/**
	 * Talk requests sent and answered per second, by answer.
	 */
	private void talkAnswers(Path file) throws IOException {
		List<XYChart> charts = new ArrayList<>();
		double highest = 0;
		for (Side side : this.sides) {
			XYChart chart = chart(side.run().label() + ": talk requests per second", "time (s)", "requests per second");
			List<Request> talk = side.run().requests("talk", 0, Double.MAX_VALUE);
			double[][] sent = perSecond(talk, (request) -> true, Request::start);
			highest = Math.max(highest, highest(sent));
			line(chart, "sent", sent, OFFERED);
			line(chart, "200 received", perSecond(talk, (request) -> request.is("200"), Request::end), OK);
			line(chart, "429 received", perSecond(talk, (request) -> request.is("429"), Request::end), REJECTED);
			line(chart, "503 received", perSecond(talk, (request) -> request.is("503"), Request::end), UNAVAILABLE);
			line(chart, "no answer, client gave up", perSecond(talk, (request) -> request.is("timeout"), Request::end),
					UNANSWERED);
			constant(chart,
					"what the downstream can serve (" + LoadTestSummary.format(this.settings.downstreamRate()) + "/s)",
					this.settings.downstreamRate());
			markOverload(chart);
			charts.add(chart);
		}
		for (XYChart chart : charts) {
			chart.getStyler().setYAxisMin(0.0).setYAxisMax(highest * 1.1);
		}
		save(charts, file);
	}

	/**
	 * Start and stop latency while talk is overloaded, on a log scale.
	 */
	private void startStopLatency(Path file) throws IOException {
		List<XYChart> charts = new ArrayList<>();
		for (Side side : this.sides) {
			XYChart chart = chart(side.run().label() + ": start and stop latency", "time (s)",
					"latency (ms, log scale)");
			chart.getStyler()
				.setYAxisLogarithmic(true)
				.setYAxisMin(1.0)
				.setYAxisMax(this.settings.timeoutSeconds() * 2000.0);
			List<Request> all = side.run().requests();
			scatterMillis(chart, "start 200", all, (request) -> request.api().equals("start") && request.is("200"),
					LINES[0]);
			scatterMillis(chart, "stop 200", all, (request) -> request.api().equals("stop") && request.is("200"),
					LINES[2]);
			scatterMillis(chart, "start or stop without an answer", all,
					(request) -> !request.api().equals("talk") && !request.is("200"), UNANSWERED);
			markOverload(chart);
			charts.add(chart);
		}
		save(charts, file);
	}

	/**
	 * The queue of the executor each side ran talk on, on a log scale.
	 */
	private void queues(Path file) throws IOException {
		XYChart chart = chart("tasks queued in the executor running talk", "time (s)", "queued tasks (log scale)");
		chart.getStyler().setYAxisLogarithmic(true).setYAxisMin(1.0);
		int color = 0;
		for (Side side : this.sides) {
			List<ExecutorSample> queued = side.run().executor(side.talkExecutor(), "queued_tasks");
			if (queued.isEmpty()) {
				// Tomcat's own request threads: their queue is not measured.
				color++;
				continue;
			}
			line(chart, side.run().label() + " (" + side.talkExecutor() + ")",
					points(queued, ExecutorSample::time, (sample) -> Math.max(1, sample.value())), LINES[color++]);
		}
		markOverload(chart);
		save(List.of(chart), file);
	}

	/**
	 * How the tuner moved the managed pools during the run.
	 */
	private void pools(LoadTestRun run, Path file) throws IOException {
		String pool = this.settings.talkPool();
		XYChart talk = chart(run.label() + ": the " + pool + " pool, running talk", "time (s)", "threads, tasks");
		List<PoolSample> talkSamples = run.pool(pool);
		line(talk, "size (set by the tuner)", points(talkSamples, PoolSample::time, PoolSample::size), LINES[0]);
		line(talk, "busy threads", points(talkSamples, PoolSample::time, PoolSample::active), LINES[2]);
		line(talk, "queued tasks", points(talkSamples, PoolSample::time, PoolSample::queued), LINES[1]);
		constant(talk, "calls the downstream serves at once", this.settings.downstreamCapacity());
		markOverload(talk);

		XYChart all = chart(run.label() + ": every managed pool's size, and the budget", "time (s)",
				"threads (log scale)");
		all.getStyler().setYAxisLogarithmic(true).setYAxisMin(1.0).setYAxisMax(1000.0);
		Set<String> names = new LinkedHashSet<>();
		run.pools().forEach((sample) -> names.add(sample.pool()));
		int color = 0;
		for (String name : names) {
			line(all, name, points(run.pool(name), PoolSample::time, PoolSample::size), LINES[color++ % LINES.length]);
		}
		List<PoolSample> firstPool = run.pool(names.iterator().next());
		line(all, "live threads, all pools", points(firstPool, PoolSample::time, PoolSample::budgetLive), OFFERED)
			.setLineStyle(
					new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] { 4, 4 }, 0));
		markOverload(all);
		save(List.of(talk, all), file);
	}

	private XYChart chart(String title, String xTitle, String yTitle) {
		XYChart chart = new XYChartBuilder().width(WIDTH)
			.height(HEIGHT)
			.title(title)
			.xAxisTitle(xTitle)
			.yAxisTitle(yTitle)
			.build();
		chart.getStyler()
			.setLegendPosition(LegendPosition.InsideNW)
			.setChartBackgroundColor(Color.WHITE)
			.setPlotBackgroundColor(Color.WHITE)
			.setMarkerSize(3)
			.setAntiAlias(true);
		chart.getStyler().setPlotGridLinesColor(new Color(0xE0E0E0)).setXAxisMin(0.0).setXAxisMax(end());
		return chart;
	}

	/**
	 * Vertical lines where the overload starts and ends.
	 */
	private void markOverload(XYChart chart) {
		chart.addAnnotation(new AnnotationLine(this.settings.warmUpSeconds(), true, false));
		chart.addAnnotation(
				new AnnotationLine(this.settings.warmUpSeconds() + this.settings.overloadSeconds(), true, false));
	}

	private static void scatter(XYChart chart, String name, List<Request> requests, Predicate<Request> filter,
			Color color) {
		List<Request> selected = requests.stream().filter(filter).toList();
		if (selected.isEmpty()) {
			return;
		}
		XYSeries series = chart.addSeries(name + " (" + selected.size() + ")",
				selected.stream().mapToDouble(Request::start).toArray(),
				selected.stream().mapToDouble((request) -> request.latencyMs() / 1000.0).toArray());
		series.setXYSeriesRenderStyle(XYSeriesRenderStyle.Scatter)
			.setMarker(SeriesMarkers.CIRCLE)
			.setMarkerColor(color);
	}

	private static void scatterMillis(XYChart chart, String name, List<Request> requests, Predicate<Request> filter,
			Color color) {
		List<Request> selected = requests.stream().filter(filter).toList();
		if (selected.isEmpty()) {
			return;
		}
		XYSeries series = chart.addSeries(name + " (" + selected.size() + ")",
				selected.stream().mapToDouble(Request::start).toArray(),
				selected.stream().mapToDouble((request) -> Math.max(1, request.latencyMs())).toArray());
		series.setXYSeriesRenderStyle(XYSeriesRenderStyle.Scatter)
			.setMarker(SeriesMarkers.CIRCLE)
			.setMarkerColor(color);
	}

	private static XYSeries line(XYChart chart, String name, double[][] points, Color color) {
		XYSeries series = chart.addSeries(name, points[0], points[1]);
		series.setXYSeriesRenderStyle(XYSeriesRenderStyle.Line).setMarker(SeriesMarkers.NONE).setLineColor(color);
		series.setLineStyle(new BasicStroke(1.8f));
		return series;
	}

	/**
	 * A dashed horizontal line across the whole run.
	 */
	private void constant(XYChart chart, String name, double value) {
		XYSeries series = line(chart, name, new double[][] { { 0, end() }, { value, value } }, OFFERED);
		series.setLineStyle(DASHED);
	}

	private double end() {
		return this.settings.warmUpSeconds() + this.settings.overloadSeconds() + this.settings.timeoutSeconds();
	}

	private static double highest(double[][] points) {
		double highest = 0;
		for (double value : points[1]) {
			highest = Math.max(highest, value);
		}
		return highest;
	}

	/**
	 * Requests per one-second bucket of a time of theirs.
	 */
	private double[][] perSecond(List<Request> requests, Predicate<Request> filter, ToDoubleFunction<Request> time) {
		int seconds = this.settings.warmUpSeconds() + this.settings.overloadSeconds() + this.settings.timeoutSeconds()
				+ 1;
		double[] counts = new double[seconds];
		for (Request request : requests) {
			int second = (int) Math.floor(time.applyAsDouble(request));
			if (filter.test(request) && second >= 0 && second < seconds) {
				counts[second]++;
			}
		}
		double[] x = new double[seconds];
		for (int i = 0; i < seconds; i++) {
			x[i] = i + 0.5;
		}
		return new double[][] { x, counts };
	}

	private static <T> double[][] points(List<T> samples, ToDoubleFunction<T> x, ToDoubleFunction<T> y) {
		return new double[][] { samples.stream().mapToDouble(x).toArray(), samples.stream().mapToDouble(y).toArray() };
	}

	private static void save(List<XYChart> charts, Path file) throws IOException {
		if (charts.size() == 1) {
			BitmapEncoder.saveBitmap(charts.get(0), file.toString(), BitmapFormat.PNG);
		}
		else {
			BitmapEncoder.saveBitmap(charts, charts.size(), 1, file.toString(), BitmapFormat.PNG);
		}
	}

}
