# `make serve` runs the companion, `make test` runs every test; both make or reuse .venv.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

$(STAMP): pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e '.[dev]'
	touch $(STAMP)

.PHONY: serve test lint
serve: $(STAMP)
	$(VENV)/bin/companion serve

lint: $(STAMP)
	$(VENV)/bin/ruff check .

test: $(STAMP) lint
	$(VENV)/bin/pytest
