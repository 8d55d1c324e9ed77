# What the load test's runs share, sourced by run.sh and listeners.sh, and by the cluster
# run's run.sh for its build (not run on its own): the build, the sample started in the
# background and stopped on exit, the machine's description and load, and the wait for a
# quiet machine. Each run sets MACHINE, its machine.txt, before describe_machine and
# wait_for_quiet.

# Build the jars a run starts with Maven's arguments given ("-pl sample-app -am"), unless
# BUILD=false, which starts the jars already built instead (after a build of one's own, or
# in CI, whose docs' commands build them first). Each jar named must then exist.
build_jars() {
	local jars=()
	while [ "$1" != "--" ]; do
		jars+=("$1")
		shift
	done
	shift
	case "${BUILD:-true}" in
		true) ./mvnw -q -B "$@" package -DskipTests ;;
		false)
			for jar in "${jars[@]}"; do
				if [ ! -f "$jar" ]; then
					echo "BUILD=false, but $jar is missing: build it first, or leave BUILD unset" >&2
					exit 1
				fi
			done
			echo "(BUILD=false: the jars already built)" ;;
		*)
			echo "BUILD is '$BUILD'; allowed: true (the default) or false" >&2
			exit 2 ;;
	esac
}

APP_PID=
# Stop the sample (APP_PID), if it runs: TERM, then KILL after 20 s.
stop_app() {
	if [ -n "$APP_PID" ] && kill -0 "$APP_PID" 2>/dev/null; then
		kill "$APP_PID"
		for _ in $(seq 1 40); do
			kill -0 "$APP_PID" 2>/dev/null || break
			sleep 0.5
		done
		kill -9 "$APP_PID" 2>/dev/null || true
		wait "$APP_PID" 2>/dev/null || true
	fi
	APP_PID=
}
trap stop_app EXIT

load() {
	cut -d' ' -f1-3 /proc/loadavg
}

# The CPU time, in seconds, a fixed piece of work takes (30 million additions in awk, on one
# core): about 1.0 s on the machine the docs' runs used when it ran at full speed, more when
# its core runs slower: the other core busy too, or a busy host, which the load average does
# not show.
fixed_work() {
	local TIMEFORMAT=%U
	{ time awk 'BEGIN { for (i = 0; i < 3e7; i++) s += i }'; } 2>&1
}

# Exit unless nothing answers on the port: usage: require_free_port PORT
require_free_port() {
	if curl -s -o /dev/null "http://127.0.0.1:$1/"; then
		echo "Port $1 is taken; set PORT to a free one." >&2
		exit 1
	fi
}

# Wait up to 60 s for the sample (APP_PID) to answer, exiting if it stops first:
# usage: wait_for_app HEALTH_URL LOG
wait_for_app() {
	for _ in $(seq 1 120); do
		curl -s -o /dev/null "$1" && break
		kill -0 "$APP_PID" 2>/dev/null || { echo "The sample did not start: $2" >&2; exit 1; }
		sleep 0.5
	done
}

# Write the run's date, commit, description lines, CPUs and Java to MACHINE:
# usage: describe_machine LINE...
describe_machine() {
	{
		echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
		echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
		printf '%s\n' "$@"
		echo "cpus: $(nproc)"
		echo "java: $(java -version 2>&1 | head -1)"
	} > "$MACHINE"
}

# Wait, polling every 30 s for up to 20 min, until the 1-minute load is below 0.7 and no
# other java process runs; append the load seen to MACHINE either way.
wait_for_quiet() {
	local quiet=false load1 others
	for attempt in $(seq 1 41); do
		load1=$(cut -d' ' -f1 /proc/loadavg)
		others=$(pgrep -x java | tr '\n' ' ' || true)
		if awk -v l="$load1" 'BEGIN { exit !(l < 0.7) }' && [ -z "$others" ]; then
			quiet=true
			break
		fi
		echo "Waiting for a quiet machine: load $(load), other java processes: ${others:-none} ($attempt/41)"
		[ "$attempt" -lt 41 ] && sleep 30
	done
	if [ "$quiet" = true ]; then
		echo "quiet before the run: load $(load), no other java process" | tee -a "$MACHINE"
	else
		echo "NOT QUIET after 20 min: load $(load), other java processes: $(pgrep -x java | tr '\n' ' ')" \
			| tee -a "$MACHINE"
	fi
}
