#!/usr/bin/env bash
# The live page's cost to the application: requests per second the sample app answers
# (POST /api/start in a closed loop) with no page open, with the page's own requests made
# once a second without a browser ("poll"), and with a real headless Chromium showing the
# page ("browser"; its rendering shares the machine's cores with the app). The phases
# alternate, ROUNDS times, after a warm-up. Needs the sample app's jar
# (./mvnw -pl sample-app -am package -DskipTests) and, for "browser", Debian's chromium.
#
# Usage: sample-app/ui-cost/measure.sh   (PORT, ROUNDS, SECONDS_PER_PHASE, CONCURRENCY, WARM_UP)
set -euo pipefail
cd "$(dirname "$0")/../.."
PORT=${PORT:-18433}
ROUNDS=${ROUNDS:-3}
SECONDS_PER_PHASE=${SECONDS_PER_PHASE:-20}
CONCURRENCY=${CONCURRENCY:-16}
WARM_UP=${WARM_UP:-15}
BASE=http://localhost:$PORT
WORK=$(mktemp -d)
APP=
BROWSER=
cleanup() {
	if [ -n "$BROWSER" ]; then kill "$BROWSER" 2>/dev/null; wait "$BROWSER" 2>/dev/null || true; fi
	if [ -n "$APP" ]; then kill "$APP" 2>/dev/null; wait "$APP" 2>/dev/null || true; fi
	rm -rf "$WORK"
}
trap cleanup EXIT

java -jar sample-app/target/poolpilot-sample-app-0.1.0-SNAPSHOT.jar --server.port="$PORT" \
	--logging.level.root=warn > "$WORK/app.log" 2>&1 &
APP=$!
for _ in $(seq 1 120); do
	curl -s -o /dev/null "$BASE/actuator/health" && break
	sleep 0.5
done
curl -sf -o /dev/null "$BASE/poolpilot/" || { cat "$WORK/app.log"; echo "no page at $BASE/poolpilot/" >&2; exit 1; }

phase() {
	java sample-app/ui-cost/UiCost.java "$BASE" "$1" "$CONCURRENCY" "$2"
}
page_requests() {
	curl -s "$BASE/actuator/prometheus" | awk '/^http_server_requests_seconds_count/ && /uri="\/actuator\/threadpools"/ { n += $NF } END { print n + 0 }'
}

phase "$WARM_UP" none > /dev/null
echo "mode requests/s errors polls"
for round in $(seq 1 "$ROUNDS"); do
	phase "$SECONDS_PER_PHASE" none
	phase "$SECONDS_PER_PHASE" poll
	if command -v chromium > /dev/null; then
		before=$(page_requests)
		chromium --headless=new --no-sandbox --disable-gpu --disable-background-networking \
			--disable-component-update --disable-sync --user-data-dir="$WORK/chromium" \
			"$BASE/poolpilot/" > /dev/null 2>&1 &
		BROWSER=$!
		sleep 3
		result=$(phase "$SECONDS_PER_PHASE" browser)
		kill "$BROWSER" 2>/dev/null; wait "$BROWSER" 2>/dev/null || true
		BROWSER=
		# The browser's polls: how many times the page read the endpoint meanwhile.
		echo "${result% *} $(( $(page_requests) - before ))"
	fi
done
