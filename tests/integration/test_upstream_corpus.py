"""``mpigen validate`` over the upstream corpus (tests/cases/upstream/) against the reviewed expectations.

The corpus is the example manifests, test data and documentation YAML of the pinned upstream
modules (scripts/fetch_examples.py); tests/cases/upstream_expected.yaml lists, per manifest,
every finding mpigen is expected to make, each with a review note. A new finding, or one that
disappears, fails the test, which prints ``A/N upstream manifests judged as expected`` and, on
failure, each difference per manifest. After a change that is meant to change the findings:
``make upstream-expected``, review every ``UNREVIEWED`` finding, commit.

``test_corpus_is_what_the_pins_give`` downloads the pinned modules again (the Go module proxy):
deselect it with ``-m "not network"``.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys

import pytest

from tests.upstream_corpus import (CORPUS, LOCK, PINS, ROOT, UNREVIEWED, Expected, Finding, carried,
                                   differences, judge, job_manifests, load_expected, manifests)

SCRIPT = ROOT / "scripts" / "fetch_examples.py"
MIN_MANIFESTS = 100
"""The corpus had 111 manifests when it was made: a much smaller one means it lost a source."""


def test_upstream_manifests_judged_as_expected(capsys: pytest.CaptureFixture[str]) -> None:
    corpus = manifests()
    assert len(corpus) >= MIN_MANIFESTS, f"the corpus has {len(corpus)} manifests: is tests/cases/upstream/ whole?"
    found, messages = judge(corpus)
    expected = load_expected()
    differing = differences(expected, found)
    total = len(set(found) | set(expected))
    with capsys.disabled():
        print(f"\n{total - len(differing)}/{total} upstream manifests judged as expected")
    report = []
    for manifest, (new, gone) in differing.items():
        report.append(f"{manifest}:" + ("" if manifest in found else " (not in the corpus)")
                      + ("" if manifest in expected else " (not in the expectations)"))
        for finding in new:
            message = messages[manifest][found[manifest].index(finding)]
            report.append(f"  new:  {_show(finding)}: {message}")
        for finding in gone:
            report.append(f"  gone: {_show(finding)}")
    if differing:
        pytest.fail("mpigen's findings on the upstream corpus changed (run `make upstream-expected`, review each "
                    "UNREVIEWED finding, commit):\n" + "\n".join(report), pytrace=False)


def _show(finding: Finding) -> str:
    return f"line {finding.line} {finding.severity} {finding.code} ({finding.path})"


def test_every_expected_finding_is_reviewed() -> None:
    expected = load_expected()
    assert len(expected) >= MIN_MANIFESTS
    unreviewed = [f"{manifest}: {_show(e.finding)}" for manifest, entries in expected.items() for e in entries
                  if not e.review.strip() or e.review.strip() == UNREVIEWED]
    assert not unreviewed, "findings without a review note:\n" + "\n".join(unreviewed)


def test_corpus_files_are_the_locked_ones() -> None:
    """The folder holds exactly the files the lock lists, each as the script wrote it."""
    lock = json.loads(LOCK.read_text(encoding="utf-8"))
    on_disk = {p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*") if p.is_file()} - {LOCK.name}
    assert on_disk == set(lock["files"]), "tests/cases/upstream/ and its lock.json disagree: run `make examples`"
    assert len(on_disk) >= MIN_MANIFESTS
    edited = [rel for rel, entry in lock["files"].items()
              if hashlib.sha256((CORPUS / rel).read_bytes()).hexdigest() != entry["sha256"]]
    assert not edited, f"edited by hand (the corpus is upstream's, as fetched): {edited}"


def test_corpus_follows_the_pins() -> None:
    """Each module of the corpus is at the version scripts/schema_sources.json pins (offline: a pin
    bumped without `make examples` fails here)."""
    pins = json.loads(PINS.read_text(encoding="utf-8"))
    sources = {entry["name"]: entry for entry in pins["sources"] + pins.get("package_data", [])}
    want = {}
    for entry in pins["examples"]["modules"]:
        pinned = sources[entry["pin"]] if "pin" in entry else entry
        want[entry["name"]] = (pinned["module"], pinned["version"])
    lock = json.loads(LOCK.read_text(encoding="utf-8"))
    have = {name: (module["module"], module["version"]) for name, module in lock["modules"].items()}
    assert have == want, "the corpus is not at the pinned versions: run `make examples && make upstream-expected`"
    for rel, entry in lock["files"].items():
        assert rel.startswith(f"{entry['source']}@{lock['modules'][entry['source']]['version']}/"), rel


def test_every_source_with_examples_gives_manifests() -> None:
    """A module whose globs select files gives the corpus some (a glob that no longer matches after
    a bump would otherwise drop a source without a word)."""
    pins = json.loads(PINS.read_text(encoding="utf-8"))
    counts = {entry["name"]: 0 for entry in pins["examples"]["modules"] if entry.get("files")}
    for manifest in manifests():
        counts[manifest.source] = counts.get(manifest.source, 0) + 1
    assert all(counts.values()), f"sources that give no manifest: {[n for n, c in counts.items() if not c]}"


def test_job_manifests_are_the_releases_examples() -> None:
    """What issue 20's round trip reuses: the job manifests of mpi-operator's, training-operator's
    and Trainer's examples/, each holding an MPIJob, PyTorchJob, TFJob or TrainJob."""
    jobs = job_manifests()
    by_source = {source: [m for m in jobs if m.source == source]
                 for source in ("mpi-operator", "training-operator", "trainer")}
    assert all(len(found) >= 3 for found in by_source.values()), {s: len(f) for s, f in by_source.items()}
    assert all(m.upstream.startswith("examples/") and m.block is None and m.file.is_file() for m in jobs)
    assert any(m.upstream == "examples/v2beta1/pi/pi.yaml" for m in by_source["mpi-operator"])
    assert not any(m.upstream == "examples/xgboost/xgboostjob.yaml" for m in jobs)  # an XGBoostJob only


