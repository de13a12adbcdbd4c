#!/usr/bin/env bash
# What a newcomer does after `npm install`: `npm start`, open the page, Ctrl-C. Checks that the page
# and every service answer, and that SIGINT stops the one process cleanly and in time.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

port="${SMOKE_PORT:-3900}"
data_dir="$(mktemp -d)"
log_file="$(mktemp)"
export PORT="$port" DATA_DIR="$data_dir" LOG_FORMAT=json
# Ephemeral ports for the internal services, so the check never collides with a running Kickstand.
export AUTH_PORT=0 COMMANDS_PORT=0 KICK_LINK_PORT=0 BOT_RUNNER_PORT=0 GAMES_PORT=0 REALTIME_PORT=0 KICK_SANDBOX_PORT=0

node scripts/start.js >"$log_file" 2>&1 &
pid=$!
cleanup() { kill -9 "$pid" 2>/dev/null || true; rm -rf "$data_dir" "$log_file"; }
trap cleanup EXIT

health=""
for _ in $(seq 1 180); do
  if health="$(curl -fsS "http://127.0.0.1:$port/api/health" 2>/dev/null)"; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then echo "smoke: npm start exited early"; tail -n 40 "$log_file"; exit 1; fi
  sleep 1
done
[ -n "$health" ] || { echo "smoke: /api/health never answered"; tail -n 40 "$log_file"; exit 1; }
echo "smoke: /api/health → $health"
up_count="$(grep -o '"status":"up"' <<<"$health" | wc -l)"
# six services up, plus the overall status
[ "$up_count" -eq 7 ] || { echo "smoke: expected six services up"; exit 1; }

page="$(curl -fsS -H 'accept: text/html' "http://127.0.0.1:$port/")"
grep -q '<div id="root">' <<<"$page" || { echo "smoke: the page at / is not the web app"; exit 1; }
grep -q 'Kickstand is running: open http://localhost:'"$port" "$log_file" || { echo "smoke: the URL was not printed"; exit 1; }
echo "smoke: the web app is served at /"

register="$(curl -sS -X POST -H 'content-type: application/json' \
  -d '{"email":"smoke@example.com","username":"smoke_user","password":"Sm0ke!Test"}' \
  "http://127.0.0.1:$port/api/platform/register")"
token="$(node -e 'const b = JSON.parse(process.argv[1]); if (!b.success) { console.error(b.error); process.exit(1) } console.log(b.data.token)' "$register")" \
  || { echo "smoke: register failed: $register"; exit 1; }
profile="$(curl -fsS -H "authorization: Bearer $token" "http://127.0.0.1:$port/api/platform/profile")"
grep -q '"username":"smoke_user"' <<<"$profile" || { echo "smoke: profile did not answer: $profile"; exit 1; }
echo "smoke: registered and read the profile through the gateway"
[ "$(stat -c %a "$data_dir/admin-credentials.txt")" = "600" ] || { echo "smoke: no first super admin credentials file (mode 600)"; exit 1; }
echo "smoke: first super administrator created, credentials in DATA_DIR/admin-credentials.txt (mode 600)"

started=$(date +%s)
kill -INT "$pid"
status=0
wait "$pid" || status=$?
elapsed=$(( $(date +%s) - started ))
[ "$status" -eq 0 ] || { echo "smoke: exit code $status after SIGINT"; tail -n 20 "$log_file"; exit 1; }
[ "$elapsed" -le 10 ] || { echo "smoke: stopping took ${elapsed}s"; exit 1; }
if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then echo "smoke: something still listens on $port"; exit 1; fi
for service in auth commands kick-link bot-runner games realtime gateway; do
  [ -d "$data_dir/$service" ] || { echo "smoke: no embedded store written for $service"; exit 1; }
done
echo "smoke: SIGINT stopped everything in ${elapsed}s with exit code 0; stores written under DATA_DIR"
