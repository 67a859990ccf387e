"""The upstream corpus (tests/cases/upstream/) and mpigen's expected findings on it.

The corpus is what ``scripts/fetch_examples.py`` copies out of the pinned upstream modules (the
``examples`` section of ``scripts/schema_sources.json``): each manifest at
``<source>@<version>/<path as upstream>`` (a YAML block of a Markdown page as
``<page>.block<N>.yaml``), listed in ``lock.json``. This module reads it for the tests:

* :func:`manifests` and :func:`job_manifests`: the manifests by source, the jobs among them
  (the round trip of ``mpigen import manifest`` reuses these);
* :func:`judge`: ``mpigen validate`` over the corpus, as a user runs it on a folder: the files of
  one upstream folder in one run (a TrainJob there sees the runtimes of its neighbours), the
  blocks of one page in one run, with the default configuration;
* the expectations, ``tests/cases/upstream_expected.yaml``: per manifest, every finding's code,
  severity, JSON path and line with a ``review`` note saying why it is right. ``python -m
  tests.upstream_corpus`` (``make upstream-expected``) rewrites them from what mpigen now finds,
  keeping the note of every finding that is still there; a new finding gets ``review:
  UNREVIEWED``, which the test refuses.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Iterable

import yaml

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "cases" / "upstream"
LOCK = CORPUS / "lock.json"
EXPECTED = ROOT / "tests" / "cases" / "upstream_expected.yaml"
PINS = ROOT / "scripts" / "schema_sources.json"
UNREVIEWED = "UNREVIEWED"

JOB_KINDS = frozenset({"MPIJob", "PyTorchJob", "TFJob", "TrainJob"})
"""The job kinds mpigen builds (MPIJob of any version: a retired one goes through ``migrate``)."""
JOB_GROUPS = frozenset({"kubeflow.org", "trainer.kubeflow.org"})


@dataclass(frozen=True)
class Manifest:
    """One manifest of the corpus."""

    path: str  # relative to CORPUS: <source>@<version>/<path as upstream>[.block<N>.yaml]
    source: str  # the name of the module in the pins: mpi-operator, training-operator, trainer, ...
    module: str  # its Go module path
    version: str
    upstream: str  # the file's path in the module (for a block: its page's)
    kinds: tuple[str, ...]  # "apiVersion kind" of every object it holds
    block: int | None = None  # the YAML block's number in its page
    line: int | None = None  # the block's first line in its page

    @property
    def file(self) -> Path:
        return CORPUS / self.path

    @property
    def group(self) -> str:
        """What is validated together: the page of a block, else the folder of the file."""
        return self.upstream if self.block is not None else str(PurePosixPath(self.upstream).parent)

    def holds(self, kinds: Iterable[str] = JOB_KINDS, groups: Iterable[str] = JOB_GROUPS) -> bool:
        """Whether one of its objects is of one of ``kinds`` in one of the API ``groups``."""
        kinds, groups = set(kinds), set(groups)
        for entry in self.kinds:
            api_version, _, kind = entry.partition(" ")
            if kind in kinds and api_version.rpartition("/")[0] in groups:
                return True
        return False


def manifests(sources: Iterable[str] | None = None) -> list[Manifest]:
    """Every manifest of the corpus (of the given sources only, when given), in path order."""
    lock = json.loads(LOCK.read_text(encoding="utf-8"))
    modules = lock["modules"]
    wanted = None if sources is None else set(sources)
    out = []
    for path, entry in sorted(lock["files"].items()):
        source = entry["source"]
        if wanted is not None and source not in wanted:
            continue
        module = modules[source]
        out.append(Manifest(path, source, module["module"], module["version"], entry["path"],
                            tuple(entry["kinds"]), entry.get("block"), entry.get("line")))
    return out


EXAMPLE_SOURCES = ("mpi-operator", "training-operator", "trainer")


def job_manifests(sources: Iterable[str] = EXAMPLE_SOURCES, under: str | None = "examples/",
                  blocks: bool = False) -> list[Manifest]:
    """The manifests holding an MPIJob, PyTorchJob, TFJob or TrainJob, of the given sources (by
    default the releases' own examples: mpi-operator's examples/v2beta1, training-operator's
    examples/ and Trainer's examples/), under an upstream folder (None: anywhere, the docs'
    blocks included when ``blocks``)."""
    return [m for m in manifests(sources)
            if m.holds() and (under is None or m.upstream.startswith(under)) and (blocks or m.block is None)]


# ------------------------------------------------------------------------ judging


@dataclass(frozen=True, order=True)
class Finding:
    """What the expectations compare: where and what, not the wording."""

    line: int | None
    code: str
    severity: str
    path: str


def judge(chosen: list[Manifest] | None = None) -> tuple[dict[str, list[Finding]], dict[str, list[str]]]:
    """``mpigen validate --format json`` over the manifests, group by group (see the module): each
    manifest's findings, and the message of each (for a report) in the same order."""
    from click.testing import CliRunner

    from mpigen.main import cli

    chosen = manifests() if chosen is None else chosen
    groups: dict[tuple[str, str], list[Manifest]] = {}
    for manifest in chosen:
        groups.setdefault((manifest.source, manifest.group), []).append(manifest)
    findings: dict[str, list[Finding]] = {m.path: [] for m in chosen}
    messages: dict[str, list[str]] = {m.path: [] for m in chosen}
    with tempfile.TemporaryDirectory(prefix="upstream-corpus-") as tmp:
        config = Path(tmp) / ".mpigen.yaml"  # the defaults, whatever configuration the checkout has
        config.write_text("{}\n", encoding="utf-8")
        runner = CliRunner()
        for members in groups.values():
            args = ["validate", "--format", "json", "--config", str(config), *(str(m.file) for m in members)]
            result = runner.invoke(cli, args, catch_exceptions=False)
            if result.exit_code not in (0, 1):
                raise AssertionError(f"mpigen {' '.join(args)} exited {result.exit_code}:\n{result.output}")
            by_file = {str(m.file): m.path for m in members}
            for item in json.loads(result.stdout)["diagnostics"]:
                path = by_file[item["file"]]
                findings[path].append(Finding(item["line"], item["code"], item["severity"], item["path"]))
                messages[path].append(item["message"])
    return findings, messages