# ------------------------------------------------------------- the comparison itself


def _finding(line: int, code: str = "schema") -> Finding:
    return Finding(line, code, "error", "spec")


def test_a_new_finding_and_a_gone_one_are_differences() -> None:
    expected = {"a.yaml": [Expected(_finding(3), "right")], "b.yaml": []}
    assert differences(expected, {"a.yaml": [_finding(3)], "b.yaml": []}) == {}
    assert differences(expected, {"a.yaml": [_finding(3)], "b.yaml": [_finding(1)]}) == {"b.yaml": ([_finding(1)], [])}
    assert differences(expected, {"a.yaml": [], "b.yaml": []}) == {"a.yaml": ([], [_finding(3)])}
    assert differences(expected, {"a.yaml": [_finding(3), _finding(3)], "b.yaml": []}) == \
        {"a.yaml": ([_finding(3)], [])}  # the same finding twice is two findings


def test_a_manifest_added_or_removed_is_a_difference() -> None:
    expected = {"a.yaml": []}
    assert differences(expected, {"a.yaml": [], "new.yaml": []}) == {"new.yaml": ([], [])}
    assert differences(expected, {}) == {"a.yaml": ([], [])}


def test_regenerating_keeps_the_notes_of_findings_still_there() -> None:
    old = {"mpi-operator@v0.8.0/x.yaml": [Expected(_finding(3), "right: a"), Expected(_finding(9, "hostname"), "b")],
           "trainer@v2.3.0/y.yaml": [Expected(_finding(5), "right: c")]}
    found = {"mpi-operator@v0.8.0/x.yaml": [_finding(4), _finding(7, "object-meta")],  # moved; new
             "trainer@v2.3.0/y.yaml": [_finding(5)]}
    assert carried(old, found) == {
        "mpi-operator@v0.8.0/x.yaml": [Expected(_finding(4), "right: a"), Expected(_finding(7, "object-meta"),
                                                                                   UNREVIEWED)],
        "trainer@v2.3.0/y.yaml": [Expected(_finding(5), "right: c")]}


def test_a_bumped_pin_keeps_the_notes_of_the_same_upstream_file() -> None:
    old = {"mpi-operator@v0.8.0/examples/pi.yaml": [Expected(_finding(3), "right: a")]}
    found = {"mpi-operator@v0.8.2/examples/pi.yaml": [_finding(3), _finding(3)],
             "trainer@v0.8.2/examples/pi.yaml": [_finding(3)]}
    assert carried(old, found) == {
        "mpi-operator@v0.8.2/examples/pi.yaml": [Expected(_finding(3), "right: a"), Expected(_finding(3), UNREVIEWED)],
        "trainer@v0.8.2/examples/pi.yaml": [Expected(_finding(3), UNREVIEWED)]}



def test_a_renumbered_block_keeps_the_note_of_the_same_finding_on_its_page() -> None:
    old = {"volcano@v1.14.1/docs/q.md.block1.yaml": [Expected(_finding(5), "right: indented")],
           "volcano@v1.14.1/docs/r.md.block1.yaml": [Expected(_finding(7), "right: other page")]}
    found = {"volcano@v1.15.1/docs/q.md.block3.yaml": [_finding(5), _finding(6)],
             "volcano@v1.15.1/docs/q.md.block4.yaml": [_finding(5)],
             "volcano@v1.15.1/docs/r.md.block2.yaml": [_finding(5)]}
    assert carried(old, found) == {  # the very same finding only (line included), on the same page only
        "volcano@v1.15.1/docs/q.md.block3.yaml": [Expected(_finding(5), "right: indented"),
                                                  Expected(_finding(6), UNREVIEWED)],
        "volcano@v1.15.1/docs/q.md.block4.yaml": [Expected(_finding(5), "right: indented")],
        "volcano@v1.15.1/docs/r.md.block2.yaml": [Expected(_finding(5), UNREVIEWED)]}

# ------------------------------------------------------------------- regeneration


@pytest.mark.network
def test_corpus_is_what_the_pins_give() -> None:
    """`fetch_examples.py --check` downloads the pinned modules and finds no difference."""
    if shutil.which("go") is None:
        pytest.fail("`go` is needed to fetch the upstream corpus (deselect with -m 'not network')")
    proc = subprocess.run([sys.executable, str(SCRIPT), "--check"], cwd=ROOT, capture_output=True, text=True,
                          timeout=1800)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
