# The two commands a newcomer needs: `make run` and `make test` (see README).
SHELL := /bin/bash
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

NODE_MODULES := islands/node_modules/.package-lock.json
MANIFEST     := static/dist/.vite/manifest.json
ISLAND_SRC   := $(shell find islands -path islands/node_modules -prune -o -path islands/e2e -prune -o \( -name '*.ts' -o -name '*.tsx' -o -name '*.css' \) -print 2>/dev/null) islands/package.json islands/vite.config.ts
TEMPL_SRC    := $(wildcard views/*.templ)

.PHONY: run build bench rolling-restart deps test generate islands templ vet unit vitest e2e e2e-midnight clean

## run: build everything and start the server on the bundled sandbox at http://localhost:8080
run: generate
	go run ./cmd/lk

## build: bin/lk, one binary with everything embedded
build: bin/lk

bin/lk: generate $(shell find . -name '*.go' -not -path './islands/*' 2>/dev/null) $(shell find static -type f -not -path 'static/dist/*' 2>/dev/null) $(MANIFEST)
	CGO_ENABLED=0 go build -trimpath -o bin/lk ./cmd/lk

## deps: check the system tools the tests and the benchmark need; install the missing ones (scripts/deps)
deps:
	@scripts/deps

## test: vet, staticcheck, Go tests with the race detector, Vitest, browser tests
test: deps generate vet unit vitest e2e

generate: islands templ

$(NODE_MODULES): islands/package.json islands/package-lock.json
	cd islands && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

islands: $(MANIFEST)
$(MANIFEST): $(NODE_MODULES) $(ISLAND_SRC)
	cd islands && npx vite build --logLevel warn

templ: $(TEMPL_SRC)
	go tool templ generate -path views -log-level warn

## bench: load benchmark on loopback (scripts/bench; BENCH_DURATION, BENCH_CONCURRENCY, BENCH_PATHS, BENCH_ENCODINGS)
bench: deps bin/lk
	CGO_ENABLED=0 go build -trimpath -o bin/sandbox ./cmd/sandbox
	@scripts/bench

## rolling-restart: two instances on one Redis behind HAProxy, restarted under load; fails if a SIGTERM restart shows (scripts/rolling-restart; RR_DURATION, RR_DRAIN, RR_RETRY, RR_PORT)
rolling-restart: bin/lk
	@scripts/deps rolling-restart
	CGO_ENABLED=0 go build -trimpath -o bin/sandbox ./cmd/sandbox
	go build -o bin/pageload ./scripts/pageload
	@scripts/rolling-restart

vet:
	go vet ./...
	go tool staticcheck ./...

unit:
	go test -race -count=1 $(GOTESTFLAGS) ./...

vitest: $(NODE_MODULES)
	cd islands && npx vitest run --reporter=dot

e2e: deps bin/lk $(NODE_MODULES)
	cd islands && npx playwright test

## e2e-midnight: the browser tests that depend on the day, with the server's and the browser's clocks at 23:59 and at 00:01 Moscow time (the coming midnight), the browser in a zone already on the next day, then in one still on the day before
MIDNIGHT_SPECS := e2e/transfer.spec.ts e2e/rent-move.spec.ts e2e/refund.spec.ts e2e/account.spec.ts e2e/gate.spec.ts
e2e-midnight: deps bin/lk $(NODE_MODULES)
	cd islands && LK_E2E_NOW=$$(TZ=Europe/Moscow date +%FT23:59:00+03:00) LK_E2E_TZ=Pacific/Kiritimati npx playwright test $(MIDNIGHT_SPECS)
	cd islands && LK_E2E_NOW=$$(TZ=Europe/Moscow date -d tomorrow +%FT00:01:00+03:00) LK_E2E_TZ=America/Los_Angeles npx playwright test $(MIDNIGHT_SPECS)

clean:
	rm -rf bin static/dist
	find views -name '*_templ.go' -delete
