#!/usr/bin/env bash
# ExecutorOverheadBenchmark side by side: the benchmark jar of the previous design (OLD_JAR,
# every task timed) and of the design that measures by Little's law (NEW_JAR), each built with
# `./mvnw -pl benchmarks -am package -DskipTests` at its commit and the same benchmark class.
# Every combination runs with JMH's defaults (2 forks, 3 + 5 iterations of 2 s), -prof gc and
# perfnorm (task-clock: the CPU time of the whole JVM), one after the other, the old jar's run
# of the managed pool right before the new one's; the virtual pools run on Java 25 (JAVA25, a
# java executable).
# Usage: overhead.sh OLD_JAR NEW_JAR JAVA25   (writes <side>-<executor>-<task>.csv/.log here)
set -euo pipefail
old="$1"
new="$2"
java25="$3"
run() { # side jar java executor task
	echo "$(date -u +%T) $1 $4 $5 load $(cut -d' ' -f1-3 /proc/loadavg)" >> runs.txt
	"$3" -jar "$2" ExecutorOverheadBenchmark -p executor="$4" -p task="$5" -prof gc -prof "perfnorm:events=task-clock,context-switches" \
		-rf csv -rff "$1-$4-$5.csv" > "$1-$4-$5.log" 2>&1
}
for task in trivial 1us; do
	run new "$new" java raw "$task"
	run old "$old" java managed "$task"
	run new "$new" java managed "$task"
	run new "$new" java timing-floor "$task"
	run new "$new" java micrometer "$task"
	run new "$new" java dynamictp "$task"
	run old "$old" java raw "$task"
done
run old "$old" "$java25" virtual trivial
run new "$new" "$java25" virtual trivial
run new "$new" "$java25" virtual-bare trivial
