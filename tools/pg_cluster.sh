#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and CI, on a free loopback port, from the server binaries on the machine
# (Debian's postgresql package: /usr/lib/postgresql/N/bin; PG_BIN to choose others).
#   tools/pg_cluster.sh start [DIR]   initdb + start in DIR (a new temporary folder by default, named on stderr);
#                                     prints the URL (postgresql://postgres@127.0.0.1:PORT/postgres) on stdout
#   tools/pg_cluster.sh stop DIR      stop the server and remove DIR
#   tools/pg_cluster.sh bin           print the binaries' folder (exit 1 when there are none)
# Trust authentication on loopback, fsync off: for a throwaway test cluster only, never for data that matters.
# initdb refuses root: as root, the cluster is owned and run by the `postgres` user the package creates.
set -euo pipefail

bin_dir() {
  local d="${PG_BIN:-}"
  if [ -z "$d" ]; then d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1); fi
  if [ -z "$d" ] && command -v initdb > /dev/null; then d=$(dirname "$(command -v initdb)"); fi
  [ -n "$d" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] || return 1
  echo "$d"
}

# Run a server binary as the cluster's owner: root hands it to `postgres`, anyone else runs it themselves.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
  local bin dir port
  bin=$(bin_dir) || { echo "pg_cluster: no PostgreSQL server binaries (apt-get install postgresql, or set PG_BIN)" >&2; exit 1; }
  dir="${1:-$(mktemp -d "${TMPDIR:-/tmp}/floorboard-pg.XXXXXX")}"
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync > "$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  for _ in 1 2 3; do  # the port is free when chosen; another process may take it before the server binds it
    port=$(free_port)
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 30 start \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
        > /dev/null; then
      echo "pg_cluster: running in $dir (stop: bash tools/pg_cluster.sh stop $dir)" >&2
      echo "postgresql://postgres@127.0.0.1:$port/postgres"
      return
    fi
  done
  cat "$dir/log" >&2
  exit 1
}

stop() {
  local dir="${1:?usage: tools/pg_cluster.sh stop DIR}" bin
  [ -d "$dir" ] || return 0
  if [ -f "$dir/data/PG_VERSION" ] && bin=$(bin_dir); then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop > /dev/null 2>&1 || true
  fi
  # Only what start made (a DIR that holds anything else is left for its owner to look at).
  rm -rf "$dir/data" "$dir/log" "$dir/initdb.log"
  rm -f "$dir"/.s.PGSQL.* 2> /dev/null || true
  rmdir "$dir" 2> /dev/null || echo "pg_cluster: $dir holds other files: left in place" >&2
}

case "${1:-}" in
  start) start "${2:-}" ;;
  stop) stop "${2:-}" ;;
  bin) bin_dir ;;
  *) echo "usage: tools/pg_cluster.sh start [DIR] | stop DIR | bin" >&2; exit 2 ;;
esac
