#!/usr/bin/env bash
# The README's "Test it" on a machine with Node alone: a fresh clone of the committed HEAD, `npm ci`,
# then `npm test` inside a mount and network namespace where the system's PostgreSQL is gone (no
# server on 127.0.0.1:5432 — the namespace has only its own loopback — and /usr/lib/postgresql
# empty) and, with --hide-chromium, the system's Chromium cannot run (/dev/null over each known
# path), so that the suite must find its database, and then its browser, in npm packages. Linux, as
# root (CI) or where unprivileged user namespaces are allowed.
# Usage: scripts/fresh-machine.sh [--hide-chromium] [folder to clone into]
set -euo pipefail
repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
hide_chromium=0
if [ "${1:-}" = "--hide-chromium" ]; then hide_chromium=1; shift; fi
dir=${1:-$(mktemp -d /tmp/cm-fresh-machine.XXXXXX)}
echo "== fresh clone of $(git -C "$repo" rev-parse --short HEAD) in $dir/cm"
git clone -q "$repo" "$dir/cm"
cd "$dir/cm"

echo "== npm ci"
start=$SECONDS
npm ci --no-audit --no-fund
echo "npm ci: $((SECONDS - start)) s"

# As root the namespaces are made directly; otherwise in a user namespace where this user is root.
as_root=()
[ "$(id -u)" = 0 ] || as_root=(--map-root-user)

echo "== npm test with no system PostgreSQL$([ $hide_chromium = 1 ] && echo " and no system Chromium")"
start=$SECONDS
rc=0
unshare "${as_root[@]}" --mount --net --fork env -u CM_TEST_POSTGRES_URL -u CM_CHROMIUM HIDE_CHROMIUM=$hide_chromium bash -euo pipefail -c '
  ip link set lo up
  [ -d /usr/lib/postgresql ] && mount -t tmpfs tmpfs /usr/lib/postgresql
  if [ "$HIDE_CHROMIUM" = 1 ]; then
    for browser in /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome /usr/bin/google-chrome-stable; do
      if [ -e "$browser" ]; then mount --bind /dev/null "$browser"; fi
    done
  fi
  if (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; then
    echo "a PostgreSQL server still answers on 127.0.0.1:5432: the namespace does not hide it" >&2
    exit 2
  fi
  npm test
' || rc=$?
echo "npm test on a fresh machine: exit $rc after $((SECONDS - start)) s"
exit $rc
