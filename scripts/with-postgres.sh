#!/usr/bin/env bash
# Runs a command against a private, throwaway PostgreSQL server:
#   bash scripts/with-postgres.sh vitest run --project storage
# Starts Debian's PostgreSQL (installing it with apt-get when missing and we are
# root) in a temporary directory on 127.0.0.1 at a random free port, exports
# DATABASE_URL for the command, and stops and removes the server whatever
# happens. Exits with the command's status.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

if [ "$#" -eq 0 ]; then
  echo "usage: bash scripts/with-postgres.sh COMMAND [ARGS...]" >&2
  exit 2
fi

pg_bin=$(bash scripts/ensure-postgres.sh)

# initdb and postgres refuse to run as root: run them as the `postgres` user
# the Debian package creates.
as_pg() { "$@"; }
if [ "$(id -u)" = "0" ]; then
  if ! id postgres >/dev/null 2>&1; then
    echo "with-postgres: running as root but there is no 'postgres' user to run the server as" >&2
    exit 1
  fi
  as_pg() { runuser -u postgres -- "$@"; }
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/with-postgres.XXXXXX")
chmod 755 "$work"
mkdir "$work/data" "$work/socket"
if [ "$(id -u)" = "0" ]; then chown -R postgres: "$work/data" "$work/socket"; fi

cleanup() {
  local status=$?
  if [ -f "$work/data/postmaster.pid" ]; then
    as_pg "$pg_bin/pg_ctl" -D "$work/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")

as_pg "$pg_bin/initdb" -D "$work/data" -U postgres --auth=trust --encoding=UTF8 --no-locale >"$work/initdb.log" 2>&1 ||
  { cat "$work/initdb.log" >&2; exit 1; }

# Durability settings off: this server lives for one test run. WITH_POSTGRES_OPTIONS adds
# server options (the bench's `-c shared_preload_libraries=pg_stat_statements`).
as_pg "$pg_bin/pg_ctl" -D "$work/data" -l "$work/socket/server.log" -w -t 30 start \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $work/socket -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 ${WITH_POSTGRES_OPTIONS:-}" \
  >/dev/null || { cat "$work/socket/server.log" >&2; exit 1; }

export DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
echo "with-postgres: PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') at $DATABASE_URL" >&2

# Not exec: the trap must still stop the server when the command ends.
set +e
"$@"
status=$?
set -e
exit "$status"
