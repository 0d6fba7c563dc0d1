#!/usr/bin/env bash
# Server load: wrk against TodoServer (SwiftModel's ModelServer on Hummingbird, PostgreSQL)
# and HandWrittenTodoServer (the same routes by hand on Hummingbird + PostgresNIO), one
# after the other on the same database, same rows, same wrk settings.
#
#   Scripts/server-load.sh [SECONDS] [CONNECTIONS]     (defaults: 10 s, 256 connections)
#
# Needs SWIFTMODEL_POSTGRES_URL (Scripts/postgres-cluster.sh start prints it) and wrk.
# Routes: GET /todos/:id (random ids), GET /todos?done=false&limit=20, POST /todos.
# Prints requests/s, p50/p99 latency, errors, and the ratio TodoServer / hand-written.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-10}
connections=${2:-256}
rows=${SERVER_LOAD_ROWS:-10000}
: "${SWIFTMODEL_POSTGRES_URL:?set SWIFTMODEL_POSTGRES_URL (Scripts/postgres-cluster.sh start)}"
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }

# build DIR ARGS…: a release build; a failed one stops the run (never a stale binary).
build() {
  local log
  log=$(mktemp)
  if ! (cd "$1" && swift build -c release "${@:2}") >"$log" 2>&1; then
    cat "$log" >&2
    echo "error: the release build in $1 failed" >&2
    exit 1
  fi
  grep -E "^Build" "$log" || true
}
build Integrations/HummingbirdServer --product TodoServer
build Benchmarks/ServerLoad
todo_server=Integrations/HummingbirdServer/.build/release/TodoServer
hand_server=Benchmarks/ServerLoad/.build/release/HandWrittenTodoServer

# A database of its own, dropped at the end.
# The servers take a URL; the cluster script gives keyword=value conninfo.
field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<<"$SWIFTMODEL_POSTGRES_URL"; }
db=todoload_$$
if [[ $SWIFTMODEL_POSTGRES_URL == postgres* ]]; then
  url="${SWIFTMODEL_POSTGRES_URL%/*}/$db"
else
  url="postgresql://$(field user)@$(field host):$(field port)/$db"
fi
psql "$SWIFTMODEL_POSTGRES_URL" -qc "CREATE DATABASE $db" >/dev/null
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  psql "$SWIFTMODEL_POSTGRES_URL" -qc "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true
}
trap cleanup EXIT

# start NAME BINARY ARGS…: starts a server on a free port, sets $port.
start() {
  local log
  log=$(mktemp)
  "$2" "${@:3}" >"$log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 300); do
    port=$(grep -o 'listening on http://127.0.0.1:[0-9]*' "$log" | head -1 | sed 's/.*://') || true
    [ -n "${port:-}" ] && return 0
    sleep 0.1
  done
  echo "$1 did not start:" >&2
  cat "$log" >&2
  exit 1
}
stop() { kill "${pids[-1]}" 2>/dev/null || true; wait "${pids[-1]}" 2>/dev/null || true; unset 'pids[-1]'; }

# TodoServer creates its tables; then the rows every run reads.
start TodoServer "$todo_server" --postgres "$url" --port 0 --connections 16
curl -s --noproxy '*' -o /dev/null -X POST "http://127.0.0.1:$port/todos" -d '{"title":"first"}'
stop
psql "$url" -qc "TRUNCATE todos RESTART IDENTITY CASCADE;
  INSERT INTO todos (title, done, created_at, updated_at)
  SELECT 'todo ' || k, k % 2 = 0, now(), now() FROM generate_series(1, $rows) AS k; ANALYZE todos" >/dev/null

export SERVER_LOAD_ROWS=$rows
declare -A rps p50 p99 errs
run() {  # run SERVER ROUTE SCRIPT
  local out
  out=$(wrk -t2 -c"$connections" -d"${duration}s" --latency -s "Benchmarks/ServerLoad/wrk/$3.lua" "http://127.0.0.1:$port" 2>&1)
  rps[$1,$2]=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50[$1,$2]=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99[$1,$2]=$(awk '$1 == "99%" {print $2}' <<<"$out")
  local non2xx socket
  non2xx=$(awk '/Non-2xx/ {print $5}' <<<"$out")
  socket=$(awk -F'[ ,]+' '/Socket errors/ {print $4+$6+$8+$10}' <<<"$out")
  errs[$1,$2]=$(( ${non2xx:-0} + ${socket:-0} ))
}

for server in swiftmodel handwritten; do
  if [ $server = swiftmodel ]; then
    start TodoServer "$todo_server" --postgres "$url" --port 0 --connections 16
  else
    start HandWrittenTodoServer "$hand_server" --postgres "$url" --port 0 --connections 16
  fi
  curl -s --noproxy '*' -o /dev/null "http://127.0.0.1:$port/todos/1"  # warm: connections, prepared statements
  run $server "GET /todos/:id" get-by-id
  run $server "GET /todos?done=false&limit=20" list-filter
  run $server "POST /todos" post
  stop
done

printf '\nserver load: wrk -t2 -c%s -d%ss, PostgreSQL, %s rows, 16 connections per server\n' "$connections" "$duration" "$rows"
printf '%-32s %22s %22s %8s\n' "route" "TodoServer req/s (p50/p99)" "hand-written req/s (p50/p99)" "ratio"
status=0
for route in "GET /todos/:id" "GET /todos?done=false&limit=20" "POST /todos"; do
  a=${rps[swiftmodel,$route]:-0}; b=${rps[handwritten,$route]:-0}
  ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')
  printf '%-32s %10s (%s/%s) %10s (%s/%s) %8s\n' "$route" "$a" "${p50[swiftmodel,$route]}" "${p99[swiftmodel,$route]}" \
    "$b" "${p50[handwritten,$route]}" "${p99[handwritten,$route]}" "$ratio"
  for server in swiftmodel handwritten; do
    if [ "${errs[$server,$route]:-0}" != 0 ]; then
      echo "error: $server had ${errs[$server,$route]} failed requests on $route" >&2
      status=1
    fi
  done
done
exit $status
