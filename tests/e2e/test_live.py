"""The live cluster as input (`--kube-context`, `--kubeconfig`), against the local cluster.

What mpigen reads live is compared with what it reads from a cluster file of the same objects as
kubectl prints them (`kubectl get RESOURCES -A -o yaml` of every resource mpigen lists that the
cluster serves, and the Volcano scheduler's ConfigMap if it has one): the same Cluster value, and
`mpigen explain` gives the same verdict and findings either way (only the words of where the
Nodes come from differ). The objects are read again after mpigen read them, and the comparison is
retried when something changed in between.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from mpigen.kube import read_live
from mpigen.kube.resources import RESOURCES
from tests.e2e.conftest import FIGURES, Kube
from tests.fake_apiserver import content, from_file

CONTEXT = "mpigen-local"  # cluster/objects.py kubeconfig_file
TRIES = 3


def served(kube: Kube) -> list[str]:
    """The resources mpigen lists that the cluster serves, as kubectl names them."""
    names = set(kube.kubectl("api-resources", "-o", "name").stdout.split())
    return [r.qualified for r in RESOURCES if r.qualified in names and r.verb == "list"]


def snapshot(kube: Kube, resources: list[str]) -> str:
    """The lists, and the objects mpigen gets by name that exist (the Volcano scheduler's ConfigMap)."""
    text = kube.kubectl("get", ",".join(resources), "-A", "-o", "yaml").stdout
    for r in RESOURCES:
        if r.name and r.with_group in {name.partition(".")[2] for name in resources}:
            got = kube.kubectl("get", r.qualified, r.name, "-n", r.namespace, "-o", "yaml", check=False)
            text += "---\n" + got.stdout if got.returncode == 0 else ""
    return text


def spec(namespace: str) -> dict:
    return {"apiVersion": "mpigen.dev/v1alpha1", "kind": "TrainingJob",
            "metadata": {"name": "live-fits", "namespace": namespace},
            "spec": {"framework": "mpi", "image": "mpioperator/tensorflow-benchmarks:latest",
                     "command": ["python", "train.py"], "workers": 4,
                     "resources": {"gpu": 8, "cpu": "16", "memory": "64Gi"},
                     "mpi": {"launcher": {"resources": {"cpu": "1", "memory": "1Gi"}}},
                     "scheduling": {"gang": "volcano"}}}


def test_the_live_cluster_is_the_file_of_its_objects(kube: Kube, tmp_path: Path) -> None:
    resources = served(kube)
    assert {"nodes", "pods", "priorityclasses.scheduling.k8s.io", "queues.scheduling.volcano.sh"} <= set(resources)
    for _ in range(TRIES):
        before = snapshot(kube, resources)
        found, diagnostics = read_live(str(kube.kubeconfig), CONTEXT, {})
        after = snapshot(kube, resources)
        expected, _ = from_file(before)
        if content(expected) == content(from_file(after)[0]):
            break
    assert content(found) == content(expected)
    assert found.nodes and found.origin.context == CONTEXT and found.origin.pods_listed
    assert [d.format() for d in diagnostics if d.code == "cluster-forbidden"] == []
    FIGURES.append(f"the live cluster read as the file of its {len(resources)} kinds of objects: 1/1 equal")


def test_explain_live_equals_explain_with_the_cluster_file(kube: Kube, tmp_path: Path) -> None:
    resources = served(kube)
    path = tmp_path / "job.yaml"
    path.write_text(yaml.safe_dump(spec(kube.namespaces["volcano"])))
    for _ in range(TRIES):
        before = snapshot(kube, resources)
        (tmp_path / "cluster.yaml").write_text(before)
        by_name = kube.mpigen("explain", str(path), "--kube-context", CONTEXT, "--kubeconfig", str(kube.kubeconfig))
        by_env = kube.mpigen("explain", str(path), "--kube-context", CONTEXT)  # $KUBECONFIG
        by_file = kube.mpigen("explain", str(path), "--cluster", str(tmp_path / "cluster.yaml"))
        if content(from_file(before)[0]) == content(from_file(snapshot(kube, resources))[0]):
            break
    assert by_name.returncode == by_env.returncode == by_file.returncode == 0, by_name.stderr + by_file.stderr
    assert (by_name.stdout, by_name.stderr) == (by_env.stdout, by_env.stderr)
    nodes = len(kube.get("nodes")["items"])
    assert f"On the {nodes} nodes of context {CONTEXT} (" in by_name.stdout, by_name.stdout
    assert "the gang fits" in by_name.stdout
    assert by_name.stdout.replace(f"the {nodes} nodes of context {CONTEXT}", f"the cluster file's {nodes} nodes") \
        .replace("no Pod is bound to them", "the Pods on them are not in the file") \
        .replace(f"the cluster of context {CONTEXT}'s", "the cluster file's") == by_file.stdout
    at_line = re.escape(str(tmp_path / "cluster.yaml")) + r":\d+:\d+: "
    file_lines = sorted(re.sub(r"\(items\[\d+\]\.", "(", re.sub(r" \(items\[\d+\]\)$", "", re.sub(at_line, "", line)))
                        for line in by_file.stderr.splitlines())
    live_lines = sorted(re.sub(rf"^context {CONTEXT}: \S+( -n \S+)?: ", "", line)
                        .replace(f"the cluster of context {CONTEXT}'s", "the cluster file's")
                        for line in by_name.stderr.splitlines() if "cluster-not-served" not in line)
    assert live_lines == file_lines
