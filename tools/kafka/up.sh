#!/usr/bin/env bash
# Start a single-node Apache Kafka broker (KRaft mode, no ZooKeeper) for local
# integration tests. The jars come from Maven Central via tools/kafka/pom.xml.
#
# Usage:  eval "$(tools/kafka/up.sh)"     # -> export KAFKA_BROKERS=localhost:9092
#
# Idempotent: if the broker is already running and answering, it only prints the
# export line. State lives in <repo>/.kafka/ (classpath, config, data, log, pid).
#
# Env: KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT (9093),
#      KAFKA_HEAP_OPTS ("-Xmx512m -Xms256m"), KAFKA_START_TIMEOUT (90 seconds).
# Everything except the final export line goes to stderr.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
STATE="$ROOT/.kafka"
DATA="$STATE/data"
CP_FILE="$STATE/classpath.txt"
CONFIG="$STATE/server.properties"
LOG4J="$STATE/log4j.properties"
CLUSTER_ID_FILE="$STATE/cluster.id"
LOG="$STATE/kafka.log"
PID_FILE="$STATE/kafka.pid"

KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xmx512m -Xms256m}"
KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
BOOTSTRAP="localhost:$KAFKA_PORT"

log() { echo "kafka/up: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }

need() { command -v "$1" >/dev/null 2>&1 || die "'$1' not found on PATH"; }
need java
need mvn

mkdir -p "$STATE"

# --- helpers -----------------------------------------------------------------

# Prints the pid from the pid file if that process is alive and is our broker.
running_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(tr -dc '0-9' <"$PID_FILE")"
  [[ -n "$pid" ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  ps -ww -o args= -p "$pid" 2>/dev/null | grep -qF "kafka.Kafka $CONFIG" || return 1
  echo "$pid"
}

# `timeout` is GNU coreutils; run without a limit where it is missing (macOS).
with_timeout() { if command -v timeout >/dev/null 2>&1; then timeout "$@"; else shift; "$@"; fi; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Readiness: TCP connect, then real round trips (kafkajs admin listTopics +
# describeGroups if the repo's node_modules has kafkajs, else the broker's own
# kafka.admin.BrokerApiVersionsCommand, which is slower: it starts a JVM).
answering() {
  port_open "$KAFKA_PORT" || return 1
  if command -v node >/dev/null 2>&1 && [[ -f "$ROOT/node_modules/kafkajs/package.json" ]]; then
    KICKSTAND_ROOT="$ROOT" BROKER="$BOOTSTRAP" with_timeout 20 node -e '
      const { Kafka, logLevel } = require(require.resolve("kafkajs", { paths: [process.env.KICKSTAND_ROOT] }));
      const admin = new Kafka({ clientId: "kickstand-up", brokers: [process.env.BROKER], logLevel: logLevel.NOTHING,
        connectionTimeout: 2000, requestTimeout: 5000, retry: { retries: 0 } }).admin();
      // describeGroups needs the group coordinator: on a fresh broker this creates
      // __consumer_offsets, so the first test consumer does not hit GROUP_COORDINATOR_NOT_AVAILABLE.
      admin.connect().then(() => admin.listTopics()).then(() => admin.describeGroups(["kickstand-up-probe"])).then(
        () => admin.disconnect().then(() => process.exit(0)),
        () => process.exit(1));
    ' >/dev/null 2>&1
  else
    with_timeout 30 java -Xmx128m -cp "$(cat "$CP_FILE")" kafka.admin.BrokerApiVersionsCommand \
      --bootstrap-server "$BOOTSTRAP" >/dev/null 2>&1
  fi
}

print_export() { echo "export KAFKA_BROKERS=$BOOTSTRAP"; }

# Every jar listed in the cached classpath still exists (e.g. ~/.m2 not wiped).
classpath_ok() {
  [[ -s "$CP_FILE" && ! "$SCRIPT_DIR/pom.xml" -nt "$CP_FILE" ]] || return 1
  local jar
  IFS=: read -r -a jars <"$CP_FILE"
  for jar in "${jars[@]}"; do [[ -f "$jar" ]] || return 1; done
}

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
    log "already running (pid $pid) on $BOOTSTRAP"
    print_export
    exit 0
  fi
  log "pid $pid is alive but not answering yet; waiting for it"
else
  rm -f "$PID_FILE"
  pid=""
  if port_open "$KAFKA_PORT"; then
    die "port $KAFKA_PORT is already in use by another process (not started by this script). Stop it or set KAFKA_PORT."
  fi
  if port_open "$KAFKA_CONTROLLER_PORT"; then
    die "controller port $KAFKA_CONTROLLER_PORT is already in use. Stop that process or set KAFKA_CONTROLLER_PORT."
  fi
fi

# --- classpath (cached) ---------------------------------------------------------

if ! classpath_ok; then
  log "resolving Kafka classpath with Maven (tools/kafka/pom.xml) ..."
  rm -f "$CP_FILE"
  # Output is kept out of the terminal (Maven 3.8 prints stray ANSI resets even with -q -B).
  if ! (cd "$SCRIPT_DIR" && mvn -q -B -Dstyle.color=never dependency:build-classpath \
    -Dmdep.outputFile="$CP_FILE.tmp") >"$STATE/mvn.log" 2>&1; then
    cat "$STATE/mvn.log" >&2
    die "mvn dependency:build-classpath failed (output: $STATE/mvn.log)"
  fi
  mv "$CP_FILE.tmp" "$CP_FILE"
fi
CP="$(cat "$CP_FILE")"

if [[ -z "$pid" ]]; then
  # --- config -------------------------------------------------------------------
  cat >"$CONFIG" <<EOF
# Generated by tools/kafka/up.sh -- edits are overwritten on the next start.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@localhost:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://localhost:$KAFKA_PORT,CONTROLLER://localhost:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://localhost:$KAFKA_PORT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=$DATA
num.partitions=1
auto.create.topics.enable=true
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
# small footprint for a 2-core dev box / CI runner
num.network.threads=2
num.io.threads=2
num.recovery.threads.per.data.dir=1
log.retention.hours=24
EOF

  cat >"$LOG4J" <<'EOF'
# Generated by tools/kafka/up.sh. Broker output goes to stdout (-> .kafka/kafka.log).
log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.org.apache.kafka=INFO
log4j.logger.kafka=INFO
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.log.LogCleaner=WARN
log4j.logger.org.apache.kafka.common.config.AbstractConfig=WARN
log4j.logger.org.apache.kafka.clients.admin.AdminClientConfig=WARN
EOF

  # --- format storage once --------------------------------------------------------
  if [[ ! -f "$DATA/meta.properties" ]]; then
    if [[ ! -s "$CLUSTER_ID_FILE" ]]; then
      java -cp "$CP" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -n1 | tr -d '[:space:]' >"$CLUSTER_ID_FILE"
      [[ -s "$CLUSTER_ID_FILE" ]] || die "kafka.tools.StorageTool random-uuid produced no id"
    fi
    log "formatting storage in $DATA (cluster id $(cat "$CLUSTER_ID_FILE"))"
    mkdir -p "$DATA"
    if ! java -Dlog4j.configuration="file:$LOG4J" -cp "$CP" kafka.tools.StorageTool format \
      -t "$(cat "$CLUSTER_ID_FILE")" -c "$CONFIG" --ignore-formatted >"$STATE/format.log" 2>&1; then
      tail -n 40 "$STATE/format.log" >&2
      die "kafka.tools.StorageTool format failed (full output: $STATE/format.log)"
    fi
  fi

  # --- start ------------------------------------------------------------------------
  log "starting broker on $BOOTSTRAP (controller :$KAFKA_CONTROLLER_PORT), log: $LOG"
  # shellcheck disable=SC2086 # KAFKA_HEAP_OPTS is a list of JVM flags
  nohup java $KAFKA_HEAP_OPTS \
    -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 \
    -Djava.awt.headless=true \
    -Dlog4j.configuration="file:$LOG4J" -Dkafka.logs.dir="$STATE" \
    -cp "$CP" kafka.Kafka "$CONFIG" >"$LOG" 2>&1 </dev/null 9>&- &
  pid=$!
  echo "$pid" >"$PID_FILE"
  started_here=1
fi

# --- wait until it answers ----------------------------------------------------------

# shellcheck source=../lib/local-engine.sh
source "$SCRIPT_DIR/../lib/local-engine.sh"
wait_until_answering broker "$pid" "$KAFKA_START_TIMEOUT" 1 "$started_here" "$SCRIPT_DIR/down.sh" "$LOG" "$PID_FILE"
