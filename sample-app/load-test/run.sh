#!/usr/bin/env bash
# The sample's load test, both sides in one run: far more talk requests than the talk API
# can serve, first against the sample on Spring Boot's executor with its unbounded queue
# (profile boot-default), then against the sample on poolpilot's pools. Gatling sends the
# requests at a fixed rate (an open model: a slow answer does not slow the arrivals) and
# records every answer and, every second, the pools. Plots and figures are then written
# by a main class of the benchmarks module. See docs/load-test.md.
#
# Usage: sample-app/load-test/run.sh [--knee | --web-server [--jetty] | --listeners] [--wait-for-quiet]
#   --knee            the knee run instead: a downstream admitting 8 calls of 50 ms (160/s),
#                     offered 240/s from the first second (no warm-up at a lower rate), talk
#                     allowed 300 threads and starting at its share of the budget, 50: does
#                     the tuner find the knee from above? Results in results-knee/, plots
#                     in docs/images/load-test-knee/. The settings below still apply.
#   --web-server      the thread-per-request run instead: talk-blocking, the talk API done on
#                     the request's own thread, first on Tomcat's own request threads (200,
#                     no bound on the wait: the sample's default profile), then on the managed
#                     pool http (profile blocking). Results in results-web/, plots in
#                     docs/images/load-test-web/. The settings below still apply.
#   --jetty           with --web-server: both sides on Jetty instead of Tomcat (the sample
#                     built with its jetty profile): first on Jetty's own threads (200, no
#                     bound on the wait), then on the managed pool http. Results in
#                     results-web-jetty/, plots in docs/images/load-test-web-jetty/.
#   --listeners       the listener run instead: a flood of orders on the sample's RabbitMQ
#                     queue (profile rabbit), whose consumers grow until a downstream that
#                     serves a few orders at once sets the pace; run by listeners.sh, whose
#                     header has its settings. Needs RabbitMQ on 127.0.0.1:5672.
#   --wait-for-quiet  first wait, polling every 30 s for up to 20 min, until the 1-minute
#                     load is below 0.7 and no other java process runs; the load seen is
#                     recorded either way.
# Settings (environment): PORT (18431), WARM_UP_SECONDS (15), WARM_UP_RATE (10/s),
# OVERLOAD_SECONDS (60), TALK_RATE (200/s), PROBE_RATE (2 start/stop pairs per second),
# DOWNSTREAM_LATENCY_MS (300), DOWNSTREAM_CAPACITY (20 calls at once),
# BASELINE_THREADS (400, the poolpilot side's whole budget), MONITOR_TAIL_SECONDS (20, how
# long the pools are still sampled after the last request), RESULTS, IMAGES, BUILD (true;
# false starts the jars already built instead of building them first).
# Needs a JDK 17+ and curl; Maven comes from the wrapper.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)

KNEE=false
WEB_SERVER=false
JETTY=false
WAIT_FOR_QUIET=false
for arg in "$@"; do
	case "$arg" in
		--listeners) exec "$ROOT/sample-app/load-test/listeners.sh" "$@" ;;
		--knee) KNEE=true ;;
		--web-server) WEB_SERVER=true ;;
		--jetty) JETTY=true ;;
		--wait-for-quiet) WAIT_FOR_QUIET=true ;;
		*) echo "Unknown argument: $arg" >&2; exit 2 ;;
	esac
done
POOLPILOT_ARGS=()
POOLPILOT_GATLING_ARGS=()
BASELINE_GATLING_ARGS=()
BASELINE_EXECUTOR=applicationTaskExecutor
TALK_POOL=talk
if [ "$KNEE" = true ] && [ "$WEB_SERVER" = true ]; then
	echo "--knee and --web-server are two different runs: choose one" >&2
	exit 2
fi
if [ "$JETTY" = true ] && [ "$WEB_SERVER" != true ]; then
	echo "--jetty goes with --web-server: it runs the thread-per-request run on Jetty" >&2
	exit 2
fi
JAR=sample-app/target/poolpilot-sample-app-0.1.0-SNAPSHOT.jar
BUILD_PROFILES=()
SERVER=tomcat
if [ "$JETTY" = true ]; then
	RESULTS=${RESULTS:-sample-app/load-test/results-web-jetty}
	IMAGES=${IMAGES:-docs/images/load-test-web-jetty}
	JAR=sample-app/target/poolpilot-sample-app-jetty-0.1.0-SNAPSHOT.jar
	BUILD_PROFILES=(-Pjetty)
	SERVER=jetty
