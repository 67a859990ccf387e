# mpigen: `make demo` and `make test` work on a fresh clone (they set up .venv first).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCALBIN := $(CURDIR)/bin
KUBECONFORM_VERSION := v0.7.0
KUBECTL_VALIDATE_VERSION := v0.0.4
GOFLAGS_LOCAL := GOBIN=$(LOCALBIN) GOFLAGS="-mod=mod -trimpath" GOMODCACHE=$(CURDIR)/.cache/gomod

.PHONY: setup demo test golden schemas examples upstream-expected spec-validator check-schemas clean tools bench oracle fuzz

setup: $(STAMP)

# External tools, installed into ./bin by the project itself: kubeconform (the integration tests
# and `make bench`) and kubectl-validate (`make bench` only: its first build takes ~9 minutes, so
# `make test` builds kubeconform alone).
tools: $(LOCALBIN)/kubeconform $(LOCALBIN)/kubectl-validate

$(LOCALBIN)/kubeconform:
	$(GOFLAGS_LOCAL) go install github.com/yannh/kubeconform/cmd/kubeconform@$(KUBECONFORM_VERSION)

$(LOCALBIN)/kubectl-validate:
	$(GOFLAGS_LOCAL) go install sigs.k8s.io/kubectl-validate@$(KUBECTL_VALIDATE_VERSION)

# Two steps into one .venv: mpigen and what it needs to run (`make demo`: no test tool, no
# Kubernetes client), then the test extra (`make setup`, `make test`: pytest, hypothesis, kubectl,
# pre-commit, import-linter and the kube extra).
# editable_mode=compat: the checkout goes on sys.path through a one-line .pth file, as an installed
# wheel's folder does. setuptools' default editable finder imports pathlib, urllib and importlib.util
# at every interpreter start, a sixth of a cold `mpigen build` (see BENCHMARKS.md).
PIP_INSTALL := $(BIN)/pip install --quiet --disable-pip-version-check --config-settings editable_mode=compat
RUNSTAMP := $(VENV)/.installed-run

$(RUNSTAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(PIP_INSTALL) -e .
	touch $(RUNSTAMP)

$(STAMP): $(RUNSTAMP)
	$(PIP_INSTALL) -e '.[test]'
	touch $(STAMP)

# The README's quick start: a fresh clone's first command.
demo: $(RUNSTAMP)
	$(BIN)/mpigen build specs/horovod-volcano.yaml
	@echo "mpigen is in $(BIN): '. $(BIN)/activate' puts it on PATH (or 'pipx install .', see the README's Install)" >&2

# pytest exits 5 when it collects no test: that is a failure here too (make stops on any non-zero).
test: setup $(LOCALBIN)/kubeconform
	PATH="$(LOCALBIN):$$PATH" $(BIN)/python -m pytest -q --ignore=tests/e2e

golden: setup
	$(BIN)/python -m tests.golden.regenerate

# The pins (scripts/schema_sources.json) give schemas/, mpigen/data/ and the upstream corpus
# (tests/cases/upstream/): a bump regenerates all three. After the corpus changes, run
# `make upstream-expected` and review every UNREVIEWED finding in tests/cases/upstream_expected.yaml.
schemas: setup
	$(BIN)/python scripts/fetch_schemas.py
	$(BIN)/python scripts/fetch_examples.py
	$(BIN)/python scripts/fetch_sarif_schema.py
	$(BIN)/python scripts/fetch_kustomization_schema.py

examples: setup
	$(BIN)/python scripts/fetch_examples.py

# mpigen validate's findings on the upstream corpus, rewritten with the review notes kept
# (tests/integration/test_upstream_corpus.py compares them; read the diff before committing it).
upstream-expected: setup
	$(BIN)/python -m tests.upstream_corpus

# After editing schemas/mpigen.dev/trainingjob_v1alpha1.json: regenerate the fast spec validator
# (mpigen/spec/_spec_valid.py; tests/unit/test_schemagen.py fails while it is stale).
spec-validator: setup
	$(BIN)/python -m mpigen.spec.schemagen

check-schemas: setup
	$(BIN)/python scripts/fetch_schemas.py --check
	$(BIN)/python scripts/fetch_examples.py --check
	$(BIN)/python scripts/fetch_sarif_schema.py --check
	$(BIN)/python scripts/fetch_kustomization_schema.py --check

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build dist *.egg-info

# Benchmarks beside the peers (kubeconform, kubectl-validate, kubectl kustomize); figures go to BENCHMARKS.md.
bench: setup tools
	$(CLUSTER_PATH) $(BIN)/python -m bench.run

# A fresh clone's `make demo` (the README's first command), pip's cache cold and warm; BENCHMARKS.md.
.PHONY: bench-demo
bench-demo:
	$(PYTHON) -m bench.demo

# Differential run against the real controllers (tests/oracle): mpi-operator, training-operator and
# Kubeflow Trainer v2.3.0's runtime framework, a third of the N random cases each (of Trainer's, a
# quarter are the TrainJobs mpigen builds from random specs, on the TrainingRuntime copy beside them).
# Prints each disagreement with a minimal reproduction and ends with "A/N cases agree".
.PHONY: oracle
N ?= 1000
oracle: setup
	$(BIN)/python -m tests.oracle.harness --cases $(N)

# Long fuzzing (tests/fuzz): hypothesis at 5000 examples across the loader and every command, the
# SIGKILL test at 100 rounds and the injection property scaled alike, then atheris (libFuzzer,
# coverage-guided) on the YAML layer for FUZZ_SECONDS. atheris is installed from PyPI's wheels
# (x86-64 Linux: 3.0.0 for CPython 3.11, 3.1.0 for 3.12 and 3.13; no compiler needed); where none
# fits, the install is skipped and the harness runs its plain-Python driver instead.
.PHONY: fuzz
FUZZ_SECONDS ?= 600
fuzz: setup
	-$(BIN)/pip install --quiet --disable-pip-version-check --only-binary=:all: atheris
	MPIGEN_FUZZ_EXAMPLES=5000 MPIGEN_KILL_ROUNDS=100 $(BIN)/python -m pytest -q tests/fuzz \
		tests/integration/test_kill.py tests/integration/test_injection.py
	$(BIN)/python tests/fuzz/atheris_yaml.py -max_total_time=$(FUZZ_SECONDS)

# The local cluster (cluster/): Kubernetes 1.35, etcd, mpi-operator, training-operator, Volcano,
# scheduler-plugins, Kubeflow Trainer, JobSet and kwok, built from pinned Go modules into
# .cache/cluster/bin (a second run builds nothing) and started on loopback. Ends by printing
# `export KUBECONFIG=...`; a second `make cluster` while one runs reuses it. `make cluster-down`
# stops exactly what it started.
.PHONY: cluster cluster-down cluster-build e2e
CLUSTER_PATH := PATH="$(CURDIR)/$(BIN):$(LOCALBIN):$$PATH"

cluster-build: setup
	$(CLUSTER_PATH) $(BIN)/python -m cluster build

cluster: setup
	$(CLUSTER_PATH) $(BIN)/python -m cluster up

cluster-down:
	@if [ -x $(BIN)/python ]; then $(BIN)/python -m cluster down; else echo "no cluster (no .venv)"; fi

# End-to-end tests against the local cluster (tests/e2e); starts it if it is not running. Like
# `make test` (CI runs both), it builds kubeconform only, not kubectl-validate.
e2e: setup $(LOCALBIN)/kubeconform cluster
	$(CLUSTER_PATH) KUBECONFIG=$(CURDIR)/.cache/cluster/kubeconfig $(BIN)/python -m pytest -q tests/e2e
