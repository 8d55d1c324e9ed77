#!/usr/bin/env bash
# The documented run of docs/cluster.md: three sample-app instances (ports 18101-18103,
# profile "cluster") share talk's limit of 24 calls in flight through a redis-server this
# run starts on port 18190 (never the machine's 6379), in front of one downstream that
# counts the calls in flight. Instance 3 is killed with SIGKILL at 30 s, Redis is paused with
# SIGSTOP at 60 s and let go on at 70 s, the run ends at 90 s. Writes CSVs and summary.txt to
# sample-app/cluster-run/results and the plot to docs/images/cluster/cluster-run.png.
#
# Usage: sample-app/cluster-run/run.sh
# Needs a JDK 17+, redis-server on the PATH and the ports above free. RESULTS and IMAGES
# name other folders for the results and the plot; BUILD=false starts the jars already
# built instead of building them first.
set -euo pipefail
cd "$(dirname "$0")/../.."
for port in 18101 18102 18103 18190; do
	if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
		echo "Port $port is taken: the run needs 18101-18103 and 18190" >&2
		exit 1
	fi
done
command -v redis-server > /dev/null || { echo "redis-server is missing" >&2; exit 1; }
JAR=sample-app/target/poolpilot-sample-app-0.1.0-SNAPSHOT.jar
. sample-app/load-test/common.sh
build_jars "$JAR" benchmarks/target/benchmarks.jar -- -ntp -pl sample-app,benchmarks -am
java -jar benchmarks/target/benchmarks.jar cluster-run \
	--app "$JAR" \
	--results "${RESULTS:-sample-app/cluster-run/results}" --images "${IMAGES:-docs/images/cluster}"
