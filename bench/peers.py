"""The peers `make bench` runs beside mpigen, and what they are given.

kubeconform v0.7.0 runs with mpigen's schemas (schemas/, `-strict`, `-n` set to the cores).
kubectl-validate v0.0.4 runs offline: Kubernetes' native kinds from its built-in schemas of
KUBE_VERSION (the newest it carries), the custom kinds from the CRDs of the pinned operators'
modules (scripts/schema_sources.json: the same CRD files mpigen's schemas are generated from),
written into a folder for `--local-crds`. Both come from `make tools` (./bin).

The upstream corpus is the projects' own example manifests, tests/cases/upstream/ (listed in its
lock.json, written by scripts/fetch_examples.py); the bench copies them into a folder of their own
(without the lock, which kubeconform would read as a manifest).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any, Callable, Iterable

import yaml

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "cases" / "upstream"
SOURCES = ROOT / "scripts" / "schema_sources.json"
CORES = len(os.sched_getaffinity(0))
LOCATION = str(ROOT / "schemas") + "/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json"
KUBE_VERSION = "1.30"  # kubectl-validate v0.0.4's newest built-in Kubernetes schemas (1.23 to 1.30)

Kind = tuple[str, str]  # (apiVersion, kind)
Reader = Callable[[str, str, str], bytes]  # (module, version, path in the module) -> the file's bytes


def tool(name: str) -> str | None:
    """A peer's executable: on PATH, else the one `make tools` installs into ./bin; None if neither."""
    found = shutil.which(name)
    if found:
        return found
    local = ROOT / "bin" / name
    return str(local) if local.is_file() else None


def kubeconform(binary: str, path: Path, ignore_missing: bool = False) -> list[str]:
    return [binary, "-strict", "-summary", "-n", str(CORES), "-schema-location", LOCATION,
            *(["-ignore-missing-schemas"] if ignore_missing else []), str(path)]


def kubectl_validate(binary: str, crds: Path, path: Path) -> list[str]:
    return [binary, "--version", KUBE_VERSION, "--local-crds", str(crds), "-o", "json", str(path)]


def offline_env() -> dict[str, str]:
    """kubectl-validate asks the cluster of the kubeconfig for schemas first: with an empty
    kubeconfig and no in-cluster variables it has none and takes its built-in ones, offline."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("KUBERNETES_SERVICE")}
    env["KUBECONFIG"] = os.devnull
    return env


def files_read(output: str, peer: str) -> int | None:
    """How many files a run says it read: mpigen's summary (`N files checked`), kubeconform's
    (`-summary`: `R resources found in N files`) or kubectl-validate's JSON report (a key per
    file). None when the output does not say."""
    if peer == "kubectl-validate":
        try:
            return len(json.loads(output[output.index("{"):output.rindex("}") + 1]))
        except ValueError:
            return None
    pattern = {"mpigen": r"(\d+) files? checked", "kubeconform": r"resources? found in (\d+) files?"}[peer]
    found = re.search(pattern, output)
    return int(found.group(1)) if found else None


# ------------------------------------------------------------------------------ the corpus


def _lock(corpus: Path) -> dict[str, Any]:
    return json.loads((corpus / "lock.json").read_text(encoding="utf-8"))["files"]


def copy_corpus(folder: Path, corpus: Path = CORPUS) -> int:
    """Copy the corpus' files (as its lock lists them) into ``folder``; how many."""
    files = _lock(corpus)
    for rel in files:
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(corpus / rel, target)
    return len(files)


def corpus_kinds(corpus: Path = CORPUS) -> set[Kind]:
    """The kinds the corpus was gathered for (each file holds at least one of them)."""
    kinds = set()
    for entry in _lock(corpus).values():
        for text in entry["kinds"]:
            api_version, kind = text.split()
            kinds.add((api_version, kind))
    return kinds


def crd_pins(kinds: Iterable[Kind], sources: Path = SOURCES) -> dict[Kind, dict[str, Any]]:
    """The pinned CRD source (scripts/schema_sources.json) of each of ``kinds`` that has one."""
    wanted = set(kinds)
    pins = {}
    for source in json.loads(sources.read_text(encoding="utf-8"))["sources"]:
        if source["format"] != "crd":
            continue
        for entry in source["kinds"]:
            key = (entry["apiVersion"], entry["kind"])
            if key in wanted:
                pins[key] = source
    return pins


def write_crds(folder: Path, pins: dict[Kind, dict[str, Any]], read: Reader) -> dict[Kind, Path]:
    """Write the CRD file of each pin into ``folder`` (one file per kind, named after the pin),
    checking that it defines that kind; the file of each kind."""
    folder.mkdir(parents=True, exist_ok=True)
    written = {}
    for (api_version, kind), pin in sorted(pins.items()):
        data = read(pin["module"], pin["version"], pin["path"])
        group = api_version.rpartition("/")[0]
        if not any(isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition"
                   and doc.get("spec", {}).get("group") == group and doc["spec"].get("names", {}).get("kind") == kind
                   for doc in yaml.safe_load_all(data)):
            raise SystemExit(f"{pin['module']}@{pin['version']} {pin['path']}: no CRD of {kind} in {group}")
        target = folder / f"{pin['name']}.yaml"
        target.write_bytes(data)
        written[(api_version, kind)] = target
    return written


def module_reader() -> Reader:
    """Reads a file of a pinned Go module as scripts/fetch_schemas.py does (`go mod download
    -json` through the Go module proxy into .cache/gomod; offline once the module is there)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from fetch_schemas import DEFAULT_GOMODCACHE, GoModules

    modules = GoModules(Path(os.environ.get("MPIGEN_GOMODCACHE", DEFAULT_GOMODCACHE)))
    return lambda module, version, path: modules.read(module, version, path)[1]
