#!/usr/bin/env bash
# The suite must not depend on the machine's load: runs `npm test` N times in a row (default 3)
# while one busy loop per core holds the CPU, and stops at the first failure.
# Usage: scripts/test-under-load.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
loops=()
for _ in $(seq 1 "$(nproc)"); do
  node -e 'for (;;) {}' &
  loops+=($!)
done
trap 'kill "${loops[@]}" 2>/dev/null || true' EXIT
for run in $(seq 1 "$runs"); do
  start=$SECONDS
  echo "== run $run of $runs under $(nproc) busy loops (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
  npm test
  echo "== run $run passed in $((SECONDS - start)) s"
done
