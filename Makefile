# Two entry points for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint lock browser proxy format bench simulate fonts clean

# Every package at the version in constraints.txt, the build's own tools included.
$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -c constraints.txt pip
	$(PY) -m pip install --quiet -c constraints.txt --build-constraint constraints.txt \
	  -e '.[dev,postgres]'
	touch $(STAMP)

# constraints.txt from the versions .venv holds: run it once the whole suite passes with them.
lock:
	test -x $(PY)
	{ echo "# The versions the suite passes with, written by make lock from .venv."; \
	  $(PY) -m pip freeze --all --exclude-editable; } > constraints.txt

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

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

# nginx stands in front of two server processes in the hosted mode's load test (docs/hosting.md).
proxy:
	@command -v nginx >/dev/null || test -x /usr/sbin/nginx || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null; \
	  else \
	    echo "note: nginx is not installed and this is not root: the test behind nginx will be skipped"; \
	  fi; }

test: lint browser proxy
	$(PY) -m pytest

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: $(STAMP)
	$(PY) -m companion bench

simulate: $(STAMP)
	$(PY) -m companion simulate --players 4 --games 500 --seed 1

# The shipped font: Debian's DejaVu Sans (fonts-dejavu-core) cut down to the scripts players
# type names in (Latin, Greek, Cyrillic) and the symbols the app draws, without hinting:
# a third of the full size, so the first screen waits less for it.
DEJAVU := /usr/share/fonts/truetype/dejavu
FONT_RANGES := U+0020-007E,U+00A0-024F,U+0300-036F,U+0370-03FF,U+0400-04FF,U+1E00-1EFF,U+2000-206F,U+20A0-20CF,U+2190-21FF,U+2200-22FF,U+25A0-25FF,U+2600-26FF,U+2700-27BF,U+FFFD
fonts: $(STAMP)
	$(PY) -m fontTools.subset $(DEJAVU)/DejaVuSans.ttf --unicodes='$(FONT_RANGES)' \
	  --no-hinting --layout-features='*' --output-file=assets/fonts/DejaVuSans.ttf

clean:
	rm -rf $(VENV) build .pytest_cache .ruff_cache .mypy_cache .hypothesis
