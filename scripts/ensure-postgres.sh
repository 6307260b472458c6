#!/usr/bin/env bash
# Prints the directory of Debian's PostgreSQL binaries (initdb, pg_ctl),
# installing the postgresql package first when it is missing and we are
# root; otherwise says exactly what to install. Used by with-postgres.sh and
# by `npm test` before the PGlite pass, whose database-outage test starts a
# PostgreSQL of its own (src/server/test/private-postgres.ts).
set -euo pipefail

find_pg_bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then echo "$dir"; fi
}

pg_bin=$(find_pg_bin)
if [ -z "$pg_bin" ]; then
  if [ "$(id -u)" = "0" ]; then
    echo "ensure-postgres: installing Debian's postgresql package…" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
    pg_bin=$(find_pg_bin)
  fi
  if [ -z "$pg_bin" ]; then
    echo "ensure-postgres: PostgreSQL is not installed. Install it with:" >&2
    echo "  sudo apt-get install -y postgresql" >&2
    exit 1
  fi
fi
echo "$pg_bin"
