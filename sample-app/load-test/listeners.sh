#!/usr/bin/env bash
# The listener run of the sample's load test (run.sh --listeners): a flood of orders on the
# sample's RabbitMQ queue, whose listener's consumers are the managed pool orders. Each
# order is handed to a downstream that serves DOWNSTREAM_CAPACITY orders at once, each in
# SERVICE_TIME_MS, the others waiting in line while they hold their consumer: consumers
# beyond its capacity bring no more throughput. The script puts ORDERS orders on the queue
# at once, records the pool (/actuator/threadpools/orders) and the sample's order counts
# (GET /orders) every second until the queue is empty and every order was handled, then
# writes the figures. See docs/load-test.md.
#
# Usage: sample-app/load-test/listeners.sh [--wait-for-quiet]   (or run.sh --listeners)
# Settings (environment): PORT (18435), ORDERS (4000), SERVICE_TIME_MS (50),
# DOWNSTREAM_CAPACITY (4), MAX_SECONDS (300, the longest the flood may take to drain),
# RESULTS (sample-app/load-test/results-listeners), BUILD (true; false starts the jar already
# built instead of building it first).
# Needs a JDK 17+, curl and RabbitMQ on 127.0.0.1:5672 (guest/guest); Maven comes from the
# wrapper.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)

WAIT_FOR_QUIET=false
for arg in "$@"; do
	case "$arg" in
		--listeners) ;;
		--wait-for-quiet) WAIT_FOR_QUIET=true ;;
		*) echo "Unknown argument for the listener run: $arg" >&2; exit 2 ;;
	esac
