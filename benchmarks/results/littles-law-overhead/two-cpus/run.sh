#!/usr/bin/env bash
# ExecutorOverheadBenchmark in the shape that fits two CPUs: one producer and a pool of one
# thread (-t 1 -p poolSize=1), so that the two busy threads have a CPU each; and the default
# shape (2 producers, 2 threads) beside it for raw and managed. Interleaved rounds: each
# round runs every executor once (-f 1, 3 + 3 iterations of 1 s, -prof gc and, where perf
# works, perfnorm's task-clock), so that each ratio to raw is taken within one round.
# OLD_JAR is the benchmark jar of the design before Little's law (main at d334946), NEW_JAR
# this commit's, both built by `./mvnw -pl benchmarks -am package -DskipTests` with this
# commit's benchmark class. Run from this folder at nice -10.
# Usage: run.sh OLD_JAR NEW_JAR ROUNDS [FIRST]   (rounds FIRST (1) to ROUNDS; writes rounds/<shape>-<task>-<side>-<executor>-<round>.csv)
set -euo pipefail
old="$1"
new="$2"
rounds="$3"
first="${4:-1}"
mkdir -p rounds
profilers=(-prof gc)
if perf stat -e task-clock true > /dev/null 2>&1; then
	profilers+=(-prof "perfnorm:events=task-clock,context-switches")
fi
run() { # jar side executor task round shape-name threads pool-size
	echo "$(date -u +%T) round $5 $6 $2 $3 $4 load $(cut -d' ' -f1-3 /proc/loadavg)" >> rounds/runs.txt
	java -jar "$1" ExecutorOverheadBenchmark -p executor="$3" -p task="$4" -t "$7" -p poolSize="$8" \
		-f 1 -wi 3 -i 3 -w 1 -r 1 "${profilers[@]}" \
		-rf csv -rff "rounds/$6-$4-$2-$3-$5.csv" > "rounds/$6-$4-$2-$3-$5.log" 2>&1
}
for round in $(seq "$first" "$rounds"); do
	for task in trivial 1us; do
		run "$new" new raw "$task" "$round" one 1 1
		run "$old" old managed "$task" "$round" one 1 1
		run "$new" new managed "$task" "$round" one 1 1
		run "$new" new timing-floor "$task" "$round" one 1 1
		run "$new" new micrometer "$task" "$round" one 1 1
		run "$new" new dynamictp "$task" "$round" one 1 1
		run "$new" new raw "$task" "$round" two 2 2
		run "$new" new managed "$task" "$round" two 2 2
	done
done
echo "$(date -u +%T) done" >> rounds/runs.txt
