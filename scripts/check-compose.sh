#!/usr/bin/env bash
# Checks docker-compose.yml without a Docker engine: Compose itself validates and normalises the
# file (`config`), then the normalised file is checked against Kickstand's rules (every part built
# from the one image with its name as command, a /readyz health check, the start order, Kafka in
# KRaft mode, MongoDB 7 with a password, the engines' ports unpublished unless the
# docker-compose.engine-ports.yml override is added, no service port published but the gateway's
# and the sandbox's, bot-runner free to scale). Installs Compose
# when it is missing: Debian's
# docker-compose (v1, enough to validate) through apt-get when run as root.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if docker compose version >/dev/null 2>&1; then
  compose=(docker compose)
elif command -v docker-compose >/dev/null 2>&1; then
  compose=(docker-compose)
elif command -v apt-get >/dev/null 2>&1 && [[ "$(id -u)" == 0 ]]; then
  echo "check-compose: installing docker-compose (apt-get)"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null
  compose=(docker-compose)
else
  echo "check-compose: needs \`docker compose\` or \`docker-compose\` (e.g. apt-get install docker-compose)" >&2
  exit 1
fi

# The variables the file reads from the shell, so the check does not depend on this machine's.
export SUPER_ADMIN_EMAIL='' SUPER_ADMIN_PASSWORD=''
unset KAFKA_BROKERS KAFKA_SASL_MECHANISM KAFKA_SASL_USERNAME KAFKA_SASL_PASSWORD KAFKA_SSL
normalise() {
  "${compose[@]}" "$@" config -q
  if [[ "${compose[0]}" == docker ]]; then
    "${compose[@]}" "$@" config --format json
  else
    "${compose[@]}" "$@" config | python3 -c 'import json, sys, yaml; print(json.dumps(yaml.safe_load(sys.stdin)))'
  fi
}
normalised="$(normalise -f docker-compose.yml)"
withPorts="$(normalise -f docker-compose.yml -f docker-compose.engine-ports.yml)"

NORMALISED="$normalised" WITH_PORTS="$withPorts" node - <<'EOF'
const config = JSON.parse(process.env.NORMALISED);
const withPorts = JSON.parse(process.env.WITH_PORTS);
const services = config.services ?? {};
const problems = [];
const parts = ['kick-sandbox', 'auth', 'commands', 'kick-link', 'bot-runner', 'games', 'realtime', 'gateway'];
const expected = ['kafka', 'mongo', 'jwt-keys', ...parts];
const names = Object.keys(services);
for (const name of expected) if (!names.includes(name)) problems.push(`${name}: missing`);
for (const name of names) if (!expected.includes(name)) problems.push(`${name}: not expected (update scripts/check-compose.sh)`);

const condition = (service, on) => service?.depends_on?.[on]?.condition;
// "host:container" or "ip:host:container" (Compose v1), or an object (v2)
const published = (service) =>
  (service?.ports ?? []).map((port) => Number(typeof port === 'object' ? port.published : String(port).split(':').at(-2)));
const command = (service) => [service?.command].flat().join(' ');

const kafka = services.kafka ?? {};
if (kafka.image !== 'apache/kafka:3.9.1') problems.push(`kafka: image ${kafka.image}, expected apache/kafka:3.9.1`);
if (kafka.environment?.KAFKA_PROCESS_ROLES !== 'broker,controller') problems.push('kafka: not in KRaft mode (KAFKA_PROCESS_ROLES)');
if (!kafka.healthcheck) problems.push('kafka: no health check');
if (!/^mongo:7(\.|$)/.test(services.mongo?.image ?? '')) problems.push(`mongo: image ${services.mongo?.image}, expected mongo:7`);
if (!services.mongo?.healthcheck) problems.push('mongo: no health check');
if (!services.mongo?.environment?.MONGO_INITDB_ROOT_PASSWORD_FILE) problems.push('mongo: no root password (MONGO_INITDB_ROOT_PASSWORD_FILE)');
for (const engine of ['kafka', 'mongo']) {
  if (published(services[engine]).length > 0) problems.push(`${engine}: publishes a port; only docker-compose.engine-ports.yml may`);
}
// the services are reached through the gateway only, which checks every request first
for (const part of parts.filter((name) => name !== 'gateway' && name !== 'kick-sandbox')) {
  if (published(services[part]).length > 0) problems.push(`${part}: publishes a port; only the gateway (and the Kick sandbox) may`);
}
if (!published(withPorts.services?.kafka).includes(9092)) problems.push('docker-compose.engine-ports.yml: does not publish kafka 9092');
if (!published(withPorts.services?.mongo).includes(27017)) problems.push('docker-compose.engine-ports.yml: does not publish mongo 27017');
const entrypoint = [services.auth?.entrypoint].flat().join(' ');
if (!entrypoint.includes('MONGO_URL="mongodb://kickstand:')) problems.push('the parts do not build MONGO_URL with the generated password');

for (const part of parts) {
  const service = services[part];
  if (!service) continue;
  if (!service.build) problems.push(`${part}: not built from the repository's Dockerfile`);
  if (command(service) !== part) problems.push(`${part}: command "${command(service)}", expected "${part}"`);
  const test = [service.healthcheck?.test].flat().join(' ');
  if (!test.includes('/readyz')) problems.push(`${part}: the health check does not ask /readyz`);
  for (const engine of ['kafka', 'mongo']) {
    if (condition(service, engine) !== 'service_healthy') problems.push(`${part}: does not wait for a healthy ${engine}`);
  }
  if (condition(service, 'jwt-keys') !== 'service_completed_successfully') problems.push(`${part}: does not wait for jwt-keys`);
  if (part !== 'kick-sandbox' && !String(service.environment?.KAFKA_BROKERS ?? '').startsWith('kafka:')) {
    problems.push(`${part}: KAFKA_BROKERS does not point at the kafka service`);
  }
  if (service.environment?.MONGO_URL !== undefined) {
    problems.push(`${part}: MONGO_URL in the environment; the entrypoint builds it with the password`);
  }
  const mounts = (service.volumes ?? []).map((volume) => (typeof volume === 'object' ? volume.source : String(volume).split(':')[0]));
  if (!mounts.includes('engine-secret')) problems.push(`${part}: does not mount the engine-secret volume (MongoDB's password)`);
  if (part !== 'kick-sandbox' && service.environment?.KAFKA_PARTITIONS === undefined) {
    problems.push(`${part}: KAFKA_PARTITIONS is not set`);
  }
}
for (const part of parts.filter((p) => p !== 'gateway' && p !== 'kick-sandbox')) {
  if (condition(services.gateway, part) !== 'service_healthy') problems.push(`gateway: does not wait for a healthy ${part}`);
  const variable = `${part.toUpperCase().replace('-', '_')}_URL`;
  if (!String(services.gateway?.environment?.[variable] ?? '').startsWith(`http://${part}:`)) {
    problems.push(`gateway: ${variable} does not point at the ${part} service`);
  }
}
if (!published(services.gateway).includes(3000)) problems.push('gateway: port 3000 is not published');
if (condition(services['kick-link'], 'kick-sandbox') !== 'service_healthy') problems.push('kick-link: does not wait for the sandbox');
const botRunner = services['bot-runner'] ?? {};
if (botRunner.container_name || published(botRunner).length > 0) {
  problems.push('bot-runner: a container name or a published port stops `--scale bot-runner=N`');
}

if (problems.length > 0) {
  console.error(`check-compose: docker-compose.yml breaks ${problems.length} rule(s):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`check-compose: docker-compose.yml is valid (${names.length} services, start order, health checks and engine access as expected)`);
EOF
