"""Bounded fuzzing of the loader and of every command that reads user files.

Hostile input never shows a traceback: every entry point (the YAML loader, the validate engine,
``mpigen build``, ``validate``, ``podgroup`` and ``explain``, run in-process through
``mpigen.main.main``) answers a mutated spec, manifest or damaged YAML file with exit 0 or 1, and
every problem is a diagnostic line ``FILE:LINE:COL: SEVERITY CODE message`` (``FILE: SEVERITY CODE``
only for problems of the whole file). Exit 2 is for usage errors, which nothing here provokes,
and exit 3 (an internal error) is a bug.

``make test`` runs a few hundred examples in total; ``MPIGEN_FUZZ_EXAMPLES=N`` scales the total
(``make fuzz`` runs 5000). The strategies are in :mod:`tests.fuzz.strategies`. Bugs the fuzzer
found are fixed, and pinned below as regression tests that assert the exact diagnostic; the fuzz
properties tolerate none of them: any record on stderr that is not one diagnostic line, any
traceback and any exception fails the run.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import shutil
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
from mpigen.validation.engine import ValidateOptions, validate_bytes
from tests.fuzz import strategies as S

# ----------------------------------------------------------------------------- budget

DEFAULT_TOTAL = 400
_WEIGHTS = {"loader": 70, "build": 70, "roles": 50, "build_raw": 30, "validate": 50, "validate_raw": 40,
            "podgroup": 30, "explain": 60}
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


def check_outcome(outcome: Outcome, name: str, reported_errors: int | None = None) -> list[re.Match[str]]:
    """The properties every run must have; returns the diagnostic lines (as matches).

    ``reported_errors``: the number of errors a machine-readable report (``--format json``) holds,
    when the diagnostics are not on stderr.
    """
    text = outcome.out + outcome.err
    assert outcome.rc in (0, 1), f"exit {outcome.rc}:\n{outcome.err}"
    assert "Traceback" not in text, outcome.err
    assert "internal error" not in outcome.err, outcome.err
    pattern = diagnostic_line(name)
    found = []
    for record in outcome.err.splitlines():  # a diagnostic is one line: user text has its breaks escaped
        if SUMMARY.match(record) or WROTE.match(record):
            continue
        match = pattern.match(record)
        assert match, f"not a diagnostic line: {record!r}\n--- stderr:\n{outcome.err}"
        found.append(match)
        if match["sev"] == "error" and match["line"] is None and match["code"] not in FILE_LEVEL:
            raise AssertionError(f"error without a line: {record!r}")
    errors = [m for m in found if m["sev"] == "error"]
    if reported_errors is not None:
        errors += [None] * reported_errors  # type: ignore[list-item]
    if outcome.rc == 1:
        assert errors, f"exit 1 without an error diagnostic:\n{outcome.err}"
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
        assert len(d.format().splitlines()) == 1, f"not one line: {d.format()!r}"
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
    jobs = ("MPIJob", "PyTorchJob", "TFJob", "TrainJob")
    # the job first; a TrainJob after the TrainingRuntime mpigen writes beside it, when it does
    first = 1 if docs and docs[0]["kind"] == "TrainingRuntime" else 0
    assert docs[first:] and docs[first]["kind"] in jobs, outcome.out[:500]
    assert first == 0 or docs[first]["kind"] == "TrainJob", outcome.out[:500]
    assert all(d["kind"] in (*jobs, "PodGroup", "Deployment", "Service") for d in docs[first:]), outcome.out[:500]
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


@fuzz_settings("roles")
@given(raw=S.role_patch_specs(), prod=st.booleans())
def test_build_roles_and_patches(capsys, workdir, raw: bytes, prod: bool) -> None:
    """Role settings and pod-template patches, nulls and directives included (a patch that deletes
    the whole pod template beside a kube-batch gang once raised a KeyError)."""
    _check_build(capsys, workdir, raw, ["--env", "prod"] if prod else [])


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
        assert all(g["kind"] == "PodGroup" for g in groups), outcome.out[:500]
        # nothing printed only for a TrainJob whose runtime has no podGroupPolicy, which a note says
        assert groups or " info no-podgroup " in outcome.err, outcome.err[-500:]


# ----------------------------------------------------------------------------- explain


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
    outcome = run(capsys, ["explain", name, "--format", fmt, *gang, *domain, *version, *cluster])
    check_outcome(outcome, name)
    if outcome.rc == 0 and fmt == "yaml":
        objects = [d for d in yaml.safe_load_all(outcome.out) if d is not None]
        assert all(isinstance(o, dict) and "kind" in o for o in objects), outcome.out[:500]


# ------------------------------------------------------------------------ regressions
# Bugs the fuzz tests above found, each pinned by its smallest input and the exact diagnostic
# (or output) that is right for it.

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
        metadata:
          annotations: {sidecar.istio.io/inject: "false"}
        spec:
          containers:
          - name: launcher
            image: mpioperator/mpi-pi:openmpi
            command: [mpirun, -np, "2", /home/mpiuser/pi]
    Worker:
      replicas: 2
      template:
        metadata:
          annotations: {sidecar.istio.io/inject: "false"}
        spec:
          containers:
          - name: worker
            image: mpioperator/mpi-pi:openmpi
"""
SSH_PATH = ("spec:\n  slotsPerWorker: 1\n", "spec:\n  slotsPerWorker: 1\n  sshAuthMountPath: /root/.ssh\n")


