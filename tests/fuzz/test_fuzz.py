"""Bounded fuzzing of the loader and of every command that reads user files.

Hostile input never shows a traceback: every entry point (the YAML loader, the validate engine,
``mpigen build``, ``validate``, ``podgroup`` and ``explain``, run in-process through
``mpigen.main.main``) answers a mutated spec, manifest or damaged YAML file with exit 0 or 1, and
every problem is a diagnostic line ``FILE:LINE:COL: SEVERITY CODE message`` (``FILE: SEVERITY CODE``
only for problems of the whole file). Exit 2 is for usage errors, which nothing here provokes,
and exit 3 (an internal error) is a bug.

``make test`` runs a few hundred examples in total; ``MPIGEN_FUZZ_EXAMPLES=N`` scales the total
(``make fuzz`` runs 5000). The strategies are in :mod:`tests.fuzz.strategies`. Bugs the fuzzer
found stay pinned below as ``xfail(strict=True)`` regression tests; the fuzz properties recognise
their exact symptom (so that the run keeps looking for new ones) and count it as a hypothesis event.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import shutil
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis.errors import InvalidArgument
from hypothesis import strategies as st

from mpigen.main import main
from mpigen.diagnostics import Severity
from mpigen.lint.base import LintOptions
from mpigen.load.yaml_loader import Document, load_bytes
from mpigen.operator.podgroup import OperatorPanicError
from mpigen.pipeline import is_spec
from mpigen.validate.engine import ValidateOptions, validate_bytes
from tests.fuzz import strategies as S

# ----------------------------------------------------------------------------- budget

DEFAULT_TOTAL = 400
_WEIGHTS = {"loader": 100, "build": 70, "build_raw": 30, "validate": 60, "validate_raw": 40, "podgroup": 40,
            "explain": 60}
assert sum(_WEIGHTS.values()) == DEFAULT_TOTAL


def examples(name: str) -> int:
    """This test's share of ``MPIGEN_FUZZ_EXAMPLES`` (default: a few hundred in total)."""
    total = int(os.environ.get("MPIGEN_FUZZ_EXAMPLES") or DEFAULT_TOTAL)
    return max(5, round(_WEIGHTS[name] * total / DEFAULT_TOTAL))


def fuzz_settings(name: str) -> settings:
    return settings(max_examples=examples(name), deadline=None, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large, HealthCheck.filter_too_much])


# ------------------------------------------------------------------------- the oracle

# Codes that describe a whole file, for which `FILE: error CODE message` (no line) is right.
FILE_LEVEL = {"no-spec", "no-mpijob", "duplicate-job", "file-too-large"}
SUMMARY = re.compile(r"^\d+ files? checked: \d+ error\(s\), \d+ warning\(s\); "
                     r"\d+ object\(s\) checked, \d+ skipped( \(.*\))?$")
WROTE = re.compile(r"^wrote \d+ files to .+$")


def diagnostic_line(name: str) -> re.Pattern[str]:
    return re.compile(rf"^(?P<file>{re.escape(name)})(?::(?P<line>\d+):(?P<col>\d+))?: "
                      r"(?P<sev>error|warning|info) (?P<code>[a-z0-9]+(?:-[a-z0-9]+)*)(?: |$)")


