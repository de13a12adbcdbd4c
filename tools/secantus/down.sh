#!/usr/bin/env bash
# Stop the local SecantusDB started by tools/secantus/up.sh.
#
# Usage:  tools/secantus/down.sh [--purge]
#   --purge  also delete all databases (<repo>/.secantus/data).
#
# SIGTERM (secantusd-rs then writes a closing checkpoint), SIGKILL after
# SECANTUS_STOP_TIMEOUT (30) seconds.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
STATE="$ROOT/.secantus"
CONFIG="$STATE/secantusd.toml"
PID_FILE="$STATE/secantus.pid"
SECANTUS_STOP_TIMEOUT="${SECANTUS_STOP_TIMEOUT:-30}"

log() { echo "secantus/down: $*" >&2; }

purge=""
for arg in "$@"; do
  case "$arg" in
    --purge) purge=1 ;;
    -h | --help) sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) log "unknown argument: $arg (expected --purge)"; exit 2 ;;
  esac
done

is_ours() { ps -ww -o args= -p "$1" 2>/dev/null | grep -qF -- "secantusd-rs --config $CONFIG"; }

pid=""
[[ -f "$PID_FILE" ]] && pid="$(tr -dc '0-9' <"$PID_FILE")"

if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && is_ours "$pid"; then
  log "stopping secantusd-rs (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  deadline=$((SECONDS + SECANTUS_STOP_TIMEOUT))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
  if kill -0 "$pid" 2>/dev/null; then
    log "still running after ${SECANTUS_STOP_TIMEOUT} s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
  fi
  log "stopped"
else
  log "not running${pid:+ (stale pid file: $pid)}"
  # A server for this repo whose pid file got lost is reported, not killed.
  if command -v pgrep >/dev/null 2>&1; then
    orphans="$(pgrep -f -- "secantusd-rs --config $CONFIG" || true)"
    [[ -n "$orphans" ]] && log "WARNING: secantusd-rs process(es) for this repo still running without a pid file: $orphans (kill them by pid)"
  fi
fi
rm -f "$PID_FILE"

if [[ -n "$purge" ]]; then
  log "purging $STATE/data"
  rm -rf "$STATE/data"
fi
