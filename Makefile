# deckpress: two commands on a fresh Debian machine, `make build` and `make test`.
# Each installs what is missing (Debian packages, the .venv, the package in editable
# mode) and is a quick no-op when everything is in place.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
APT_PACKAGES := liblouis20 liblouis-data python3-louis python3-venv ghostscript icc-profiles-free argyll
# ICC profiles of the printing targets, built from Debian's characterisation data at setup
# (scripts/build-icc.sh; generated, not committed).
ICC_PROFILES := templates/targets/icc/FOGRA39L.icc templates/targets/icc/TR006.icc templates/targets/icc/TR003.icc
STAMP := $(VENV)/.deckpress-installed

.PHONY: build test bench setup clean a11y-setup

setup: $(STAMP) $(ICC_PROFILES)

templates/targets/icc/%.icc: scripts/build-icc.sh | $(STAMP)
	@scripts/build-icc.sh $* $@ $$(sed -n 's/^ink_limit: *//p' $$(grep -l '^characterisation: $*$$' templates/targets/*.yaml))

$(STAMP): pyproject.toml scripts/ensure-system.sh scripts/link-louis.sh
	@scripts/ensure-system.sh $(APT_PACKAGES)
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install -q --disable-pip-version-check -e '.[test]'
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
	$(PY) -m pytest -q

bench: setup
	$(PY) -m pipeline.build.bench

clean:
	rm -rf output/*/ $(VENV) templates/targets/icc
