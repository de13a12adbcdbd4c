#!/usr/bin/env bash
# Writes dev-secrets.env (git-ignored) with a fresh development key pair, and dev-engines.env
# (git-ignored): a MongoDB and a Kafka without credentials, for the dev overlay.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
if [ ! -f dev-engines.env ]; then
  cat > dev-engines.env <<'ENGINES'
MONGO_URL=mongodb://mongo:27017/
KAFKA_SASL_MECHANISM=
KAFKA_SASL_USERNAME=
KAFKA_SASL_PASSWORD=
KEDA_KAFKA_SASL=none
KEDA_KAFKA_TLS=disable
ENGINES
  echo "wrote $(pwd)/dev-engines.env"
fi
[ -f dev-secrets.env ] && exit 0
node -e '
const { generateKeyPairSync, randomBytes } = require("node:crypto");
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const b64 = (pem) => Buffer.from(pem).toString("base64");
console.log("JWT_PRIVATE_KEY=" + b64(privateKey.export({ type: "pkcs8", format: "pem" })));
console.log("JWT_PUBLIC_KEY=" + b64(publicKey.export({ type: "spki", format: "pem" })));
console.log("KICK_CLIENT_ID=kickstand-local");
console.log("KICK_CLIENT_SECRET=kickstand-local-secret");
console.log("KICK_TOKEN_ENCRYPTION_KEY=" + randomBytes(32).toString("base64"));
' > dev-secrets.env
echo "wrote $(pwd)/dev-secrets.env"
