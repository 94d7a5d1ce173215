# Two entry points for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint browser format bench simulate clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

run: $(STAMP)
	$(PY) -m companion app

# Debian's Chromium drives the browser tests; never a browser downloaded by a test tool.
browser:
	@command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "note: chromium is not installed and this is not root: browser tests will be skipped"; \
	  fi; }

test: lint browser
	$(PY) -m pytest

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: $(STAMP)
	$(PY) -m companion bench

simulate: $(STAMP)
	$(PY) -m companion simulate --players 4 --games 500 --seed 1

clean:
	rm -rf $(VENV) build .pytest_cache .ruff_cache .hypothesis
