#!/usr/bin/env bash
# Stop the local FerretDB started by tools/ferretdb/up.sh.
#
# Usage:  tools/ferretdb/down.sh [--purge]
#   --purge  also delete all databases (<repo>/.ferretdb/data).
#
# SIGTERM, then SIGKILL after FERRETDB_STOP_TIMEOUT (15) seconds.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
STATE="$ROOT/.ferretdb"
PID_FILE="$STATE/ferretdb.pid"
BIN="$SCRIPT_DIR/bin/ferretdb"
FERRETDB_STOP_TIMEOUT="${FERRETDB_STOP_TIMEOUT:-15}"

log() { echo "ferretdb/down: $*" >&2; }

purge=""
for arg in "$@"; do
  case "$arg" in
    --purge) purge=1 ;;
    -h | --help) sed -n '2,7p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) log "unknown argument: $arg (expected --purge)"; exit 2 ;;
  esac
done

is_ours() { ps -ww -o args= -p "$1" 2>/dev/null | grep -qF "$BIN -listen"; }

pid=""
[[ -f "$PID_FILE" ]] && pid="$(tr -dc '0-9' <"$PID_FILE")"

if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && is_ours "$pid"; then
  log "stopping ferretdb (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  deadline=$((SECONDS + FERRETDB_STOP_TIMEOUT))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
  if kill -0 "$pid" 2>/dev/null; then
    log "still running after ${FERRETDB_STOP_TIMEOUT} s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
  fi
  log "stopped"
else
  log "not running${pid:+ (stale pid file: $pid)}"
  # A server for this repo whose pid file got lost is reported, not killed.
  if command -v pgrep >/dev/null 2>&1; then
    orphans="$(pgrep -f -- "$BIN -listen" || true)"
    [[ -n "$orphans" ]] && log "WARNING: ferretdb process(es) for this repo still running without a pid file: $orphans (kill them by pid)"
  fi
fi
rm -f "$PID_FILE"

if [[ -n "$purge" ]]; then
  log "purging $STATE/data"
  rm -rf "$STATE/data"
fi
