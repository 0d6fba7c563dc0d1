#!/usr/bin/env bash
# Builds the libFuzzer targets (Tests/Fuzz) with -sanitize=fuzzer,address and runs them.
#
#   Scripts/fuzz.sh                       each target for 60 s (what CI runs)
#   Scripts/fuzz.sh --seconds 14400       each target for 4 hours (a long local run)
#   Scripts/fuzz.sh --seconds 600 FuzzCasting FuzzSQLiteRows
#   Scripts/fuzz.sh --jobs 2              two targets at a time (default: 2)
#
# Each target starts from its seed corpus (Tests/Fuzz/Corpus/<target>) plus what earlier
# runs found interesting (.build-fuzz/corpus/<target>, kept between runs). A crash, leak
# or finding stops the target, leaves the input in .build-fuzz/findings/<target>/ and
# fails the script: copy it to Tests/Fuzz/Regressions/<target>/ so the test suite
# (FuzzRegressionTests) replays it, and fix the bug.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
jobs=2
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(FuzzJSONImport FuzzArchiveReader FuzzSQLiteRows FuzzCasting)

scratch=.build-fuzz
mkdir -p "$scratch"
# swiftc keeps only its last -sanitize= flag, and SwiftPM passes --sanitize values as
# separate flags in no fixed order: alone, they build either without coverage (a blind
# fuzzer) or without ASan. The -Xswiftc flag comes last and asks for both.
build=(swift build -c release --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address --scratch-path "$scratch")
for target in "${targets[@]}"; do
  if ! "${build[@]}" --product "$target" > "$scratch/build.log" 2>&1; then
    cat "$scratch/build.log"
    exit 1
  fi
done
bin=$("${build[@]}" --show-bin-path)

run() {
  local target=$1
  local corpus="$scratch/corpus/$target" findings="$scratch/findings/$target" log="$scratch/$target.log"
  mkdir -p "$corpus" "$findings" "Tests/Fuzz/Regressions/$target"
  # -rss_limit_mb: a runaway allocation is a finding; -timeout: so is an input taking 10 s.
  # SWIFT_BACKTRACE=enable=no: libFuzzer reports a trap itself; Swift's backtracer would
  # trip ASan reading other threads' stacks and hide the real report.
  if SWIFT_BACKTRACE=enable=no "$bin/$target" "$corpus" "Tests/Fuzz/Corpus/$target" "Tests/Fuzz/Regressions/$target" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$findings/" > "$log" 2>&1; then
    # A build without coverage runs happily and finds nothing: refuse it.
    local counters
    counters=$(sed -nE 's/.*\(([0-9]+) inline 8-bit counters\).*/\1/p' "$log" | head -1)
    if [ -z "$counters" ] || [ "$counters" -lt 1000 ] || grep -q "no interesting inputs were found" "$log"; then
      echo "$target: NOT INSTRUMENTED for coverage (${counters:-no} counters; log: $log)"
      return 1
    fi
    local inputs coverage
    inputs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
    coverage=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | sed -nE 's/.*cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+).*/\1 edges, \2 features, \3 corpus inputs/p')
    echo "$target: $inputs inputs in ${seconds} s ($coverage), no finding"
  else
    echo "$target: FINDING (log: $log, input in $findings/)"
    grep -E "fuzz finding:|ERROR: |SUMMARY: |^[[:space:]]+#([0-9]|1[0-9]) |Test unit written|Fatal error|^MS: " "$log" | head -30
    return 1
  fi
}

failed=0
pids=()
for target in "${targets[@]}"; do
  run "$target" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$jobs" ]; then
    wait "${pids[0]}" || failed=1
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
exit $failed
