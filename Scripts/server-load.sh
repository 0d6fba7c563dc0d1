#!/usr/bin/env bash
# Server load: wrk against TodoServer (SwiftModel's ModelServer on Hummingbird, PostgreSQL)
# and HandWrittenTodoServer (the same routes by hand on Hummingbird + PostgresNIO), on the
# same database, same rows, same wrk settings.
#
#   Scripts/server-load.sh [SECONDS] [CONNECTIONS] [ROUNDS]   (defaults: 10 s, 256, 3 rounds)
#
# Needs SWIFTMODEL_POSTGRES_URL (Scripts/postgres-cluster.sh start prints it) and wrk.
# SERVER_LOAD_CONFIGURATION=debug builds both servers in debug: a smoke run that checks the
# routes and the script (CI), whose figures say nothing of speed; the default is release.
# Routes: GET /todos/:id (random ids), GET /todos?done=false&limit=20, POST /todos.
# Both servers run from the start (an idle one costs nothing); each round runs every route
# against one and then the other, the first alternating between rounds, and every run
# starts from the same table (the rows POSTs added are deleted and the table vacuumed), so
# neither server's figures depend on running first or on the other's inserts.
# Prints each server's median requests/s with its median p50/p99 latency, errors, and the
# ratio of the medians, TodoServer / hand-written.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-10}
connections=${2:-256}
rounds=${3:-3}
rows=${SERVER_LOAD_ROWS:-10000}
configuration=${SERVER_LOAD_CONFIGURATION:-release}
case $configuration in release | debug) ;; *) echo "SERVER_LOAD_CONFIGURATION is release or debug" >&2; exit 2 ;; esac
: "${SWIFTMODEL_POSTGRES_URL:?set SWIFTMODEL_POSTGRES_URL (Scripts/postgres-cluster.sh start)}"
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }

# build DIR ARGS…: a build in $configuration; a failed one stops the run (never a stale binary).
build() {
  local log
  log=$(mktemp)
  if ! (cd "$1" && swift build -c "$configuration" "${@:2}") >"$log" 2>&1; then
    cat "$log" >&2
    echo "error: the $configuration build in $1 failed" >&2
    rm -f "$log"
    exit 1
  fi
  grep -E "^Build" "$log" || true
  rm -f "$log"
}
# One package holds both servers, so Hummingbird and SwiftNIO build once.
build Integrations/HummingbirdServer --product TodoServer
build Integrations/HummingbirdServer --product HandWrittenTodoServer
todo_server=Integrations/HummingbirdServer/.build/$configuration/TodoServer
hand_server=Integrations/HummingbirdServer/.build/$configuration/HandWrittenTodoServer
[ "$configuration" = release ] || echo "server-load: $configuration builds: a smoke run; the ratios below say nothing of speed"

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
curl -s --noproxy '*' -o /dev/null -X POST "http://127.0.0.1:$port/todos" -H 'Content-Type: application/json' -d '{"title":"first"}'
stop
psql "$url" -qc "TRUNCATE todos RESTART IDENTITY CASCADE;
  INSERT INTO todos (title, done, created_at, updated_at)
  SELECT 'todo ' || k, k % 2 = 0, now(), now() FROM generate_series(1, $rows) AS k; ANALYZE todos" >/dev/null

export SERVER_LOAD_ROWS=$rows
# Back to the seeded rows: what a POST run added goes (the sequence goes on, so ids a
# server reserved stay unused), and vacuum makes the table as the first run found it.
reseed() {
  psql "$url" -qc "DELETE FROM todos WHERE id > $rows" >/dev/null
  psql "$url" -qc "VACUUM ANALYZE todos" >/dev/null
}

start TodoServer "$todo_server" --postgres "$url" --port 0 --connections 16
declare -A ports
ports[swiftmodel]=$port
start HandWrittenTodoServer "$hand_server" --postgres "$url" --port 0 --connections 16
ports[handwritten]=$port
for server in swiftmodel handwritten; do  # warm: connections, prepared statements
  curl -s --noproxy '*' -o /dev/null "http://127.0.0.1:${ports[$server]}/todos/1"
done

declare -A rps p50 p99 errs
run() {  # run SERVER ROUTE SCRIPT: one wrk run; appends its figures to the server's lists
  local out
  reseed
  out=$(wrk -t2 -c"$connections" -d"${duration}s" --latency -s "Benchmarks/ServerLoad/wrk/$3.lua" \
    "http://127.0.0.1:${ports[$1]}" 2>&1)
  rps[$1,$2]+="$(awk '/Requests\/sec/ {print $2}' <<<"$out") "
  p50[$1,$2]+="$(awk '$1 == "50%" {print $2}' <<<"$out") "
  p99[$1,$2]+="$(awk '$1 == "99%" {print $2}' <<<"$out") "
  local non2xx socket
  non2xx=$(awk '/Non-2xx/ {print $5}' <<<"$out")
  socket=$(awk -F'[ ,]+' '/Socket errors/ {print $4+$6+$8+$10}' <<<"$out")
  errs[$1,$2]=$(( ${errs[$1,$2]:-0} + ${non2xx:-0} + ${socket:-0} ))
}

# median VALUES…: the middle value (the lower middle of an even count); latencies keep
# their unit and are compared in milliseconds.
median() {
  printf '%s\n' "$@" | awk '
    { v = $1; x = v + 0; if (v ~ /us$/) x /= 1000; else if (v ~ /[0-9]s$/ && v !~ /ms$/) x *= 1000
      print x, v }' | sort -g | awk '{ a[NR] = $2 } END { print a[int((NR + 1) / 2)] }'
}

routes=("GET /todos/:id" "GET /todos?done=false&limit=20" "POST /todos")
scripts=(get-by-id list-filter post)
for round in $(seq 1 "$rounds"); do
  if (( round % 2 )); then order=(swiftmodel handwritten); else order=(handwritten swiftmodel); fi
  for r in 0 1 2; do
    for server in "${order[@]}"; do run "$server" "${routes[$r]}" "${scripts[$r]}"; done
  done
done

printf '\nserver load: wrk -t2 -c%s -d%ss, %s rounds, PostgreSQL, %s rows, 16 connections per server\n' \
  "$connections" "$duration" "$rounds" "$rows"
printf '%-32s %30s %30s %6s  %s\n' "route" "TodoServer req/s (p50/p99)" "hand-written req/s (p50/p99)" "ratio" "ratios by round"
status=0
for route in "${routes[@]}"; do
  # shellcheck disable=SC2086 # the lists are space-separated numbers
  a=$(median ${rps[swiftmodel,$route]}); b=$(median ${rps[handwritten,$route]})
  ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')
  # shellcheck disable=SC2086
  each=$(paste -d' ' <(tr ' ' '\n' <<<"${rps[swiftmodel,$route]}") <(tr ' ' '\n' <<<"${rps[handwritten,$route]}") |
    awk 'NF == 2 && $2 > 0 { printf "%s%.2f", sep, $1 / $2; sep = " " }')
  # shellcheck disable=SC2086
  printf '%-32s %10s (%s/%s) %10s (%s/%s) %6s  %s\n' "$route" \
    "$a" "$(median ${p50[swiftmodel,$route]})" "$(median ${p99[swiftmodel,$route]})" \
    "$b" "$(median ${p50[handwritten,$route]})" "$(median ${p99[handwritten,$route]})" "$ratio" "$each"
  for server in swiftmodel handwritten; do
    if [ "${errs[$server,$route]:-0}" != 0 ]; then
      echo "error: $server had ${errs[$server,$route]} failed requests on $route" >&2
      status=1
    fi
  done
done
exit $status
