"""The server-agreement corpus: manifests sent both to ``mpigen validate`` and to a real API server
(tests/e2e/test_validate_server.py), which must give the same verdict.

Three sources, each case one manifest (one object, or one ``kind: List``), without a namespace:

- the files of ``tests/cases/apiserver/``: broken manifests, at least one per schema violation and
  per code whose problem the API server refuses too (see its README), a few the API server accepts
  (controls, and the documented gaps). The leading comment says what is wrong, then::

      # server: refuses            (or accepts: what kube-apiserver 1.35 answers kubectl create)
      # apiserver: <text>          (a substring of the refusal)
      # code: <code>               (the code of validate's error; none: validate passes, warnings allowed)

- every object of the goldens (``golden/*/*.yaml``) as written: both accept them;
- seeded mutations of those objects, one broken field each (``mutations``): a required field
  dropped, a value of the wrong type, a bad name, an unknown enum value, negative replicas, an
  unknown field, a bad label, a bad quantity, an int32 overflow. Each knows the code validate
  reports for it; the API server's verdict is what the end-to-end test asks.

``python -m tests.server_corpus`` lists them, with validate's verdict.
"""

from __future__ import annotations

import copy
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import yaml

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "cases" / "apiserver"
GOLDEN = ROOT / "golden"
SEED = 20261124
KEYS = ("server", "apiserver", "code")
SERVER_VERDICTS = ("refuses", "accepts")

Path_ = tuple[str | int, ...]


@dataclass(frozen=True)
class Case:
    name: str  # a file's stem; a golden object "golden/<case>/<file>#<Kind>"; a mutation "...#<Kind>/<op>@<path>"
    text: str  # the manifest, as sent to both
    what: str
    code: str | None  # the code of validate's error; None: validate passes (warnings allowed)
    server: str | None = None  # what the corpus says the API server answers (files only)
    apiserver: str | None = None  # a substring of its refusal (files only)
    path: Path | None = None  # the file, for the corpus's own


# ---------------------------------------------------------------- the files


def read(path: Path) -> Case:
    header: dict[str, str] = {}
    what: list[str] = []
    text = path.read_text("utf-8")
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        key, sep, value = line[1:].strip().partition(": ")
        if sep and key in KEYS:
            header[key] = value
        elif not header:
            what.append(line[1:].strip())
    return Case(path.stem, text, " ".join(what), header.get("code"), header.get("server"), header.get("apiserver"),
                path)


def files() -> list[Case]:
    return [read(path) for path in sorted(CORPUS.glob("*.yaml"))]


# ---------------------------------------------------------------- the goldens and their mutations


def golden_objects() -> list[tuple[str, dict[str, Any]]]:
    """(name, object) of every object of the goldens' outputs, its namespace dropped (the API
    server's verdict must not depend on which namespaces exist)."""
    out = []
    for path in sorted(GOLDEN.glob("*/*.yaml")):
        if path.name == "case.yaml":
            continue
        for obj in yaml.safe_load_all(path.read_text("utf-8")):
            if isinstance(obj, dict) and _names_runtime_beside(obj):
                continue  # Trainer's webhook accepts it only with that runtime: not a one-object case
            if isinstance(obj, dict):
                obj = copy.deepcopy(obj)
                obj.get("metadata", {}).pop("namespace", None)
                out.append((f"{path.relative_to(ROOT).as_posix()}#{obj['kind']}", obj))
    return out


def _names_runtime_beside(obj: dict[str, Any]) -> bool:
    """A TrainJob naming the TrainingRuntime ``mpigen build`` wrote beside it (that runtime, in the
    same output, is a case of its own)."""
    ref = (obj.get("spec") or {}).get("runtimeRef") or {}
    return obj.get("kind") == "TrainJob" and ref.get("kind") == "TrainingRuntime"


def schema(obj: dict[str, Any]) -> dict[str, Any]:
    from mpigen.spec.schema import load_schema
    from mpigen.validation import schema_for

    name = schema_for(obj["apiVersion"], obj["kind"])
    assert name, f"no schema for {obj['apiVersion']} {obj['kind']}"
    return load_schema(name)


