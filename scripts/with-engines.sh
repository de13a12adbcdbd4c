#!/usr/bin/env bash
# Starts a local Kafka broker and SecantusDB (built once per version, then reused), runs the given command with KAFKA_BROKERS and
# MONGO_URL exported, and stops both engines afterwards whatever the command's outcome.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

stop_engines() {
  bash "$root/tools/kafka/down.sh" >/dev/null 2>&1 || true
  bash "$root/tools/secantus/down.sh" >/dev/null 2>&1 || true
}
trap stop_engines EXIT

kafka_env="$(bash "$root/tools/kafka/up.sh" | tail -n 1)"
mongo_env="$(bash "$root/tools/secantus/up.sh" | tail -n 1)"
eval "$kafka_env"
eval "$mongo_env"
echo "engines up: KAFKA_BROKERS=$KAFKA_BROKERS MONGO_URL=$MONGO_URL"
"$@"
