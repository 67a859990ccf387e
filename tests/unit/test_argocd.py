"""`mpigen argocd`: the argocd-cm ConfigMap is valid YAML, its health checks are the files of
mpigen/gitops/resource_customizations byte for byte, its ignoreDifferences are the rules of
ignore_differences.yaml, kind by kind, and Argo CD reads its keys as group and kind."""

from __future__ import annotations

import os
from pathlib import Path

import yaml

from mpigen.gitops import argocd
from mpigen.main import main

ROOT = Path(__file__).resolve().parents[2]
CUSTOMIZATIONS = ROOT / "mpigen" / "gitops" / "resource_customizations"
SCRIPTS = sorted(CUSTOMIZATIONS.glob("*/*/health.lua"))


def _argocd(capsys, *args: str) -> tuple[int, str]:
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        code = main(["argocd", *args])
    finally:
        os.chdir(cwd)
    out, err = capsys.readouterr()
    assert err == ""
    return code, out


def test_the_configmap_holds_every_script_as_its_file(capsys) -> None:
    code, out = _argocd(capsys)
    assert code == 0
    configmap = yaml.safe_load(out)
    assert {k: configmap[k] for k in ("apiVersion", "kind")} == {"apiVersion": "v1", "kind": "ConfigMap"}
    assert configmap["metadata"]["name"] == "argocd-cm" and configmap["metadata"]["namespace"] == "argocd"
    data = configmap["data"]
    assert list(data) == sorted(data)
    assert len(SCRIPTS) == 7
    health = {key: value for key, value in data.items() if key.startswith("resource.customizations.health.")}
    assert health == {f"resource.customizations.health.{p.parent.parent.name}_{p.parent.name}": p.read_text()
                      for p in SCRIPTS}


def test_the_ignore_differences_are_the_rules_of_each_kind(capsys) -> None:
    _, out = _argocd(capsys)
    data = yaml.safe_load(out)["data"]
    ignored = {key.removeprefix("resource.customizations.ignoreDifferences."): yaml.safe_load(value)
               for key, value in data.items() if key.startswith("resource.customizations.ignoreDifferences.")}
    expected = {}
    for rule in argocd.ignore_rules():
        for kind, expressions in rule.jq.items():
            group, _, name = kind.rpartition("/")
            expected.setdefault(f"{group}_{name}", {"jqPathExpressions": []})["jqPathExpressions"] += expressions
    assert ignored == expected
    assert set(ignored) == {"jobset.x-k8s.io_JobSet", "kubeflow.org_MPIJob", "kubeflow.org_PyTorchJob",
                            "kubeflow.org_TFJob", "scheduling.volcano.sh_PodGroup", "trainer.kubeflow.org_TrainJob"}
    assert len(data) == 7 + 6


def test_argocd_splits_each_key_into_its_group_and_kind(capsys) -> None:
    """Argo CD takes the text after the last "_" of a key as the kind (settings'
    getGroupKindForOverrideKey): no group holds one, no kind either."""
    _, out = _argocd(capsys)
    for key in yaml.safe_load(out)["data"]:
        group, _, kind = key.split(".", 3)[-1].rpartition("_")
        assert "_" not in group and kind in {"JobSet", "MPIJob", "PyTorchJob", "TFJob", "PodGroup", "TrainJob"}, key


def test_the_namespace_is_an_option_and_the_output_is_the_same_bytes(capsys) -> None:
    _, first = _argocd(capsys)
    _, again = _argocd(capsys)
    assert first == again
    code, other = _argocd(capsys, "--namespace", "gitops")
    assert code == 0 and yaml.safe_load(other)["metadata"]["namespace"] == "gitops"
    assert other.replace("namespace: gitops", "namespace: argocd") == first


def test_the_documentation_names_every_rule_and_kind() -> None:
    text = (ROOT / "docs" / "argocd.md").read_text()
    for rule in argocd.ignore_rules():
        assert f"| `{rule.name}` |" in text, rule.name
    for kind in argocd.health_checks():
        assert kind.rpartition("/")[2] in text and kind.rpartition("/")[0] in text, kind