# ------------------------------------------------------------------- expectations


@dataclass(frozen=True)
class Expected:
    finding: Finding
    review: str


def load_expected(path: Path = EXPECTED) -> dict[str, list[Expected]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else None
    out: dict[str, list[Expected]] = {}
    for manifest, entries in (data or {}).items():
        out[manifest] = [Expected(Finding(e.get("line"), e["code"], e["severity"], e.get("path", "")),
                                  str(e.get("review") or "")) for e in entries or []]
    return out


def differences(expected: dict[str, list[Expected]], found: dict[str, list[Finding]]
                ) -> dict[str, tuple[list[Finding], list[Finding]]]:
    """Per manifest that is not judged as expected: (findings not expected, expected ones gone).
    A manifest the expectations do not list, or list and the corpus no longer has, differs too."""
    out = {}
    for manifest in sorted(set(expected) | set(found)):
        want = Counter(e.finding for e in expected.get(manifest, []))
        have = Counter(found.get(manifest, []))
        new, gone = sorted((have - want).elements()), sorted((want - have).elements())
        if new or gone or (manifest in found) != (manifest in expected):
            out[manifest] = (new, gone)
    return out


def carried(old: dict[str, list[Expected]], found: dict[str, list[Finding]]) -> dict[str, list[Expected]]:
    """The expectations of ``found``, each finding with the note it had: the same finding of the
    same manifest, else the same code, severity and path there (its line moved), else the same of
    the manifest of the same source and upstream path at another version (a bumped pin), else the
    very same finding (line included) of another YAML block of the same page (blocks renumbered)."""
    by_upstream: dict[str, list[Expected]] = {}
    by_page: dict[str, list[Expected]] = {}
    for manifest, entries in old.items():
        by_upstream.setdefault(_unversioned(manifest), []).extend(entries)
        by_page.setdefault(_page(manifest), []).extend(entries)
    out = {}
    for manifest, findings in sorted(found.items()):
        pools = [list(old.get(manifest, [])), list(by_upstream.get(_unversioned(manifest), []))]
        page = list(by_page.get(_page(manifest), [])) if _page(manifest) != _unversioned(manifest) else []
        notes = []
        for finding in sorted(findings):
            notes.append(Expected(finding, _take(pools, finding) or _take([page], finding, moved=False)
                                  or UNREVIEWED))
        out[manifest] = notes
    return out


def _unversioned(manifest: str) -> str:
    head, _, rest = manifest.partition("/")
    return f"{head.partition('@')[0]}/{rest}"


def _page(manifest: str) -> str:
    """The unversioned page of a YAML block (``trainer/docs/x.md``); the manifest itself otherwise."""
    return re.sub(r"\.md\.block\d+\.yaml$", ".md", _unversioned(manifest))


def _take(pools: list[list[Expected]], finding: Finding, moved: bool = True) -> str | None:
    """A note for ``finding`` from the pools (the first that has one), used up once taken: the same
    finding, or (``moved``) one of the same code, severity and path at another line."""
    def same_place(e: Expected) -> bool:
        return (e.finding.code, e.finding.severity, e.finding.path) == (finding.code, finding.severity, finding.path)

    tests = (lambda e: e.finding == finding, same_place) if moved else (lambda e: e.finding == finding,)
    for pool in pools:
        for same in tests:
            for entry in pool:
                if same(entry) and entry.review and entry.review != UNREVIEWED:
                    pool.remove(entry)
                    return entry.review
    return None


HEADER = """\
# mpigen validate's findings on the upstream corpus (tests/cases/upstream/, scripts/fetch_examples.py),
# judged by tests/integration/test_upstream_corpus.py: a finding that is not listed here, or one listed
# that is no longer found, fails it. Each finding has a `review` note saying why it is right (or, for
# a known false error, `false error: issue <n> item <m> (<which>)`). `make upstream-expected` rewrites
# this file from what mpigen finds now, keeping every note whose finding is still there; a new finding
# gets `review: UNREVIEWED`, which the test refuses until someone has checked it against the
# operators' code and written why.
"""


def dump_expected(expected: dict[str, list[Expected]]) -> str:
    data = {manifest: [{"line": e.finding.line, "code": e.finding.code, "severity": e.finding.severity,
                        "path": e.finding.path, "review": e.review} for e in entries]
            for manifest, entries in sorted(expected.items())}
    return HEADER + yaml.safe_dump(data, sort_keys=False, width=1_000_000, allow_unicode=True)


def main() -> int:
    """``make upstream-expected``: rewrite the expectations from what mpigen finds now."""
    found, _ = judge()
    old = load_expected()
    new = carried(old, found)
    EXPECTED.write_text(dump_expected(new), encoding="utf-8")
    findings = sum(len(entries) for entries in new.values())
    unreviewed = sum(e.review == UNREVIEWED for entries in new.values() for e in entries)
    print(f"wrote {EXPECTED.relative_to(ROOT)}: {len(new)} manifests, {findings} findings, "
          f"{unreviewed} UNREVIEWED")
    if unreviewed:
        print("review each UNREVIEWED finding against the operators' code and write why it is right",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
