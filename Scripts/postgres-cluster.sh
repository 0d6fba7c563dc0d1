#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on loopback for tests, CI and benchmarks.
#
#   Scripts/postgres-cluster.sh run [--replica] -- COMMAND...
#       starts a primary (and a streaming hot-standby replica), exports
#       SWIFTMODEL_POSTGRES_URL (and SWIFTMODEL_POSTGRES_REPLICA_URL, and, when the
#       `pgbouncer` binary is installed, SWIFTMODEL_PGBOUNCER_URL: PgBouncer in
#       transaction pooling mode in front of the primary), runs COMMAND,
#       then stops both servers and deletes their directories, whatever COMMAND did.
#   Scripts/postgres-cluster.sh start [--replica] DIR   (prints the exports; for a shell)
#   Scripts/postgres-cluster.sh stop DIR
#
# The servers listen on 127.0.0.1 at free ports and on a Unix socket in DIR, with
# trust authentication for the `postgres` user, fsync off (test data only: survives a
# server crash, not an OS crash; commits are synchronous so a crash loses no commit). initdb
# refuses to run as root: as root, the servers run as the `postgres` user (runuser).
set -euo pipefail

bindir=""
for candidate in "$(command -v pg_ctl 2>/dev/null | xargs -r dirname)" /usr/lib/postgresql/*/bin; do
    if [ -n "$candidate" ] && [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ] && [ -x "$candidate/pg_basebackup" ]; then
        bindir="$candidate"
        break
    fi
done
[ -n "$bindir" ] || { echo "postgres-cluster: no PostgreSQL server binaries (apt-get install postgresql)" >&2; exit 2; }

as_server() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

start() {
    local replica="$1" dir="$2"
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; chmod 700 "$dir"; fi
    local port; port=$(free_port)
    as_server "$bindir/initdb" -D "$dir/primary" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || as_server "$bindir/initdb" -D "$dir/primary" -U postgres --auth=trust -E UTF8 --locale=C >"$dir/initdb.log" 2>&1
    cat >>"$dir/primary/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
fsync = off
full_page_writes = off
max_connections = 200
wal_level = replica
max_wal_senders = 4
CONF
    echo "host replication postgres 127.0.0.1/32 trust" >>"$dir/primary/pg_hba.conf"
    as_server "$bindir/pg_ctl" -D "$dir/primary" -l "$dir/primary.log" -w -t 60 start >/dev/null
    as_server "$bindir/createdb" -h "$dir" -p "$port" -U postgres swiftmodel
    echo "export SWIFTMODEL_POSTGRES_URL='host=127.0.0.1 port=$port dbname=swiftmodel user=postgres'"
    echo "export SWIFTMODEL_POSTGRES_SOCKET='$dir'"
    echo "export SWIFTMODEL_POSTGRES_DATA='$dir/primary'"
    echo "export SWIFTMODEL_POSTGRES_BIN='$bindir'"
    if command -v pgbouncer >/dev/null 2>&1; then start_pgbouncer "$dir" "$port"; fi
    if [ "$replica" = 1 ]; then
        local rport; rport=$(free_port)
        as_server "$bindir/pg_basebackup" -h 127.0.0.1 -p "$port" -U postgres -D "$dir/replica" -R -X stream --checkpoint=fast >/dev/null
        cat >>"$dir/replica/postgresql.conf" <<CONF
port = $rport
hot_standby = on
CONF
        as_server "$bindir/pg_ctl" -D "$dir/replica" -l "$dir/replica.log" -w -t 60 start >/dev/null
        echo "export SWIFTMODEL_POSTGRES_REPLICA_URL='host=127.0.0.1 port=$rport dbname=swiftmodel user=postgres'"
    fi
}

# PgBouncer in transaction pooling mode in front of the primary (any database name),
# exported as SWIFTMODEL_PGBOUNCER_URL.
start_pgbouncer() {
    local dir="$1" port="$2"
    local bport; bport=$(free_port)
    echo '"postgres" ""' >"$dir/pgbouncer-users.txt"
    cat >"$dir/pgbouncer.ini" <<CONF
[databases]
* = host=127.0.0.1 port=$port
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $bport
unix_socket_dir =
auth_type = trust
auth_file = $dir/pgbouncer-users.txt
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 20
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
CONF
    if [ "$(id -u)" = 0 ]; then chown postgres "$dir/pgbouncer.ini" "$dir/pgbouncer-users.txt"; fi
    as_server pgbouncer -d -q "$dir/pgbouncer.ini"
    for _ in $(seq 50); do
        python3 -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1',$bport)))" && break
        sleep 0.1
    done
    echo "export SWIFTMODEL_PGBOUNCER_URL='host=127.0.0.1 port=$bport dbname=swiftmodel user=postgres'"
}

stop() {
    local dir="$1"
    if [ -f "$dir/pgbouncer.pid" ]; then kill "$(cat "$dir/pgbouncer.pid")" 2>/dev/null || true; fi
    for node in replica primary; do
        if [ -f "$dir/$node/postmaster.pid" ]; then
            as_server "$bindir/pg_ctl" -D "$dir/$node" -m immediate -w stop >/dev/null 2>&1 || true
        fi
    done
    rm -rf "$dir"
}

command="${1:-}"; shift || true
replica=0
if [ "${1:-}" = "--replica" ]; then replica=1; shift; fi
case "$command" in
    start) start "$replica" "$1" ;;
    stop) stop "$1" ;;
    run)
        [ "${1:-}" = "--" ] && shift
        dir=$(mktemp -d /tmp/swiftmodel-pg.XXXXXX)
        trap 'stop "$dir"' EXIT
        exports=$(start "$replica" "$dir")
        eval "$exports"
        "$@"
        ;;
    *) sed -n '2,13p' "$0"; exit 2 ;;
esac
