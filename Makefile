# dicelab: `make run` serves the app, `make test` runs every test. Both set themselves up.
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 5006
HOST ?= 127.0.0.1
PROCS ?= 1
ORIGIN ?=
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
NB_STAMP := $(VENV)/.installed-notebook
DOCS_STAMP := $(VENV)/.installed-docs
LAB_PORT ?= 8888

.PHONY: run test test-slow typecheck venv install install-test lab chromium redis-server bench clean messages docs lint

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@ $(STAMP)

$(NB_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[notebook]'
	touch $@ $(STAMP)

$(DOCS_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[docs]'
	touch $@ $(STAMP)

install: $(STAMP)
install-test: $(TEST_STAMP)

# JupyterLab on this machine only, opened on the teaching notebooks
lab: $(NB_STAMP)
	$(VENV)/bin/jupyter lab --ServerApp.ip=127.0.0.1 --ServerApp.port=$(LAB_PORT) \
	  --ServerApp.root_dir=notebooks

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null; }

redis-server:
	@command -v redis-server >/dev/null 2>&1 || { \
	  echo "installing Debian's redis-server for the rooms tests"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server) >/dev/null; }

run: install
	@echo "dicelab: serving on http://localhost:$(PORT)/dicelab_app"
	$(if $(ORIGIN),DICELAB_JOIN_URL=$(ORIGIN)) $(VENV)/bin/panel serve apps/dicelab_app.py \
	  --port $(PORT) --address $(HOST) \
	  --num-procs $(PROCS) --allow-websocket-origin=localhost:$(PORT) \
	  --allow-websocket-origin=127.0.0.1:$(PORT) $(if $(ORIGIN),--allow-websocket-origin=$(ORIGIN)) \
	  $(if $(PROXY),--use-xheaders)

test: install-test chromium redis-server
	$(PY) -m pytest -n 2 -q

# the tests marked slow (tests/conftest.py): builds, whole games, big sweeps; .ci/run runs them
test-slow: install-test chromium redis-server
	DICELAB_SLOW=1 $(PY) -m pytest -n 2 -q -m slow --durations=15

# extract the marked messages into the French and Russian catalogs and compile them
messages: install-test
	$(PY) -m dicelab.i18n_catalogs update
	$(PY) -m dicelab.i18n_catalogs check || true

bench: install-test
	$(PY) benchmarks/run_all.py

# the documentation site in docs/_build/html, warnings as errors
docs: $(DOCS_STAMP)
	$(PY) -m sphinx -W --keep-going -q -b html docs docs/_build/html
	@echo "docs: docs/_build/html/index.html"

# the linter: pycodestyle and pyflakes (the rules in pyproject.toml's [tool.ruff.lint])
lint: install-test
	$(PY) -m ruff check dicelab tests benchmarks apps docs

# the type checker (its settings in pyproject.toml's [tool.mypy])
typecheck: install-test
	$(PY) -m mypy

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
