#!/usr/bin/env bash
# `npm test`: every check and every test, in the order a failure is cheapest
# to find. The database tier runs on both databases, each test file once per
# database it can answer differently on: the storage tests (those that can
# answer differently on a real server: locks, races, the db layer;
# BOTH_DATABASES in vitest.config.ts) on PGlite, the embedded default, and
# on PostgreSQL; the other app tests on PostgreSQL only, where a file's
# database is a template copy and its queries run natively (three fifths of the CPU
# the same files took on PGlite, measured). SKIP_PG=1 runs everything on
# PGlite instead; SKIP_E2E=1 stops before the browser tests. Each pass
# checks every cached read's declared tables (src/server/test/read-cache-setup.ts),
# so the read cache cannot hide a stale read; READ_CACHE=off rules it out by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
reports=.tmp/test-reports
rm -rf "$reports" && mkdir -p "$reports"

step() { printf '\n=== %s ===\n' "$1"; }

step "checks: typecheck, eslint, prettier, knip (two at a time)"
bash scripts/checks.sh

if [ "${SKIP_PG:-}" = "1" ]; then
  step "unit, app, storage and component tests (PGlite)"
  echo "SKIP_PG=1: the app tests run on PGlite; the storage tests once, there"
  bash scripts/ensure-postgres.sh >/dev/null
  npx vitest run --reporter=default --reporter=json --outputFile.json="$reports/vitest.json"
else
  step "unit, storage and component tests (PGlite)"
  # The database-outage test starts a PostgreSQL of its own, even in this pass.
  bash scripts/ensure-postgres.sh >/dev/null
  npx vitest run --project unit --project storage --project server --project 'web*' \
    --reporter=default --reporter=json --outputFile.json="$reports/vitest.json"
  step "app and storage tests (PostgreSQL)"
  bash scripts/with-postgres.sh npx vitest run --project app --project storage \
    --reporter=default --reporter=json --outputFile.json="$reports/vitest-pg.json"
fi

if [ "${SKIP_E2E:-}" = "1" ]; then
  step "summary"
  echo "SKIP_E2E=1: not running the browser tests"
  node scripts/test-summary.mjs "$reports"
  exit $?
fi

step "browser tests (Playwright, Debian Chromium)"
bash scripts/ensure-chromium.sh
# The SPA and the server's render of its first screen (dist/web, dist/ssr).
npx vite build --logLevel warn
npx vite build --ssr --logLevel warn
PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright.json" npx playwright test --reporter=list,json

step "summary"
node scripts/test-summary.mjs "$reports"
