# Shortcuts for the npm scripts and the local engines. Every target also works without make.
.PHONY: start start-distributed test test-integration lint typecheck build proto kafka-up kafka-down mongo-up mongo-down ci

start:            ## single-machine mode: everything in one process
	npm start

start-distributed: ## one process per service on local Kafka and SecantusDB (engines stopped on exit)
	bash scripts/with-engines.sh npm run start:distributed

test:             ## the README's test command
	npm test

test-integration: ## contract suites against real Kafka and a MongoDB-compatible server (started here)
	bash scripts/with-engines.sh npm run test:integration

lint:
	npm run lint

typecheck:
	npm run typecheck

build:
	npm run build

proto:            ## regenerate proto/src/gen from the .proto files
	npm run proto

kafka-up:
	@bash tools/kafka/up.sh

kafka-down:
	@bash tools/kafka/down.sh

mongo-up:         ## SecantusDB (MongoDB wire protocol over WiredTiger; built once, then cached)
	@bash tools/secantus/up.sh

mongo-down:
	@bash tools/secantus/down.sh

ci:
	bash .ci/run
