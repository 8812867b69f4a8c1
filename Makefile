# `make serve` runs the companion, `make test` runs every test; both make or reuse .venv.
# `make serve` installs only what serving needs; `make test` adds the test tools (pytest, ruff, playwright).
PYTHON ?= python3
VENV := .venv
SERVE_STAMP := $(VENV)/.installed-serve
TEST_STAMP := $(VENV)/.installed-test
SUPPORTED := import sys; import pip; sys.exit(sys.version_info < (3, 11))

# A .venv made by a Python older than 3.11, or one without pip (python3-venv was missing when it was
# made), can never run the companion: say so and make it again, before any target looks at it.
ifneq ($(wildcard $(VENV)),)
ifneq ($(shell $(VENV)/bin/python -c '$(SUPPORTED)' >/dev/null 2>&1 && echo ok),ok)
$(info make: $(VENV) was made by $(or $(shell $(VENV)/bin/python --version 2>/dev/null),a Python that no longer runs) \
  (the companion needs Python 3.11 or later, with pip): making $(VENV) again with $(PYTHON))
$(shell rm -rf $(VENV))
endif
endif

$(VENV)/bin/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { \
	  echo "make: $(PYTHON) is $$($(PYTHON) --version 2>&1 || echo missing); the companion needs Python 3.11" \
	    "or later: make serve PYTHON=python3.11" >&2; exit 1; }
	@$(PYTHON) -m venv $(VENV) && $(VENV)/bin/python -c 'import pip' 2>/dev/null || { rm -rf $(VENV); \
	  echo "make: $(PYTHON) cannot make a venv with pip; on Debian or Ubuntu: sudo apt-get install python3-venv" >&2; \
	  exit 1; }

$(SERVE_STAMP): pyproject.toml | $(VENV)/bin/python
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e .
	touch $@

$(TEST_STAMP): pyproject.toml $(SERVE_STAMP)
	$(VENV)/bin/pip install -q -e '.[dev]'
	touch $@

.PHONY: serve test lint
serve: $(SERVE_STAMP)
	$(VENV)/bin/companion serve

lint: $(TEST_STAMP)
	$(VENV)/bin/ruff check .

test: $(TEST_STAMP) lint
	$(VENV)/bin/pytest
