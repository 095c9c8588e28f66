# The two commands: `make run` (set up on first use, start the app) and `make test`
# (set up, lint, type-check, run the whole suite; OpenGL tests under Xvfb).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
SYSDEPS := .venv/.sysdeps

.PHONY: run serve test lint format typecheck pytest setup clean dist dist-check bundle bundle-check

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
	$(PY) -m ruff format --check bme_desktop tests bench

# Lines are wrapped by the formatter (110 columns); what it cannot wrap, E501 reports.
format: setup
	$(PY) -m ruff format bme_desktop tests bench

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

# A self-contained app folder (PyInstaller, one folder): dist-bundle/bme-desktop/ holds Python, the
# Qt modules the app uses, the e5 embedder's weights, themes, translations and licences; run
# dist-bundle/bme-desktop/bme-desktop. bundle-check runs it from an empty environment: --version,
# doctor, a demo screenshot, serve answering /v1/health (packaging/smoke-bundle.sh). CI runs
# `make test bundle-check`. See packaging/README.md (Windows and macOS specs, untested here).
BUNDLE_DIR := dist-bundle
PYINSTALLER := pyinstaller>=6.10,<7

bundle: setup
	$(PY) -m pip install -q '$(PYINSTALLER)'
	rm -rf $(BUNDLE_DIR) build/bundle
	$(PY) -m PyInstaller --noconfirm --log-level WARN --distpath $(BUNDLE_DIR) --workpath build/bundle \
		packaging/pyinstaller/bme-desktop.spec
	@du -sh $(BUNDLE_DIR)/bme-desktop

bundle-check: bundle
	bash packaging/smoke-bundle.sh $(BUNDLE_DIR)/bme-desktop

clean:
	rm -rf $(VENV) build dist $(BUNDLE_DIR) *.egg-info .mypy_cache .pytest_cache .ruff_cache
