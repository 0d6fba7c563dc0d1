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
for target in "${targets[@]}"; do
  if ! swift build -c release --sanitize=fuzzer --sanitize=address --scratch-path "$scratch" --product "$target" \
      > "$scratch/build.log" 2>&1; then
    cat "$scratch/build.log"
    exit 1
  fi
done
bin=$(swift build -c release --sanitize=fuzzer --sanitize=address --scratch-path "$scratch" --show-bin-path)

run() {
  local target=$1
  local corpus="$scratch/corpus/$target" findings="$scratch/findings/$target"
  mkdir -p "$corpus" "$findings" "Tests/Fuzz/Regressions/$target"
  # -rss_limit_mb: a runaway allocation is a finding; -timeout: so is an input taking 10 s.
  if "$bin/$target" "$corpus" "Tests/Fuzz/Corpus/$target" "Tests/Fuzz/Regressions/$target" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$findings/" > "$scratch/$target.log" 2>&1; then
    echo "$target: $(grep -E '^stat::number_of_executed_units' "$scratch/$target.log" | awk '{print $2}') inputs in ${seconds} s, no finding"
  else
    echo "$target: FINDING (log: $scratch/$target.log, input in $findings/)"
    tail -40 "$scratch/$target.log"
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
