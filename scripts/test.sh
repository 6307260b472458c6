#!/usr/bin/env bash
# `npm test`: every check and every test, in the order a failure is cheapest
# to find. App tests run on PGlite (the embedded default); the storage tests,
# those that can answer differently on a real server (locks, races, the db
# layer: BOTH_DATABASES in vitest.config.ts), run again on PostgreSQL (skip
# that with SKIP_PG=1). Each pass
# checks every cached read's declared tables (src/server/test/read-cache-setup.ts),
# so the read cache cannot hide a stale read; READ_CACHE=off rules it out by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
reports=.tmp/test-reports
rm -rf "$reports" && mkdir -p "$reports"

step() { printf '\n=== %s ===\n' "$1"; }

step "typecheck"
npm run --silent typecheck
step "lint"
npm run --silent lint

step "unit, app, storage and component tests (PGlite)"
# The database-outage test starts a PostgreSQL of its own, even in this pass.
bash scripts/ensure-postgres.sh >/dev/null
npx vitest run --reporter=default --reporter=json --outputFile.json="$reports/vitest.json"

if [ "${SKIP_PG:-}" = "1" ]; then
  echo "SKIP_PG=1: not running the storage tests against PostgreSQL"
else
  step "storage tests (PostgreSQL)"
  bash scripts/with-postgres.sh npx vitest run --project storage \
    --reporter=default --reporter=json --outputFile.json="$reports/vitest-pg.json"
fi

step "browser tests (Playwright, Debian Chromium)"
bash scripts/ensure-chromium.sh
# The SPA and the server's render of its first screen (dist/web, dist/ssr).
npx vite build --logLevel warn
npx vite build --ssr --logLevel warn
PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright.json" npx playwright test --reporter=list,json

step "summary"
node scripts/test-summary.mjs "$reports"
