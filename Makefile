# mpigen: `make demo` and `make test` work on a fresh clone (they set up .venv first).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LOCALBIN := $(CURDIR)/bin
KUBECONFORM_VERSION := v0.7.0
GOFLAGS_LOCAL := GOBIN=$(LOCALBIN) GOFLAGS=-mod=mod GOMODCACHE=$(CURDIR)/.cache/gomod

.PHONY: setup demo test golden schemas check-schemas clean tools bench oracle fuzz

setup: $(STAMP)

# External tools the integration tests run, installed into ./bin by the project itself.
tools: $(LOCALBIN)/kubeconform

$(LOCALBIN)/kubeconform:
	$(GOFLAGS_LOCAL) go install github.com/yannh/kubeconform/cmd/kubeconform@$(KUBECONFORM_VERSION)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

demo: setup
	$(BIN)/mpigen build specs/horovod-volcano.yaml

# pytest exits 5 when it collects no test: that is a failure here too (make stops on any non-zero).
test: setup tools
	PATH="$(LOCALBIN):$$PATH" $(BIN)/python -m pytest -q

golden: setup
	$(BIN)/python -m tests.golden.regenerate

schemas: setup
	$(BIN)/python scripts/fetch_schemas.py

check-schemas: setup
	$(BIN)/python scripts/fetch_schemas.py --check

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info

# Benchmarks beside the peers (kubeconform, kubectl kustomize); figures go to BENCHMARKS.md.
bench: setup tools
	PATH="$(LOCALBIN):$$PATH" $(BIN)/python -m bench.run
