#!/usr/bin/env bash
# The static checks (`npm run checks`, the first step of `npm test`): the type
# checker, ESLint, Prettier and knip, two at a time on two cores. Each is one
# single-threaded process, so run one after another they left a core idle;
# ESLint (type-aware, the longest) runs on one core while the type checker,
# then Prettier, then knip run on the other. Each check's output is printed
# whole under its name once it ends, and every check runs even when another
# failed: the closing line names each one that failed, and the exit status is
# non-zero if any did.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# On a fresh clone there is no cache: ESLint and tsc answer whole either way.
declare -A commands=(
  [typecheck]="npm run --silent typecheck"
  [eslint]="npx eslint --cache --cache-location node_modules/.cache/eslint/ --cache-strategy content ."
  [prettier]="npx prettier --check . --log-level warn"
  [knip]="npx knip --reporter compact"
)
failed=()

# Runs one check into its log and records its exit status and time.
run() {
  local name=$1 started=$SECONDS status=0
  bash -c "${commands[$name]}" >"$logs/$name.log" 2>&1 || status=$?
  echo "$status $((SECONDS - started))" >"$logs/$name.status"
}
# Prints a check's output under its name: the two running at once never interleave.
show() {
  local status seconds
  read -r status seconds <"$logs/$1.status"
  printf -- '--- %s: %s in %d s ---\n' "$1" "$([ "$status" = 0 ] && echo passed || echo "FAILED (exit $status)")" "$seconds"
  cat "$logs/$1.log"
}

run eslint &
eslint_pid=$!
for name in typecheck prettier knip; do
  run "$name"
  show "$name"
done
wait "$eslint_pid"
show eslint

for name in typecheck eslint prettier knip; do
  read -r status _ <"$logs/$name.status"
  [ "$status" = 0 ] || failed+=("$name")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "checks failed: ${failed[*]}"
  exit 1
fi
echo "checks passed: typecheck, eslint, prettier, knip"
