# deckpress: two commands on a fresh Debian machine, `make build` and `make test`.
# Each installs what is missing (Debian packages, the .venv, the package in editable
# mode) and is a quick no-op when everything is in place.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
APT_PACKAGES := liblouis20 liblouis-data python3-louis python3-venv icc-profiles-free argyll
# Only the tests use Ghostscript (an independent rendering of CMYK patches and spot plates) and
# DejaVu Sans (the archive's braille font, whose dots tests/test_archive_braille_size.py measures).
TEST_APT_PACKAGES := ghostscript fonts-dejavu-core
# The versions every machine installs (pip-compile output, used as constraints): the same
# reportlab, pikepdf and pypdf everywhere, so the same input gives the same bytes. `make lock`
# refreshes it; `make test-oldest` tests the lowest versions pyproject.toml allows.
LOCK := requirements/lock.txt
FLOORS := requirements/floors.txt
# ICC profiles of the printing targets, built from Debian's characterisation data at setup
# (scripts/build-icc.sh; generated, not committed).
ICC_PROFILES := templates/targets/icc/FOGRA39L.icc templates/targets/icc/TR006.icc templates/targets/icc/TR003.icc
STAMP := $(VENV)/.deckpress-installed

.PHONY: build test bench setup clean a11y-setup lock test-oldest

# Byte-compile our own modules at every setup: with PYTHONDONTWRITEBYTECODE=1 (set on this
# machine's shell) Python never writes __pycache__, so each deckpress run compiled its ~60
# modules from source again (a fifth of a one-line `deckpress check`). A stale .pyc is never
# used (Python checks the source's mtime and size), and __pycache__ is outside the build key.
setup: $(STAMP) $(ICC_PROFILES)
	@$(PY) -m compileall -q engine pipeline >/dev/null

# The profile's ink limit is its press target's (the file without a vendor: section): a
# vendor preset sharing the data (DriveThruCards' 240 % on TR003) checks its own lower limit.
templates/targets/icc/%.icc: scripts/build-icc.sh | $(STAMP)
	@scripts/build-icc.sh $* $@ $$(sed -n 's/^ink_limit: *//p' $$(grep -L '^vendor:' $$(grep -l '^characterisation: $*$$' templates/targets/*.yaml)))

$(STAMP): pyproject.toml $(LOCK) scripts/ensure-system.sh scripts/link-louis.sh
	@scripts/ensure-system.sh $(APT_PACKAGES)
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install -q --disable-pip-version-check -c $(LOCK) -e '.[test]'
	@scripts/link-louis.sh $(PY)
	@touch $@

build: setup
	$(VENV)/bin/deckpress build

# The archive's accessibility test (tests/a11y): Debian's Chromium plus axe-core and
# playwright-core from the committed package-lock.json (playwright-core downloads no browser).
A11Y := tests/a11y
A11Y_STAMP := $(A11Y)/node_modules/.deckpress-installed

a11y-setup: $(A11Y_STAMP)

$(A11Y_STAMP): $(A11Y)/package.json $(A11Y)/package-lock.json scripts/ensure-system.sh
	@scripts/ensure-system.sh chromium
	@command -v npm >/dev/null 2>&1 || scripts/ensure-system.sh nodejs npm
	@cd $(A11Y) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

test: setup a11y-setup
	@scripts/ensure-system.sh $(TEST_APT_PACKAGES)
	$(PY) -m pytest -q

# Refresh the lock after changing a dependency in pyproject.toml (pip-tools in a venv of its own).
lock:
	@test -x .venv-lock/bin/pip-compile || ($(PYTHON) -m venv .venv-lock && .venv-lock/bin/pip install -q pip-tools)
	.venv-lock/bin/pip-compile -q --extra test --strip-extras --no-emit-index-url --no-emit-find-links --allow-unsafe -o $(LOCK) pyproject.toml
	@# a constraint needs no platform marker (it only pins what is installed anyway)
	@sed -i 's/^\(reportlab==[^ ]*\) *;.*/\1/' $(LOCK)

# The whole suite on the lowest versions pyproject.toml allows (requirements/floors.txt), in .venv-oldest.
test-oldest: setup a11y-setup
	@scripts/ensure-system.sh $(TEST_APT_PACKAGES)
	@test -x .venv-oldest/bin/python || $(PYTHON) -m venv .venv-oldest
	@.venv-oldest/bin/pip install -q --disable-pip-version-check -c $(FLOORS) -e '.[test]'
	@scripts/link-louis.sh .venv-oldest/bin/python
	.venv-oldest/bin/python -m pytest -q -p no:cacheprovider

bench: setup
	$(PY) -m pipeline.build.bench

clean:
	rm -rf output/*/ $(VENV) .venv-oldest .venv-lock templates/targets/icc