# Known bugs: the exact symptom of each, tolerated by the fuzz properties (and pinned by the
# strict xfail tests at the end of this file) so that the fuzzer keeps looking for new ones.
KNOWN_BUGS: dict[str, re.Pattern[str]] = {
    # mpigen explain: an MPIJob for which the controller creates nothing (runPolicy.managedBy names
    # another controller) is reported as a plain "mpigen: ..." line, without a code or a line.
    "explain-not-created": re.compile(r"^mpigen: .*: nothing is created$", re.S),
}
# Diagnostic.format() interpolates user text (keys in the JSON path, apiVersion and kind, role
# and container names, PyYAML's problem text) without escaping line breaks, so one diagnostic can
# span several lines (and a crafted key can forge a diagnostic line). Tolerated as the known bug
# "diagnostic-line-break": the continuation is attached to the diagnostic it belongs to.
LINE_BREAKS = re.compile("[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def _note(text: str) -> None:
    """A hypothesis event, when inside a hypothesis test (the oracle also serves plain tests)."""
    try:
        event(text)
    except InvalidArgument:
        pass


@dataclass
class Outcome:
    rc: int
    out: str
    err: str


def run(capsys: pytest.CaptureFixture[str], args: list[str]) -> Outcome:
    capsys.readouterr()
    rc = main(args)
    out, err = capsys.readouterr()
    return Outcome(rc, out, err)


def _records(err: str, name: str) -> list[str]:
    """stderr cut into records: a diagnostic with any continuation lines, or one other line."""
    starts = (f"{name}:", "mpigen:")
    records: list[str] = []
    for line in err.removesuffix("\n").split("\n") if err else []:
        if records and records[-1].startswith(f"{name}:") and not line.startswith(starts) \
                and not SUMMARY.match(line) and not WROTE.match(line):
            records[-1] += "\n" + line  # a continuation: see LINE_BREAKS
        else:
            records.append(line)
    return records


def check_outcome(outcome: Outcome, name: str, reported_errors: int | None = None,
                  tolerate_known: bool = True) -> list[re.Match[str]]:
    """The properties every run must have; returns the diagnostic lines (as matches).

    ``reported_errors``: the number of errors a machine-readable report (``--format json``) holds,
    when the diagnostics are not on stderr.
    """
    text = outcome.out + outcome.err
    assert outcome.rc in (0, 1), f"exit {outcome.rc}:\n{outcome.err}"
    assert "Traceback" not in text, outcome.err
    assert "internal error" not in outcome.err, outcome.err
    pattern = diagnostic_line(name)
    found, known = [], []
    for record in _records(outcome.err, name):
        match = pattern.match(record)
        if match:
            found.append(match)
            if LINE_BREAKS.search(record):
                _note("known bug: diagnostic-line-break")
            if match["sev"] == "error" and match["line"] is None and match["code"] not in FILE_LEVEL:
                raise AssertionError(f"error without a line: {record!r}")
            continue
        if SUMMARY.match(record) or WROTE.match(record):
            continue
        bug = next((bug for bug, symptom in KNOWN_BUGS.items() if symptom.match(record)), None)
        if bug is None:
            raise AssertionError(f"not a diagnostic line: {record!r}\n--- stderr:\n{outcome.err}")
        _note(f"known bug: {bug}")
        known.append(bug)
    errors = [m for m in found if m["sev"] == "error"]
    if reported_errors is not None:
        errors += [None] * reported_errors  # type: ignore[list-item]
    if outcome.rc == 1:
        assert errors or known, f"exit 1 without an error diagnostic:\n{outcome.err}"
    else:
        assert not errors, f"exit 0 with errors:\n{outcome.err}"
    for match in found:
        if match["line"] is not None:
            assert int(match["line"]) >= 1 and int(match["col"]) >= 1, match.group(0)
    _note(f"exit {outcome.rc}")
    return found


def _line_breaks(text: str) -> int:
    """Line breaks as YAML counts them (\\r\\n, \\r, \\n, NEL, LS, PS)."""
    return len(re.findall("\r\n|[\r\n\x85\u2028\u2029]", text))


def _plain(value: Any, depth: int = 0) -> None:
    """The loader hands out plain JSON-like data only."""
    assert depth <= 210, "nesting beyond the loader's limit"
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str), f"non-string key {key!r}"
            _plain(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _plain(item, depth + 1)
    elif isinstance(value, float):
        assert math.isfinite(value), value
    else:
        assert value is None or isinstance(value, (str, int, bool)), type(value)


def check_diagnostics(diagnostics: list[Any], name: str, raw: bytes) -> None:
    try:
        text = raw.decode("utf-8")
        limit = _line_breaks(text) + 1
    except UnicodeDecodeError:
        limit = len(re.findall(rb"\r\n|[\r\n]", raw)) + 1
    for d in diagnostics:
        assert d.file == name, d
        assert d.code and re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", d.code), d
        if LINE_BREAKS.search(d.format()):
            _note("known bug: diagnostic-line-break")
        if d.line is None:
            assert d.severity is not Severity.ERROR or d.code in FILE_LEVEL, f"error without a line: {d}"
        else:
            assert 1 <= d.line <= limit + 1 and (d.column or 1) >= 1, f"{d} (file has {limit} lines)"


# ---------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module", autouse=True)
def _debug_tracebacks():
    """With MPIGEN_DEBUG, an internal error propagates: hypothesis shows and shrinks the traceback."""
    old = os.environ.get("MPIGEN_DEBUG")
    os.environ["MPIGEN_DEBUG"] = "1"
    yield
    if old is None:
        del os.environ["MPIGEN_DEBUG"]
    else:
        os.environ["MPIGEN_DEBUG"] = old


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("fuzz")
    (folder / ".mpigen.yaml").write_text("{}\n")  # a fixed configuration, whatever the checkout has
    return folder


def _write(workdir: Path, raw: bytes, stem: str = "input") -> str:
    path = workdir / f"{stem}.yaml"
    path.write_bytes(raw)
    return str(path)


# ------------------------------------------------------------------------------ loader

any_yaml = st.one_of(S.mutated_yaml_bytes(), S.mutated_specs(), S.mutated_manifests())


@fuzz_settings("loader")
@given(raw=any_yaml)
def test_loader_and_validate_engine_never_raise(raw: bytes) -> None:
    name = "fuzz.yaml"
    loaded = load_bytes(raw, name)
    check_diagnostics(loaded.diagnostics, name, raw)
    for doc in loaded.documents:
        assert isinstance(doc, Document)
        assert doc.line >= 1
        _plain(doc.data)
        for line, col in list(doc.positions.values()) + list(doc.key_positions.values()):
            assert line >= 1 and col >= 1
    event(f"loader: {'errors' if any(d.severity is Severity.ERROR for d in loaded.diagnostics) else 'clean'}")
    found, _ = validate_bytes(raw, name, ValidateOptions())
    check_diagnostics(found, name, raw)


# ------------------------------------------------------------------------------- build

versions = st.sampled_from([[], [], ["--operator-version", "v0.4.0"], ["--operator-version", "v0.5.0"],
                            ["--operator-version", "0.8"]])
clusters = st.sampled_from([[], [], ["--cluster", str(S.CLUSTER_FILE)]])


def _check_build(capsys: pytest.CaptureFixture[str], workdir: Path, raw: bytes, options: list[str]) -> None:
    name = _write(workdir, raw)
    outcome = run(capsys, ["build", name, *options])
    check_outcome(outcome, name)
    if outcome.rc != 0:
        assert outcome.out == ""
        return
    docs = [d for d in yaml.safe_load_all(outcome.out) if d is not None]
    jobs = ("MPIJob", "PyTorchJob", "TFJob")
    assert docs and docs[0]["kind"] in jobs, outcome.out[:500]
    assert all(d["kind"] in (*jobs, "PodGroup", "Deployment", "Service") for d in docs), outcome.out[:500]
    # What build writes, validate accepts: no error from the loader, the schema, the operator's
    # admission rules or the lint rules, told the scheduler-plugins scheduler name the spec gave
    # (validate cannot know how the operator is configured otherwise).
    keys = {"MPIJob": "mpiReplicaSpecs", "PyTorchJob": "pytorchReplicaSpecs", "TFJob": "tfReplicaSpecs"}
    names = {template["spec"]["schedulerName"] for d in docs if d["kind"] in keys
             for r in d["spec"][keys[d["kind"]]].values()
             for template in [r["template"]] if "scheduling.x-k8s.io/pod-group" in
             (template.get("metadata", {}).get("labels") or {})}
    options = ValidateOptions(lint=LintOptions(scheduler_name=names.pop()) if len(names) == 1 else LintOptions(),
                              disabled=frozenset({"scheduler-name-mismatch"}) if len(names) > 1 else frozenset())
    found, _ = validate_bytes(outcome.out.encode("utf-8"), "built.yaml", options)
    errors = [d.format() for d in found if d.severity is Severity.ERROR]
    assert not errors, "mpigen build wrote a manifest that mpigen validate rejects:\n" + "\n".join(errors)


@fuzz_settings("build")
@given(raw=S.mutated_specs(), version=versions, cluster=clusters, tree=st.booleans())
def test_build_mutated_specs(capsys, workdir, raw: bytes, version: list[str], cluster: list[str], tree: bool) -> None:
    if not tree:
        _check_build(capsys, workdir, raw, version + cluster)
        return
    # The kustomize tree: written, then in step with its spec for mpigen check.
    name = _write(workdir, raw)
    out = workdir / "trees"
    shutil.rmtree(out, ignore_errors=True)
    outcome = run(capsys, ["build", name, "-o", str(out), *version, *cluster])
    check_outcome(outcome, name)
    if outcome.rc != 0:
        assert not out.exists() or not any(out.iterdir()), "a failed build wrote a tree"
        return
    checked = run(capsys, ["check", name, "-o", str(out), "--no-cache", "--config", str(workdir / ".mpigen.yaml"),
                           *version, *cluster])
    check_outcome(Outcome(checked.rc, "", checked.err), name)
    assert checked.rc == 0 and "in step" in checked.out, checked.out + checked.err


@fuzz_settings("build_raw")
@given(raw=S.spec_bytes_damaged())
def test_build_damaged_spec_text(capsys, workdir, raw: bytes) -> None:
    _check_build(capsys, workdir, raw, [])


# ---------------------------------------------------------------------------- validate


@fuzz_settings("validate")
@given(raw=st.one_of(S.mutated_manifests(), S.mutated_specs()), fmt=st.sampled_from(["text", "json"]),
       gang=st.sampled_from([[], ["--gang", "volcano"], ["--gang", "scheduler-plugins"], ["--gang", "none"]]),
       cluster=clusters)
def test_validate_mutated_manifests(capsys, workdir, raw: bytes, fmt: str, gang: list[str], cluster: list[str]) -> None:
    name = _write(workdir, raw)
    config = ["--config", str(workdir / ".mpigen.yaml")]
    outcome = run(capsys, ["validate", name, "--format", fmt, *gang, *cluster, *config])
    if fmt == "text":
        # text goes to stdout; the summary to stderr
        check_outcome(Outcome(outcome.rc, "", outcome.out + outcome.err), name)
        return
    report = json.loads(outcome.out)
    check_outcome(Outcome(outcome.rc, "", outcome.err), name, reported_errors=report["errors"])
    assert report["files"] == [name]
    errors = [d for d in report["diagnostics"] if d["severity"] == "error"]
    assert report["errors"] == len(errors)
    assert (outcome.rc == 1) == bool(errors), outcome.out
    for d in report["diagnostics"]:
        assert d["file"] == name
        assert re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", d["code"]), d
        if d["severity"] == "error" and d["line"] is None:
            assert d["code"] in FILE_LEVEL, d


@fuzz_settings("validate_raw")
@given(raw=S.mutated_yaml_bytes())
def test_validate_damaged_text(capsys, workdir, raw: bytes) -> None:
    name = _write(workdir, raw)
    outcome = run(capsys, ["validate", name, "--config", str(workdir / ".mpigen.yaml")])
    check_outcome(Outcome(outcome.rc, "", outcome.out + outcome.err), name)


# ---------------------------------------------------------------------------- podgroup


@fuzz_settings("podgroup")
@given(raw=st.one_of(S.mutated_manifests(mpijobs_only=True), S.mutated_manifests(mpijobs_only=True),
                     S.mutated_yaml_bytes()),
       gang=st.sampled_from(["volcano", "scheduler-plugins"]), version=versions, cluster=clusters)
def test_podgroup_mutated_manifests(capsys, workdir, raw: bytes, gang: str, version: list[str],
                                    cluster: list[str]) -> None:
    name = _write(workdir, raw)
    outcome = run(capsys, ["podgroup", name, "--gang", gang, *version, *cluster])
    check_outcome(outcome, name)
    if outcome.rc == 0:
        groups = [d for d in yaml.safe_load_all(outcome.out) if d is not None]
        if not groups and not outcome.out.strip() and " warning " in outcome.err:
            event("known bug: podgroup-no-mpijob-after-a-warning")  # pinned below
            return
        assert groups and all(g["kind"] == "PodGroup" for g in groups), outcome.out[:500]


# ----------------------------------------------------------------------------- explain


def _explain_crash(exc: BaseException, raw: bytes) -> str | None:
    """The known bug an exception of ``mpigen explain`` on ``raw`` is a symptom of, if any.

    ``mpigen explain MANIFEST`` hands the MPIJob to the controller port as it is written, without
    the checks ``podgroup`` makes nor the API server's view ``validate`` takes (nulls dropped), so
    it crashes on manifests of unexpected shape, with a null the server would drop, without
    metadata.name, or that leave sshAuthMountPath to the operator's default. Crashes on a spec
    (compiled first) are never tolerated.
    """
    frames = {frame.name for frame in traceback.extract_tb(exc.__traceback__)}
    if not frames & {"render_text", "created_objects", "_pod_lines", "hostfile"}:
        return None  # not in the explain stage: a new bug
    if isinstance(exc, OperatorPanicError):  # specs too: build and podgroup report it as operator-crash
        return "explain-operator-panic"
    loaded = load_bytes(raw, "x.yaml")
    if any(is_spec(doc.data) for doc in loaded.documents):
        return None
    if isinstance(exc, KeyError) and exc.args == ("sshAuthMountPath",):
        return "explain-manifest-unchecked (sshAuthMountPath left to the default)"
    return "explain-manifest-unchecked"


HUGE = 2_000  # workers or replicas beyond which explain's complete YAML (linear in them) would stall the run


def _huge_worker_count(value: Any) -> bool:
    if isinstance(value, dict):
        return any((k in ("workers", "replicas") and isinstance(v, int) and not isinstance(v, bool) and v > HUGE)
                   or _huge_worker_count(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_huge_worker_count(v) for v in value)
    return False


@fuzz_settings("explain")
@given(raw=st.one_of(S.mutated_specs(), S.mutated_manifests(mpijobs_only=True), S.mutated_yaml_bytes()),
       fmt=st.sampled_from(["text", "yaml"]),
       gang=st.sampled_from([[], ["--gang", "volcano"], ["--gang", "scheduler-plugins"], ["--gang", "none"]]),
       domain=st.sampled_from([[], ["--cluster-domain", "cluster.local"]]), version=versions, cluster=clusters)
def test_explain_specs_and_manifests(capsys, workdir, raw: bytes, fmt: str, gang: list[str], domain: list[str],
                                     version: list[str], cluster: list[str]) -> None:
    if fmt == "yaml" and any(_huge_worker_count(doc.data) for doc in load_bytes(raw, "x.yaml").documents):
        # The YAML lists every Pod: its size is linear in the worker count (the text is not).
        event("skipped: YAML for a huge worker count")
        return
    name = _write(workdir, raw)
    try:
        outcome = run(capsys, ["explain", name, "--format", fmt, *gang, *domain, *version, *cluster])
    except Exception as exc:  # MPIGEN_DEBUG: an internal error propagates
        bug = _explain_crash(exc, raw)
        if bug is None:
            raise
        event(f"known bug: {bug}")
        return
    check_outcome(outcome, name)
    if outcome.rc == 0 and fmt == "yaml":
        objects = [d for d in yaml.safe_load_all(outcome.out) if d is not None]
        assert all(isinstance(o, dict) and "kind" in o for o in objects), outcome.out[:500]


# --------------------------------------------------------------------------- known bugs
# Found by the fuzz tests above; each pinned by its smallest input. strict: when a bug is fixed
# the test XPASSes and fails the run, so that its xfail mark and its tolerance above go too.

MINIMAL_MPIJOB = """\
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata:
  name: pi
spec:
  slotsPerWorker: 1
  runPolicy:
    cleanPodPolicy: Running
  mpiReplicaSpecs:
    Launcher:
      replicas: 1
      template:
        spec:
          containers:
          - name: launcher
            image: mpioperator/mpi-pi:openmpi
            command: [mpirun, -np, "2", /home/mpiuser/pi]
    Worker:
      replicas: 2
      template:
        spec:
          containers:
          - name: worker
            image: mpioperator/mpi-pi:openmpi
"""


@pytest.fixture
def no_debug(monkeypatch: pytest.MonkeyPatch) -> None:
    """As a user runs mpigen: an internal error is exit 3, not a traceback."""
    monkeypatch.delenv("MPIGEN_DEBUG", raising=False)


def _lines_are_diagnostics(outcome: Outcome, name: str) -> None:
    pattern = diagnostic_line(name)
    for line in outcome.err.splitlines():
        assert pattern.match(line) or SUMMARY.match(line), f"not a diagnostic line: {line!r}"


@pytest.mark.parametrize("text", [
    'apiVersion: "mpigen.dev/v1alpha1\\r"\nkind: TrainingJob\n',
    'apiVersion: mpigen.dev/v1alpha1\nkind: TrainingJob\nmetadata: {name: a}\n'
    'spec: {framework: mpi, image: i, command: [x], workers: 1, "x\\ninput.yaml:1:1: error forged ok": 2}\n',
], ids=["apiVersion-with-CR", "key-with-LF"])
def test_known_bug_a_diagnostic_is_one_line(capsys, workdir, no_debug, text: str) -> None:
    name = _write(workdir, text.encode(), "one-line")
    outcome = run(capsys, ["build", name])
    assert outcome.rc == 1
    _lines_are_diagnostics(outcome, name)
    assert len([line for line in outcome.err.splitlines() if line.strip()]) == 1, outcome.err


def test_known_bug_explain_valid_mpijob_without_ssh_path(capsys, workdir, no_debug) -> None:
    name = _write(workdir, MINIMAL_MPIJOB.encode(), "no-ssh-path")
    assert run(capsys, ["validate", name, "--config", str(workdir / ".mpigen.yaml")]).rc == 0
    outcome = run(capsys, ["explain", name])
    assert outcome.rc == 0, outcome.err
    assert "mounted at /root/.ssh" in outcome.out


@pytest.mark.parametrize("metadata", ["", "metadata: null\n"], ids=["absent", "null"])
def test_known_bug_explain_mpijob_without_metadata(capsys, workdir, no_debug, metadata: str) -> None:
    text = MINIMAL_MPIJOB.replace("metadata:\n  name: pi\n", metadata, 1)
    name = _write(workdir, text.replace("spec:\n  slotsPerWorker: 1\n",
                                        "spec:\n  slotsPerWorker: 1\n  sshAuthMountPath: /root/.ssh\n", 1).encode(),
                  "no-metadata")
    outcome = run(capsys, ["explain", name])
    assert outcome.rc == 1, outcome.err
    _lines_are_diagnostics(outcome, name)


def test_known_bug_validate_accepts_mpijob_without_name(capsys, workdir, no_debug) -> None:
    name = _write(workdir, MINIMAL_MPIJOB.replace("metadata:\n  name: pi\n", "metadata: {}\n", 1).encode(),
                  "no-name")
    outcome = run(capsys, ["validate", name, "--config", str(workdir / ".mpigen.yaml")])
    assert outcome.rc == 1, outcome.out + outcome.err


def test_known_bug_explain_managed_by_is_a_plain_message(capsys, workdir, no_debug) -> None:
    text = MINIMAL_MPIJOB.replace("    cleanPodPolicy: Running\n",
                                  "    cleanPodPolicy: Running\n    managedBy: kueue.x-k8s.io/multikueue\n", 1)
    text = text.replace("spec:\n  slotsPerWorker: 1\n", "spec:\n  slotsPerWorker: 1\n  sshAuthMountPath: /root/.ssh\n", 1)
    name = _write(workdir, text.encode(), "managed-by")
    outcome = run(capsys, ["explain", name])
    _lines_are_diagnostics(outcome, name)
    assert outcome.rc == 0 or f"{name}:" in outcome.err, outcome.err


def test_known_bug_explain_operator_panic(capsys, no_debug) -> None:
    spec = str(S.ROOT / "specs" / "horovod-volcano.yaml")
    outcome = run(capsys, ["explain", spec, "--gang", "scheduler-plugins", "--operator-version", "v0.4.0"])
    assert outcome.rc == 1 and "error operator-crash" in outcome.err, (outcome.rc, outcome.err)


def test_known_bug_podgroup_without_mpijob_after_a_warning(capsys, workdir, no_debug) -> None:
    name = _write(workdir, b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {debug: y}\n", "no-mpijob")
    outcome = run(capsys, ["podgroup", name, "--gang", "volcano"])
    assert outcome.rc == 1 and "error no-mpijob" in outcome.err, (outcome.rc, outcome.out, outcome.err)


def _spec_with_workers(tmp_path: Path, workers: int) -> Path:
    path = tmp_path / f"workers-{workers}.yaml"
    path.write_text((S.ROOT / "specs" / "horovod-volcano.yaml").read_text().replace("workers: 2\n", f"workers: {workers}\n"))
    return path


def _explain_limited(path: Path, fmt: str, read: int | None = None) -> tuple[int | None, bytes, bytes]:
    """``mpigen explain`` in a process limited to 1 GiB of address space (growing memory shows as
    a MemoryError within seconds); with ``read``, only the first ``read`` bytes of the output are
    read and the process is then stopped. The timeout only guards against a hang."""
    import resource
    import subprocess
    import sys

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    env = {k: v for k, v in os.environ.items() if k != "MPIGEN_DEBUG"}
    args = [sys.executable, "-m", "mpigen", "explain", str(path), "--format", fmt]
    if read is None:
        result = subprocess.run(args, capture_output=True, timeout=600, preexec_fn=limit, env=env, cwd=S.ROOT,
                                check=False)
        return result.returncode, result.stdout, result.stderr
    with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=limit, env=env,
                          cwd=S.ROOT) as proc:
        try:
            out = proc.stdout.read(read)  # type: ignore[union-attr]
            alive = proc.poll() is None
        finally:
            proc.kill()
            err = proc.stderr.read()  # type: ignore[union-attr]
        return (None if alive else proc.returncode), out, err


def test_explain_text_is_the_same_size_for_any_worker_count(tmp_path: Path) -> None:
    """Was a known bug (the whole hostfile held: 1M workers, 1.6 s and 340 MB). The schema allows
    2147483647 workers; the text shows one worker Pod and the hostfile's first and last lines."""
    huge = _spec_with_workers(tmp_path, 2147483647)
    assert main(["build", str(huge)]) == 0  # build is constant in the worker count
    rc, out, err = _explain_limited(huge, "text")
    assert rc == 0, err.decode()[-500:]
    _, small, _ = _explain_limited(_spec_with_workers(tmp_path, 7), "text")
    text = out.decode()
    assert len(text.splitlines()) == len(small.decode().splitlines())
    assert "... 2147483642 more lines, same pattern ..." in text
    assert "tensorflow-benchmarks-worker-2147483646.tensorflow-benchmarks.research.svc slots=1" in text
    assert "Worker Pods tensorflow-benchmarks-worker-0 .. tensorflow-benchmarks-worker-2147483646 (2147483647)" in text


def test_explain_yaml_streams_for_any_worker_count(tmp_path: Path) -> None:
    """Was a known bug (every Pod held: 100k workers, 43 s and 770 MB). The YAML is complete, so
    for 2147483647 workers it never ends; it starts at once and runs in bounded memory: the
    first 32 MB come out (the hostfile, line by line) while the process is alive."""
    rc, out, err = _explain_limited(_spec_with_workers(tmp_path, 2147483647), "yaml", read=32 << 20)
    assert rc is None, err.decode()[-500:]
    assert len(out) == 32 << 20
    text = out.decode()
    assert text.startswith("---\napiVersion: v1\nkind: Service\n")
    assert "\n  hostfile: |\n    tensorflow-benchmarks-worker-0.tensorflow-benchmarks.research.svc slots=1\n" in text


class _Sink(io.TextIOBase):
    """A stdout that counts what is written and keeps only the Pod names."""

    def __init__(self) -> None:
        self.size, self.pods, self.tail = 0, 0, ""

    def write(self, text: str) -> int:
        self.size += len(text)
        self.pods += (self.tail + text).count("\nkind: Pod\n") - self.tail.count("\nkind: Pod\n")
        self.tail = text[-16:]
        return len(text)

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:
        return "utf-8"


def test_explain_yaml_memory_and_work_do_not_grow_per_worker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every Pod is written, yet peak memory is the same for 20,000 workers as for 2,000, and the
    string formatting (the emitter's costly part) is done a few times per worker, not once per
    field of every Pod."""
    import sys
    import tracemalloc

    from mpigen.emit import yaml_emit

    calls = 0
    plain_ok = yaml_emit._plain_ok

    def counting(text: str) -> bool:
        nonlocal calls
        calls += 1
        return plain_ok(text)

    monkeypatch.setattr(yaml_emit, "_plain_ok", counting)

    def measure(workers: int) -> tuple[int, _Sink, int]:
        nonlocal calls
        path, sink = _spec_with_workers(tmp_path, workers), _Sink()
        monkeypatch.setattr(sys, "stdout", sink)
        calls = 0
        tracemalloc.start()
        try:
            assert main(["explain", str(path), "--format", "yaml"]) == 0
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
            monkeypatch.setattr(sys, "stdout", sys.__stdout__)
        return peak, sink, calls

    measure(3)  # imports and first-use caches
    small, small_out, small_calls = measure(2_000)
    large, large_out, large_calls = measure(20_000)
    assert (small_out.pods, large_out.pods) == (2_000, 20_000)
    assert large_out.size > 9 * small_out.size
    assert large < small + (512 << 10), (small, large)
    assert large_calls - small_calls < 3 * 18_000, (small_calls, large_calls)


def test_explain_operator_crash_on_a_spec_has_a_position(capsys, no_debug) -> None:
    """Was a known bug: reported without a line. The crash comes from the pods' PriorityClass,
    which this spec sets in spec.scheduling.priorityClass."""
    spec = str(S.ROOT / "specs" / "horovod-volcano.yaml")
    outcome = run(capsys, ["explain", spec, "--gang", "scheduler-plugins", "--operator-version", "v0.4.0"])
    assert outcome.rc == 1, outcome.err
    (match,) = check_outcome(outcome, spec, tolerate_known=False)
    assert match["code"] == "operator-crash" and match["line"] == "34", outcome.err
    assert outcome.err.rstrip().endswith("(spec.scheduling.priorityClass)"), outcome.err
