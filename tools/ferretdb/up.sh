#!/usr/bin/env bash
# Start a local FerretDB 1.x (MongoDB wire protocol, SQLite storage, no other
# server needed) for integration tests. The server is our small wrapper in
# tools/ferretdb/main.go around FerretDB's embeddable package (see the comment
# there for why), installed with `go install` into tools/ferretdb/bin/.
#
# Usage:  eval "$(tools/ferretdb/up.sh)"   # -> export MONGO_URL=mongodb://127.0.0.1:27017/
#
# Idempotent: if it is already running and answering, it only prints the export
# line. State lives in <repo>/.ferretdb/ (data, log, pid).
#
# Env: MONGO_PORT (27017), FERRETDB_START_TIMEOUT (60 seconds),
#      FERRETDB_LOG_LEVEL (warn).
# Everything except the final export line goes to stderr.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
STATE="$ROOT/.ferretdb"
DATA="$STATE/data"
LOG="$STATE/ferretdb.log"
PID_FILE="$STATE/ferretdb.pid"
BIN="$SCRIPT_DIR/bin/ferretdb"

MONGO_PORT="${MONGO_PORT:-27017}"
FERRETDB_START_TIMEOUT="${FERRETDB_START_TIMEOUT:-60}"
FERRETDB_LOG_LEVEL="${FERRETDB_LOG_LEVEL:-warn}"
LISTEN="127.0.0.1:$MONGO_PORT"
URL="mongodb://$LISTEN/"

log() { echo "ferretdb/up: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

mkdir -p "$STATE"

# --- helpers -----------------------------------------------------------------

# Prints the pid from the pid file if that process is alive and is our server.
running_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(tr -dc '0-9' <"$PID_FILE")"
  [[ -n "$pid" ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  ps -ww -o args= -p "$pid" 2>/dev/null | grep -qF "$BIN -listen" || return 1
  echo "$pid"
}

# `timeout` is GNU coreutils; run without a limit where it is missing (macOS).
with_timeout() { if command -v timeout >/dev/null 2>&1; then timeout "$@"; else shift; "$@"; fi; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Readiness: TCP connect, then a MongoDB `ping` through mongoose from the repo's
# node_modules (falls back to the TCP check alone if node/mongoose are missing).
answering() {
  port_open "$MONGO_PORT" || return 1
  if command -v node >/dev/null 2>&1 && [[ -f "$ROOT/node_modules/mongoose/package.json" ]]; then
    KICKSTAND_ROOT="$ROOT" MONGO_URL="$URL" with_timeout 20 node -e '
      const mongoose = require(require.resolve("mongoose", { paths: [process.env.KICKSTAND_ROOT] }));
      const conn = mongoose.createConnection(process.env.MONGO_URL, { serverSelectionTimeoutMS: 2000 });
      conn.asPromise()
        .then(() => conn.db.admin().ping())
        .then(() => conn.close())
        .then(() => process.exit(0), () => process.exit(1));
    ' >/dev/null 2>&1
  fi
}

print_export() { echo "export MONGO_URL=$URL"; }

# Serialize concurrent invocations (e.g. parallel test workers' global setup):
# the second caller waits here, then finds the server running.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$STATE/up.lock"
  flock -w 300 9 || die "timed out waiting for another up.sh ($STATE/up.lock)"
fi

# --- already running? -----------------------------------------------------------

started_here=""
if pid="$(running_pid)"; then
  if answering; then
    log "already running (pid $pid) on $LISTEN"
    print_export
    exit 0
  fi
  log "pid $pid is alive but not answering yet; waiting for it"
else
  rm -f "$PID_FILE"
  pid=""
  if port_open "$MONGO_PORT"; then
    die "port $MONGO_PORT is already in use by another process (not started by this script). Stop it or set MONGO_PORT."
  fi
fi

if [[ -z "$pid" ]]; then
  # --- build (go install of our wrapper module) when missing or stale -------------
  stale=""
  [[ -x "$BIN" ]] || stale=1
  for src in "$SCRIPT_DIR/main.go" "$SCRIPT_DIR/go.mod" "$SCRIPT_DIR/go.sum"; do
    [[ "$src" -nt "$BIN" ]] && stale=1
  done
  if [[ -n "$stale" ]]; then
    command -v go >/dev/null 2>&1 || die "'go' not found on PATH (needed once to build $BIN)"
    log "building $BIN with go install (first build compiles FerretDB + SQLite, ~1 min) ..."
    (cd "$SCRIPT_DIR" && GOBIN="$SCRIPT_DIR/bin" go install -buildvcs=false .) >&2 || die "go install failed"
    touch "$BIN" # go install may keep an up-to-date binary's old mtime
  fi

  # --- start ------------------------------------------------------------------------
  mkdir -p "$DATA"
  log "starting on $LISTEN (data: $DATA), log: $LOG"
  nohup "$BIN" -listen "$LISTEN" -sqlite-dir "$DATA" -log-level "$FERRETDB_LOG_LEVEL" \
    >"$LOG" 2>&1 </dev/null 9>&- &
  pid=$!
  echo "$pid" >"$PID_FILE"
  started_here=1
fi

# --- wait until it answers ----------------------------------------------------------

start=$SECONDS
while :; do
  if ! kill -0 "$pid" 2>/dev/null; then
    rm -f "$PID_FILE"
    log "ferretdb process $pid exited during startup. Last lines of $LOG:"
    tail -n 40 "$LOG" >&2 || true
    exit 1
  fi
  if answering; then
    log "ready after $((SECONDS - start)) s (pid $pid)"
    print_export
    exit 0
  fi
  if ((SECONDS - start >= FERRETDB_START_TIMEOUT)); then
    log "ferretdb (pid $pid) did not answer within ${FERRETDB_START_TIMEOUT} s. Last lines of $LOG:"
    tail -n 40 "$LOG" >&2 || true
    if [[ -n "$started_here" ]]; then
      log "stopping it"
      bash "$SCRIPT_DIR/down.sh" >&2 || true
    fi
    exit 1
  fi
  sleep 0.5
done
