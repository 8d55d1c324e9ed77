#!/usr/bin/env bash
# Instructions per task of each path of a managed pool, counted by Valgrind's callgrind, which
# counts the instructions a program runs whatever else the machine does (a throughput benchmark
# on a shared two-CPU machine does not reproduce; this does, to a few instructions a task).
#
# Each path runs under callgrind once (`java -jar benchmarks.jar paths PATH N`, see PathCost):
# ten warm-up rounds of N tasks, then one measured round between two calls of Thread.sleep, at
# which callgrind dumps its counts (--dump-before=JVM_Sleep), so that one dump holds the
# measured round alone, whatever the JVM's start, compiles and warm-up cost. `path thread` is
# the thread that runs the path (the Java main thread, or the pool thread that end-count
# starts), `others` any other thread in the same dump: callgrind writes the counts of the thread
# that called Thread.sleep only, so it is 0 and the JVM's own threads (JIT, GC) are not seen.
# executor-raw and executor-managed run a whole executor's two paths of a trivial task, one
# after the other: `execute` on the main thread (dump 22, printed as PATH/execute) and the
# pool's thread running the queued tasks with its hooks (dump 23, PATH/run); their difference
# is what the managed pool adds to ThreadPoolExecutor's own paths. A dump holds the counts of
# the thread that called Thread.sleep, since that thread's dump before.
#
# Usage: benchmarks/paths.sh [N] [PATH ...]
#   N     tasks of each round (default 500000)
#   PATH  submit-count, submit-draw, end-count, executor-raw, executor-managed (default: all)
# Environment: JAR (default benchmarks/target/benchmarks.jar), JAVA (default java).
#
# What it does not count: how long an instruction takes. A locked compare-and-swap is one
# instruction and costs tens of cycles; an integer division is one and costs twenty or more;
# a cache miss is none. Read the counts beside what each instruction is.
set -euo pipefail
JAR=${JAR:-benchmarks/target/benchmarks.jar}
JAVA=${JAVA:-java}
N=${1:-500000}
shift || true
if [ "$#" -gt 0 ]; then
	CASES=("$@")
else
	CASES=(submit-count submit-draw end-count executor-raw executor-managed)
fi
command -v valgrind > /dev/null || { echo "valgrind is not installed (Debian: apt-get install valgrind)" >&2; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# The dump of the measured round: the 10 warm-up rounds' pauses make dumps 1 to 10, the pause
# after the last of them dump 11, the measured round dump 12.
MEASURED_DUMP=12

# Run PATH under callgrind.
run() {
	local case=$1 tasks=$2 dir="$WORK/$1"
	mkdir -p "$dir"
	valgrind --tool=callgrind --separate-threads=yes --dump-before=JVM_Sleep --callgrind-out-file="$dir/out" \
		"$JAVA" -XX:+UseSerialGC -Xms256m -Xmx256m -XX:-UseDynamicNumberOfCompilerThreads \
		-XX:+UnlockDiagnosticVMOptions -XX:-ImplicitNullChecks \
		-jar "$JAR" paths "$case" "$tasks" > "$dir/log" 2>&1 || { cat "$dir/log" >&2; return 1; }
}

# Print a row of PATH's dump DUMP: the thread that ran the most instructions is the path's;
# the others are the JVM's.
row() {
	local case=$1 name=$2 dump=$3
	awk -v c="$name" -v n="$N" '/^totals:/ { sum += $2; if ($2 > most) most = $2 }
		END { printf "%-24s %12.1f %12.1f\n", c, most / n, (sum - most) / n }' "$WORK/$case"/out.$dump-*
}

printf '%-24s %12s %12s\n' path 'path thread' others
for case in "${CASES[@]}"; do
	run "$case" "$N"
	case $case in
	executor-*)
		row "$case" "$case/execute" 22
		row "$case" "$case/run" 23
		;;
	*) row "$case" "$case" $MEASURED_DUMP ;;
	esac
done
