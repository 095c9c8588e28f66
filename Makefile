# The two commands: `make run` (set up on first use, start the app) and `make test`
# (set up, lint, type-check, run the whole suite; OpenGL tests under Xvfb).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
SYSDEPS := .venv/.sysdeps

.PHONY: run serve test lint typecheck pytest setup clean dist dist-check

setup: $(STAMP)

$(SYSDEPS):
	@bash packaging/install-system-deps.sh
	@mkdir -p $(VENV) && touch $@

$(STAMP): pyproject.toml setup.py | $(SYSDEPS)
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	@touch $@

run: setup
	$(PY) -m bme_desktop $(ARGS)

serve: setup
	$(PY) -m bme_desktop serve $(ARGS)

lint: setup
	$(PY) -m ruff check bme_desktop tests bench

typecheck: setup
	$(PY) -m mypy bme_desktop

# Widget tests run offscreen; OpenGL tests (marker `gl`) need a real X server: pytest-xvfb
# starts Xvfb (24-bit) and Qt uses the xcb platform with Mesa.
pytest: setup
	$(PY) -m pytest -m "not gl" $(PYTEST_ARGS)
	QT_QPA_PLATFORM=xcb $(PY) -m pytest -m gl $(PYTEST_ARGS)

# The SillyTavern extension's Node tests (unit and end-to-end against a real `serve`) run
# inside pytest: tests/frontends/test_sillytavern_extension.py.
test: lint typecheck pytest

# The wheel and the source archive in dist/; dist-check installs the wheel into a fresh venv
# outside the source tree and runs the installed program (--version, doctor, a screenshot).
dist: setup
	rm -rf dist build
	$(PY) -m build --outdir dist .

dist-check: dist
	bash packaging/check-wheel.sh dist

clean:
	rm -rf $(VENV) build dist *.egg-info .mypy_cache .pytest_cache .ruff_cache
