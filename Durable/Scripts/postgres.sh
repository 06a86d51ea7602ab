# A throwaway PostgreSQL cluster for tests, sourced by Durable/Scripts/test.sh and
# Durable/Examples/OrderService/Scripts/test.sh: `start_postgres` installs PostgreSQL from Debian
# when it is missing, creates a cluster in a `mktemp -d` folder (owned by the `postgres` user when
# run as root: `initdb` refuses root), starts it on 127.0.0.1 on a free port and exports its URL as
# STATECHART_POSTGRES_URL, with STATECHART_REQUIRE_POSTGRES=1 (a PostgreSQL test that finds no
# server then fails instead of skipping); `stop_postgres` stops and removes it (call it from an
# EXIT trap).
cluster=""
pg_bin=""

# Runs a command as the cluster's owner: `postgres` when we are root, ourselves otherwise.
as_owner() {
    if [ "$(id -u)" = 0 ]; then
        su postgres -s /bin/bash -c "$1"
    else
        bash -c "$1"
    fi
}

# Stops and removes the throwaway cluster, if one was started.
stop_postgres() {
    if [ -n "$cluster" ] && [ -d "$cluster" ]; then
        if [ -f "$cluster/data/postmaster.pid" ]; then
            as_owner "'$pg_bin/pg_ctl' -D '$cluster/data' -m immediate -w stop" >/dev/null 2>&1 || true
        fi
        rm -rf "$cluster"
    fi
}

start_postgres() {
    pg_bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    if [ -z "$pg_bin" ] || [ ! -x "$pg_bin/initdb" ]; then
        echo "Durable: PostgreSQL is not installed; installing it from Debian (apt-get install -y postgresql)"
        if [ "$(id -u)" != 0 ]; then
            echo "Durable: installing PostgreSQL needs root; install it or set STATECHART_POSTGRES_URL" >&2
            exit 1
        fi
        DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql >/dev/null \
            || { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql >/dev/null; }
        pg_bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
    fi
    cluster="$(mktemp -d /tmp/statechart-pg.XXXXXX)"
    chmod 755 "$cluster"
    if [ "$(id -u)" = 0 ]; then chown postgres "$cluster"; fi
    as_owner "'$pg_bin/initdb' -D '$cluster/data' -A trust -U postgres --no-sync >'$cluster/initdb.log' 2>&1" \
        || { cat "$cluster/initdb.log" >&2; exit 1; }
    # A free port: try random ones until the server starts on one (another process may take a
    # port between a check and the start, so the start itself is the check).
    local port attempt
    for attempt in 1 2 3 4 5 6 7 8 9 10; do
        port=$((20000 + RANDOM % 30000))
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then continue; fi
        if as_owner "'$pg_bin/pg_ctl' -D '$cluster/data' -w -t 30 -l '$cluster/server.log' \
            -o \"-k '$cluster' -p $port -c listen_addresses=127.0.0.1 -c max_connections=400\" start" >/dev/null; then
            export STATECHART_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres"
            export STATECHART_REQUIRE_POSTGRES=1
            echo "Durable: throwaway PostgreSQL cluster in $cluster on 127.0.0.1:$port"
            return
        fi
    done
    echo "Durable: the PostgreSQL cluster did not start; its log:" >&2
    cat "$cluster/server.log" >&2 || true
    exit 1
}
