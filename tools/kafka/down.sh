#!/usr/bin/env bash
# Stop the local Kafka broker started by tools/kafka/up.sh.
#
# Usage:  tools/kafka/down.sh [--purge]
#   --purge  also delete the broker's data (<repo>/.kafka/data): topics, offsets.
#
# SIGTERM (controlled shutdown), then SIGKILL after KAFKA_STOP_TIMEOUT (15) seconds.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
STATE="$ROOT/.kafka"
CONFIG="$STATE/server.properties"
PID_FILE="$STATE/kafka.pid"
KAFKA_STOP_TIMEOUT="${KAFKA_STOP_TIMEOUT:-15}"

log() { echo "kafka/down: $*" >&2; }

purge=""
for arg in "$@"; do
  case "$arg" in
    --purge) purge=1 ;;
    -h | --help) sed -n '2,7p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) log "unknown argument: $arg (expected --purge)"; exit 2 ;;
  esac
done

is_ours() { ps -ww -o args= -p "$1" 2>/dev/null | grep -qF "kafka.Kafka $CONFIG"; }

pid=""
[[ -f "$PID_FILE" ]] && pid="$(tr -dc '0-9' <"$PID_FILE")"

if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && is_ours "$pid"; then
  log "stopping broker (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  deadline=$((SECONDS + KAFKA_STOP_TIMEOUT))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.5; done
  if kill -0 "$pid" 2>/dev/null; then
    log "still running after ${KAFKA_STOP_TIMEOUT} s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
  fi
  log "stopped"
else
  log "not running${pid:+ (stale pid file: $pid)}"
  # A broker for this repo whose pid file got lost is reported, not killed.
  if command -v pgrep >/dev/null 2>&1; then
    orphans="$(pgrep -f -- "kafka.Kafka $CONFIG" || true)"
    [[ -n "$orphans" ]] && log "WARNING: broker process(es) for this repo still running without a pid file: $orphans (kill them by pid)"
  fi
fi
rm -f "$PID_FILE"

if [[ -n "$purge" ]]; then
  log "purging $STATE/data"
  rm -rf "$STATE/data"
fi