fi
if [ "$WEB_SERVER" = true ]; then
	RESULTS=${RESULTS:-sample-app/load-test/results-web}
	IMAGES=${IMAGES:-docs/images/load-test-web}
	# Both sides call talk-blocking; the baseline is the sample on its defaults, where the
	# request threads are the server's own, whose queue no meter shows.
	BASELINE_GATLING_ARGS=(-DtalkPath=/api/talk-blocking)
	BASELINE_EXECUTOR=
	POOLPILOT_ARGS=(--spring.profiles.active=blocking)
	POOLPILOT_GATLING_ARGS=(-DtalkPath=/api/talk-blocking)
	TALK_POOL=http
fi
if [ "$KNEE" = true ]; then
	# One second "warm-up" at the overload's own rate: the pools never see their
	# downstream uncongested.
	WARM_UP_SECONDS=${WARM_UP_SECONDS:-1}
	WARM_UP_RATE=${WARM_UP_RATE:-240}
	TALK_RATE=${TALK_RATE:-240}
	DOWNSTREAM_LATENCY_MS=${DOWNSTREAM_LATENCY_MS:-50}
	DOWNSTREAM_CAPACITY=${DOWNSTREAM_CAPACITY:-8}
	RESULTS=${RESULTS:-sample-app/load-test/results-knee}
	IMAGES=${IMAGES:-docs/images/load-test-knee}
	# talk starts at its share of the budget, 50 threads: Gatling sets it back there (and to
	# auto) just before the load, through the endpoint the ops profile opens, so that it
	# cannot shrink while idle during Gatling's own start.
	POOLPILOT_ARGS=(--poolpilot.pools.talk.max-threads=300 --spring.profiles.active=ops)
	POOLPILOT_GATLING_ARGS=(-DstartPool=talk=50)
fi

