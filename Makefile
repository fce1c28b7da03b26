# Everything a fresh machine needs is installed by these targets.
#   make run    install what is missing, then serve the game on SQLite at http://127.0.0.1:8000
#   make test   install what is missing, then lint, type-check and run every test
#   make test-fast  the quick tests only (no browser, nothing marked slow), in parallel
#   make bench  print the engine's speed figures

PYTHON   ?= python3
VENV     := .venv
BIN      := $(VENV)/bin
STAMP    := $(VENV)/.installed
VENDOR   := src/tysiac/web/static/vendor
FONT     := node_modules/@fontsource/atkinson-hyperlegible-next
OPENPGP  := node_modules/openpgp
CHROMIUM := /usr/bin/chromium
GPG      := /usr/bin/gpg
ICU      := /usr/include/unicode/uspoof.h
# The project's own JavaScript, linted and formatted (ESLint and Prettier, from npm).
JS       := src/tysiac/web/static/js src/tysiac/web/static/sw.js tests/js eslint.config.js
# Where `make run` listens: `make run PORT=8080`, `make run HOST=0.0.0.0`. Set on the
# command line only (not read from the environment, where tcsh keeps HOST = the host name).
HOST     = 127.0.0.1
PORT     = 8000
# pytest-xdist workers: for the tests that need no browser (most of them wait on sockets
# and subprocesses, so more workers than cores), and for the browser tests (each worker
# drives a Chromium of its own). `make test WORKERS=1 BROWSER_WORKERS=1` runs them one by one.
WORKERS         ?= 4
BROWSER_WORKERS ?= 2
PYTEST          := $(BIN)/python -m pytest

.PHONY: install assets run test test-js test-fast lint bench clean

install: $(STAMP)

# Front-end files from npm, pinned by package-lock.json, served by the game itself.
assets: $(VENDOR)/.installed

$(VENDOR)/.installed: package-lock.json
	npm ci --no-audit --no-fund
	mkdir -p $(VENDOR)/atkinson
	for weight in 400 700; do for subset in latin latin-ext; do \
		cp $(FONT)/files/atkinson-hyperlegible-next-$$subset-$$weight-normal.woff2 $(VENDOR)/atkinson/; \
	done; done
	cp $(FONT)/LICENSE $(VENDOR)/atkinson/AtkinsonHyperlegibleNext-OFL.txt
	# OpenPGP.js for the contact page: the lightweight build and the chunks it imports on
	# demand (curves, hashes, ciphers), with source maps (they carry the full source).
	mkdir -p $(VENDOR)/openpgp
	cp $(OPENPGP)/dist/lightweight/*.min.mjs $(OPENPGP)/dist/lightweight/*.min.mjs.map $(VENDOR)/openpgp/
	cp $(OPENPGP)/LICENSE $(VENDOR)/openpgp/openpgp-LICENSE.txt
	# The word filter's LDNOOBW lists (naughty-words, CC-BY-4.0), with their licence.
	mkdir -p src/tysiac/wordfilter/data/ldnoobw
	cp node_modules/naughty-words/pl.json node_modules/naughty-words/en.json \
		node_modules/naughty-words/LICENSE src/tysiac/wordfilter/data/ldnoobw/
	touch $@

# The browser tests drive Debian's Chromium (a browser download cannot work here).
$(CHROMIUM):
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y chromium

# The contact tests encrypt and decrypt with GnuPG, as a person writing to the operator would.
$(GPG):
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y gnupg

# The word filter's false-positive test reads Debian's Polish dictionary (4.3 million forms).
/usr/share/dict/polish:
	DEBIAN_FRONTEND=noninteractive apt-get install -y wpolish || \
		(apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y wpolish)

# And its Ukrainian one (1.5 million forms).
/usr/share/dict/ukrainian:
	DEBIAN_FRONTEND=noninteractive apt-get install -y wukrainian || \
		(apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y wukrainian)

# PyICU (look-alike nicks, the word filter's skeletons) builds against Debian's ICU.
$(ICU):
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y libicu-dev pkg-config g++

# The install also builds the bots' C solver, so a change to it reinstalls.
$(STAMP): pyproject.toml setup.py src/tysiac/bots/_dd.c | $(ICU)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: install assets
	$(BIN)/python -m tysiac.server --host $(HOST) --port $(PORT)

lint: install assets
	$(BIN)/ruff check src tests bench tools
	$(BIN)/ruff format --check src tests bench tools
	$(BIN)/mypy --strict src
	# Every language has every key of pl.json (its own plural forms), the same
	# placeholders, and every key is used (docs/catalogue.md).
	$(BIN)/python tools/check_catalogue.py
	npx --no -- eslint $(JS)
	npx --no -- prettier --check $(JS)

# The browser's pure modules (no DOM) under Node's own test runner.
test-js: install assets
	node --test tests/js/*.test.mjs

# Two runs: every test but the browser's in parallel, then the browser tests (tests/web,
# marked `browser` by tests/conftest.py) in a run of their own, as Playwright's event loop
# in the main thread keeps asyncio.run() out of any test after them. Both always run; the
# target fails if either did. Each ends with pytest's own summary line.
test: lint assets test-js $(CHROMIUM) $(GPG) /usr/share/dict/polish /usr/share/dict/ukrainian
	status=0; \
	$(PYTEST) -n $(WORKERS) --dist worksteal -m "not browser" || status=$$?; \
	$(PYTEST) -n $(BROWSER_WORKERS) --dist worksteal -m browser || status=$$?; \
	exit $$status

# The inner loop: no browser, nothing marked slow (`-m slow` lists those), lint left out.
test-fast: install
	$(PYTEST) -n $(WORKERS) --dist worksteal -m "not browser and not slow"

bench: install
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis node_modules $(VENDOR) \
		src/tysiac/wordfilter/data/ldnoobw
