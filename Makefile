# WarmLine. `make start` runs the system at http://localhost:3000; `make test` passes the tests.
# Every target installs or starts what it needs first.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
# apt-get needs root; use sudo when we are not.
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
WITH_ENV := infra/scripts/env.sh

.PHONY: help install services env migrate seed build start test test-tools bench-tools typecheck rules lint screenshots bench chaos clean

help:
	@echo "make start   install, start PostgreSQL/Redis/RabbitMQ if stopped, migrate, seed, build, run every service"
	@echo "make test    install, ensure the services, typecheck, lint, house rules (depcruise, knip), build, run every test"
	@echo "make chaos   the whole system under load while PostgreSQL, Redis, RabbitMQ restart (FAULTS=none: no restarts)"
	@echo "make screenshots   the SPA's screens at 390 and 1280 px in var/screenshots/ (NAME=checkout: one script)"
	@echo "other: install services env migrate seed build typecheck lint rules test-tools bench-tools bench clean"

# npm ci when node_modules is missing or package-lock.json changed since the last install.
install: node_modules/.package-lock.json
node_modules/.package-lock.json: package-lock.json
	npm ci
	@touch $@

services:
	@bash infra/scripts/ensure-services.sh

# var/local.env: random secrets and demo passwords, written once and reused.
env:
	@$(WITH_ENV) >/dev/null

migrate: install services
	@$(WITH_ENV) npx tsx infra/scripts/migrate.ts

seed: migrate
	@$(WITH_ENV) npx tsx infra/scripts/seed.ts

build: install
	@if [ -f web/package.json ]; then npm run build -w web; else echo "build: no web/ yet; nothing to build"; fi

start: install services env migrate seed build
	@$(WITH_ENV) bash infra/scripts/start.sh

# Tools later tests need: docker-compose validates docker-compose.yml without an engine, caddy
# the edge's infra/edge/Caddyfile (`caddy adapt`; nothing is started); chromium drives the end-to-end tests.
test-tools:
	@if ! command -v docker-compose >/dev/null; then $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose; fi
	@# Debian's package also enables a caddy service on :80; only the binary is wanted here.
	@if ! command -v caddy >/dev/null; then $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy && { $(SUDO) systemctl disable --now caddy 2>/dev/null || true; }; fi
	@if ! command -v chromium >/dev/null; then $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; fi
	@# The README's tap recipes pipe into jq; services/platform/test/tap-readme-recipes.test.ts runs them as written.
	@if ! command -v jq >/dev/null; then $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq; fi

# Tools the benches need: libfaketime (Debian's faketime package), under which the routing bench
# runs the gateway and the transfers service on a clock inside US calling hours, so it routes at
# any hour without a clock setting in the product (infra/bench/transfer-routing.ts).
bench-tools:
	@if ! command -v faketime >/dev/null; then $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq faketime; fi
	@# Lighthouse drives Debian's chromium (infra/bench/lighthouse.ts), as the end-to-end tests do.
	@if [ ! -x /usr/bin/chromium ]; then $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; fi

# The SPA is built once here, so the end-to-end files find it fresh instead of building it
# themselves (e2e/harness.ts still rebuilds a stale build when run alone).
test: install services test-tools typecheck rules lint build
	npx vitest run

# The house rules (.dependency-cruiser.cjs): no service imports another, platform and contracts
# import no service, the SPA shares only the contracts with the backend; inside a service, domain
# speaks no HTTP or SQL, db imports no domain, http reads db only through db/read-models/, and
# infra/scripts/check-rooms.ts refuses a query in a domain file. Then knip (knip.jsonc):
# no unused file, export or dependency, and every package used is listed where it is used.
rules: install
	npx depcruise services web/src e2e infra --config .dependency-cruiser.cjs --output-type err
	npx tsx infra/scripts/check-rooms.ts
	npx knip --no-progress

# Services and scripts, the SPA, and the end-to-end harness each have their own tsconfig.
typecheck: install
	npx tsc -p tsconfig.json
	npx tsc -p web
	npx tsc -p e2e

# ESLint with typescript-eslint (eslint.config.js, ADR 0046): floating and misused promises, `any`
# outside tests, and a few more bugs the compiler lets through; after the three typechecks.
lint: typecheck
	npx eslint .

# The SPA's screens at 390 and 1280 px, for looking at them as a person would: every script of
# e2e/screenshots/ (each starts a system of its own, like the end-to-end tests), or NAME=checkout
# (the file's name; several with spaces). PNGs under var/screenshots/<name>/.
NAME ?=
screenshots: install services test-tools build
	npx tsx e2e/screenshots/run.ts $(NAME)

# First the SPA's landing-route JavaScript size, printed (and held to its budget) by the web
# build. Then every bench of infra/bench/run-all.ts in turn, each rewriting its section of
# docs/benchmarks.md with its baseline measured in the same run: the aged-lead market
# (aged-leads.ts: its own database, filled once; BENCH_LEADS=10000000 for ten million), the admin's
# customer search (customer-search.ts), the aged-lead importer against COPY (lead-import.ts), the
# event pipeline against the database's commit ceiling (event-pipeline.ts), the vendor webhook
# (callback-ingestion.ts), live-transfer routing and outcomes (transfer-routing.ts, the services on a
# clock shifted into US calling hours by libfaketime, see bench-tools), Lighthouse
# (lighthouse.ts). A bench that misses a target goes on; at the end every missed target is named
# and make bench exits 1. BENCH_ONLY=lead-import,event-pipeline runs only those.
BENCH_ONLY ?=
bench: build services bench-tools
	BENCH_ONLY=$(BENCH_ONLY) npx tsx infra/bench/run-all.ts

# Issue 10's fault run (infra/chaos/run.ts): every service on its own database, namespace and
# ports under a steady load while this machine's PostgreSQL, Redis and RabbitMQ restart one after
# the other; rewrites the "Faults" section of docs/benchmarks.md. FAULTS=none: load and checks
# only; FAULTS=redis,rabbitmq: those only. Refuses while `make test` or `make start` runs.
# REPLICAS=2 (issue 25): two of every process, HTTP behind a round-robin proxy each, and after the
# restarts one replica of each process killed (SIGKILL) in turn and started again; its results go
# to the "Faults with two replicas" section. FAULTS=replicas: the kills only, no server restarted.
FAULTS ?=
REPLICAS ?=
chaos: install services env build
	@$(WITH_ENV) npx tsx infra/chaos/run.ts $(if $(FAULTS),--faults $(FAULTS)) $(if $(REPLICAS),--replicas $(REPLICAS))

# Build and test output and the .eml files; var/local.env stays (the database's admin was
# created with its password).
clean:
	rm -rf var/mail var/screenshots web/dist coverage test-results
