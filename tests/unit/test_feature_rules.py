"""mpigen.spec.feature_rules (and the spec_rules it extends): the checks of frameworks, Kueue and
kube-batch, GPU topology, volumes, TensorBoard and code sync.

Warnings are cases in ``tests/cases/specs/warnings/`` (the spec builds; every diagnostic,
warning or error, is stated as ``# expect: LINE:COL CODE``); errors are cases in
``tests/cases/specs/invalid/`` (run by tests/integration/test_cli.py). The rules are also
called directly on effective specs.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mpigen.diagnostics import Severity
from mpigen.load.yaml_loader import load_text
from mpigen.pipeline import Options, compile_specs
from mpigen.spec import feature_rules as fr
from mpigen.spec.spec_rules import check_spec
from mpigen.versions import DEFAULT_OPERATOR_VERSION

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "cases" / "specs"
WARNINGS = sorted((CASES / "warnings").glob("*.yaml"))
NEW_CODES = {
    "framework-field", "kueue-queue", "kueue-suspend", "gpu-topology", "volume-source", "host-path",
    "tensorboard-log-dir", "tensorboard-host-path", "code-source", "git-credentials-over-http",
    "plaintext-credential", "workers", "min-resources-order", "gang-ignored", "kueue-priority-class",
    "tensorboard-name",
}
DOC = {"metadata": {"name": "job"}}
VERSION = DEFAULT_OPERATOR_VERSION


def _expectations(path: Path) -> set[tuple[int, int, str]]:
    return {(int(m[1]), int(m[2]), m[3]) for m in re.finditer(r"^# expect: (\d+):(\d+) (\S+)$", path.read_text(), re.M)}


@pytest.mark.parametrize("path", WARNINGS, ids=[p.stem for p in WARNINGS])
def test_warning_case_builds_and_warns_at_the_right_place(path: Path) -> None:
    expect = _expectations(path)
    assert expect, f"{path.name} declares no '# expect: LINE:COL CODE'"
    result = compile_specs(load_text(path.read_text(), path.name), path.name, Options())
    assert result.ok and len(result.jobs) == 1
    got = {(d.line, d.column, d.code) for d in result.diagnostics}
    assert got == expect, [d.format() for d in result.diagnostics]
    assert all(d.severity is Severity.WARNING for d in result.diagnostics)


def test_every_new_code_has_a_case_file() -> None:
    codes = set()
    for folder in ("invalid", "warnings"):
        for path in (CASES / folder).glob("*.yaml"):
            codes |= {code for _, _, code in _expectations(path)}
    assert NEW_CODES <= codes, NEW_CODES - codes


def findings(spec: dict, doc: dict = DOC) -> list[tuple[str, str, Severity]]:
    """(path, code, severity) of every rule of check_spec, for a spec the schema accepts."""
    return [(".".join(map(str, p)), c, s) for p, c, s, _ in check_spec(doc, spec, VERSION, None)]


BASE = {"image": "i", "command": ["python", "t.py"], "workers": 2}


def spec_of(**fields) -> dict:
    return {**BASE, **fields}


# --- framework-field --------------------------------------------------------------------------

@pytest.mark.parametrize("framework, field, value", [
    ("pytorch", "mpi", {"implementation": "Intel"}),
    ("tensorflow", "slotsPerWorker", 2),
    ("tensorflow", "pytorch", {"port": 1}),
    ("mpi", "tensorflow", {"port": 1}),
    ("mpi", "pytorch", {}),
    ("mpi", "restartPolicy", "OnFailure"),
])
def test_framework_field(framework: str, field: str, value: object) -> None:
    assert findings(spec_of(framework=framework, **{field: value})) == [
        (f"spec.{field}", "framework-field", Severity.ERROR)]


@pytest.mark.parametrize("framework, field, value", [
    ("pytorch", "pytorch", {"port": 1}), ("tensorflow", "tensorflow", {"ps": {"replicas": 1}}),
    ("mpi", "mpi", {}), ("mpi", "slotsPerWorker", 1), ("pytorch", "slotsPerWorker", 4),
    ("pytorch", "restartPolicy", "Never"),
])
def test_own_framework_fields_are_fine(framework: str, field: str, value: object) -> None:
    assert findings(spec_of(framework=framework, **{field: value})) == []


# --- Kueue and kube-batch ---------------------------------------------------------------------

def test_kueue_needs_a_queue() -> None:
    for scheduling in ({"gang": "kueue"}, {"gang": "kueue", "queue": ""}):
        assert findings(spec_of(framework="pytorch", scheduling=scheduling)) == [
            ("spec.scheduling", "kueue-queue", Severity.ERROR)]
    assert findings(spec_of(framework="pytorch", scheduling={"gang": "kueue", "queue": "lq"})) == []


@pytest.mark.parametrize("key, code", [("queue", "kueue-queue"), ("priorityClass", "kueue-priority-class")])
@pytest.mark.parametrize("value, refused", [
    ("team-nlp", False), ("Team_NLP.2", False), ("a" * 63, False),
    ("team nlp", True), ("team-", True), ("-team", True), ("a" * 64, True), ("équipe", True),
])
def test_kueue_labels_are_label_values(key: str, code: str, value: str, refused: bool) -> None:
    """The queue and the WorkloadPriorityClass become labels of the job: a value the API server
    refuses as a label value (content.IsLabelValue) fails the spec, where it is written."""
    scheduling = {"gang": "kueue", "queue": "lq", key: value}
    expected = [(f"spec.scheduling.{key}", code, Severity.ERROR)] if refused else []
    assert findings(spec_of(framework="mpi", scheduling=scheduling)) == expected


def test_kueue_label_problems_are_the_api_servers() -> None:
    from mpigen.operator.k8s_validation import is_label_value

    for value in ("team-nlp", "", "a" * 63, "a" * 64, "team nlp", "x.", "_x", "A_b.C-d", "ü"):
        assert (fr.label_value_problem(value) is None) == (is_label_value(value) == ()), value


@pytest.mark.parametrize("length, refused", [(51, False), (52, True)])
def test_tensorboard_service_name_fits_a_dns_label(length: int, refused: bool) -> None:
    spec = spec_of(framework="pytorch", volumes=[{"claimName": "runs", "mountPath": "/runs"}],
                   tensorboard={"logDir": "/runs/x"})
    doc = {"metadata": {"name": "a" * length}}
    expected = [("metadata.name", "tensorboard-name", Severity.ERROR)] if refused else []
    assert [f for f in findings(spec, doc) if f[1] != "hostname"] == expected
    assert [f for f in findings(spec_of(framework="pytorch"), doc) if f[1] == "tensorboard-name"] == []


def test_kueue_ignores_the_pod_group_fields_and_owns_suspend() -> None:
    spec = spec_of(framework="mpi", scheduling={"gang": "kueue", "queue": "lq", "priorityClass": "wpc",
                                                "minAvailable": 1, "minResources": {"cpu": 1},
                                                "scheduleTimeoutSeconds": 5},
                   runPolicy={"suspend": False})
    assert findings(spec) == [
        ("spec.scheduling.minAvailable", "gang-ignored", Severity.WARNING),
        ("spec.scheduling.minResources", "gang-ignored", Severity.WARNING),
        ("spec.scheduling.scheduleTimeoutSeconds", "gang-ignored", Severity.WARNING),
        ("spec.runPolicy.suspend", "kueue-suspend", Severity.WARNING),
    ]


def test_kueue_priority_class_is_not_checked_against_the_cluster_priority_classes() -> None:
    spec = spec_of(framework="pytorch", scheduling={"gang": "kueue", "queue": "lq", "priorityClass": "wpc"})
    assert check_spec(DOC, spec, VERSION, {"other": 1}) == []
    volcano = spec_of(framework="pytorch", scheduling={"gang": "volcano", "priorityClass": "wpc"})
    assert [c for _, c, _, _ in check_spec(DOC, volcano, VERSION, {"other": 1})] == ["priority-class"]


def test_kube_batch_has_no_min_resources_or_timeout() -> None:
    spec = spec_of(framework="tensorflow", scheduling={"gang": "kube-batch", "queue": "q", "priorityClass": "p",
                                                       "minAvailable": 2, "minResources": {"cpu": 1},
                                                       "scheduleTimeoutSeconds": 5})
    assert findings(spec) == [
        ("spec.scheduling.minResources", "gang-ignored", Severity.WARNING),
        ("spec.scheduling.scheduleTimeoutSeconds", "gang-ignored", Severity.WARNING),
    ]


def test_kube_batch_min_available_above_the_pods() -> None:
    spec = spec_of(framework="pytorch", scheduling={"gang": "kube-batch", "minAvailable": 4})
    assert findings(spec) == [("spec.scheduling.minAvailable", "min-available", Severity.ERROR)]
    assert findings(spec_of(framework="pytorch", scheduling={"gang": "kube-batch", "minAvailable": 3})) == []


# --- workers ----------------------------------------------------------------------------------

@pytest.mark.parametrize("tensorflow, codes", [
    ({}, ["workers"]), ({"ps": {"replicas": 2}}, ["workers"]), ({"evaluator": {}}, ["workers"]),
    ({"chief": {}}, []),
])
def test_tensorflow_without_workers_needs_a_chief(tensorflow: dict, codes: list[str]) -> None:
    spec = spec_of(framework="tensorflow", workers=0, tensorflow=tensorflow)
    assert [c for _, c, _ in findings(spec)] == codes


def test_pytorch_without_workers_is_fine() -> None:
    assert findings(spec_of(framework="pytorch", workers=0)) == []


def test_training_pod_hostnames_are_checked_per_role() -> None:
    name = "n" * 57  # <name>-ps-0 is 62 characters, <name>-chief-0 is 65, <name>-worker-0 is 66
    doc = {"metadata": {"name": name}}
    ok = spec_of(framework="tensorflow", workers=0, tensorflow={"ps": {"replicas": 1}})
    assert [c for _, c, _ in findings(dict(ok, tensorflow={"ps": {"replicas": 1}, "chief": {}}), doc)] == ["hostname"]
    assert [c for _, c, _ in findings(dict(ok, workers=1), doc)] == ["hostname"]


# --- GPU topology -----------------------------------------------------------------------------

def test_gpu_topology_needs_gpus() -> None:
    assert findings(spec_of(framework="mpi", scheduling={"gpuTopology": True})) == [
        ("spec.scheduling.gpuTopology", "gpu-topology", Severity.ERROR)]
    assert findings(spec_of(framework="mpi", resources={"gpu": 0}, scheduling={"gpuTopology": True})) == [
        ("spec.scheduling.gpuTopology", "gpu-topology", Severity.ERROR)]
    assert findings(spec_of(framework="mpi", resources={"gpu": 1}, scheduling={"gpuTopology": True})) == [
        ("spec.scheduling.gpuTopology", "host-network-ssh", Severity.WARNING)]  # sshd on the node's port 22
    assert findings(spec_of(framework="pytorch", resources={"gpu": 1}, scheduling={"gpuTopology": True})) == []
    assert findings(spec_of(framework="mpi", scheduling={"gpuTopology": False})) == []
    # only the PyTorch master has GPUs: still topology-scheduled GPU pods
    assert findings(spec_of(framework="pytorch", pytorch={"master": {"resources": {"gpu": 8}}},
                            scheduling={"gpuTopology": True})) == []


# --- volumes ----------------------------------------------------------------------------------

def test_volume_needs_exactly_one_source() -> None:
    volumes = [{"claimName": "a", "hostPath": "/a", "mountPath": "/a"}, {"mountPath": "/b"},
               {"claimName": "c", "mountPath": "/c"}]
    assert findings(spec_of(framework="pytorch", volumes=volumes)) == [
        ("spec.volumes.0", "volume-source", Severity.ERROR), ("spec.volumes.1", "volume-source", Severity.ERROR)]


def test_host_path_warns() -> None:
    assert findings(spec_of(framework="mpi", volumes=[{"hostPath": "/mnt", "mountPath": "/m"}])) == [
        ("spec.volumes.0.hostPath", "host-path", Severity.WARNING)]


@pytest.mark.parametrize("volume", [{"claimName": "code", "mountPath": "/x"}, {"claimName": "dshm", "mountPath": "/x"},
                                    {"claimName": "c", "mountPath": "/x", "name": "git-secret"}])
def test_reserved_volume_names(volume: dict) -> None:
    assert findings(spec_of(framework="pytorch", volumes=[volume])) == [
        ("spec.volumes.0", "volume-name", Severity.ERROR)]


def test_volume_over_the_code_mount_path() -> None:
    code = {"mountPath": "/src", "rsync": {"source": "h::m/"}}
    spec = spec_of(framework="pytorch", code=code, volumes=[{"claimName": "c", "mountPath": "/src"}])
    assert findings(spec) == [("spec.volumes.0.mountPath", "volume-mount-path", Severity.ERROR)]
    default = spec_of(framework="pytorch", code={"rsync": {"source": "h::m/"}},
                      volumes=[{"claimName": "c", "mountPath": "/code"}])
    assert findings(default) == [("spec.volumes.0.mountPath", "volume-mount-path", Severity.ERROR)]


# --- TensorBoard ------------------------------------------------------------------------------

@pytest.mark.parametrize("volumes, log_dir, want", [
    ([], "/logs", [("spec.tensorboard.logDir", "tensorboard-log-dir", Severity.ERROR)]),
    ([{"claimName": "l", "mountPath": "/logs"}], "/logsx", [("spec.tensorboard.logDir", "tensorboard-log-dir",
                                                              Severity.ERROR)]),
    ([{"claimName": "l", "mountPath": "/logs"}], "/logs", []),
    ([{"claimName": "l", "mountPath": "/logs"}], "/logs/a/b", []),
    ([{"hostPath": "/h", "mountPath": "/logs"}], "/logs/a", [("spec.volumes.0.hostPath", "host-path", Severity.WARNING),
                                                             ("spec.tensorboard.logDir", "tensorboard-host-path",
                                                              Severity.WARNING)]),
    # The deepest mount decides: a PVC inside a hostPath folder is fine.
    ([{"hostPath": "/h", "mountPath": "/logs"}, {"claimName": "l", "mountPath": "/logs/tb"}], "/logs/tb/run",
     [("spec.volumes.0.hostPath", "host-path", Severity.WARNING)]),
])
def test_tensorboard_log_dir_on_a_shared_volume(volumes: list, log_dir: str, want: list) -> None:
    spec = spec_of(framework="pytorch", volumes=volumes, tensorboard={"logDir": log_dir})
    assert findings(spec) == want


# --- code sync --------------------------------------------------------------------------------

@pytest.mark.parametrize("code, codes", [
    ({}, ["code-source"]),
    ({"mountPath": "/x"}, ["code-source"]),
    ({"git": {"repository": "https://g/r.git"}, "rsync": {"source": "h::m"}}, ["code-source"]),
    ({"git": {"repository": "https://g/r.git"}}, []),
    ({"rsync": {"source": "h::m"}}, []),
    ({"mountPath": "/", "git": {"repository": "https://g/r.git"}}, ["volume-mount-path"]),
    ({"mountPath": "/", "rsync": {"source": "h::m"}}, ["volume-mount-path"]),
    ({"git": {"revision": "dev"}}, ["missing-field"]),
])
def test_code_source(code: dict, codes: list[str]) -> None:
    assert [c for _, c, _ in findings(spec_of(framework="pytorch", code=code))] == codes


@pytest.mark.parametrize("git, want", [
    ({"repository": "https://g.example.com/r.git", "password": "hunter2"},
     [("spec.code.git.password", "plaintext-credential")]),
    ({"repository": "https://g.example.com/r.git", "username": "me"}, [("spec.code.git.username", "plaintext-credential")]),
    ({"repository": "https://me:tok@g.example.com/r.git"}, [("spec.code.git.repository", "plaintext-credential")]),
    ({"repository": "ssh://git:pw@g.example.com/r.git"}, [("spec.code.git.repository", "plaintext-credential")]),
    ({"repository": "http://g.example.com/r.git", "secret": "s"},
     [("spec.code.git.repository", "git-credentials-over-http")]),
    ({"repository": "git://g.example.com/r.git", "secret": "s"},
     [("spec.code.git.repository", "git-credentials-over-http")]),
    ({"repository": "http://g.example.com/public.git"}, []),
    ({"repository": "https://g.example.com/r.git", "secret": "s"}, []),
    ({"repository": "git@g.example.com:o/r.git", "secret": "s"}, []),
    ({"repository": "ssh://git@g.example.com/o/r.git", "secret": "s"}, []),
    # a token is often given as the user part (https://ghp_...@github.com/...): refused too
    ({"repository": "https://ghp_abc123@g.example.com/r.git"}, [("spec.code.git.repository", "plaintext-credential")]),
    ({"repository": "HTTPS://g.example.com/r.git", "secret": "s"}, []),
])
def test_git_credentials(git: dict, want: list) -> None:
    got = [(p, c) for p, c, s in findings(spec_of(framework="mpi", code={"git": git}))]
    assert got == want
    assert all(s is Severity.ERROR for _, _, s in findings(spec_of(framework="mpi", code={"git": git})))


def test_plaintext_credential_message_names_a_secret_for_the_job() -> None:
    spec = spec_of(framework="mpi", code={"git": {"repository": "https://g/r.git", "password": "hunter2"}})
    (finding,) = check_spec({"metadata": {"name": "train"}}, spec, VERSION, None)
    assert "kubectl create secret generic train-git" in finding[3] and "code.git.secret: train-git" in finding[3]
    assert "hunter2" not in finding[3], "the message does not repeat the credential"


@pytest.mark.parametrize("name, value, credential", [
    ("GOOGLE_APPLICATION_CREDENTIALS", "/etc/secrets/user-gcp-sa.json", False),  # the mounted key file's path
    ("AWS_SHARED_CREDENTIALS_FILE", "/root/.aws/credentials", False),
    ("SSH_PRIVATE_KEY", "/home/mpiuser/.ssh/id_rsa", False),
    ("API_KEY", "/key.json", False),
    ("API_KEY", "/ab3xYz", True),  # one part without an extension: may be a secret that starts with a slash
    ("API_KEY", "/a b/c", True),
    ("GOOGLE_APPLICATION_CREDENTIALS", '{"type": "service_account"}', True),  # the key itself
    ("DB_PASSWORD", "hunter2", True),
])
def test_a_file_path_is_not_a_credential(name: str, value: str, credential: bool) -> None:
    from mpigen.credentials import looks_like_credential

    assert looks_like_credential(name, value) is credential
    spec = spec_of(framework="pytorch", env={name: value})
    assert [c for _, c, _ in findings(spec)] == (["plaintext-credential"] if credential else [])


# --- through the pipeline: environments are checked too ---------------------------------------

def test_an_environment_is_checked_and_located_where_it_writes() -> None:
    text = """apiVersion: mpigen.dev/v1alpha1
kind: TrainingJob
metadata: {name: envs}
spec:
  framework: pytorch
  image: i
  command: [python, t.py]
  workers: 1
  environments:
    shared:
      scheduling: {gang: kueue}
"""
    result = compile_specs(load_text(text, "e.yaml"), "e.yaml", Options())
    assert [(d.line, d.column, d.code) for d in result.diagnostics] == [(11, 19, "kueue-queue")]
    assert not result.ok


def test_feature_rules_are_all_wired_into_check_spec() -> None:
    assert fr.FEATURE_RULES and all(callable(rule) for rule in fr.FEATURE_RULES)
    spec = spec_of(framework="tensorflow", slotsPerWorker=1, scheduling={"gang": "kueue", "gpuTopology": True},
                   volumes=[{"mountPath": "/x"}], tensorboard={"logDir": "/nowhere"}, code={})
    assert {c for _, c, _ in findings(spec)} == {"framework-field", "kueue-queue", "gpu-topology", "volume-source",
                                                 "tensorboard-log-dir", "code-source"}
