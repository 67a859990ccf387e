#!/usr/bin/env python3
"""Copy the example manifests of the pinned upstream modules into tests/cases/upstream/ (``make examples``).

The ``examples`` section of ``scripts/schema_sources.json`` lists the modules
(mpi-operator, training-operator, Kubeflow Trainer, Kueue, JobSet, Volcano).
A module given by ``pin`` takes its module path and version from the source of
that name in the same file, so the corpus follows every pin bump; the others
name their own ``module`` and ``version`` and say why.  Each module version is
downloaded as ``scripts/fetch_schemas.py`` downloads its sources: ``go mod
download -json`` through the Go module proxy, checked against the Go checksum
database, into ``.cache/gomod``.

From the module's folder:

* ``files``: YAML files matched by the globs, copied byte for byte;
* ``docs``: Markdown pages matched by the globs; each fenced block whose
  language is ``yaml``, ``yml`` or none is a YAML block, numbered from 1 in its
  page, and written (dedented, as a reader copies it) as
  ``<page>.block<N>.yaml``;

minus what ``exclude`` matches.  A file or block is kept only if one of its
objects is of a kind the section's ``kinds`` lists (by apiVersion group); the
rest of it (a ConfigMap, a Service) comes along.  Everything goes to
``<out>/<name>@<version>/<path as upstream>``, and ``<out>/lock.json``
records each module (path, version, the ``Sum`` of ``go mod download``) and
each file (its module, upstream path, the block number and first line for a
block, the kinds it holds, its sha256).  Only the files listed in the lock are
owned by this script; a stale one is removed.

Usage::

    python3 scripts/fetch_examples.py           # (re)write tests/cases/upstream/
    python3 scripts/fetch_examples.py --check   # exit 1 and list the files that differ

Exit status: 0 done / up to date, 1 ``--check`` found differences, 2 error.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fetch_schemas import (DEFAULT_GOMODCACHE, DEFAULT_SOURCES, REPO_ROOT, GoModules,  # noqa: E402
                           SchemaError, dump_json, sha256, write_tree)

DEFAULT_OUT = REPO_ROOT / "tests" / "cases" / "upstream"
LOCK_NAME = "lock.json"
YAML_LANGUAGES = {"", "yaml", "yml"}


@dataclass(frozen=True)
class Module:
    name: str
    module: str
    version: str
    files: tuple[str, ...]
    docs: tuple[str, ...]
    exclude: tuple[str, ...]

    @property
    def folder(self) -> str:
        return f"{self.name}@{self.version}"


@dataclass(frozen=True)
class Piece:
    """One manifest of the corpus: a copied file, or one YAML block of a page."""

    path: str  # upstream path of the file, or of the page the block is in
    text: bytes
    block: int | None = None
    line: int | None = None  # the block's first line in the page

    @property
    def relpath(self) -> str:
        return self.path if self.block is None else f"{self.path}.block{self.block}.yaml"


def modules(pins: dict[str, Any]) -> list[Module]:
    """The modules of the examples section, each resolved to a module path and version."""
    by_name = {entry["name"]: entry for entry in pins["sources"] + pins.get("package_data", [])}
    found = []
    for entry in pins["examples"]["modules"]:
        if "pin" in entry:
            if "module" in entry or "version" in entry:
                raise SchemaError(f"examples {entry['name']}: give either pin or module and version")
            if entry["pin"] not in by_name:
                raise SchemaError(f"examples {entry['name']}: no source named {entry['pin']!r}")
            module, version = by_name[entry["pin"]]["module"], by_name[entry["pin"]]["version"]
        else:
            module, version = entry["module"], entry["version"]
        found.append(Module(entry["name"], module, version, tuple(entry.get("files", ())),
                            tuple(entry.get("docs", ())), tuple(entry.get("exclude", ()))))
    names = [m.name for m in found]
    if len(set(names)) != len(names):
        raise SchemaError(f"examples: a module name appears twice: {names}")
    return found


# --------------------------------------------------------------------- selection


def matches(path: str, patterns: tuple[str, ...]) -> bool:
    """Whether a relative POSIX path matches one of the globs (``**/`` is any number of folders)."""
    return any(_glob_regex(pattern).fullmatch(path) for pattern in patterns)


def _glob_regex(pattern: str) -> re.Pattern[str]:
    """``*`` and ``?`` within a folder name, ``**/`` any number of folders, a final ``**`` anything."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:[^/]+/)*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))