@pytest.fixture
def no_debug(monkeypatch: pytest.MonkeyPatch) -> None:
    """As a user runs mpigen: an internal error is exit 3, not a traceback."""
    monkeypatch.delenv("MPIGEN_DEBUG", raising=False)


@pytest.mark.parametrize("text, diagnostic", [
    ('apiVersion: "mpigen.dev/v1alpha1\\r"\nkind: TrainingJob\n',
     "1:1: error not-a-spec expected an mpigen spec: apiVersion mpigen.dev/v1alpha1, kind TrainingJob (this "
     "document is mpigen.dev/v1alpha1\\r TrainingJob); lint Kubernetes manifests with mpigen validate"),
    ('apiVersion: mpigen.dev/v1alpha1\nkind: TrainingJob\nmetadata: {name: a}\n'
     'spec: {framework: mpi, image: i, command: [x], workers: 1, "x\\ninput.yaml:1:1: error forged ok": 2}\n',
     "4:60: error unknown-field unknown field 'x\\ninput.yaml:1:1: error forged ok'; known fields: affinity, "
     "annotations, args, code, command, containerName, dnsPolicy, env, envFrom, environments, framework, "
     "hostNetwork, image, imagePullPolicy, imagePullSecrets, initContainers, labels, livenessProbe, mpi, "
     "nodeSelector, podSecurityContext, podTemplatePatch, ports, priorityClassName, pytorch, readinessProbe, "
     "resourceClaims, resources, restartPolicy, roles, runPolicy, runtime, runtimeClassName, scheduling, "
     "securityContext, serviceAccountName, shmSize, sidecars, slotsPerWorker, startupProbe, tensorboard, "
     "tensorflow, tolerations, topologySpreadConstraints, volumes, workers, workingDir "
     '(spec["x\\ninput.yaml:1:1: error forged ok"])'),
], ids=["apiVersion-with-CR", "key-with-LF"])
def test_regression_a_diagnostic_is_one_line(capsys, workdir, no_debug, text: str, diagnostic: str) -> None:
    """Was a known bug: user text (a key, a quoted value) carried its line breaks into the
    diagnostic, which then spanned lines (and a crafted key could forge a diagnostic line)."""
    name = _write(workdir, text.encode(), "one-line")
    outcome = run(capsys, ["build", name])
    assert (outcome.rc, outcome.err) == (1, f"{name}:{diagnostic}\n")


