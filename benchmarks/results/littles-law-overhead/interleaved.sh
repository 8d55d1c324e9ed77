#!/usr/bin/env bash
# ExecutorOverheadBenchmark in interleaved rounds, for a machine whose load drifts: each
# round runs every executor once, one after the other (-f 1, 3 + 3 iterations of 1 s,
# -prof gc and perfnorm's task-clock, the CPU time of the whole JVM), so that each ratio to
# raw is taken within one round, a minute or two apart. OLD_JAR and NEW_JAR are the benchmark
# jars of the previous design and of the one measuring by Little's law, both built with
# `./mvnw -pl benchmarks -am package -DskipTests` and the same benchmark class; the virtual
# pools run on JAVA25 (a java executable).
# Usage: interleaved.sh OLD_JAR NEW_JAR JAVA25 ROUNDS   (writes rounds/<task>-<side>-<executor>-<round>.csv)
set -euo pipefail
old="$1"
new="$2"
java25="$3"
rounds="$4"
mkdir -p rounds
run() { # java jar side executor task round
	echo "$(date -u +%T) round $6 $3 $4 $5 load $(cut -d' ' -f1-3 /proc/loadavg)" >> rounds/runs.txt
	"$1" -jar "$2" ExecutorOverheadBenchmark -p executor="$4" -p task="$5" -f 1 -wi 3 -i 3 -w 1 -r 1 \
		-prof gc -prof "perfnorm:events=task-clock,context-switches" \
		-rf csv -rff "rounds/$5-$3-$4-$6.csv" > "rounds/$5-$3-$4-$6.log" 2>&1
}
for round in $(seq 1 "$rounds"); do
	for task in trivial 1us; do
		run java "$new" new raw "$task" "$round"
		run java "$old" old managed "$task" "$round"
		run java "$new" new managed "$task" "$round"
		run java "$new" new timing-floor "$task" "$round"
		run java "$new" new micrometer "$task" "$round"
		run java "$new" new dynamictp "$task" "$round"
	done
	run "$java25" "$new" new virtual-bare trivial "$round"
	run "$java25" "$old" old virtual trivial "$round"
	run "$java25" "$new" new virtual trivial "$round"
done
