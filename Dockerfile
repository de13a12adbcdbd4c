# One image for every part of Kickstand; the command names the part:
#   docker run kickstand gateway | auth | commands | kick-link | bot-runner | games | realtime | kick-sandbox
FROM node:20-bookworm-slim AS build
WORKDIR /app
# Manifests first, so the dependency layer is reused while only sources change.
COPY package.json package-lock.json ./
COPY proto/package.json proto/
COPY packages/platform/package.json packages/platform/
COPY packages/chat-language/package.json packages/chat-language/
COPY packages/api-contract/package.json packages/api-contract/
COPY apps/single-machine/package.json apps/single-machine/
COPY gateway/package.json gateway/
COPY services/auth/package.json services/auth/
COPY services/commands/package.json services/commands/
COPY services/kick-link/package.json services/kick-link/
COPY services/bot-runner/package.json services/bot-runner/
COPY services/games/package.json services/games/
COPY services/realtime/package.json services/realtime/
COPY tools/kick-sandbox/package.json tools/kick-sandbox/
COPY web/package.json web/
RUN npm install --no-audit --no-fund
COPY . .
RUN npx tsc -b && npm run build -w @kickstand/web && npm prune --omit=dev --no-audit --no-fund \
  && node scripts/runtime-tree.js /runtime

# Only what runs (scripts/runtime-tree.js): manifests, production node_modules, the launched parts'
# dist/ and the built SPA. No sources, tests, test harnesses (testing/) or dev tools; a test
# (scripts/runtime-tree.test.js) keeps it so.
FROM node:20-bookworm-slim
# MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_: glibc reads them only when a process starts, so they
# are set here rather than by Kickstand. Without the first each thread gets a malloc arena of its
# own and freed memory stays in it (~17 MB at 1,000 msg/s). Without the second glibc raises its
# mmap threshold to the largest block freed so far, so once argon2 has hashed (19 MiB a hash, on
# libuv's threads: auth's dummy hash at start, every sign-in) those blocks come from the arenas and
# stay resident, 19 MiB per thread: a fixed 4 MiB threshold gives them back to the system
# (single-machine mode at rest: 194 -> 135 MB; docs/performance.md "Memory", fourth round)
ENV NODE_ENV=production LOG_FORMAT=json MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=4194304
WORKDIR /app
COPY --from=build --chown=node:node /runtime /app
# kick-link's webhook spool: a volume mounted here starts with this owner (docker-compose.yml)
RUN mkdir -p /var/lib/kickstand/spool && chown -R node:node /var/lib/kickstand
USER node
EXPOSE 3000
ENTRYPOINT ["node", "scripts/run-service.js"]
CMD ["gateway"]
