#!/usr/bin/env bash
# Schemathesis against the running product: `bash tools/schemathesis/run.sh` (CI: a step of .ci/run).
# Installs Schemathesis from PyPI into a venv cached under ~/.cache/kickstand (one per version),
# starts the single-machine product (`node scripts/start.js`) on free ports with a temporary
# DATA_DIR, signs up a streamer, signs in the super administrator, then runs `schemathesis run`
# against /api/openapi.json once as each. Checks: no 5xx, every reply matches its schema (and its
# status is one the document lists). Bounded: MAX_EXAMPLES examples per operation (default 25).
# Environment: SCHEMATHESIS_MAX_EXAMPLES, SCHEMATHESIS_MAX_TIME (seconds per run, default 50), SCHEMATHESIS_SEED, KEEP_LOG=1 to keep the server log.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

version="4.32.5"
venv="${HOME}/.cache/kickstand/schemathesis-${version}"
if [ ! -f "$venv/.installed" ]; then
  echo "schemathesis: installing ${version} into ${venv}…"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==${version}"
  touch "$venv/.installed"
fi

free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
port="$(free_port)"
base="http://127.0.0.1:${port}"
data_dir="$(mktemp -d)"
log_file="$(mktemp)"
admin_email="schemathesis-admin@kickstand.local"
admin_password="St-Admin-$(node -e 'console.log(require("crypto").randomBytes(9).toString("base64url"))')!9"

# API_RATE_LIMIT_PER_MINUTE=0: the run sends hundreds of requests a minute from one address. The
# gateway never limits loopback clients anyway; this keeps the run unthrottled if that changes.
PORT="$port" DATA_DIR="$data_dir" LOG_FORMAT=json NODE_ENV=development API_RATE_LIMIT_PER_MINUTE=0 \
  AUTH_PORT=0 COMMANDS_PORT=0 KICK_LINK_PORT=0 BOT_RUNNER_PORT=0 GAMES_PORT=0 REALTIME_PORT=0 KICK_SANDBOX_PORT=0 \
  SUPER_ADMIN_EMAIL="$admin_email" SUPER_ADMIN_PASSWORD="$admin_password" SUPER_ADMIN_USERNAME=st_admin \
  node scripts/start.js >"$log_file" 2>&1 &
pid=$!
cleanup() {
  kill -INT "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  rm -rf "$data_dir"
  if [ "${KEEP_LOG:-}" = 1 ]; then echo "schemathesis: server log kept in $log_file"; else rm -f "$log_file"; fi
}
trap cleanup EXIT

for _ in $(seq 1 180); do
  if curl -fsS "$base/api/health" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then echo "schemathesis: the product exited early"; tail -n 40 "$log_file"; exit 1; fi
  sleep 1
done
curl -fsS "$base/api/health" >/dev/null || { echo "schemathesis: /api/health never answered"; tail -n 40 "$log_file"; exit 1; }

# The token of a sign-in (or sign-up) answer.
token_of() {
  node -e 'const b = JSON.parse(process.argv[1]); if (!b.success) { console.error(b.error); process.exit(1) } console.log(b.data.token)' "$1"
}
streamer="$(curl -sS -X POST -H 'content-type: application/json' \
  -d '{"email":"st-streamer@example.com","username":"st_streamer","password":"Sch3ma!Thesis"}' "$base/api/platform/register")"
streamer_token="$(token_of "$streamer")" || { echo "schemathesis: sign-up failed: $streamer"; exit 1; }
streamer_id="$(node -e 'console.log(JSON.parse(process.argv[1]).data.user.id)' "$streamer")"

# The streamer links a Kick account in the bundled sandbox (auto-approved), so that the Kick routes
# answer from a linked channel instead of 404. The browser's cookie goes with the callback.
jar="$data_dir/cookies.txt"
link="$(curl -sS -c "$jar" -X POST -H "authorization: Bearer $streamer_token" "http://localhost:${port}/api/platform/kick/link")"
auth_url="$(node -e 'console.log(JSON.parse(process.argv[1]).data.authUrl)' "$link")" || { echo "schemathesis: link failed: $link"; exit 1; }
callback="$(curl -sS -o /dev/null -w '%{redirect_url}' "${auth_url}&sandbox_auto_approve=st_kick_streamer")"
landing="$(curl -sS -b "$jar" -o /dev/null -w '%{redirect_url}' "$callback")"
grep -q 'kick_linked=true' <<<"$landing" || { echo "schemathesis: the Kick link did not complete: $landing"; exit 1; }

admin="$(curl -sS -X POST -H 'content-type: application/json' \
  -d "{\"email\":\"$admin_email\",\"password\":\"$admin_password\"}" "$base/api/platform/login")"
admin_token="$(token_of "$admin")" || { echo "schemathesis: admin sign-in failed: $admin"; exit 1; }

# The admin's run aims the `{id}` path parameters at the streamer (random ids only ever meet 404).
printf '[parameters]\n"path.id" = "%s"\n' "$streamer_id" >"$data_dir/admin.toml"
: >"$data_dir/streamer.toml"

# Each run's report goes to a file, and only its count is printed: Schemathesis closes with a
# pytest-style banner (`4 warnings in 50.00s`) that names no test count, which a CI log reader
# takes for a runner that executed nothing. A failed run prints its report (the failures are in it).
run_log_of() { echo "$data_dir/schemathesis-$1.log"; }
summarised() {
  local who="$1" run_status="$2" report cases
  report="$(run_log_of "$who")"
  cases="$(grep -Eo '[0-9]+ generated, .*' "$report" | tail -n 1 || true)"
  if [ "$run_status" -ne 0 ]; then
    echo "schemathesis: as the ${who}: FAILED (exit ${run_status}); its report:"
    sed -E 's/^=+ (.*) =+$/\1/' "$report"
    return 1
  fi
  # a run that generated nothing checked nothing: that fails the step
  [ -n "$cases" ] || { echo "schemathesis: as the ${who}: the run reported no generated case"; tail -n 40 "$report"; return 1; }
  echo "schemathesis: as the ${who}: ${cases} (checks: no 5xx, response schema, status code, content type)"
}

status=0
for who in streamer admin; do
  token_var="${who}_token"
  # left out: logout revokes the token the run uses, and unlinking would leave the admin's run no
  # channel to manage (both are covered by the services' tests)
  # run from DATA_DIR: Schemathesis keeps a cache (.schemathesis/) in its working directory
  (cd "$data_dir" && "$venv/bin/schemathesis" --config-file "$data_dir/${who}.toml" run "$base/api/openapi.json" \
    --url "$base" \
    --header "Authorization: Bearer ${!token_var}" \
    --checks not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance \
    --exclude-path /api/platform/logout \
    --exclude-path /api/platform/kick/unlink \
    --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-25}" \
    --max-time "${SCHEMATHESIS_MAX_TIME:-50}" \
    --phases coverage,fuzzing,stateful \
    --max-redirects 0 \
    --workers 1 \
    --generation-database none \
    ${SCHEMATHESIS_SEED:+--seed "$SCHEMATHESIS_SEED"} \
    --request-timeout 10 \
    --no-color) >"$(run_log_of "$who")" 2>&1 || run_status=$?
  summarised "$who" "${run_status:-0}" || status=1
  unset run_status
done
[ "$status" -eq 0 ] || { echo "schemathesis: failures (server log below)"; grep -E '"level":(50|60)' "$log_file" | tail -n 20 || true; }
exit "$status"
