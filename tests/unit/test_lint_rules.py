"""The lint rules, case by case, and the rule modules' contract.

Cases live in ``tests/cases/lint/<code>/``: ``bad*.yaml`` triggers the rule, its first lines
``# expect: <code> <json.path>`` name every finding of that rule (as ``format_path`` prints the
path); ``good*.yaml`` is a near-identical manifest that must produce no finding of any rule. A
``# options: {...}`` line gives LintOptions fields as JSON (``gang``, ``scheduler_name``,
``priority_classes``, ``operator_version``). Every other leading ``#`` line describes the case.
"""

from __future__ import annotations

import copy
import importlib
import json
import re
from pathlib import Path

import pytest
import yaml

from mpigen.config import DISABLE_ANNOTATION
from mpigen.diagnostics import Severity, format_path
from mpigen.lint.base import LintOptions, load_rules
from mpigen.lint.catalogue import render_markdown
from mpigen.lint.rules import RULE_MODULES
from mpigen.lint.runner import lint_object
from mpigen.load.cluster import priority_classes
from mpigen.load.yaml_loader import load_text
from mpigen.validation import prune_nulls  # what the API server stores, and the runner is given
from mpigen.versions import OperatorVersion
from tests.odd_shapes import replaced, subpaths

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "cases" / "lint"
GOLDEN = ROOT / "golden"
KNOWN_KINDS = {"MPIJob", "PyTorchJob", "TFJob", "Deployment", "Service", "ConfigMap", "Secret", "PriorityClass",
               "PodGroup", "Queue", "Workload",  # the kinds mpigen has schemas for
               "TrainJob", "TrainingRuntime", "ClusterTrainingRuntime"}  # Kubeflow Trainer v2.3.0
RULES = load_rules()
CODES = {rule.code for rule in RULES}


def load_case(path: Path) -> tuple[dict, set[tuple[str, str]], LintOptions]:
    text = path.read_text("utf-8")
    expected: set[tuple[str, str]] = set()
    options: dict = {}
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        if line.startswith("# expect:"):
            code, _, where = line[len("# expect:"):].strip().partition(" ")
            expected.add((code, where.strip()))
        elif line.startswith("# options:"):
            options = json.loads(line[len("# options:"):])
    if "operator_version" in options:
        options["operator_version"] = OperatorVersion.parse(options["operator_version"])
    loaded = load_text(text, str(path))
    assert not loaded.diagnostics, [d.format() for d in loaded.diagnostics]
    assert len(loaded.documents) == 1, f"{path}: one manifest per case"
    return prune_nulls(loaded.documents[0].data), expected, LintOptions(**options)


def cases(prefix: str) -> list[Path]:
    return sorted(CASES.glob(f"*/{prefix}*.yaml"))


