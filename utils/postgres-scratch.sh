#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests of the PostgreSQL mapping
# cache: initdb and pg_ctl in DIR, on a free local port, listening on
# 127.0.0.1 only, with a password-protected superuser.
#
#   utils/postgres-scratch.sh start DIR   # prints the superuser's URI
#   utils/postgres-scratch.sh stop DIR
#
# initdb refuses to run as root: as root (CI), the server runs as the
# `postgres` user that Debian's postgresql package makes, and DIR is handed
# to it. Exits 77 (skip) when no PostgreSQL server is installed.
set -euo pipefail
command=${1:?start or stop}
dir=${2:?the folder of the server}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/pg_ctl" ]; then
  echo "postgres-scratch: no PostgreSQL server installed (utils/setup.sh installs postgresql)" >&2
  exit 77
fi
as=()
if [ "$(id -u)" -eq 0 ]; then
  as=(runuser -u postgres --)
fi

case "$command" in
start)
  mkdir -p "$dir"
  password=scratch-$RANDOM$RANDOM
  printf '%s\n' "$password" > "$dir/password"
  chmod 600 "$dir/password"
  if [ "$(id -u)" -eq 0 ]; then
    chown -R postgres: "$dir"
    if ! runuser -u postgres -- test -w "$dir"; then
      echo "postgres-scratch: the postgres user cannot reach $dir (a parent folder is private)" >&2
      exit 1
    fi
  fi
  "${as[@]}" "$bin/initdb" -D "$dir/data" -U marlmap --pwfile="$dir/password" \
    --auth-host=scram-sha-256 --auth-local=trust --no-sync > "$dir/initdb.log"
  # A free port can be taken between the look and the start: try again.
  for attempt in 1 2 3 4 5; do
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    if "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
         -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off" \
         start > /dev/null; then
      echo "postgresql://marlmap:$password@127.0.0.1:$port/postgres"
      exit 0
    fi
  done
  echo "postgres-scratch: the server did not start; $dir/server.log says:" >&2
  cat "$dir/server.log" >&2
  exit 1
  ;;
stop)
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop > /dev/null 2>&1 || true
  ;;
*)
  echo "postgres-scratch: start or stop, not '$command'" >&2
  exit 2
  ;;
esac
