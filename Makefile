# Spot: `make run` serves the demo organisation, `make test` runs every test.
SHELL := /bin/bash
.DEFAULT_GOAL := run

ROOT := $(CURDIR)
VAR := $(ROOT)/var
UV := $(shell command -v uv 2>/dev/null || echo python3 -m uv)
VENV := $(ROOT)/backend/.venv
SPOT := $(VENV)/bin/spot
PYTEST := $(VENV)/bin/pytest
CHROMIUM := /usr/bin/chromium
PG_URL ?= postgresql://postgres@127.0.0.1:5432/test
HOST ?= 127.0.0.1
PORT ?= 8000
# Journeys run side by side (each with its own server and browser).
E2E_WORKERS ?= 3

# Python keeps what it compiled (__pycache__): a machine set to write no bytecode makes every process of
# the suite (each test worker, each server a test or journey starts) compile the app and its libraries
# again, about 2.5 s of CPU each, and pytest rewrite every test module again.
unexport PYTHONDONTWRITEBYTECODE

export SPOT_DATABASE_URL ?= sqlite:///$(VAR)/spot.db
export SPOT_DATA_DIR ?= $(VAR)/data
export SPOT_PUBLIC_URL ?= http://$(HOST):$(PORT)

.PHONY: uv run test check-bundle deps backend-deps frontend-deps oidc-provider-deps chromium poppler openapi api-client frontend \
        test-server test-client postgres test-backend test-backend-pg test-frontend test-e2e check-api lint lint-backend bench

## Installing what is needed ---------------------------------------------------

# A Debian package installed when missing. What apt-get and dpkg print (a few hundred lines for the
# browser) goes to var/apt.log, printed only when the installation fails.
APT_INSTALL = mkdir -p $(VAR) && echo "Installing $(1) (apt-get)" && \
  { { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1); } > $(VAR)/apt.log 2>&1 \
    || { cat $(VAR)/apt.log; exit 1; }; }

uv:
	@command -v uv >/dev/null 2>&1 || python3 -m uv --version >/dev/null 2>&1 || python3 -m pip install -qq uv

backend-deps: uv
	@cd backend && $(UV) sync --quiet --frozen