def case_id(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def findings(obj: dict, options: LintOptions = LintOptions(), disabled: frozenset[str] = frozenset()):
    return [(code, format_path(path), severity, message)
            for path, code, severity, message in lint_object(obj, options, disabled)]


# ---------------------------------------------------------------- the cases


@pytest.mark.parametrize("path", cases("bad"), ids=case_id)
def test_bad_case(path: Path) -> None:
    code = path.parent.name
    obj, expected, options = load_case(path)
    assert expected, f"{path}: no '# expect:' line"
    assert {c for c, _ in expected} == {code}, f"{path}: expectations must name the folder's rule"
    got = [f for f in findings(obj, options) if f[0] == code]
    assert {(c, p) for c, p, _, _ in got} == expected, "\n".join(m for *_, m in got)
    rule = next(r for r in RULES if r.code == code)
    for _, _, severity, message in got:
        assert severity is rule.severity
        assert message and message == message.strip() and not message.endswith(".")


@pytest.mark.parametrize("path", cases("good"), ids=case_id)
def test_good_case(path: Path) -> None:
    obj, expected, options = load_case(path)
    assert not expected, f"{path}: a good case expects nothing"
    assert findings(obj, options) == []


def test_an_mpijobs_overwritten_dns_policy_is_said_once() -> None:
    """mpi-operator replaces a hostNetwork pod's dnsPolicy: host-network-dns says so, and pod-spec
    does not also ask for the dnsConfig that the None written there would need."""
    obj, _, options = load_case(CASES / "host-network-dns" / "bad-mpijob.yaml")
    assert [code for code, *_ in findings(obj, options)] == ["host-network-dns"]


def test_a_hostname_error_says_what_is_wrong_with_the_name() -> None:
    obj, _, options = load_case(CASES / "hostname" / "bad-digit.yaml")
    [(_, _, _, message)] = [f for f in findings(obj, options) if f[0] == "hostname"]
    assert message.startswith("the job name '1mnist' starts with '1', not a letter: it gives pods hostnames such "
                              "as '1mnist-master-0', which must be DNS-1035 labels")


def test_an_mpijob_v1_says_whose_api_it_is_and_what_migrate_gives() -> None:
    """Not only "the training-operator's legacy MPIJob": mpi-operator's own v1 too, served still by
    the training-operator, refused by mpi-operator v0.4.0 and later; migrate gives v2beta1."""
    obj, _, options = load_case(CASES / "legacy-api-version" / "bad-mpijob-v1.yaml")
    [(_, _, _, message)] = [f for f in findings(obj, options) if f[0] == "legacy-api-version"]
    assert message.startswith("MPIJob kubeflow.org/v1 is mpi-operator's API up to v0.3.0 and the MPIJob the "
                              "training-operator (v1.9) still serves and runs: a cluster running mpi-operator v0.8.2 "
                              "serves MPIJob only as kubeflow.org/v2beta1 (the same CRD name) and rejects it; run "
                              "`mpigen migrate` to rewrite it as kubeflow.org/v2beta1 for mpi-operator"), message
    assert message.endswith("(annotation mpigen.dev/disable: legacy-api-version)")
    [(_, _, _, legacy)] = findings(obj, LintOptions(operator_version=OperatorVersion.parse("v0.4.x")))
    assert "a cluster running mpi-operator v0.4.0 serves MPIJob only as kubeflow.org/v2beta1" in legacy
    kept = copy.deepcopy(obj)
    kept["metadata"]["annotations"] = {DISABLE_ANNOTATION: "legacy-api-version"}
    assert findings(kept, options) == []


@pytest.mark.parametrize("labels, asks, want", [
    (None, False, Severity.INFO),  # the namespace is not known: a note
    (None, True, Severity.WARNING),  # a template asks for a sidecar
    ({"istio-injection": "enabled"}, False, Severity.WARNING),
    ({"istio.io/rev": "1-24"}, False, Severity.WARNING),  # a revision label, no istio-injection
    ({"istio-injection": "disabled", "istio.io/rev": "1-24"}, False, None),  # istio-injection wins
    ({"istio-injection": "disabled"}, True, None),  # nothing is injected there, whatever a pod asks
    ({}, False, None),  # known, and no injection
    ({}, True, Severity.WARNING),  # the pod label selects the pod in a namespace without a label
])
def test_istio_sidecar_severity_comes_from_what_is_known_of_the_namespace(labels, asks, want) -> None:
    from mpigen.lint.rules.istio_sidecar import severity

    assert severity(labels, asks) is want


def test_istio_sidecar_is_one_finding_per_job_a_note_where_the_namespace_is_not_known() -> None:
    """It was a warning per pod template (74 on 41 of 67 upstream job files)."""
    obj, _, _ = load_case(CASES / "istio-sidecar" / "bad-job-metadata.yaml")  # Master and Worker without it
    [(code, path, severity, message)] = [f for f in findings(obj) if f[0] == "istio-sidecar"]
    assert severity is Severity.INFO
    assert path == 'spec.pytorchReplicaSpecs.Master.template.metadata.annotations["sidecar.istio.io/inject"]'
    assert message.startswith('the Master and Worker pod templates do not set sidecar.istio.io/inject: "false"')
    assert "if namespace 'default' has Istio injection" in message
    injected = LintOptions(namespaces={"default": {"istio-injection": "enabled"}, "other": {}})
    [(_, _, severity, message)] = [f for f in findings(obj, injected) if f[0] == "istio-sidecar"]
    assert severity is Severity.WARNING and "namespace 'default' has Istio injection (istio-injection: enabled)" in message
    elsewhere = copy.deepcopy(obj)
    elsewhere["metadata"]["namespace"] = "other"
    assert [f for f in findings(elsewhere, injected) if f[0] == "istio-sidecar"] == []
    elsewhere["metadata"]["namespace"] = "unlisted"  # the cluster file does not say: not known
    assert [f[2] for f in findings(elsewhere, injected) if f[0] == "istio-sidecar"] == [Severity.INFO]


def test_an_mpijob_without_workers_is_told_to_set_worker_replicas_not_np_0() -> None:
    obj, _, options = load_case(CASES / "slots-np-mismatch" / "bad-no-workers.yaml")
    [(_, _, _, message)] = [f for f in findings(obj, options) if f[0] == "slots-np-mismatch"]
    assert message == ("mpirun asks for 2 ranks but the MPIJob has no workers (Worker replicas is unset, and defaults "
                       "to 0), so the hostfile has no slots; set Worker replicas to 2")
    obj["spec"]["slotsPerWorker"] = 4
    obj["spec"]["mpiReplicaSpecs"]["Worker"]["replicas"] = 0
    obj["spec"]["mpiReplicaSpecs"]["Launcher"]["template"]["spec"]["containers"][0]["command"][2] = "6"
    [(_, _, _, message)] = [f for f in findings(obj, options) if f[0] == "slots-np-mismatch"]
    assert message.endswith("(Worker replicas is 0), so the hostfile has no slots; set Worker replicas to 2 "
                            "(× slotsPerWorker 4 = 8 slots)"), message


def test_every_rule_has_bad_and_good_cases() -> None:
    folders = {p.name for p in CASES.iterdir() if p.is_dir()}
    assert folders == CODES, "a case folder per rule code, and no other"
    for code in CODES:
        assert list((CASES / code).glob("bad*.yaml")), f"{code}: no bad case"
        assert list((CASES / code).glob("good*.yaml")), f"{code}: no good case"


# ---------------------------------------------------------------- the modules


@pytest.mark.parametrize("name", RULE_MODULES)
def test_rule_module_contract(name: str) -> None:
    module = importlib.import_module(f"mpigen.lint.rules.{name}")
    assert isinstance(module.CODE, str) and re.fullmatch(r"[a-z]+(-[a-z0-9]+)*", module.CODE)
    assert module.CODE.replace("-", "_") == name, "module named after its code"
    assert isinstance(module.SEVERITY, Severity)
    assert isinstance(module.KINDS, tuple) and module.KINDS and set(module.KINDS) <= KNOWN_KINDS
    assert callable(module.check)
    doc = module.__doc__ or ""
    paragraphs = [p.strip() for p in doc.strip().split("\n\n")]
    assert len(paragraphs) >= 3, "title line, explanation paragraph(s), Fix: paragraph"
    assert "\n" not in paragraphs[0] and paragraphs[0], "a one-line title"
    assert not any(p.startswith("Fix:") for p in paragraphs[1:-1]) and paragraphs[1]
    assert paragraphs[-1].startswith("Fix:") and len(paragraphs[-1]) > len("Fix: ")


def test_rule_codes_are_unique_and_loaded_in_order() -> None:
    assert [r.code.replace("-", "_") for r in RULES] == list(RULE_MODULES)
    assert len(CODES) == len(RULES)
    for rule in RULES:
        assert rule.title and rule.explanation and rule.fix and "Fix:" not in rule.explanation


# ---------------------------------------------------------------- mpigen's own outputs


def golden_files() -> list[Path]:
    return sorted(p for p in GOLDEN.glob("*/*.yaml") if p.name != "case.yaml")


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_golden_mpijobs_are_clean(path: Path) -> None:
    case = yaml.safe_load((path.parent / "case.yaml").read_text("utf-8")) or {}
    cluster = None
    if case.get("cluster"):
        cluster_file = ROOT / case["cluster"]
        cluster, problems = priority_classes(load_text(cluster_file.read_text("utf-8"), str(cluster_file)).documents,
                                             str(cluster_file))
        assert not problems
    documents = [d.data for d in load_text(path.read_text("utf-8"), str(path)).documents if d.data]
    assert documents
    # A TrainJob names the TrainingRuntime written beside it, as validate finds it in the same file.
    from mpigen.load.trainer_runtimes import default_runtimes, with_runtimes

    runtimes = with_runtimes(default_runtimes(), documents)
    own = LintOptions(priority_classes=cluster, trainer_runtimes=runtimes,
                      operator_version=OperatorVersion.parse(case.get("operatorVersion", "v0.8.2")))
    for obj in documents:
        assert findings(prune_nulls(obj), LintOptions(trainer_runtimes=runtimes)) == [], "default LintOptions"
        assert findings(prune_nulls(obj), own) == [], "the golden case's own options"


# ---------------------------------------------------------------- switching rules off


def with_annotation(obj: dict, value: str) -> dict:
    obj = copy.deepcopy(obj)
    obj.setdefault("metadata", {}).setdefault("annotations", {})[DISABLE_ANNOTATION] = value
    return obj


@pytest.mark.parametrize("path", cases("bad"), ids=case_id)
def test_disable_annotation_and_argument(path: Path) -> None:
    code = path.parent.name
    obj, _, options = load_case(path)
    assert any(f[0] == code for f in findings(obj, options))
    for value in (code, f"some-other-code, {code}"):
        assert not any(f[0] == code for f in findings(with_annotation(obj, value), options))
    assert findings(with_annotation(obj, "all"), options) == []
    assert not any(f[0] == code for f in findings(obj, options, disabled=frozenset({code})))
    others = {f[0] for f in findings(obj, options)} - {code}
    assert {f[0] for f in findings(with_annotation(obj, code), options)} == others, "only that code goes"


# ---------------------------------------------------------------- odd shapes


ODD_VALUES = ("text", 7, True, [], {}, [None])


SHAPE_CASES = [CASES / "min-resources-mismatch" / "bad-priority.yaml", CASES / "slots-np-mismatch" / "bad-shell.yaml",
               CASES / "launcher-wait-gang-deadlock" / "bad-scheduler-plugins.yaml",
               CASES / "plaintext-credential" / "bad.yaml", CASES / "host-network-dns" / "bad.yaml",
               CASES / "hostname" / "bad-evaluator.yaml", CASES / "ssh-path-non-root" / "bad-container.yaml",
               CASES / "pod-volumes" / "bad.yaml", CASES / "pod-env" / "bad.yaml", CASES / "pod-security" / "bad.yaml",
               CASES / "pod-scheduling" / "bad.yaml", CASES / "pod-spec" / "bad-deployment.yaml",
               CASES / "trainjob-patch-target-missing" / "bad.yaml", CASES / "trainer-volcano-priority-class" / "bad.yaml",
               CASES / "trainer-depends-on-gang-deadlock" / "bad.yaml",
               CASES / "trainer-limit-only-resource" / "bad-runtime.yaml", CASES / "trainjob-runtime-missing" / "bad.yaml",
               CASES / "object-meta" / "bad.yaml", CASES / "object-meta" / "bad-owners.yaml",
               CASES / "deployment-spec" / "bad.yaml", CASES / "service-spec" / "bad.yaml",
               CASES / "service-spec" / "bad-types.yaml", CASES / "config-data" / "bad.yaml",
               CASES / "config-data" / "bad-secret.yaml", CASES / "priority-class-spec" / "bad.yaml"]


@pytest.mark.parametrize("path", SHAPE_CASES, ids=case_id)
def test_rules_survive_odd_shapes(path: Path) -> None:
    """Every node replaced by a value of another type: rules yield what they can, never raise."""
    obj, _, options = load_case(path)
    for where in list(subpaths(obj))[1:]:
        for value in ODD_VALUES:
            for gang in (options, LintOptions(gang="volcano"), LintOptions(gang="scheduler-plugins")):
                for path_, code, severity, message in lint_object(replaced(obj, where, value), gang):
                    assert isinstance(path_, tuple) and code in CODES and isinstance(message, str)


# ---------------------------------------------------------------- the catalogue


def test_docs_rules_md_is_generated_from_the_rules() -> None:
    docs = ROOT / "docs" / "rules.md"
    assert docs.is_file() and docs.read_text("utf-8") == render_markdown(load_rules()), (
        "docs/rules.md is out of date: run `python -m mpigen.lint.catalogue > docs/rules.md`")


def test_catalogue_names_every_rule_and_how_to_disable_it() -> None:
    text = render_markdown(RULES)
    for rule in RULES:
        assert f"## `{rule.code}`" in text
        assert f'{DISABLE_ANNOTATION}: "{rule.code}"' in text
        assert f"disable: [{rule.code}]" in text
        assert rule.fix in text and rule.title in text


# ---------------------------------------------------------------- the command readers


@pytest.mark.parametrize("words, expected", [
    (["/usr/sbin/sshd", "-De"], True),
    (["tini", "--", "/usr/sbin/sshd", "-D"], True),
    (["env", "A=1", "/usr/sbin/sshd", "-De"], True),
    (["sh", "-c", "service ssh start && sleep infinity"], True),
    (["/etc/init.d/ssh", "start"], True),
    (["bash", "-lc", "mkdir -p /run/sshd\nexec /usr/sbin/sshd -De"], True),
    (["sh", "-c", "bash -c '/usr/sbin/sshd -D'"], True),
    (["sh", "-c", "echo sshd; sleep 1"], False),
    (["sh", "-c", "mkdir -p /run/sshd && sleep infinity"], False),
    (["python", "train.py", "--sshd"], False),
    (["bash", "/start.sh"], None),
    (["/entrypoint.sh"], None),
    (["sh", "-c", "unbalanced ' quote"], None),
])
def test_starts_sshd(words: list[str], expected: bool | None) -> None:
    from mpigen.lint.rules.worker_no_sshd import starts_sshd

    assert starts_sshd(words) is expected


@pytest.mark.parametrize("container, expected", [
    ({"command": ["mpirun", "-np", "4", "a"]}, ("command", "mpirun", "4", None)),
    ({"command": ["mpirun", "--np=4", "a"]}, ("command", "mpirun", "4", None)),
    ({"command": ["mpirun"], "args": ["-n", "2", "a"]}, ("args", "mpirun", "2", None)),
    ({"command": ["mpirun", "-x", "A", "-mca", "btl", "^openib", "-c", "3", "a"]}, ("command", "mpirun", "3", None)),
    ({"command": ["sh", "-c", "cd /x && mpirun -n 4 python a.py"]}, ("command", "mpirun", "4", None)),
    ({"command": ["mpiexec", "-np", "$NP", "a"]}, ("command", "mpirun", "$NP", None)),
    ({"command": ["mpirun", "python", "a.py", "-n", "5"]}, None),
    ({"command": ["horovodrun", "-np", "4", "python", "a.py"]}, ("command", "horovodrun", "4", None)),
    ({"command": ["horovodrun"], "args": ["--num-proc=8", "--hostfile", "/etc/mpi/hostfile", "python", "a.py"]},
     ("args", "horovodrun", "8", "hostfile:/etc/mpi/hostfile")),
    ({"command": ["horovodrun", "--start-timeout", "60", "-H", "a:2,b:2", "-np", "4", "python", "a.py"]},
     ("command", "horovodrun", "4", "a:2,b:2")),
    ({"command": ["sh", "-c", "horovodrun -np 2 -hostfile /etc/mpi/hostfile python a.py -np 9"]},
     ("command", "horovodrun", "2", "hostfile:/etc/mpi/hostfile")),
    ({"command": ["horovodrun", "python", "a.py", "-np", "5"]}, None),
    ({"command": []}, None),
])
def test_find_np(container: dict, expected) -> None:
    from mpigen.lint.rules.slots_np_mismatch import find_np

    found = find_np(container)
    assert (found and (found[0], found[1].tool, found[1].count, found[1].hosts)) == expected
