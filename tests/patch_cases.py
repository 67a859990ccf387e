"""The strategic-merge-patch cases of tests/cases/patch/ (see tests/unit/test_patch.py), shared
by the unit tests and the comparison with kubectl (tests/integration/test_patch_kubectl.py)."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

CASES = Path(__file__).resolve().parent / "cases" / "patch"
KEYS = {"name", "upstream", "type", "strategies", "original", "patch", "expected", "problems", "origins", "kubectl"}


def load_cases() -> list[dict]:
    """Every case, with an ``id`` (file, index, name)."""
    cases = []
    for path in sorted(CASES.glob("*.yaml")):
        for i, doc in enumerate(yaml.safe_load_all(path.read_text(encoding="utf-8"))):
            doc["id"] = f"{path.stem}:{i}:{doc['name']}"
            cases.append(doc)
    return cases


def strategies_of(case: dict) -> dict | None:
    """The types of the case's own strategies file, or None (Kubernetes')."""
    if "strategies" not in case:
        return None
    return json.loads((CASES / f"{case['strategies']}.strategies.json").read_text(encoding="utf-8"))["types"]


def canonical(value) -> str:
    """JSON text in which 1, 1.0 and true differ, as Go's decoded values do; key order aside."""
    return json.dumps(value, sort_keys=True, indent=1)


class RandomTemplates:
    """Random pod templates: containers and init containers with env, ports, mounts and resources;
    volumes of several sources; placement; labels and annotations (tests/unit/test_patch_diff.py,
    tests/integration/test_patch_kubectl.py)."""

    def __init__(self, seed: int):
        import random

        self.random = random.Random(seed)

    def pick(self, items: list, most: int) -> list:
        return self.random.sample(items, self.random.randint(0, min(most, len(items))))

    def chance(self, p: float) -> bool:
        return self.random.random() < p

    def container(self, name: str) -> dict:
        out: dict = {"name": name, "image": self.random.choice(["i1", "i2"])}
        if self.chance(0.5):
            out["command"] = self.pick(["python", "train.py", "--x"], 3)
        if self.chance(0.5):
            out["env"] = [{"name": n, "value": self.random.choice(["1", "2"])} for n in self.pick(["X", "Y", "Z", "W"], 4)]
        if self.chance(0.3):
            out["ports"] = [{"containerPort": p, "name": f"p{p}"} for p in self.pick([80, 81, 82], 3)]
        if self.chance(0.4):
            out["volumeMounts"] = [{"name": n, "mountPath": f"/{n}"} for n in self.pick(["v", "w", "x"], 3)]
        if self.chance(0.4):
            limits = {k: v for k, v in (("cpu", self.random.choice(["1", "2"])), ("memory", "1Gi")) if self.chance(0.7)}
            out["resources"] = {"limits": limits}
            if self.chance(0.5):
                out["resources"]["requests"] = dict(limits)
        if self.chance(0.2):
            out["securityContext"] = {"runAsUser": self.random.choice([0, 1000]),
                                      "capabilities": {"add": self.pick(["IPC_LOCK", "SYS_PTRACE"], 2)}}
        return out

    def template(self) -> dict:
        spec: dict = {"containers": [self.container(n) for n in self.pick(["a", "b", "c"], 3) or ["a"]]}
        if self.chance(0.3):
            spec["initContainers"] = [self.container(n) for n in self.pick(["i", "j"], 2)]
        if self.chance(0.5):
            sources = [{"emptyDir": {}}, {"emptyDir": {"medium": "Memory"}}, {"configMap": {"name": "c"}},
                       {"persistentVolumeClaim": {"claimName": "p"}}]
            spec["volumes"] = [{"name": n, **self.random.choice(sources)} for n in self.pick(["v", "w", "x"], 3)]
        for key, values in (("nodeSelector", [{"pool": "a"}, {"pool": "b", "zone": "z"}]),
                            ("tolerations", [[{"key": "k", "operator": "Exists"}], []]),
                            ("hostNetwork", [True, False]), ("priorityClassName", ["high", "low"])):
            if self.chance(0.3):
                spec[key] = self.random.choice(values)
        template: dict = {"spec": spec}
        if self.chance(0.6):
            template["metadata"] = {k: {n: self.random.choice(["1", "2"]) for n in self.pick(["a", "b", "c"], 3)}
                                    for k in self.pick(["labels", "annotations"], 2)}
        return template
