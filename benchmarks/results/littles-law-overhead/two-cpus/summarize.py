#!/usr/bin/env python3
"""Medians of the interleaved rounds in rounds/: per shape, task and executor, the
throughput, its ratio to raw of the same round (median and range), bytes and CPU ns per
task. Usage: summarize.py (from this folder)."""
import csv
import glob
import os
import statistics
from collections import defaultdict

runs = defaultdict(dict)  # (shape, task, side-executor) -> round -> figures
for path in glob.glob("rounds/*.csv"):
    shape, task, side, rest = os.path.basename(path)[:-4].split("-", 3)
    executor, round_ = rest.rsplit("-", 1)
    figures = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            name = row["Benchmark"].rsplit(":", 1)
            key = name[1] if len(name) == 2 else "score"
            figures[key] = float(row["Score"])
    if "score" in figures:  # a run still going, or one that failed, has none
        runs[(shape, task, side + " " + executor)][int(round_)] = figures

for shape in ("one", "two"):
    for task in ("trivial", "1us"):
        print(f"\n{shape} producer(s)/thread(s), {task}")
        print("| executor | tasks/s (median) | vs raw, same round: median (range) | bytes/task | CPU ns/task |")
        print("|---|---:|---:|---:|---:|")
        raw = runs.get((shape, task, "new raw"), {})
        for (s, t, executor), rounds in sorted(runs.items()):
            if (s, t) != (shape, task):
                continue
            ratios = [r["score"] / raw[n]["score"] for n, r in rounds.items() if n in raw] or [float("nan")]
            score = statistics.median(r["score"] for r in rounds.values())
            alloc = statistics.median(r.get("gc.alloc.rate.norm", float("nan")) for r in rounds.values())
            cpu = statistics.median(r.get("task-clock", float("nan")) * 1e6 for r in rounds.values())
            print(f"| {executor} | {score:,.0f} | {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f}) "
                  f"| {alloc:.1f} | {cpu:.0f} |")
