#!/usr/bin/env bash
# The smoke applications: small real applications (smoke-tests/<shape>/), each built as an
# executable jar against the starter of this clone, started with java -jar and checked over
# HTTP by the runner's tests (smoke-tests/runner/). The shapes and what each checks are in
# docs/compatibility.md.
#
# Usage: smoke-tests/run.sh    (.ci/run calls it after ./mvnw verify; Maven options, e.g.
# -Dmaven.repo.local=..., go in MAVEN_ARGS as for ./mvnw)
#
# The library is installed into a Maven repository of its own (target/smoke-tests-m2), in
# front of the usual one, which is only read: nothing of this clone lands in ~/.m2. The
# applications are built from clean, so that each jar holds the starter just installed.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd -P)
LOGS=$ROOT/smoke-tests/runner/target/smoke-logs
REPO=$ROOT/target/smoke-tests-m2

# Whatever a test JVM that was itself killed left running: the pid files of the applications
# still running, each checked to be a smoke application of this clone before it is killed.
kill_leftovers() {
	local file pid cmdline
	for file in "$LOGS"/*.pid; do
		[ -e "$file" ] || continue
		pid=$(cat "$file")
		# Read whole, not piped into grep -q: under pipefail, grep leaving early could fail
		# the pipe and spare the process.
		cmdline=$(tr '\0' ' ' 2>/dev/null < "/proc/$pid/cmdline") || cmdline=
		if [[ $cmdline == *"$ROOT/smoke-tests/"* ]]; then
			echo "Killing smoke application $pid, left running ($file)" >&2
			kill -9 "$pid" 2>/dev/null || true
		fi
		rm -f "$file"
	done
}
rm -rf "$LOGS"
trap kill_leftovers EXIT

started=$(date +%s)
# The usual repository: the one MAVEN_ARGS names, or Maven's default.
BASE_REPO=$HOME/.m2/repository
if [[ " ${MAVEN_ARGS:-} " =~ \ -Dmaven\.repo\.local=([^ ]+)\  ]]; then
	BASE_REPO=${BASH_REMATCH[1]}
fi
# Tests and the format check were run by ./mvnw verify.
echo "Installing the starter into $REPO (reading $BASE_REPO)"
./mvnw -B -q -ntp install -DskipTests -Dspring-javaformat.skip=true -pl starter -am \
	-Dmaven.repo.local="$REPO" -Dmaven.repo.local.tail="$BASE_REPO"
echo "Installed in $(($(date +%s) - started)) s; building and checking the smoke applications"
./mvnw -B -ntp -f smoke-tests/pom.xml clean verify \
	-Dmaven.repo.local="$REPO" -Dmaven.repo.local.tail="$BASE_REPO"
echo "Smoke applications: passed in $(($(date +%s) - started)) s"
