#!/usr/bin/env bash
# A throwaway pg_auto_failover formation on loopback for the failover tests: a monitor, a
# primary and a secondary (synchronous replication), each node supervised by `pg_autoctl run`.
#
#   Scripts/failover-cluster.sh run -- COMMAND...
#       starts the formation, exports SWIFTMODEL_FAILOVER_URL (both nodes in one multi-host
#       libpq string with target_session_attrs=read-write), SWIFTMODEL_FAILOVER_STANDBY_URL
#       (both nodes, target_session_attrs=prefer-standby: the standby while there is one) and SWIFTMODEL_FAILOVER_DIR, runs COMMAND,
#       then stops everything and deletes the directory, whatever COMMAND did.
#   Scripts/failover-cluster.sh start DIR        (prints the exports; for a shell)
#   Scripts/failover-cluster.sh kill-primary DIR (SIGKILL to the primary's keeper and postmaster)
#   Scripts/failover-cluster.sh state DIR        (pg_autoctl show state)
#   Scripts/failover-cluster.sh stop DIR
#
# The monitor's health checks are tightened (1 s period, promotion 3 s after the primary is
# lost instead of 30 s) so a failover takes seconds, as a test needs; the keepers' network
# partition timeout is lowered to match, so a primary cut off from the monitor and standby
# still demotes itself before the standby is promoted. Trust authentication, no TLS,
# fsync off: test data only. As root, everything runs as the `postgres` user.
set -euo pipefail

