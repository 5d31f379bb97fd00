# Every target creates the virtual environment itself when it is missing,
# installing only from this project's own files (pyproject.toml).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit fuzz bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# the demo needs the package alone, not the development tools
$(VENV)/.package: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -e .
	touch $@

demo: $(VENV)/.package
	$(BIN)/python -m data_encoding.cli.demo

lint: $(STAMP)
	$(BIN)/ruff check encodings tests benchmarks fuzz examples
	$(BIN)/ruff format --check encodings tests benchmarks fuzz examples

typecheck: $(STAMP)
	$(BIN)/mypy

# -rs: a line per reason a test was skipped, with its count
unit: $(STAMP)
	$(BIN)/pytest -rs encodings tests README.md

test: lint typecheck unit

# long campaigns (not in CI): libFuzzer (atheris) over each catalogue id for
# FUZZ_SECONDS each (fuzz/run.py; corpus in fuzz/corpus, findings in
# fuzz/findings), strict decoding then the lenient reader (--lenient), then
# the Hypothesis properties under the fuzz profile
FUZZ_SECONDS ?= 60
fuzz: $(STAMP)
	$(BIN)/python fuzz/run.py --seconds $(FUZZ_SECONDS)
	$(BIN)/python fuzz/run.py --lenient --seconds $(FUZZ_SECONDS)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/pytest tests/passes/test_properties.py tests/passes/test_only_library_errors.py tests/passes/test_inlining.py tests/passes/test_jsongen.py tests/passes/test_jsonmode.py tests/passes/test_random_encodings.py tests/passes/test_lenient.py tests/fuzz/test_lenient_target.py::test_the_property_holds_over_random_encodings tests/tree/test_pickling.py -x

# the benchmark suite, with its optional peers (see benchmarks/README.md)
bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) build dist *.egg-info encodings/*.egg-info