def test_regression_a_skipped_kind_is_one_line_in_the_summary(capsys, workdir, no_debug) -> None:
    """Was a known bug: the summary named a skipped kind with its carriage return, which broke the
    summary line in two."""
    name = _write(workdir, MINIMAL_MPIJOB.replace("kind: MPIJob", 'kind: "MPIJob\\r"', 1).encode(), "kind-cr")
    outcome = run(capsys, ["validate", name, "--config", str(workdir / ".mpigen.yaml")])
    assert outcome.err.endswith("1 skipped (MPIJob\\r: 1)\n") and outcome.err.count("\n") == 1, outcome.err


def test_regression_a_mount_name_that_is_a_list_beside_volume_devices(capsys, workdir, no_debug) -> None:
    """Was a known bug: pod-volumes raised TypeError on a volumeMount whose name is a list when the
    container also has volumeDevices (the name was looked up among the devices')."""
    text = MINIMAL_MPIJOB + ("            volumeMounts: [{name: [null], mountPath: /scratch}]\n"
                             "            volumeDevices: [{name: raw, devicePath: /dev/xvdb}]\n")
    name = _write(workdir, text.encode(), "mount-name-list")
    outcome = run(capsys, ["validate", name, "--config", str(workdir / ".mpigen.yaml")])
    assert outcome.rc == 1 and "Traceback" not in outcome.err and "internal error" not in outcome.out + outcome.err
    assert "error schema" in outcome.out, outcome.out


def test_regression_explain_valid_mpijob_without_ssh_path(capsys, workdir, no_debug) -> None:
    """Was a known bug: explain crashed (KeyError) on a valid MPIJob that leaves sshAuthMountPath
    to the operator's default."""
    name = _write(workdir, MINIMAL_MPIJOB.encode(), "no-ssh-path")
    assert run(capsys, ["validate", name, "--config", str(workdir / ".mpigen.yaml")]).rc == 0
    outcome = run(capsys, ["explain", name])
    assert (outcome.rc, outcome.err) == (0, "")
    assert "\nSecret pi-ssh (kubernetes.io/ssh-auth; mounted at /root/.ssh)\n" in outcome.out, outcome.out


@pytest.mark.parametrize("metadata", ["", "metadata: null\n"], ids=["absent", "null"])
def test_regression_explain_mpijob_without_metadata(capsys, workdir, no_debug, metadata: str) -> None:
    """Was a known bug: explain crashed on an MPIJob without metadata."""
    text = MINIMAL_MPIJOB.replace("metadata:\n  name: pi\n", metadata, 1).replace(*SSH_PATH, 1)
    name = _write(workdir, text.encode(), "no-metadata")
    outcome = run(capsys, ["explain", name])
    assert (outcome.rc, outcome.err) == (1, f"{name}:1:1: error missing-field missing required field 'metadata.name': "
                                            "the API server refuses an object without a name\n")


def test_regression_validate_refuses_mpijob_without_name(capsys, workdir, no_debug) -> None:
    """Was a known bug: validate accepted an MPIJob the API server refuses ("resource name may not
    be empty")."""
    name = _write(workdir, MINIMAL_MPIJOB.replace("metadata:\n  name: pi\n", "metadata: {}\n", 1).encode(),
                  "no-name")
    outcome = run(capsys, ["validate", name, "--config", str(workdir / ".mpigen.yaml")])
    assert (outcome.rc, outcome.out) == (1, f"{name}:3:11: error missing-field missing required field "
                                            "'metadata.name': the API server refuses an object without a name "
                                            "(metadata)\n")


def test_regression_explain_managed_by_is_a_diagnostic(capsys, workdir, no_debug) -> None:
    """Was a known bug: a job another controller manages was reported as a plain "mpigen: ..." line,
    without a code or a line."""
    text = MINIMAL_MPIJOB.replace("    cleanPodPolicy: Running\n",
                                  "    cleanPodPolicy: Running\n    managedBy: kueue.x-k8s.io/multikueue\n", 1)
    name = _write(workdir, text.replace(*SSH_PATH, 1).encode(), "managed-by")
    outcome = run(capsys, ["explain", name])
    assert (outcome.rc, outcome.out, outcome.err) == (
        1, "", f"{name}:10:16: error not-created another controller manages this MPIJob (runPolicy.managedBy): "
               "nothing is created (spec.runPolicy.managedBy)\n")


