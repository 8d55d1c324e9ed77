#!/usr/bin/env bash
# ExecutorOverheadBenchmark of two builds of the benchmark jar, each combination run by one
# jar and then the other, back to back. The jars: benchmarks/target/benchmarks.jar built at
# each commit (./mvnw -pl benchmarks -am package -DskipTests), copied to old.jar and new.jar.
# Usage: overhead.sh OLD_JAR NEW_JAR   (writes overhead-{old,new}-EXECUTOR-TASK.csv here)
set -euo pipefail
declare -A jars=([old]="$1" [new]="$2")
for task in trivial 1us; do
	for ex in raw timing-floor managed-full managed-sampled; do
		for side in old new; do
			java -jar "${jars[$side]}" ExecutorOverheadBenchmark -p executor="$ex" -p task="$task" -prof gc \
				-rf csv -rff "overhead-$side-$ex-$task.csv" > "overhead-$side-$ex-$task.log" 2>&1
		done
	done
done
