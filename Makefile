# The two commands a newcomer needs: `make run` and `make test` (see README).
SHELL := /bin/bash
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1
# Go's build cache keyed by the code, not by the checkout's path: a fresh
# clone reuses what another clone of the same code compiled (race builds of
# the tests included), where it would otherwise compile every package of
# its own again.
export GOFLAGS := $(strip -trimpath $(GOFLAGS))

NODE_MODULES := islands/node_modules/.package-lock.json
LINT_MODULES := gateway/lint/node_modules/.package-lock.json
MANIFEST     := static/dist/.vite/manifest.json
ISLAND_SRC   := $(shell find islands -path islands/node_modules -prune -o -path islands/e2e -prune -o \( -name '*.ts' -o -name '*.tsx' -o -name '*.css' \) -print 2>/dev/null) islands/package.json islands/vite.config.ts
TEMPL_SRC    := $(wildcard views/*.templ)

.PHONY: alerts deadcode deps-update release run build image bench lighthouse phone rolling-restart failover deps deps-test test test-days generate islands templ vet unit vitest tsc openapi e2e e2e-midnight clean

## run: build everything and start the server on the bundled sandbox (LK_ADDR, default :8080: every interface)
run: generate
	go run ./cmd/lk

## build: bin/lk, one binary with everything embedded
build: bin/lk

bin/lk: generate $(shell find . -name '*.go' -not -path './islands/*' 2>/dev/null) $(shell find static -type f -not -path 'static/dist/*' 2>/dev/null) $(MANIFEST)
	CGO_ENABLED=0 go build -trimpath -o bin/lk ./cmd/lk

## image: the container image of deploy/Containerfile from bin/lk, tagged lk (IMAGE_TAG), with buildah or docker (scripts/image)
image: bin/lk
	@command -v buildah >/dev/null || docker info >/dev/null 2>&1 || scripts/deps image
	@scripts/image

## deps-update: the Go modules (templ, its generated code, echo, OpenTelemetry, everything the build imports) to their latest, then what is still behind: Go's and the islands' npm packages (docs/dependencies.md)
deps-update:
	go get -u ./...
	go get -tool github.com/a-h/templ/cmd/templ@latest
	go mod tidy -e
	go tool templ generate -path views -log-level warn
	go build ./... && go vet ./...
	@echo "== Go modules still behind (direct ones; an update may need code changes):"
	@go list -m -u -f '{{if and .Update (not .Indirect)}}{{.Path}} {{.Version}} -> {{.Update.Version}}{{end}}' all
	@echo "== npm packages behind (islands; Node 20 pins: docs/dependencies.md):"
	@cd islands && npm outdated || true

## release: dist/ with the archives of release VERSION (binary, licences), a CycloneDX SBOM and SHA256SUMS, signed with RELEASE_KEY_FILE when set (scripts/release)
release: generate
	@scripts/release

## deps: check the system tools the tests and the benchmark need; install the missing ones (scripts/deps)
deps:
	@scripts/deps

# The tools of the tests only: the benchmark's are asked for by make bench.
deps-test:
	@scripts/deps test

## test: vet, staticcheck, deadcode, Go tests with the race detector, tsc, Vitest, the OpenAPI lint, browser tests (scripts/test)
test: deps-test generate
	@GOTESTFLAGS='$(GOTESTFLAGS)' scripts/test

generate: islands templ

$(NODE_MODULES): islands/package.json islands/package-lock.json
	cd islands && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

$(LINT_MODULES): gateway/lint/package.json gateway/lint/package-lock.json
	cd gateway/lint && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

islands: $(MANIFEST)
$(MANIFEST): $(NODE_MODULES) $(ISLAND_SRC)
	cd islands && npx vite build --logLevel warn

templ: $(TEMPL_SRC)
	go tool templ generate -path views -log-level warn

## bench: load benchmark on loopback (scripts/bench; BENCH_DURATION, BENCH_CONCURRENCY, BENCH_PATHS, BENCH_ENCODINGS; BENCH_CUSTOMERS=N many customers, BENCH_CASES, BENCH_SLOW)
bench: bin/lk
	@scripts/deps bench
	CGO_ENABLED=0 go build -trimpath -o bin/sandbox ./cmd/sandbox
	go build -o bin/benchload ./scripts/benchload
	@scripts/bench

## lighthouse: Lighthouse (mobile) on every page, median of 5, each judged against a page without script measured in the same run (scripts/lighthouse; LH_RUNS, LH_PAGES)
lighthouse: bin/lk
	@scripts/deps test
	CGO_ENABLED=0 go build -trimpath -o bin/sandbox ./cmd/sandbox
	@scripts/lighthouse

## rolling-restart: two instances on one Redis behind HAProxy, restarted under load; fails if a SIGTERM restart shows (scripts/rolling-restart; RR_DURATION, RR_DRAIN, RR_RETRY, RR_PORT)
rolling-restart: bin/lk
	@scripts/deps rolling-restart
	CGO_ENABLED=0 go build -trimpath -o bin/sandbox ./cmd/sandbox
	go build -o bin/pageload ./scripts/pageload
	@scripts/rolling-restart

## failover: a Redis master, its replica and 3 Sentinels, 2 instances; the master killed under load; fails if a sign-out is lost, an action is done twice or sign-ins take over 30 s to return (scripts/failover; FO_SESSIONS, FO_PORT)
failover: bin/lk
	@scripts/deps failover
	CGO_ENABLED=0 go build -trimpath -o bin/sandbox ./cmd/sandbox
	go build -o bin/failoverload ./scripts/failoverload
	@scripts/failover

vet: deadcode
	go vet ./...
	go tool staticcheck ./...

# The functions no program of cmd/ reaches; only the gateway client's
# options are expected (scripts/deadcode).
deadcode:
	@scripts/deadcode

# The deadline of scripts/test's Go lane: on a shared 2-core machine the
# handlers' package alone may pass Go's default 10 minutes.
unit:
	go test -race -count=1 -timeout 30m $(GOTESTFLAGS) ./...

vitest: $(NODE_MODULES)
	cd islands && npx vitest run --reporter=dot

# The islands' types: Vite strips them without checking.
tsc: $(NODE_MODULES)
	cd islands && npx tsc --noEmit -p .

# gateway/openapi.yaml under Redocly's recommended rules (gateway/redocly.yaml
# says which two are off and why) and Spectral's OpenAPI rules.
openapi: $(LINT_MODULES)
	cd gateway && REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
		lint/node_modules/.bin/redocly lint openapi.yaml --config redocly.yaml --format=summary 2>&1 | grep -v '^ *[║╔╚]'; exit $${PIPESTATUS[0]}
	cd gateway && lint/node_modules/.bin/spectral lint openapi.yaml --ruleset .spectral.yaml --fail-severity=warn

# The alert rules: promtool checks them and runs their unit tests, in which
# every alert fires (scripts/deps takes promtool alone out of Debian's
# prometheus package, without the server and its service).
alerts:
	promtool check rules deploy/prometheus/rules.yaml
	cd deploy/prometheus && promtool test rules rules.test.yaml

e2e: deps-test bin/lk $(NODE_MODULES)
	cd islands && npx playwright test

## phone: the move pages' own long tasks, long animation frames, first paint and mount time with the CPU 4x slower, median of 5 (islands/bench; PHONE_RUNS, PHONE_CPU)
phone: deps-test bin/lk $(NODE_MODULES)
	cd islands && npx playwright test --config bench/playwright.config.ts

## e2e-midnight: the browser tests that depend on the day, with the server's and the browser's clocks at 23:59 on MIDNIGHT_DAY (default: today in Moscow) and at 00:01 the day after, the browser in a zone already on the next day, then in one still on the day before
MIDNIGHT_SPECS := e2e/transfer.spec.ts e2e/rent-move.spec.ts e2e/refund.spec.ts e2e/account.spec.ts e2e/gate.spec.ts
MIDNIGHT_DAY ?= $(shell TZ=Europe/Moscow date +%F)
e2e-midnight: deps-test bin/lk $(NODE_MODULES)
	cd islands && LK_TEST_NOW=$(MIDNIGHT_DAY)T23:59:00+03:00 LK_E2E_TZ=Pacific/Kiritimati npx playwright test $(MIDNIGHT_SPECS)
	cd islands && LK_TEST_NOW=$$(date -d '$(MIDNIGHT_DAY) +1 day' +%F)T00:01:00+03:00 LK_E2E_TZ=America/Los_Angeles npx playwright test $(MIDNIGHT_SPECS)

## test-days: the tests that depend on the day at fourteen instants: every day from Monday 28.12.2026 to Sunday 03.01.2027 at noon, both sides of New Year's midnight, 31.01.2027, 28.02.2027 23:59, 29.02.2028, 02.12.2026 and 15.02.2027 (scripts/test-days)
test-days: deps-test generate bin/lk $(NODE_MODULES)
	@scripts/test-days

clean:
	rm -rf bin static/dist
	find views -name '*_templ.go' -delete
