#!/usr/bin/env bash
# Prints the URL of a PostgreSQL server the tests may use.
#   ensure-postgres.sh          TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres)
#                               when it answers; otherwise starts a throw-away cluster from Debian's
#                               `postgresql` package (initdb in a temporary folder, a free port) and
#                               prints its URL; its folder is on stderr as "cluster: <dir>".
#   ensure-postgres.sh stop <dir>   stops that cluster and removes its folder.
#   ensure-postgres.sh pause <dir>  stops that cluster at once (its clients lose their connections);
#   ensure-postgres.sh resume <dir> starts it again with the same options.
set -euo pipefail

URL="${TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}"

bindir() {
  if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return; fi
  local d
  d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  [ -n "$d" ] && [ -x "$d/initdb" ] && { echo "$d"; return; }
  echo "ensure-postgres: no initdb found; install Debian's postgresql package (apt-get install postgresql)" >&2
  exit 1
}

# initdb and postgres refuse to run as root: run them as the package's postgres user then.
as_owner() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

if [ "${1:-}" = "stop" ]; then
  dir="${2:?usage: ensure-postgres.sh stop <dir>}"
  as_owner "$(bindir)/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  exit 0
fi

if [ "${1:-}" = "pause" ]; then
  as_owner "$(bindir)/pg_ctl" -D "${2:?usage: ensure-postgres.sh pause <dir>}/data" -m fast -w stop >/dev/null
  exit 0
fi

if [ "${1:-}" = "resume" ]; then
  dir="${2:?usage: ensure-postgres.sh resume <dir>}"
  # restart (of a stopped server: a start) takes the options it was last started with (postmaster.opts).
  as_owner "$(bindir)/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 restart >/dev/null 2>&1
  exit 0
fi

if command -v pg_isready >/dev/null 2>&1 && pg_isready -d "$URL" -t 2 >/dev/null 2>&1; then
  echo "$URL"
  exit 0
fi

BIN="$(bindir)"
dir="$(mktemp -d /tmp/brewrecords-pg.XXXXXX)"
chmod 755 "$dir"
[ "$(id -u)" = "0" ] && chown postgres "$dir"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
as_owner "$BIN/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
as_owner "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off" start >/dev/null \
  || { cat "$dir/server.log" >&2; exit 1; }
echo "cluster: $dir" >&2
echo "postgres://postgres@127.0.0.1:$port/postgres"
