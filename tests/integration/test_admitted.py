"""What the API server and the mutating webhooks fill before any check runs: a name made of
``metadata.generateName``, and JobSet v0.12.0's webhook defaults (the cases are
``tests/cases/validate/admitted/``, each valid as the API server sees it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.golden.cases import ROOT, run

CASES = sorted((ROOT / "tests/cases/validate/admitted").glob("*.yaml"))


def test_the_cases_are_there() -> None:
    assert [p.name for p in CASES] == ["generate-name.yaml", "jobset-failure-policy.yaml"]


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_valid_as_the_api_server_sees_them(path: Path) -> None:
    """generateName: PyTorchJob and TFJob had 'metadata.name '' is not a DNS-1035 label'; the
    JobSet's unnamed rules had "missing required field 'name'"."""
    code, out, err = run(["validate", "--strict", "--format", "json", str(path.relative_to(ROOT))])
    assert code == 0 and [d for d in json.loads(out)["diagnostics"] if d["severity"] != "info"] == [], out + err


def _diagnostics(tmp_path: Path, text: str) -> list[dict]:
    path = tmp_path / "job.yaml"
    path.write_text(text)
    code, out, err = run(["validate", "--format", "json", str(path)])
    return [d for d in json.loads(out)["diagnostics"] if d["severity"] == "error"]


def test_a_generated_name_problem_is_said_once_at_generate_name(tmp_path: Path) -> None:
    text = (CASES[0].read_text().split("\n---\n")[0]
            .replace("generateName: pytorch-simple-", "generateName: Pytorch_simple-"))
    found = _diagnostics(tmp_path, text)
    assert [(d["code"], d["path"], d["line"]) for d in found] == [("object-meta", "metadata.generateName", 6)], found
    assert '"Pytorch_simple-"' in found[0]["message"]


def test_a_generated_name_too_long_for_the_pods_says_how_the_name_is_made(tmp_path: Path) -> None:
    prefix = "tfjob-" + "x" * 50 + "-"
    text = CASES[0].read_text().split("\n---\n")[1].replace("generateName: tfjob-", f"generateName: {prefix}")
    found = _diagnostics(tmp_path, text)
    assert [(d["code"], d["path"]) for d in found] == [("hostname", "metadata.generateName")], found
    assert found[0]["message"].endswith("the API server names the object metadata.generateName and 5 random "
                                        "characters (here xxxxx)")
    assert f"'{prefix[:58]}xxxxx-worker-0'" in found[0]["message"]  # the prefix is cut to 58 characters


def test_a_trainingruntime_gets_no_jobset_defaults(tmp_path: Path) -> None:
    """No mutating webhook names a TrainingRuntime's failure policy rules: the CRD refuses them."""
    runtime = (ROOT / "tests/cases/trainjobs/torch-coscheduling.yaml").read_text().split("\n---\n")[0]
    runtime = runtime.replace("  template:\n    spec:\n", "  template:\n    spec:\n      failurePolicy:\n"
                              "        rules:\n        - action: FailJobSet\n", 1)
    found = _diagnostics(tmp_path, runtime)
    assert [(d["code"], d["path"]) for d in found] == [("missing-field", "spec.template.spec.failurePolicy.rules[0]")]


def test_admitted_jobset_is_what_the_jobset_webhook_makes_of_it() -> None:
    """jobSetWebhook.Default at v0.12.0 (pkg/webhooks/jobset_webhook.go lines 111-161), field by
    field; the expected object is written out from that code, not computed."""
    from mpigen.validation.admission import admitted

    jobset = {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet", "metadata": {"name": "js"},
              "spec": {"failurePolicy": {"rules": [{"action": "FailJobSet"},
                                                   {"name": "kept", "action": "RestartJobSet"},
                                                   {"action": "RestartJob", "name": ""}]},
                       "replicatedJobs": [{"name": "a", "template": {"spec": {"template": {"spec": {}}}}},
                                          {"name": "b", "template": {"spec": {"completionMode": "NonIndexed",
                                                                             "template": {"spec": {"restartPolicy": "Never"}}}}}],
                       "network": {"enableDNSHostnames": False},
                       "volumeClaimPolicies": [{"templates": []}]}}
    out, generated = admitted(jobset)
    assert not generated and out is not jobset
    assert out["spec"] == {
        "failurePolicy": {"rules": [{"action": "FailJobSet", "name": "failurePolicyRule0"},
                                    {"name": "kept", "action": "RestartJobSet"},
                                    {"action": "RestartJob", "name": "failurePolicyRule2"}]},
        "replicatedJobs": [{"name": "a", "template": {"spec": {"completionMode": "Indexed",
                                                               "template": {"spec": {"restartPolicy": "OnFailure"}}}}},
                           {"name": "b", "template": {"spec": {"completionMode": "NonIndexed",
                                                               "template": {"spec": {"restartPolicy": "Never"}}}}}],
        "network": {"enableDNSHostnames": False, "publishNotReadyAddresses": True},
        "volumeClaimPolicies": [{"templates": [], "retentionPolicy": {"whenDeleted": "Delete"}}],
        "successPolicy": {"operator": "All"},
        "startupPolicy": {"startupPolicyOrder": "AnyOrder"},
    }
    assert jobset["spec"]["failurePolicy"]["rules"][0] == {"action": "FailJobSet"}  # the input is left as it was


def test_admitted_leaves_other_objects_alone() -> None:
    from mpigen.validation.admission import admitted

    job = {"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": {"name": "a", "generateName": "b-"}}
    assert admitted(job) == (job, False) and admitted(job)[0] is job
    named, generated = admitted({**job, "metadata": {"generateName": "b-"}})
    assert generated and named["metadata"] == {"generateName": "b-", "name": "b-xxxxx"}
