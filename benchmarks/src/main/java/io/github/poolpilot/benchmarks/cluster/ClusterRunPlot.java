package io.github.poolpilot.benchmarks.cluster;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.XYSeries.XYSeriesRenderStyle;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The plot of a {@link ClusterRun}: each instance's lease over time, and the calls in
 * flight at the downstream against the cluster-wide limit, with the kill and Redis's
 * pause marked.
 *
 * @author poolpilot authors
 */
final class ClusterRunPlot {

	private static final Color[] INSTANCES = { new Color(0x1565C0), new Color(0xEF6C00), new Color(0x6A1B9A) };

	private static final Color IN_FLIGHT = new Color(0x2E7D32);

	private static final Color LIMIT = new Color(0xC62828);

	private static final BasicStroke DASHED = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10,
			new float[] { 6, 4 }, 0);

	private final Path results;

	private final Path images;

	ClusterRunPlot(Path results, Path images) {
		this.results = results;
		this.images = images;
	}

	void write(int limit, double killAt, double pauseAt, double resumeAt) throws IOException {
		List<String[]> downstream = rows("downstream.csv");
		List<String[]> instances = rows("instances.csv");
		double end = Double.parseDouble(downstream.get(downstream.size() - 1)[0]);
		XYChart chart = new XYChartBuilder().width(1000)
			.height(600)
			.title("Three instances sharing talk's limit of " + limit + " through Redis")
			.xAxisTitle("time (s)")
			.yAxisTitle("threads / calls")
			.build();
		chart.getStyler()
			.setLegendPosition(LegendPosition.OutsideS)
			.setChartBackgroundColor(Color.WHITE)
			.setPlotBackgroundColor(Color.WHITE)
			.setAntiAlias(true);
		chart.getStyler()
			.setPlotGridLinesColor(new Color(0xE0E0E0))
			.setXAxisMin(0.0)
			.setXAxisMax(end)
			.setYAxisMin(0.0)
			.setYAxisMax(limit * 1.5);
		line(chart, "calls in flight at the downstream (every 100 ms)", column(downstream, 0), column(downstream, 1),
				IN_FLIGHT, new BasicStroke(1.2f));
		for (int instance = 1; instance <= 3; instance++) {
			String id = String.valueOf(instance);
			List<String[]> own = instances.stream()
				.filter((row) -> row[1].equals(id) && row.length > 2 && !row[2].isEmpty())
				.toList();
			if (!own.isEmpty()) {
				line(chart, "lease of instance " + instance, column(own, 0), column(own, 2), INSTANCES[instance - 1],
						new BasicStroke(2.2f));
			}
		}
		line(chart, "cluster-wide limit", new double[] { 0, end }, new double[] { limit, limit }, LIMIT, DASHED);
		mark(chart, killAt, "instance 3 killed (SIGKILL)", limit * 1.4);
		mark(chart, pauseAt, "Redis paused (SIGSTOP)", limit * 1.4);
		mark(chart, resumeAt, "Redis resumed (SIGCONT)", limit * 1.3);
		BitmapEncoder.saveBitmap(chart, this.images.resolve("cluster-run.png").toString(), BitmapFormat.PNG);
	}

	private static void mark(XYChart chart, double at, String text, double y) {
		chart.addAnnotation(new AnnotationLine(at, true, false));
		chart.addAnnotation(new AnnotationText(text, at + 7, y, false));
	}

	private static void line(XYChart chart, String name, double[] x, double[] y, Color color, BasicStroke stroke) {
		XYSeries series = chart.addSeries(name, x, y);
		series.setXYSeriesRenderStyle(XYSeriesRenderStyle.Step).setMarker(SeriesMarkers.NONE).setLineColor(color);
		series.setLineStyle(stroke);
	}

	private List<String[]> rows(String file) throws IOException {
		List<String> lines = Files.readAllLines(this.results.resolve(file));
		List<String[]> rows = new ArrayList<>();
		for (String line : lines.subList(1, lines.size())) {
			if (!line.isBlank()) {
				rows.add(line.split(",", -1));
			}
		}
		return rows;
	}

	private static double[] column(List<String[]> rows, int index) {
		return rows.stream().mapToDouble((row) -> Double.parseDouble(row[index])).toArray();
	}

}
