package io.github.poolpilot.benchmarks.scenarios;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The plots of a scenario, one PNG with a panel per figure over time and a line per
 * strategy.
 *
 * @author poolpilot authors
 */
final class Charts {

	private static final int WIDTH = 1100;

	private static final int PANEL_HEIGHT = 300;

	private static final Map<String, Color> COLORS = Map.of(Strategy.BEST_STATIC, Color.BLACK, Strategy.STATIC_SHARES,
			Color.BLACK, Strategy.FIXED_MAX, new Color(120, 80, 40), Strategy.GOETZ_STATIC, Color.GRAY,
			Strategy.SPRING_DEFAULT, new Color(230, 120, 0), Strategy.POOLPILOT_NO_GUARD, new Color(150, 60, 190),
			Strategy.GRADIENT2, new Color(20, 150, 60), Strategy.VEGAS, new Color(200, 30, 120), Strategy.POOLPILOT,
			new Color(20, 90, 220));

	private static final Color[] POOL_COLORS = { new Color(20, 90, 220), new Color(230, 120, 0),
			new Color(20, 150, 60) };

	private Charts() {
	}

	/**
	 * Draw a scenario's runs.
	 * @param scenario the scenario
	 * @param runs each strategy's run
	 * @param file the PNG to write
	 * @throws IOException if the file cannot be written
	 */
	static void write(Scenario scenario, List<RunResult> runs, Path file) throws IOException {
		List<XYChart> charts = new ArrayList<>();
		String all = scenario.multiPool() ? ", all pools" : "";
		charts.add(chart(
				scenario.id() + ": pool size" + all + " (gradient2, vegas: their limit; spring-default: core size)",
				"threads", runs, (run) -> doubles(run.totalSize()), false));
		XYChart live = chart(scenario.id() + ": live threads" + all + " (most in any 10 ms sample)", "threads", runs,
				(run) -> doubles(run.totalLiveMax()), false);
		if (scenario.budget() != null) {
			int seconds = runs.stream().mapToInt(RunResult::seconds).max().orElse(1);
			XYSeries budget = live.addSeries("budget", new double[] { 0, seconds - 1 },
					new double[] { scenario.budget(), scenario.budget() });
			budget.setLineColor(Color.RED);
			budget.setLineStyle(
					new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] { 6, 4 }, 0));
			budget.setMarker(SeriesMarkers.NONE);
		}
		charts.add(live);
		if (scenario.multiPool()) {
			charts.add(poolSizes(scenario, runs));
		}
		charts.add(chart(scenario.id() + ": throughput" + all, "tasks/s", runs,
				(run) -> doubles(run.log().perSecond(-1, run.seconds()).completed()), false));
		charts.add(chart(
				scenario.id() + ": p99 latency from the intended start" + all
						+ " (of the tasks completing in each second; log scale)",
				"ms", runs, (run) -> run.log().perSecond(-1, run.seconds()).p99Ms(), true));
		BitmapEncoder.saveBitmap(charts, charts.size(), 1, file.toString(), BitmapFormat.PNG);
	}

	private static XYChart chart(String title, String unit, List<RunResult> runs, Function<RunResult, double[]> values,
			boolean logarithmic) {
		XYChart chart = newChart(title, unit);
		chart.getStyler().setYAxisLogarithmic(logarithmic);
		for (RunResult run : runs) {
			double[] y = values.apply(run);
			List<Double> xs = new ArrayList<>();
			List<Double> ys = new ArrayList<>();
			for (int second = 0; second < y.length; second++) {
				if (!Double.isNaN(y[second]) && (!logarithmic || y[second] > 0)) {
					xs.add((double) second);
					ys.add(y[second]);
				}
			}
			if (xs.isEmpty()) {
				continue;
			}
			XYSeries series = chart.addSeries(run.strategy(), xs, ys);
			series.setMarker(SeriesMarkers.NONE);
			series.setLineColor(COLORS.getOrDefault(run.strategy(), Color.DARK_GRAY));
			series.setLineWidth(run.strategy().equals(Strategy.POOLPILOT) ? 2.5f : 1.5f);
		}
		return chart;
	}

	private static XYChart poolSizes(Scenario scenario, List<RunResult> runs) {
		XYChart chart = newChart(scenario.id() + ": each pool's size under poolpilot", "threads");
		runs.stream().filter((run) -> run.strategy().equals(Strategy.POOLPILOT)).findFirst().ifPresent((run) -> {
			for (int pool = 0; pool < run.pools().size(); pool++) {
				double[] sizes = doubles(run.pools().get(pool).size());
				double[] seconds = new double[sizes.length];
				Arrays.setAll(seconds, (second) -> second);
				XYSeries series = chart.addSeries("poolpilot " + run.pools().get(pool).name(), seconds, sizes);
				series.setMarker(SeriesMarkers.NONE);
				series.setLineColor(POOL_COLORS[pool % POOL_COLORS.length]);
				series.setLineWidth(2);
			}
		});
		return chart;
	}

	private static XYChart newChart(String title, String unit) {
		XYChart chart = new XYChartBuilder().width(WIDTH)
			.height(PANEL_HEIGHT)
			.title(title)
			.xAxisTitle("seconds")
			.yAxisTitle(unit)
			.build();
		chart.getStyler().setLegendPosition(LegendPosition.OutsideE);
		chart.getStyler().setChartBackgroundColor(Color.WHITE);
		chart.getStyler().setPlotGridLinesVisible(true);
		chart.getStyler().setXAxisTickMarkSpacingHint(60);
		return chart;
	}

	private static double[] doubles(int[] values) {
		double[] doubles = new double[values.length];
		for (int i = 0; i < values.length; i++) {
			doubles[i] = values[i];
		}
		return doubles;
	}

	private static double[] doubles(long[] values) {
		double[] doubles = new double[values.length];
		for (int i = 0; i < values.length; i++) {
			doubles[i] = values[i];
		}
		return doubles;
	}

}