def walk(root: Path) -> list[str]:
    """Every file of the module, as sorted relative POSIX paths."""
    out = []
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        for name in names:
            out.append((Path(folder) / name).relative_to(root).as_posix())
    return sorted(out)


def yaml_blocks(text: str) -> Iterator[tuple[int, str]]:
    """The page's fenced YAML blocks: (first line of the content, 1-based; the content dedented)."""
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        opening = re.match(r"^( *)(`{3,}|~{3,})\s*([^\s`{]*)", lines[i])
        if not opening:
            i += 1
            continue
        indent, fence, language = opening.groups()
        start = i + 1
        i = start
        while i < len(lines) and not re.match(rf"^ *{re.escape(fence[0])}{{{len(fence)},}}\s*$", lines[i]):
            i += 1
        body = lines[start:i]
        i += 1
        if language.lower() in YAML_LANGUAGES:
            content = "".join(line[len(indent):] if line.startswith(indent) else line.lstrip(" ") for line in body)
            yield start + 1, textwrap.dedent(content)


def kinds_in(text: str) -> list[tuple[str, str]]:
    """(apiVersion, kind) of every object of a YAML text (and of a List's items); a text YAML
    cannot read is scanned line by line for its documents' top-level apiVersion and kind."""
    try:
        documents = list(yaml.safe_load_all(text))
    except yaml.YAMLError:
        return _scanned_kinds(text)
    found = []
    for doc in documents:
        items = doc.get("items") if isinstance(doc, dict) and isinstance(doc.get("items"), list) else [doc]
        for obj in items:
            if isinstance(obj, dict) and isinstance(obj.get("apiVersion"), str) and isinstance(obj.get("kind"), str):
                found.append((obj["apiVersion"], obj["kind"]))
    return found


def _scanned_kinds(text: str) -> list[tuple[str, str]]:
    found = []
    for document in re.split(r"^---.*$", text, flags=re.M):
        api = re.search(r"^apiVersion:\s*[\"']?([^\s\"'#]+)", document, re.M)
        kind = re.search(r"^kind:\s*[\"']?([^\s\"'#]+)", document, re.M)
        if api and kind:
            found.append((api.group(1), kind.group(1)))
    return found


def kept(text: str, kinds: dict[str, list[str]]) -> list[tuple[str, str]]:
    """The objects of the text, if one of them is of a kind the corpus keeps; else nothing."""
    objects = kinds_in(text)
    if any(kind in kinds.get(api.rpartition("/")[0], ()) for api, kind in objects):
        return objects
    return []


def pieces(module: Module, root: Path, kinds: dict[str, list[str]]) -> list[tuple[Piece, list[tuple[str, str]]]]:
    """The manifests the module gives the corpus, with the objects each holds."""
    out = []
    for path in walk(root):
        if matches(path, module.exclude):
            continue
        if matches(path, module.files):
            raw = (root / path).read_bytes()
            objects = kept(raw.decode("utf-8", errors="replace"), kinds)
            if objects:
                out.append((Piece(path, raw), objects))
        elif path.endswith(".md") and matches(path, module.docs):
            page = (root / path).read_text(encoding="utf-8", errors="replace")
            for number, (line, block) in enumerate(yaml_blocks(page), start=1):
                objects = kept(block, kinds)
                if objects:
                    out.append((Piece(path, block.encode("utf-8"), number, line), objects))
    return out


# ---------------------------------------------------------------------- pipeline