done
PORT=${PORT:-18435}
ORDERS=${ORDERS:-4000}
SERVICE_TIME_MS=${SERVICE_TIME_MS:-50}
DOWNSTREAM_CAPACITY=${DOWNSTREAM_CAPACITY:-4}
MAX_SECONDS=${MAX_SECONDS:-300}
RESULTS=${RESULTS:-sample-app/load-test/results-listeners}
case "$RESULTS" in /*) ;; *) RESULTS="$ROOT/$RESULTS" ;; esac
JAR=sample-app/target/poolpilot-sample-app-0.1.0-SNAPSHOT.jar
BASE="http://127.0.0.1:$PORT"

. "$ROOT/sample-app/load-test/common.sh"

# A number field of a JSON object, the first one of that name.
field() {
	grep -o "\"$1\":-\{0,1\}[0-9]*" | head -1 | cut -d: -f2
}

if ! (echo > /dev/tcp/127.0.0.1/5672) 2>/dev/null; then
	echo "The listener run needs RabbitMQ on 127.0.0.1:5672 (guest/guest)." >&2
	exit 1
fi
require_free_port "$PORT"

echo "Building the sample..."
build_jars "$JAR" -- -pl sample-app -am

mkdir -p "$RESULTS"
rm -f "$RESULTS"/*.csv "$RESULTS"/*.txt "$RESULTS"/*.log "$RESULTS"/summary.md
MACHINE="$RESULTS/machine.txt"
describe_machine "run: listeners (--listeners)"

if [ "$WAIT_FOR_QUIET" = true ]; then
	wait_for_quiet
fi

cat > "$RESULTS/run.properties" <<PROPERTIES
orders=$ORDERS
serviceTimeMs=$SERVICE_TIME_MS
downstreamCapacity=$DOWNSTREAM_CAPACITY
PROPERTIES

echo "== starting the sample (profile rabbit) on port $PORT"
java -Xms256m -Xmx512m -jar "$JAR" --server.port="$PORT" --spring.profiles.active=rabbit \
	--sample.orders.service-time="${SERVICE_TIME_MS}ms" --sample.orders.downstream-capacity="$DOWNSTREAM_CAPACITY" \
	> "$RESULTS/app.log" 2>&1 &
APP_PID=$!
wait_for_app "$BASE/actuator/health" "$RESULTS/app.log"
# Orders an earlier run left on the queue are handled first; the counts below start after.
for _ in $(seq 1 120); do
	[ "$(curl -s "$BASE/actuator/threadpools/orders" | field queueSize)" = 0 ] && break
	sleep 1
done
echo "load before: $(load)" | tee -a "$MACHINE"

pool=$(curl -s "$BASE/actuator/threadpools/orders")
counts=$(curl -s "$BASE/orders")
completed0=$(echo "$pool" | field completedTasks)
handled0=$(echo "$counts" | field handled)
distinct0=$(echo "$counts" | field distinct)
CSV="$RESULTS/orders.csv"
echo "seconds,consumers,liveConsumers,busyConsumers,queued,completed,published,handled,distinct" > "$CSV"
: > "$RESULTS/decisions.txt"
started=$(date +%s.%N)
sample() {
	local now pool counts
	now=$(date +%s.%N)
	pool=$(curl -s "$BASE/actuator/threadpools/orders")
	counts=$(curl -s "$BASE/orders")
	echo "$(awk -v a="$started" -v b="$now" 'BEGIN { printf "%.2f", b - a }'),$(echo "$pool" | field maxPoolSize),$(echo "$pool" | field poolSize),$(echo "$pool" | field activeCount),$(echo "$pool" | field queueSize),$(($(echo "$pool" | field completedTasks) - completed0)),$(echo "$counts" | field published),$(($(echo "$counts" | field handled) - handled0)),$(($(echo "$counts" | field distinct) - distinct0))" >> "$CSV"
	echo "$pool" | grep -o '"lastDecision":"[^"]*"' | head -1 | cut -d'"' -f4 \
		| sed "s/^/$(tail -1 "$CSV" | cut -d, -f1) s: /" >> "$RESULTS/decisions.txt" || true
}
sample
echo "== flooding the queue with $ORDERS orders"
curl -s -X POST "$BASE/orders?count=$ORDERS" > "$RESULTS/publish.txt" &
PUBLISH_PID=$!
while true; do
	sleep 1
	sample
	last=$(tail -1 "$CSV")
	if ! kill -0 "$PUBLISH_PID" 2>/dev/null && [ "$(echo "$last" | cut -d, -f8)" -ge "$ORDERS" ] \
		&& [ "$(echo "$last" | cut -d, -f5)" = 0 ]; then
		break
	fi
	if awk -v s="$(echo "$last" | cut -d, -f1)" -v m="$MAX_SECONDS" 'BEGIN { exit !(s > m) }'; then
		echo "The queue did not drain within $MAX_SECONDS s" | tee -a "$MACHINE"
		break
	fi
done
wait "$PUBLISH_PID" || true
# Three more seconds: no order comes back to be handled twice once the queue is empty.
sleep 3
sample
echo "load after: $(load)" | tee -a "$MACHINE"
stop_app
# Each decision once, when it was first seen.
awk '{ text = substr($0, index($0, ": ") + 2) } text != previous { print; previous = text }' "$RESULTS/decisions.txt" \
	> "$RESULTS/decisions.tmp" && mv "$RESULTS/decisions.tmp" "$RESULTS/decisions.txt"

awk -F, -v orders="$ORDERS" -v capacity="$DOWNSTREAM_CAPACITY" -v ms="$SERVICE_TIME_MS" '
	NR == 1 { next }
	{
		n++; t[n] = $1; c[n] = $2; q[n] = $5; done[n] = $6; pub = $7; handled = $8; distinct = $9
		if ($2 > most) most = $2
		if ($5 > deepest) deepest = $5
		if ($2 != previous) { changes = changes sprintf("%s%d at %.0f s", (changes == "" ? "" : ", "), $2, $1); previous = $2 }
		if (drained == "" && $6 >= orders && $5 == 0) drained = $1
	}
	END {
		limit = capacity * 1000 / ms
		printf "# Listener run: %d orders flooded onto the orders queue\n\n", orders
		printf "| | |\n|---|---|\n"
		printf "| downstream | %d orders at once, %d ms each: at most %.1f orders/s |\n", capacity, ms, limit
		printf "| orders published / handled / distinct | %d / %d / %d |\n", pub, handled, distinct
		printf "| queue at the end | %d |\n", q[n]
		printf "| nothing lost, none handled twice | %s |\n", (pub == orders && handled == orders && distinct == orders && q[n] == 0) ? "yes" : "NO"
		printf "| deepest queue seen | %d |\n", deepest
		printf "| drained after | %s s |\n", (drained == "" ? "not drained" : drained)
		printf "| consumers over time | %s |\n", changes
		printf "| most consumers | %d |\n\n", most
		printf "Throughput by five-second slice (orders handled per second, limit %.1f), and consumers at the slice'"'"'s end:\n\n", limit
		printf "| slice | orders/s | of the limit | consumers |\n|---|---|---|---|\n"
		# The slices end where the queue drained.
		last = n
		for (i = 1; i <= n; i++) if (drained != "" && t[i] == drained) { last = i; break }
		from = 1
		for (i = 2; i <= last; i++) {
			if (t[i] - t[from] >= 5 || i == last) {
				rate = (done[i] - done[from]) / (t[i] - t[from])
				printf "| %.0f–%.0f s | %.1f | %.0f %% | %d |\n", t[from], t[i], rate, 100 * rate / limit, c[i]
				if (t[from] >= 10) { steady += done[i] - done[from]; steadyTime += t[i] - t[from] }
				from = i
			}
		}
		if (steadyTime > 0) printf "\nFrom 10 s until the queue drained: %.1f orders/s, %.0f %% of the limit.\n", steady / steadyTime, 100 * steady / steadyTime / limit
	}' "$CSV" > "$RESULTS/summary.md"
cat "$RESULTS/summary.md"
if ! grep -q "| nothing lost, none handled twice | yes |" "$RESULTS/summary.md"; then
	echo "Orders were lost, handled twice or left on the queue: $CSV" >&2
	exit 1
fi
echo "Figures: $RESULTS/summary.md; every second: $CSV; machine: $MACHINE"