frontend-deps:
	@command -v npm >/dev/null 2>&1 || { $(call APT_INSTALL,nodejs npm); }
	@cd frontend && ([ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund --loglevel=error)

# The browser of the end-to-end tests, and pdftoppm (poppler-utils), with which they look at a report's PDF.
chromium: poppler
	@[ -x $(CHROMIUM) ] || { $(call APT_INSTALL,chromium); }

# pdftoppm renders PDFs to images: the journeys' reports, and the backend's QR code labels read back.
poppler:
	@command -v pdftoppm >/dev/null 2>&1 || { $(call APT_INSTALL,poppler-utils); }

# The OpenID provider that the backend's sign-in tests start (oidc-provider, from npm).
oidc-provider-deps: frontend-deps
	@cd backend/tests/oidc_provider && ([ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund --loglevel=error)

deps: backend-deps frontend-deps oidc-provider-deps

## Building ----------------------------------------------------------------------

openapi: backend-deps
	mkdir -p $(VAR)
	$(VENV)/bin/python -m spot.openapi > $(VAR)/openapi.json

api-client: openapi frontend-deps
	cd frontend && npx openapi-typescript $(VAR)/openapi.json -o src/api/schema.d.ts

# The bundle, built again only when a source changed (the journeys and the bundle check use one build).
# Vite lists only warnings, not the few hundred chunks it writes. Types are checked by `make test` and
# `make lint` (tsc), not here: serving the demo does not wait for them.
FRONTEND_BUNDLE := frontend/dist/.vite/manifest.json
FRONTEND_SOURCES := $(shell find frontend/src frontend/public -type f 2>/dev/null) \
  frontend/index.html frontend/vite.config.ts frontend/package.json frontend/package-lock.json

frontend: $(FRONTEND_BUNDLE)

$(FRONTEND_BUNDLE): $(FRONTEND_SOURCES) | frontend-deps
	@echo "Building the client bundle"
	@cd frontend && npx vite build --logLevel warn

## Running -----------------------------------------------------------------------

# `spot serve --demo` migrates once, loads the demo organisation, and prints the demo logins and the
# address once the server answers. Another port: make run PORT=8001.
run: deps frontend
	@mkdir -p $(VAR)
	@echo "Starting Spot: migrations, demo organisation, server"
	@$(SPOT) serve --demo --host $(HOST) --port $(PORT)

## Testing -----------------------------------------------------------------------

# Two lanes side by side: the backend's (lint, SQLite, PostgreSQL), and the client's then the journeys
# (the client's tests end first; the journeys, which mostly wait on their browsers and servers, then
# share the cores with the PostgreSQL leg).
test: deps chromium frontend
	@$(MAKE) --no-print-directory -j2 --output-sync=recurse test-server test-client

# Each lane runs its steps in order (-j1; the warning make then prints about its jobserver is left out,
# line by line, so that a lane stopped midway has printed all it said).
test-server:
	@set -o pipefail; $(MAKE) --no-print-directory -j1 postgres lint-backend test-backend test-backend-pg 2>&1 | grep --line-buffered -v 'resetting jobserver'

test-client:
	@set -o pipefail; $(MAKE) --no-print-directory -j1 test-frontend check-api check-bundle test-e2e 2>&1 | grep --line-buffered -v 'resetting jobserver'

# The API's conformance to its OpenAPI document (tests/test_schemathesis.py, a fuzz of every operation)
# runs on PostgreSQL, the stricter database, when one answers; on SQLite otherwise. Every other test
# runs on both.
test-backend: backend-deps oidc-provider-deps poppler
	@fuzz=$$($(PG_ANSWERS) && echo --ignore=tests/test_schemathesis.py); \
	echo "The backend suite on SQLite$${fuzz:+ (the OpenAPI fuzz runs in the PostgreSQL leg)}"; \
	cd backend && env -u SPOT_DATABASE_URL -u SPOT_DATA_DIR $(PYTEST) -p no:warnings -n 2 tests $$fuzz

test-backend-pg: backend-deps oidc-provider-deps poppler postgres
	@if $(PG_ANSWERS); then \
	  cd backend && env -u SPOT_DATABASE_URL -u SPOT_DATA_DIR SPOT_TEST_DATABASE_URL=$(PG_URL) $(PYTEST) -p no:warnings -n 2 tests; \
	else \
	  echo "SKIPPED: the PostgreSQL leg of the backend suite (no PostgreSQL answers at $(PG_URL))"; \
	fi

PG_ANSWERS = $(VENV)/bin/python -c "import psycopg; psycopg.connect('$(PG_URL)', connect_timeout=3).close()" 2>/dev/null

# Starts the machine's PostgreSQL cluster when it is installed but not answering.
postgres: backend-deps
	@if ! $(PG_ANSWERS) && command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then \
	  echo "PostgreSQL is installed but not answering: starting it"; \
	  pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start || true; sleep 2; \
	fi

test-frontend: frontend-deps
	cd frontend && npx tsc -b --noEmit && npm run lint --silent && npx vitest run --reporter=dot

check-api: openapi frontend-deps
	cd frontend && npx openapi-typescript $(VAR)/openapi.json -o $(VAR)/schema.check.d.ts >/dev/null 2>&1 && \
	  diff -q src/api/schema.d.ts $(VAR)/schema.check.d.ts >/dev/null || \
	  (echo "frontend/src/api/schema.d.ts does not match the server's OpenAPI document: run 'make api-client'"; exit 1)
	@echo "The generated API client matches the server's OpenAPI document."

check-bundle: frontend
	cd frontend && node scripts/check-bundle.mjs

# --timeout: a hang guard (backend/pyproject.toml says the backend's); the longest journey takes about
# two minutes on a loaded machine.
test-e2e: backend-deps frontend chromium
	cd e2e && env -u SPOT_DATABASE_URL -u SPOT_DATA_DIR $(PYTEST) -p no:warnings -q -rs -n $(E2E_WORKERS) --timeout=900 .

lint: lint-backend frontend-deps
	cd frontend && npx tsc -b --noEmit && npm run lint --silent

lint-backend: backend-deps
	cd backend && $(VENV)/bin/ruff check src tests && $(VENV)/bin/ruff format --check src tests && $(VENV)/bin/mypy src
	cd backend && $(VENV)/bin/ruff check --config pyproject.toml ../e2e ../bench && \
	  $(VENV)/bin/ruff format --config pyproject.toml --check ../e2e ../bench

bench: backend-deps
	@command -v wrk >/dev/null 2>&1 || { $(call APT_INSTALL,wrk); }
	$(VENV)/bin/python -m bench $(BENCH_ARGS)
