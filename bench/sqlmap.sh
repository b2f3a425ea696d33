#!/usr/bin/env bash
# SQL injection scan of the two spec GET endpoints with Debian's sqlmap, against a running CM on
# loopback (start one with `npm start`). Exits 1 when sqlmap reports an injection point, 2 on a
# setup problem. Not part of `npm test`: it sends thousands of requests and takes minutes.
#
#   CM_URL       server to scan (default http://127.0.0.1:3000; must be 127.0.0.1 or localhost)
#   CM_API_KEY   API key (default: the web app's key from ./data/web-api-key)
#   CM_EMAIL / CM_PASSWORD   login whose token is sent (default: the demo client A)
#   CM_SQLMAP_LEVEL / CM_SQLMAP_RISK   sqlmap --level / --risk (default 3 / 2)
set -euo pipefail

url="${CM_URL:-http://127.0.0.1:3000}"
case "$url" in
  http://127.0.0.1:*|http://localhost:*) ;;
  *) echo "sqlmap.sh only scans a server on loopback, not $url" >&2; exit 2 ;;
esac
repo="$(cd "$(dirname "$0")/.." && pwd)"
key="${CM_API_KEY:-$(cat "$repo/data/web-api-key" 2>/dev/null || true)}"
[ -n "$key" ] || { echo "no API key: set CM_API_KEY or start the server once with npm start" >&2; exit 2; }
email="${CM_EMAIL:-client.a@demo.cm}"
password="${CM_PASSWORD:-ClientA!2026}"

if ! command -v sqlmap >/dev/null; then
  echo "installing Debian's sqlmap…"
  apt-get install -y sqlmap >/dev/null
fi

login=$(curl -sS -X POST "$url/api/auth/login" -H "X-API-Key: $key" -H 'Content-Type: application/json' \
  --data "$(printf '{"email":"%s","password":"%s"}' "$email" "$password")")
token=$(printf '%s' "$login" | sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
[ -n "$token" ] || { echo "login failed: $login" >&2; exit 2; }

# Values the login can see, so that sqlmap compares true and false answers on real rows.
search=$(curl -sS "$url/api/bookmarks/data" -H "X-API-Key: $key" -H "Authorization: Bearer $token")
meter=$(printf '%s' "$search" | grep -o '"id":"meter:[^"]*"' | head -1 | sed 's/"id":"meter:\(.*\)"/\1/')
location=$(printf '%s' "$search" | grep -o '"id":"location:[^"]*"' | head -1 | sed 's/"id":"location:\(.*\)"/\1/')
meter="${meter:-EM-10001}"
location_q=$(node -e 'process.stdout.write(encodeURIComponent(process.argv[1]))' "${location:-Riverside}")

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
found=0
scan() {
  echo "== sqlmap: $1"
  sqlmap -u "$1" -p "$2" --batch --flush-session --output-dir="$out" \
    --level="${CM_SQLMAP_LEVEL:-3}" --risk="${CM_SQLMAP_RISK:-2}" --dbms=PostgreSQL \
    --headers="X-API-Key: $key
Authorization: Bearer $token" --threads=2 --timeout=15 --retries=1 2>&1 | tee "$out/log.txt" | grep -E "testing|vulnerable|injectable|identified|WARNING|CRITICAL" || true
  if grep -qiE "sqlmap identified the following injection point|is vulnerable" "$out/log.txt"; then
    echo "!! injection reported for $2 on $1"
    found=1
  fi
}
scan "$url/api/CheckMeter/GetMeterInfo?meterNumber=$meter" meterNumber
scan "$url/api/CheckMeter/GetElectricMeterInformationByLocationPublicName?name=$location_q&From=2026-01-01&To=2026-01-07&meterInd=1&granularity=day&maxPoints=100" "name,From,To,meterInd,granularity,maxPoints"

if [ "$found" -ne 0 ]; then
  echo "sqlmap reported an injection" >&2
  exit 1
fi
echo "sqlmap found no injection in the spec GET endpoints"