def generate(sources_file: Path, gomodcache: Path) -> dict[str, bytes]:
    """{path relative to the corpus folder: content} for every file of the corpus and the lock."""
    pins = json.loads(sources_file.read_text(encoding="utf-8"))
    section = pins["examples"]
    go = GoModules(gomodcache)
    files: dict[str, bytes] = {}
    lock_modules: dict[str, Any] = {}
    lock_files: dict[str, Any] = {}
    for module in modules(pins):
        info = go.download(module.module, module.version)
        lock_modules[module.name] = {"module": module.module, "sum": info.get("Sum", ""), "version": module.version}
        for piece, objects in pieces(module, Path(info["Dir"]), section["kinds"]):
            rel = f"{module.folder}/{piece.relpath}"
            if rel in files:
                raise SchemaError(f"examples: two manifests would be written as {rel}")
            files[rel] = piece.text
            entry: dict[str, Any] = {"kinds": sorted({f"{api} {kind}" for api, kind in objects}),
                                     "path": piece.path, "sha256": sha256(piece.text), "source": module.name}
            if piece.block is not None:
                entry.update(block=piece.block, line=piece.line)
            lock_files[rel] = entry
    files[LOCK_NAME] = dump_json({
        "$comment": "Generated by scripts/fetch_examples.py from the examples section of "
                    "scripts/schema_sources.json. Do not edit.",
        "files": lock_files,
        "modules": lock_modules,
    })
    return files


def owned(out: Path) -> set[str]:
    """The files the lock now in ``out`` says this script wrote (never a path outside ``out``)."""
    lock = out / LOCK_NAME
    if not lock.is_file():
        return set()
    listed = json.loads(lock.read_text(encoding="utf-8")).get("files", {})
    return {rel for rel in listed if not Path(rel).is_absolute() and ".." not in Path(rel).parts} | {LOCK_NAME}


def write(files: dict[str, bytes], out: Path) -> None:
    before = owned(out)
    write_tree(files, out, before)
    for rel in sorted(before - files.keys()):  # folders a stale file leaves empty go too
        for parent in (out / rel).parents:
            if parent == out or not parent.is_dir() or any(parent.iterdir()):
                break
            parent.rmdir()


def differences(files: dict[str, bytes], out: Path) -> list[str]:
    problems = []
    for rel, data in sorted(files.items()):
        have = out / rel
        if not have.is_file():
            problems.append(f"  missing  {rel}")
        elif have.read_bytes() != data:
            problems.append(f"  differs  {rel}")
    problems += [f"  stale    {rel} (no longer generated)" for rel in sorted(owned(out) - files.keys())
                 if (out / rel).exists()]
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="corpus folder (default: tests/cases/upstream/)")
    parser.add_argument("--check", action="store_true", help="exit 1 if the corpus is not what the pins give")
    parser.add_argument("--sources", type=Path, default=DEFAULT_SOURCES, help=argparse.SUPPRESS)
    parser.add_argument("--gomodcache", type=Path,
                        default=Path(os.environ.get("MPIGEN_GOMODCACHE", DEFAULT_GOMODCACHE)),
                        help="Go module cache to use (default: .cache/gomod)")
    args = parser.parse_args(argv)
    try:
        files = generate(args.sources, args.gomodcache.resolve())
    except (SchemaError, subprocess.TimeoutExpired, OSError, KeyError, json.JSONDecodeError) as exc:
        print(f"fetch_examples: error: {exc}", file=sys.stderr)
        return 2
    if not args.check:
        write(files, args.out)
        return 0
    problems = differences(files, args.out)
    if problems:
        print(f"fetch_examples --check: {args.out} is not what scripts/schema_sources.json gives:")
        print("\n".join(problems))
        print("run `make examples` (python3 scripts/fetch_examples.py), then `make upstream-expected`, "
              "review the findings and commit the result")
        return 1
    print(f"fetch_examples --check: {len(files)} files in {args.out} are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
