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

# shellcheck source=../lib/local-engine.sh
source "$SCRIPT_DIR/../lib/local-engine.sh"
stop_engine broker "$PID_FILE" "kafka.Kafka $CONFIG" "$KAFKA_STOP_TIMEOUT"

if [[ -n "$purge" ]]; then
  log "purging $STATE/data"
  rm -rf "$STATE/data"
fi
