#!/usr/bin/env python3
"""Instruction counts of the benchmark suites: deterministic where wall clock is not.

Runs each workload of a `ModelBenchmarks` suite once per side (model, baseline, and the
reference where the suite has one) under `valgrind --tool=callgrind`, collecting only
inside the timed bodies (the benchmark's `runTimedBody`, which `time` calls them through), and
prints the instructions and the model's ratio to the baseline (and to the reference).
The same build and arguments give the same counts, so two builds can be compared with
one run each; wall-clock ratios on a shared 2-core machine vary run to run.

With `--sizes A,B` it prints instructions per record instead: the difference between the
two sizes divided by the difference in records, which leaves out fixed costs (preparing
a statement, the first schema lookup). A workload whose work does not grow with the size
(SQLite's "10k lookups by id" does a fixed 10,000) then reads near zero: use one size for it.

    cd Benchmarks && swift build -c release --product ModelBenchmarks && cd ..
    Scripts/instructions.py --adapter sqlite --n 20000
    Scripts/instructions.py --adapter sqlite --only update --sizes 20000,40000

Needs valgrind. Exits non-zero when a run fails or collects nothing (a timed body that
no longer goes through `time`).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# `runTimedBody(_:)`: every timed body of the benchmarks runs inside this one function.
TIME_SYMBOL = "$s15ModelBenchmarks12runTimedBodyyyyyXEF"
SIDES = ("model", "baseline", "reference")


def size_arguments(n):
    return ["--n", str(n), "--sqlite-n", str(n), "--file-n", str(n), "--json-n", str(n)]


def workload_names(bench, adapter, only, n):
    """The suite's workloads (and whether each has a reference), from a native run at `n`."""
    names = {}
    for side in ("model", "reference"):
        arguments = [bench, "--adapter", adapter, "--side", side] + size_arguments(n)
        if only:
            arguments += ["--only", only]
        output = subprocess.run(arguments, capture_output=True, text=True, check=True).stdout
        for line in output.splitlines():
            fields = line.split("\t")
            if len(fields) == 4 and fields[2] == side:
                names.setdefault(fields[1], set()).add(side)
    return names


def instructions(bench, adapter, workload, side, n):
    """Instructions inside the timed body of one side of one workload at size `n`."""
    with tempfile.TemporaryDirectory() as directory:
        arguments = [
            "valgrind", "--tool=callgrind", "--collect-atstart=no", f"--toggle-collect={TIME_SYMBOL}",
            f"--callgrind-out-file={os.path.join(directory, 'callgrind.out')}",
            bench, "--adapter", adapter, "--only", workload, "--side", side,
        ] + size_arguments(n)
        run = subprocess.run(arguments, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"instructions: {workload} ({side}, n = {n}) failed:\n{run.stderr[-2000:]}")
    lines = [line for line in run.stdout.splitlines() if line.count("\t") == 3]
    if len(lines) != 1:
        sys.exit(f"instructions: --only {workload!r} ran {len(lines)} workloads, expected 1")
    match = re.search(r"Collected : (\d+)", run.stderr)
    count = int(match.group(1)) if match else 0
    if count == 0:
        sys.exit(f"instructions: nothing collected for {workload} ({side}): is its timed body still inside time(_:)?")
    return count


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--adapter", default="sqlite", help="array, sqlite, relations, file or json (default sqlite)")
    parser.add_argument("--only", help="workloads whose name starts with this")
    parser.add_argument("--n", type=int, default=20_000, help="records (default 20000)")
    parser.add_argument("--sizes", help="two sizes, A,B: instructions per record between them")
    parser.add_argument("--bench", default="Benchmarks/.build/release/ModelBenchmarks", help="the ModelBenchmarks binary")
    options = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("instructions: valgrind is not installed")
    if not os.access(options.bench, os.X_OK):
        sys.exit(f"instructions: no {options.bench}: cd Benchmarks && swift build -c release --product ModelBenchmarks")
    sizes = [options.n]
    if options.sizes:
        sizes = [int(size) for size in options.sizes.split(",")]
        if len(sizes) != 2 or sizes[0] >= sizes[1] or sizes[0] <= 0:
            sys.exit("instructions: --sizes needs two sizes, the smaller first")

    names = workload_names(options.bench, options.adapter, options.only, min(sizes[0], 300))
    if not names:
        sys.exit(f"instructions: no workload of {options.adapter!r} matches")
    per_record = len(sizes) == 2
    unit = f"instructions per record, n = {sizes[0]} → {sizes[1]}" if per_record else f"instructions, n = {sizes[0]}"
    print(f"{options.adapter}: {unit} (valgrind --tool=callgrind, timed bodies only)")
    print(f"{'workload':<22}{'model':>16}{'baseline':>16}{'ratio':>8}{'reference':>16}{'vs ref':>8}")
    for workload, sides in names.items():
        counts = {}
        for side in SIDES:
            if side == "reference" and "reference" not in sides:
                continue
            measured = [instructions(options.bench, options.adapter, workload, side, n) for n in sizes]
            counts[side] = (measured[1] - measured[0]) / (sizes[1] - sizes[0]) if per_record else measured[0]
        model, baseline = counts["model"], counts["baseline"]
        line = f"{workload:<22}{model:>16,.0f}{baseline:>16,.0f}{model / baseline if baseline else float('nan'):>8.2f}"
        if "reference" in counts:
            reference = counts["reference"]
            line += f"{reference:>16,.0f}{model / reference if reference else float('nan'):>8.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