PORT=${PORT:-18431}
WARM_UP_SECONDS=${WARM_UP_SECONDS:-15}
WARM_UP_RATE=${WARM_UP_RATE:-10}
OVERLOAD_SECONDS=${OVERLOAD_SECONDS:-60}
TALK_RATE=${TALK_RATE:-200}
PROBE_RATE=${PROBE_RATE:-2}
DOWNSTREAM_LATENCY_MS=${DOWNSTREAM_LATENCY_MS:-300}
DOWNSTREAM_CAPACITY=${DOWNSTREAM_CAPACITY:-20}
BASELINE_THREADS=${BASELINE_THREADS:-400}
MONITOR_TAIL_SECONDS=${MONITOR_TAIL_SECONDS:-20}
RESULTS=${RESULTS:-sample-app/load-test/results}
IMAGES=${IMAGES:-docs/images/load-test}
# Gatling's request timeout, set in src/test/resources/gatling.conf.
TIMEOUT_SECONDS=20
case "$RESULTS" in /*) ;; *) RESULTS="$ROOT/$RESULTS" ;; esac
case "$IMAGES" in /*) ;; *) IMAGES="$ROOT/$IMAGES" ;; esac

. "$ROOT/sample-app/load-test/common.sh"

# CPU time of a process (user + system), in clock ticks.
process_ticks() {
	awk '{ print $14 + $15 }' "/proc/$1/stat"
}

# All CPUs' time and idle time since boot, in clock ticks.
machine_ticks() {
	awk '/^cpu / { total = 0; for (i = 2; i <= NF; i++) total += $i; print total, $5 + $6 }' /proc/stat
}

echo "Building the sample, the plots and the simulation..."
build_jars "$JAR" benchmarks/target/benchmarks.jar -- -pl sample-app,benchmarks -am \
	${BUILD_PROFILES[@]+"${BUILD_PROFILES[@]}"}
./mvnw -q -B -f sample-app/load-test/pom.xml test-compile

require_free_port "$PORT"

rm -rf "$RESULTS/baseline" "$RESULTS/poolpilot"
mkdir -p "$RESULTS/baseline" "$RESULTS/poolpilot" "$IMAGES"
MACHINE="$RESULTS/machine.txt"
describe_machine \
	"run: $([ "$KNEE" = true ] && echo "knee (--knee)" || { [ "$WEB_SERVER" = true ] && echo "thread-per-request (--web-server)"; } || echo "overload")" \
	"server: $SERVER"

if [ "$WAIT_FOR_QUIET" = true ]; then
	wait_for_quiet
fi

cat > "$RESULTS/run.properties" <<PROPERTIES
warmUpSeconds=$WARM_UP_SECONDS
warmUpRate=$WARM_UP_RATE
overloadSeconds=$OVERLOAD_SECONDS
talkRate=$TALK_RATE
probeRate=$PROBE_RATE
monitorTailSeconds=$MONITOR_TAIL_SECONDS
timeoutSeconds=$TIMEOUT_SECONDS
downstreamLatencyMs=$DOWNSTREAM_LATENCY_MS
downstreamCapacity=$DOWNSTREAM_CAPACITY
baselineThreads=$BASELINE_THREADS
baselineExecutor=$BASELINE_EXECUTOR
talkPool=$TALK_POOL
PROPERTIES

run_side() {
	local label=$1
	local gatling_args=$2
	shift 2
	local out="$RESULTS/$label"
	echo "== $label: starting the sample on port $PORT"
	java -Xms512m -Xmx1g -jar "$JAR" --server.port="$PORT" \
		--sample.talk.downstream-latency="${DOWNSTREAM_LATENCY_MS}ms" \
		--sample.talk.downstream-capacity="$DOWNSTREAM_CAPACITY" "$@" > "$out/app.log" 2>&1 &
	APP_PID=$!
	wait_for_app "http://127.0.0.1:$PORT/actuator/health" "$out/app.log"
	echo "$label: load before $(load)" | tee -a "$MACHINE"
	echo "$label: fixed work before: $(fixed_work) s of CPU" | tee -a "$MACHINE"
	local app_before machine_before started
	app_before=$(process_ticks "$APP_PID")
	machine_before=$(machine_ticks)
	started=$(date +%s.%N)
	./mvnw -q -B -f sample-app/load-test/pom.xml gatling:test -DbaseUrl="http://127.0.0.1:$PORT" \
		-Dlabel="$label" -Dout="$out" -DwarmUpSeconds="$WARM_UP_SECONDS" -DwarmUpRate="$WARM_UP_RATE" \
		-DoverloadSeconds="$OVERLOAD_SECONDS" -DtalkRate="$TALK_RATE" -DprobeRate="$PROBE_RATE" \
		-DmonitorTailSeconds="$MONITOR_TAIL_SECONDS" $gatling_args \
		> "$out/gatling.log" 2>&1 || { echo "Gatling failed: $out/gatling.log" >&2; exit 1; }
	echo "$label: load after $(load)" | tee -a "$MACHINE"
	echo "$label: fixed work after: $(fixed_work) s of CPU" | tee -a "$MACHINE"
	# What the sample used, and how busy the whole machine was, while Gatling ran.
	awk -v a0="$app_before" -v a1="$(process_ticks "$APP_PID")" -v m0="$machine_before" -v m1="$(machine_ticks)" \
		-v w0="$started" -v w1="$(date +%s.%N)" -v hz="$(getconf CLK_TCK)" -v cpus="$(nproc)" 'BEGIN {
			split(m0, before, " "); split(m1, after, " ")
			wall = w1 - w0
			printf "wallSeconds=%.1f\nappCpuSeconds=%.1f\nappCpuPercent=%.1f\nmachineBusyPercent=%.1f\n", wall,
				(a1 - a0) / hz, 100 * (a1 - a0) / hz / (wall * cpus),
				100 * (1 - (after[2] - before[2]) / (after[1] - before[1]))
		}' > "$out/cpu.properties"
	stop_app
}

if [ "$WEB_SERVER" = true ]; then
	run_side baseline "${BASELINE_GATLING_ARGS[*]}"
else
	run_side baseline "" --spring.profiles.active=boot-default --spring.task.execution.pool.core-size="$BASELINE_THREADS"
fi
run_side poolpilot "${POOLPILOT_GATLING_ARGS[*]-}" ${POOLPILOT_ARGS[@]+"${POOLPILOT_ARGS[@]}"}

java -cp benchmarks/target/benchmarks.jar io.github.poolpilot.benchmarks.loadtest.LoadTestPlots "$RESULTS" "$IMAGES"
echo "Figures: $RESULTS/summary.md; plots: $IMAGES; machine: $MACHINE"