def nodes(value: Any, sch: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Any, dict[str, Any]]]:
    """(path, value, its schema) of every node of ``value`` that the schema describes."""
    if not isinstance(sch, dict):
        return
    yield path, value, sch
    if isinstance(value, dict):
        props = sch.get("properties") or {}
        extra = sch.get("additionalProperties")
        for key, item in value.items():
            sub = props.get(key, extra if isinstance(extra, dict) else None)
            yield from nodes(item, sub, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from nodes(item, sch.get("items"), path + (i,))


def _get(obj: Any, path: Path_) -> Any:
    for part in path:
        obj = obj[part]
    return obj


def _set(obj: Any, path: Path_, value: Any) -> None:
    _get(obj, path[:-1])[path[-1]] = value


def _drop(obj: Any, path: Path_) -> None:
    del _get(obj, path[:-1])[path[-1]]


Mutation = tuple[str, Path_, Callable[[dict], None], str | None]  # (what, path, change, validate's code)
JSON_TYPES = {"string": str, "integer": int, "boolean": bool}
WRONG = {"string": 12345, "integer": "12", "boolean": "yes"}
# Enum-like fields the API server checks (a CRD's enum, or Go validation), by kind: (path, validate's code).
ENUMS: dict[str, tuple[tuple[Path_, str], ...]] = {
    "MPIJob": ((("spec", "mpiImplementation"), "schema"),),
    "Deployment": ((("spec", "template", "spec", "containers", 0, "imagePullPolicy"), "pod-containers"),
                   (("spec", "strategy", "type"), "deployment-spec")),
    "Service": ((("spec", "type"), "service-spec"), (("spec", "sessionAffinity"), "service-spec")),
}
# The code of validate's error for replicas: -1, by kind: the operators' (mpi-operator's
# validation.go, training-operator's webhook), the Deployment's validation. A TFJob's is checked
# by nobody: the API server takes it, and validate passes it, unless the job's gang asks for all
# its pods (schedulingPolicy.minAvailable), which it then never gathers (min-available-too-large).
NEGATIVE_REPLICAS = {"MPIJob": "mpijob-invalid", "PyTorchJob": "training-job-invalid", "TFJob": None,
                     "Deployment": "deployment-spec"}


def _operations(obj: dict[str, Any], rng: Callable[[str], random.Random]) -> Iterator[Mutation]:
    sch = schema(obj)
    kind = obj["kind"]
    found = [(p, v, s) for p, v, s in nodes(obj, sch) if p and p[0] not in ("apiVersion", "kind", "status")]

    required = [p + (key,) for p, v, s in found if isinstance(v, dict) for key in s.get("required") or () if key in v]
    for path in _sample(rng("drop-required"), required, 2):
        yield "drop-required", path, lambda o, p=path: _drop(o, p), "missing-field"

    typed = [(p, s["type"]) for p, v, s in found if s.get("type") in JSON_TYPES
             and s.get("format") in (None, "int32", "int64") and type(v) is JSON_TYPES[s["type"]]]
    for path, kind_of in _sample(rng("wrong-type"), typed, 2):
        yield "wrong-type", path, lambda o, p=path, t=kind_of: _set(o, p, WRONG[t]), "schema"

    name = obj["metadata"]["name"]
    # A TrainJob's CRD has its own rule for the name (a DNS-1035 label, a CEL rule): the schema's error.
    yield ("bad-name", ("metadata", "name"), lambda o: _set(o, ("metadata", "name"), f"Bad_{name}"),
           "schema" if kind == "TrainJob" else "object-meta")

    enums = [(p, s["enum"]) for p, v, s in found if isinstance(s.get("enum"), list)]
    choices = [(p, "schema") for p, _ in enums] + [(p, c) for p, c in ENUMS.get(kind, ()) if _settable(obj, p)]
    for path, code in _sample(rng("invalid-enum"), choices, 1):
        yield "invalid-enum", path, lambda o, p=path: _set(o, p, "Sometimes"), code

    replicas = [p for p, v, s in found if p[-1] == "replicas" and isinstance(v, int)]
    code = NEGATIVE_REPLICAS.get(kind)
    if kind == "TFJob" and "minAvailable" in (obj["spec"].get("runPolicy") or {}).get("schedulingPolicy", {}):
        code = "min-available-too-large"  # the gang asks for every pod, and there are fewer now
    for path in _sample(rng("negative-replicas"), replicas, 1):
        yield "negative-replicas", path, lambda o, p=path: _set(o, p, -1), code

    closed = [(p, v) for p, v, s in found if isinstance(v, dict) and v and s.get("properties")
              and s.get("additionalProperties") is not True and not isinstance(s.get("additionalProperties"), dict)]
    for path, value in _sample(rng("unknown-field"), closed, 1):
        key = next(iter(value)) + "s"
        yield "unknown-field", path + (key,), lambda o, p=path, k=key: _set(o, p + (k,), 1), "unknown-field"

    labels = obj["metadata"].get("labels") or {"team": ""}
    key = rng("bad-label").choice(sorted(labels))
    yield ("bad-label", ("metadata", "labels", key),
           lambda o, k=key: o["metadata"].setdefault("labels", {}).__setitem__(k, "not a label!"), "object-meta")

    quantities = [p for p, v, s in found if len(p) > 1 and p[-2] in ("limits", "requests", "minResources")
                  and isinstance(v, (str, int))]
    for path in _sample(rng("bad-quantity"), quantities, 1):
        yield "bad-quantity", path, lambda o, p=path: _set(o, p, "2 GiB"), "quantity"

    int32 = [p for p, v, s in found if s.get("format") == "int32" and type(v) is int]
    for path in _sample(rng("int32-overflow"), int32, 1):
        yield "int32-overflow", path, lambda o, p=path: _set(o, p, 3000000000), "schema"


def _settable(obj: dict[str, Any], path: Path_) -> bool:
    """The path's parent exists (the field itself may be absent: setting it adds it)."""
    try:
        return isinstance(_get(obj, path[:-1]), dict)
    except (KeyError, IndexError, TypeError):
        return False


def _sample(rng: random.Random, items: list, count: int) -> list:
    """``count`` items, of distinct fields: a list's items count as one (``command[3]`` and
    ``command[21]`` are the same field), so that long lists do not crowd the others out."""
    by_field: dict[tuple, list] = {}
    for item in items:
        path = item[0] if isinstance(item[0], tuple) else item
        by_field.setdefault(tuple("[]" if isinstance(part, int) else part for part in path), []).append(item)
    fields = rng.sample(sorted(by_field, key=str), min(count, len(by_field)))
    return [rng.choice(by_field[field]) for field in fields]


def mutations(seed: int = SEED) -> list[Case]:
    """The seeded mutations of every golden object: the same list for the same seed."""
    from mpigen.diagnostics import format_path
    from mpigen.emit.yaml_emit import dump

    out = []
    for name, obj in golden_objects():
        def rng(op: str, name: str = name) -> random.Random:
            return random.Random(f"{seed}/{name}/{op}")

        for op, path, change, code in _operations(obj, rng):
            broken = copy.deepcopy(obj)
            change(broken)
            where = format_path(path)
            out.append(Case(f"{name}/{op}@{where}", dump(broken), f"{op} at {where}", code))
    return out


def goldens() -> list[Case]:
    from mpigen.emit.yaml_emit import dump

    return [Case(name, dump(obj), "the golden object as written", None) for name, obj in golden_objects()]


def cases(seed: int = SEED) -> list[Case]:
    """Every case: the corpus's files, the golden objects, their mutations."""
    return files() + goldens() + mutations(seed)


def file_name(case: Case) -> str:
    """A file name for a case that has none (a golden object, a mutation)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", case.name)[:200] + ".yaml"


def validate_errors(case: Case) -> list[Any]:
    """The error diagnostics ``mpigen validate`` gives the case's manifest."""
    from mpigen.diagnostics import Severity
    from mpigen.validation.engine import ValidateOptions, validate_bytes

    diagnostics, _ = validate_bytes(case.text.encode("utf-8"), case.name, ValidateOptions())
    return [d for d in diagnostics if d.severity is Severity.ERROR]


if __name__ == "__main__":
    for case in cases():
        found = validate_errors(case)
        print(f"{case.name}: {'refuses' if found else 'passes'} ({', '.join(sorted({d.code for d in found}))})")