bindir=""
for candidate in /usr/lib/postgresql/*/bin; do
    if [ -x "$candidate/pg_ctl" ]; then bindir="$candidate"; fi
done
[ -n "$bindir" ] || { echo "failover-cluster: no PostgreSQL server binaries (apt-get install postgresql)" >&2; exit 2; }
command -v pg_autoctl >/dev/null 2>&1 || { echo "failover-cluster: no pg_autoctl (apt-get install postgresql-15-auto-failover)" >&2; exit 2; }

as_server() {
    local dir="$1"; shift
    local env=(env "XDG_CONFIG_HOME=$dir/xdg/config" "XDG_DATA_HOME=$dir/xdg/data" "XDG_RUNTIME_DIR=$dir/xdg/run" "PG_CONFIG=$bindir/pg_config" "PATH=$bindir:$PATH")
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "${env[@]}" "$@"; else "${env[@]}" "$@"; fi
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

monitor_sql() {
    local dir="$1" sql="$2"
    as_server "$dir" "$bindir/psql" -X -q -t -A -h 127.0.0.1 -p "$(cat "$dir/monitor.port")" -U autoctl_node -d pg_auto_failover -c "$sql"
}

# Waits until the monitor reports `count` nodes whose reported and goal states are `state`.
wait_for() {
    local dir="$1" state="$2" count="$3" seconds="$4"
    for _ in $(seq $((seconds * 5))); do
        local n; n=$(monitor_sql "$dir" "SELECT count(*) FROM pgautofailover.node WHERE reportedstate = '$state' AND goalstate = '$state'" 2>/dev/null || echo 0)
        [ "$n" = "$count" ] && return 0
        sleep 0.2
    done
    echo "failover-cluster: no $count node(s) in state $state after ${seconds}s" >&2
    as_server "$dir" pg_autoctl show state --pgdata "$dir/monitor" >&2 || true
    return 1
}

run_node() {
    local dir="$1" name="$2"
    as_server "$dir" nohup pg_autoctl run --pgdata "$dir/$name" >"$dir/$name.log" 2>&1 &
    echo $! >"$dir/$name.keeper"
}

start() {
    local dir="$1"
    mkdir -p "$dir/xdg/config" "$dir/xdg/data" "$dir/xdg/run"
    chmod 700 "$dir/xdg/run"
    if [ "$(id -u)" = 0 ]; then chown -R postgres "$dir"; chmod 700 "$dir"; fi
    local mport p1 p2
    mport=$(free_port); p1=$(free_port); p2=$(free_port)
    echo "$mport" >"$dir/monitor.port"
    as_server "$dir" pg_autoctl create monitor --pgdata "$dir/monitor" --pgport "$mport" --hostname 127.0.0.1 \
        --auth trust --no-ssl --pgctl "$bindir/pg_ctl" >"$dir/create-monitor.log" 2>&1
    cat >>"$dir/monitor/postgresql.conf" <<CONF
pgautofailover.health_check_period = 1000
pgautofailover.health_check_timeout = 1000
pgautofailover.health_check_max_retries = 1
pgautofailover.health_check_retry_delay = 500
pgautofailover.node_considered_unhealthy_timeout = 2000
pgautofailover.primary_demote_timeout = 3000
CONF
    run_node "$dir" monitor
    local monitor_uri="postgres://autoctl_node@127.0.0.1:$mport/pg_auto_failover?sslmode=disable"
    for _ in $(seq 100); do monitor_sql "$dir" "SELECT 1" >/dev/null 2>&1 && break; sleep 0.2; done
    local node port
    for node in node1 node2; do
        port=$p1; [ "$node" = node2 ] && port=$p2
        as_server "$dir" pg_autoctl create postgres --pgdata "$dir/$node" --pgport "$port" --hostname 127.0.0.1 \
            --auth trust --no-ssl --pgctl "$bindir/pg_ctl" --dbname swiftmodel --name "$node" \
            --monitor "$monitor_uri" >"$dir/create-$node.log" 2>&1
        printf 'fsync = off\nfull_page_writes = off\nmax_connections = 200\n' >>"$dir/$node/postgresql.conf"
        as_server "$dir" pg_autoctl config set --pgdata "$dir/$node" timeout.network_partition_timeout 2 >/dev/null
        run_node "$dir" "$node"
        if [ "$node" = node1 ]; then wait_for "$dir" single 1 60; fi
    done
    wait_for "$dir" primary 1 90
    wait_for "$dir" secondary 1 90
    local hosts="host=127.0.0.1,127.0.0.1 port=$p1,$p2 dbname=swiftmodel user=postgres connect_timeout=2"
    echo "export SWIFTMODEL_FAILOVER_URL='$hosts target_session_attrs=read-write'"
    echo "export SWIFTMODEL_FAILOVER_STANDBY_URL='$hosts target_session_attrs=prefer-standby'"
    echo "export SWIFTMODEL_FAILOVER_DIR='$dir'"
}

# The node the monitor says is primary.
primary_node() {
    monitor_sql "$1" "SELECT nodename FROM pgautofailover.node WHERE reportedstate IN ('primary', 'wait_primary', 'single') ORDER BY nodeid LIMIT 1"
}

kill_primary() {
    local dir="$1" node
    node=$(primary_node "$dir")
    [ -n "$node" ] || { echo "failover-cluster: no primary to kill" >&2; exit 1; }
    # The keeper and everything under it (its start/stop process would restart Postgres),
    # all at once, then the postmaster.
    local pids; pids=$(tree "$(cat "$dir/$node.keeper")")
    [ -f "$dir/$node/postmaster.pid" ] && pids="$pids $(head -1 "$dir/$node/postmaster.pid")"
    # shellcheck disable=SC2086
    kill -9 $pids 2>/dev/null || true
    echo "$node"
}

# A process and all its descendants.
tree() {
    local pid="$1" child
    echo "$pid"
    for child in $(pgrep -P "$pid" || true); do tree "$child"; done
}

stop() {
    local dir="$1"
    [ -d "$dir" ] || return 0
    for node in node1 node2 monitor; do
        if [ -f "$dir/$node.keeper" ]; then
            # shellcheck disable=SC2046
            kill -9 $(tree "$(cat "$dir/$node.keeper")") 2>/dev/null || true
        fi
        if [ -f "$dir/$node/postmaster.pid" ]; then
            as_server "$dir" "$bindir/pg_ctl" -D "$dir/$node" -m immediate -w stop >/dev/null 2>&1 || true
        fi
    done
    rm -rf "$dir"
}

command="${1:-}"; shift || true
case "$command" in
    start) start "$1" ;;
    stop) stop "$1" ;;
    kill-primary) kill_primary "$1" ;;
    state) as_server "$1" pg_autoctl show state --pgdata "$1/monitor" ;;
    run)
        [ "${1:-}" = "--" ] && shift
        dir=$(mktemp -d /tmp/swiftmodel-paf.XXXXXX)
        trap 'stop "$dir"' EXIT
        exports=$(start "$dir")
        eval "$exports"
        "$@"
        ;;
    *) sed -n '2,19p' "$0"; exit 2 ;;
esac
