"""bench/cluster.py: the generated cluster is the same in its JSON and YAML forms, deterministic,
and read by the cluster-file reader as a cluster of its nodes and pods."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from bench.cluster import write_cluster
from mpigen.load.cluster import read_cluster
from mpigen.load.yaml_loader import load_bytes


def test_json_and_yaml_forms_hold_the_same_objects(tmp_path: Path) -> None:
    as_json, as_yaml = write_cluster(tmp_path / "c", 12, 40)
    data = json.loads(as_json.read_text())
    assert yaml.safe_load(as_yaml.read_text()) == data
    assert [item["kind"] for item in data["items"]] == ["Node"] * 12 + ["Pod"] * 40
    again_json, again_yaml = write_cluster(tmp_path / "again", 12, 40)
    assert again_json.read_bytes() == as_json.read_bytes() and again_yaml.read_bytes() == as_yaml.read_bytes()


def test_the_cluster_reader_reads_both_forms_alike(tmp_path: Path) -> None:
    clusters = []
    for path in write_cluster(tmp_path / "c", 12, 40):
        loaded = load_bytes(path.read_bytes(), "cluster")
        assert loaded.diagnostics == []
        cluster, diagnostics = read_cluster(loaded.documents, "cluster")
        assert diagnostics == []
        clusters.append(cluster)
    json_cluster, yaml_cluster = clusters
    assert json_cluster == yaml_cluster
    assert len(json_cluster.nodes) == 12 and json_cluster.bound_pods == len([p for p in json_cluster.pods if p.node])
    assert any(node.taints for node in json_cluster.nodes) and any(node.unschedulable for node in json_cluster.nodes)