def test_regression_explain_operator_crash_on_a_spec_has_a_position(capsys, no_debug) -> None:
    """Was a known bug: an operator crash made explain raise, then was reported without a line.
    The crash comes from the pods' PriorityClass, which this spec sets in
    spec.scheduling.priorityClass."""
    spec = str(S.ROOT / "specs" / "horovod-volcano.yaml")
    outcome = run(capsys, ["explain", spec, "--gang", "scheduler-plugins", "--operator-version", "v0.4.0"])
    assert (outcome.rc, outcome.out, outcome.err) == (
        1, "", f"{spec}:34:20: error operator-crash mpi-operator v0.4.x crashes on this job: with scheduler-plugins "
               "it looks up the pods' PriorityClass through a lister it never set (nil pointer dereference; fixed "
               "in v0.5.0): nothing is created (spec.scheduling.priorityClass)\n")


def test_regression_podgroup_without_mpijob_after_a_warning(capsys, workdir, no_debug) -> None:
    """Was a known bug: a warning on a file without a job hid the no-mpijob error (exit 0, no output)."""
    name = _write(workdir, b"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {debug: y}\n", "no-mpijob")
    outcome = run(capsys, ["podgroup", name, "--gang", "volcano"])
    assert (outcome.rc, outcome.out) == (1, "")
    assert outcome.err.splitlines() == [
        f"{name}: error no-mpijob no mpigen spec, no kubeflow.org/v2beta1 MPIJob, no kubeflow.org/v1 PyTorchJob or "
        "TFJob and no trainer.kubeflow.org/v1alpha1 TrainJob in this file",
        f'{name}:4:15: warning yaml-bool kubectl\'s YAML reader takes the unquoted y for a boolean (true): write "y" '
        "in quotes (data.debug)"]


def _spec_with_workers(tmp_path: Path, workers: int) -> Path:
    """specs/horovod-volcano.yaml with ``workers``; its hostfile-too-large switched off (these tests
    measure explain's cost in the worker count, far past the 1 MiB the operator's ConfigMap holds)."""
    path = tmp_path / f"workers-{workers}.yaml"
    path.write_text((S.ROOT / "specs" / "horovod-volcano.yaml").read_text()
                    .replace("workers: 2\n", f"workers: {workers}\n")
                    .replace("  labels:\n    team: vision\n",
                             "  labels:\n    team: vision\n  annotations:\n    mpigen.dev/disable: hostfile-too-large\n"))
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
    """Was a known bug (the whole hostfile held: 1M workers, 1.6 s and 340 MB). 2147483646
    workers, the most whose gang (with the launcher) a 32-bit minAvailable counts; the text shows
    one worker Pod and the hostfile's first and last lines."""
    huge = _spec_with_workers(tmp_path, 2147483646)
    assert main(["build", str(huge)]) == 0  # build is constant in the worker count
    rc, out, err = _explain_limited(huge, "text")
    assert rc == 0, err.decode()[-500:]
    _, small, _ = _explain_limited(_spec_with_workers(tmp_path, 7), "text")
    text = out.decode()
    assert len(text.splitlines()) == len(small.decode().splitlines())
    assert "... 2147483641 more lines, same pattern ..." in text
    assert "tensorflow-benchmarks-worker-2147483645.tensorflow-benchmarks.research.svc slots=1" in text
    assert "Worker Pods tensorflow-benchmarks-worker-0 .. tensorflow-benchmarks-worker-2147483645 (2147483646)" in text


def test_explain_yaml_streams_for_any_worker_count(tmp_path: Path) -> None:
    """Was a known bug (every Pod held: 100k workers, 43 s and 770 MB). The YAML is complete, so
    for 2147483646 workers it never ends; it starts at once and runs in bounded memory: the
    first 32 MB come out (the hostfile, line by line) while the process is alive."""
    rc, out, err = _explain_limited(_spec_with_workers(tmp_path, 2147483646), "yaml", read=32 << 20)
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
