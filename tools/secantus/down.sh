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

# shellcheck source=../lib/local-engine.sh
source "$SCRIPT_DIR/../lib/local-engine.sh"
stop_engine secantusd-rs "$PID_FILE" "secantusd-rs --config $CONFIG" "$SECANTUS_STOP_TIMEOUT"

if [[ -n "$purge" ]]; then
  log "purging $STATE/data"
  rm -rf "$STATE/data"
fi
