"""A YAML cluster file beyond the YAML reader's limit (mpigen.load.large_cluster) against the YAML
reader: the same cluster, the same diagnostics at the same lines and columns.

:func:`large_cluster.read` is called directly on texts of any size (:func:`large_cluster.load`
sends it only YAML over :data:`MAX_BYTES`): the bench's generated GPU clusters as kubectl prints
them, every YAML file of specs/, golden/ and tests/cases/ read as a cluster file, and texts with
the YAML 1.1 hazards in what the cluster check reads. One real-size case reads a file over the
limit through the command line's path and compares it with the same objects as JSON.
"""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bench import cluster as generated
from mpigen.diagnostics import Diagnostic
from mpigen.load import large_cluster, yaml_loader
from mpigen.load.cluster import Cluster, read_cluster
from mpigen.load.yaml_loader import load_bytes

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted({*ROOT.glob("specs/**/*.yaml"), *ROOT.glob("golden/**/*.yaml"), *ROOT.glob("tests/cases/**/*.yaml")})


def _paths(data: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            out += _paths(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out += _paths(value, path + (i,))
    return out


def comparable(cluster: Cluster, diagnostics: list[Diagnostic]) -> tuple[Cluster, list[Diagnostic]]:
    """The cluster with each runtime's document given by its data and plain scalars (a document of
    the large reader has no positions computed ahead: its finder is tested below)."""
    where = {key: (doc.data, doc.plain, path) for key, (doc, path) in cluster.runtimes.where.items()}
    return replace(cluster, runtimes=replace(cluster.runtimes, where=where)), diagnostics


def same(raw: bytes, name: str = "cluster.yaml") -> None:
    """The large reader and the YAML reader give the same cluster and diagnostics for ``raw``, and
    place every path of what the large reader built where the YAML reader does."""
    got, expected = large_cluster.read(raw, name), load_bytes(raw, name)
    assert got.diagnostics == expected.diagnostics
    assert len(got.documents) == len(expected.documents)
    assert comparable(*read_cluster(got.documents, name)) == comparable(*read_cluster(expected.documents, name))
    for doc, ref in zip(got.documents, expected.documents):
        assert (doc.line, doc.index) == (ref.line, ref.index)
        assert doc.plain == {path: text for path, text in ref.plain.items() if path in doc.plain}
        for path in _paths(doc.data):
            for key in (False, True):
                assert doc.locate(path, key) == ref.locate(path, key), (path, key)
        assert doc.locate(("no", "such", 7)) == ref.locate(("no", "such", 7))


def kubectl_yaml(nodes: int, pods: int, seed: int) -> bytes:
    out = io.StringIO()
    generated.write_yaml(out, nodes, pods, seed)
    return out.getvalue().encode()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_generated_gpu_cluster_as_kubectl_prints_it(seed: int) -> None:
    same(kubectl_yaml(12, 80, seed))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_yaml_file_of_the_repository_read_as_a_cluster_file(path: Path) -> None:
    raw = path.read_bytes()
    got, expected = large_cluster.read(raw, path.name), load_bytes(raw, path.name)
    if any(d.code == "file-too-large" for d in got.diagnostics):  # a tag or an alias, refused
        assert [d.code for d in expected.diagnostics][:1] in (["yaml-tag"], ["yaml-too-large"])
    elif any(d.code == "yaml-syntax" for d in expected.diagnostics):  # each parser says it in its words
        assert [(d.code, d.line) for d in got.diagnostics] == [(d.code, d.line) for d in expected.diagnostics]
    else:
        same(raw, path.name)


HAZARDS = {
    "resolved scalars": """apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: n1
    labels: {a: b, "q": y, on: 1, 1.10: x, zone: é, ~: null-key}
  spec:
    unschedulable: yes
    taints:
    - {key: k, effect: NoSchedule}
    - key: gpu
      value: on
      effect: NoExecute
  status:
    allocatable:
      cpu: 1e3
      memory: "bad-q"
      pods: 0x10
- apiVersion: v1
  kind: Pod
  metadata: {name: p, namespace: x, annotations: {scheduling.k8s.io/group-name: g}}
  spec:
    nodeName: n1
    priority: 0o17
    containers:
    - resources:
        requests: {cpu: "2", memory: lots}
  status:
    phase: Running
""",
    "duplicates and documents": """apiVersion: v1
kind: Node
metadata:
  name: n1
  labels:
    a: b
    a: c
status:
  allocatable:
    cpu: y
    pods: ~
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: high
value: 1000
globalDefault: true
---
---
apiVersion: v1
kind: Secret
metadata: {name: s}
""",
    "nulls, block scalars, odd indentation": """kind: NodeList
apiVersion: v1
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: n2
    labels:
  spec:
    taints: []
  status:
    capacity:
      cpu: |
        4
      memory: >-
        8Gi
      nvidia.com/gpu: '8'
- apiVersion: v1
  kind: Pod
  metadata:
    name: "p2"
    deletionTimestamp: 2026-11-27T00:00:00Z
  spec:
    nodeName: n2
    initContainers:
    -   name: side
        restartPolicy: Always
        resources:
          requests:
            cpu: 1
    containers:
    -   resources:
          limits:
            cpu: 'x'
""",
    "crlf and a byte order mark": "\ufeffapiVersion: v1\r\nkind: Node\r\nmetadata:\r\n  name: n\r\nstatus:\r\n"
                                   "  allocatable:\r\n    cpu: zz\r\n",
    "not an object": "- 1\n- [2]\n---\nplain text\n---\n{kind: NodeList, items: [1, {kind: Node}]}\n",
    "a non-finite number": "kind: Pod\napiVersion: v1\nspec:\n  priority: .inf\n",
    "multi-byte characters before a value": "kind: Node\napiVersion: v1\nmetadata: {name: 'ñø', labels: "
                                            "{é: ü}}\nstatus: {allocatable: {cpu: ñ}}\n",
}


@pytest.mark.parametrize("name", HAZARDS)
def test_yaml_hazards_in_what_the_cluster_check_reads(name: str) -> None:
    same(HAZARDS[name].encode())


@pytest.mark.parametrize("text, what", [
    ("kind: Node\nmetadata:\n  labels: &l {a: b}\n  name: node-1\n", "an anchor or an alias"),
    ("kind: Node\nmetadata:\n  name: *x\n", "an anchor or an alias"),
    ("kind: Node\nmetadata:\n  name: !!str node-1\n", "a tag"),
    ("kind: Node\nmetadata:\n  labels:\n    <<: {a: b}\n  name: node-1\n", "a merge key (<<)"),
])
def test_what_kubectl_never_prints_is_refused_where_it_is_built(text: str, what: str) -> None:
    got = large_cluster.read(text.encode(), "c.yaml")
    assert [(d.code, d.line) for d in got.diagnostics] == [("file-too-large", 3 if "<<" not in text else 4)]
    assert got.diagnostics[0].message.startswith(what) and "-o json" in got.diagnostics[0].message
    assert got.documents == []


def test_a_refused_document_is_left_out_and_the_next_is_read() -> None:
    text = "kind: Node\nmetadata:\n  name: !!str a\n  labels: {b: y}\n---\nkind: Node\nmetadata:\n  name: b\n"
    got = large_cluster.read(text.encode(), "c.yaml")
    assert [(d.code, d.line) for d in got.diagnostics] == [("file-too-large", 3)]
    assert [(doc.index, doc.data["metadata"]["name"]) for doc in got.documents] == [(1, "b")]


def test_what_is_not_built_is_not_checked() -> None:
    """An anchor and a duplicate key in a Pod's managedFields (which the check does not read)."""
    text = ("kind: Pod\napiVersion: v1\nmetadata:\n  name: p\n  managedFields:\n  - &m {manager: a, manager: b}\n"
            "  - *m\nspec:\n  nodeName: node-1\n")
    got = large_cluster.read(text.encode(), "c.yaml")
    assert got.diagnostics == []
    assert got.documents[0].data == {"kind": "Pod", "apiVersion": "v1", "metadata": {"name": "p"},
                                     "spec": {"nodeName": "node-1"}}


def test_a_syntax_error_is_a_diagnostic_and_nothing_is_printed(capfd: pytest.CaptureFixture[str]) -> None:
    got = large_cluster.read(b"kind: Node\nitems: [1, 2\n", "c.yaml")
    assert [(d.code, d.line) for d in got.diagnostics] == [("yaml-syntax", 3)]
    assert got.diagnostics[0].message
    assert capfd.readouterr() == ("", "")


def test_not_utf8_as_the_yaml_reader_says() -> None:
    raw = b"kind: Node\nmetadata:\n  name: n\xff\n"
    assert large_cluster.read(raw, "c.yaml").diagnostics == load_bytes(raw, "c.yaml").diagnostics != []


def test_nesting_is_held_to_the_yaml_readers_depth() -> None:
    raw = b"kind: Secret\ndata: " + b"[" * 300 + b"]" * 300 + b"\n"
    assert [d.code for d in large_cluster.read(raw, "c.yaml").diagnostics] == ["yaml-too-deep"]


def test_load_sends_only_yaml_beyond_the_limit_to_the_large_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    text = kubectl_yaml(2, 3, 0)
    assert large_cluster.load(text, "c.yaml").documents[0]._finder is None  # the YAML reader
    monkeypatch.setattr(yaml_loader, "MAX_BYTES", len(text) - 1)
    beyond = large_cluster.load(text, "c.yaml")
    assert beyond.documents[0]._finder is not None and beyond.diagnostics == []
    json_text = b'{"kind": "List", "apiVersion": "v1", "items": []}' + b" " * len(text)
    assert large_cluster.load(json_text, "c.json").documents[0].data["items"] == []  # the JSON reader


def kubectl_json(nodes: int, pods: int, seed: int) -> bytes:
    out = io.StringIO()
    generated.write_json(out, nodes, pods, seed)
    return out.getvalue().encode()


def same_as_json(raw: bytes, name: str = "cluster.json") -> None:
    """A JSON list read an item at a time, each cut to what the cluster check reads, gives the
    cluster, diagnostics and positions the JSON reader gives for the whole text."""
    got, expected = large_cluster.read_json_list(raw, name), load_bytes(raw, name)
    assert got is not None
    assert got.diagnostics == expected.diagnostics == []
    assert comparable(*read_cluster(got.documents, name)) == comparable(*read_cluster(expected.documents, name))
    (doc,), (ref,) = got.documents, expected.documents
    assert (doc.line, doc.index, doc.has_nulls) == (ref.line, ref.index, ref.has_nulls)
    assert doc.plain == {path: text for path, text in ref.plain.items() if path in doc.plain}
    for path in _paths(doc.data):
        for key in (False, True):
            assert doc.locate(path, key) == ref.locate(path, key), (path, key)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_generated_gpu_cluster_as_kubectl_prints_it_as_json(seed: int) -> None:
    raw = kubectl_json(12, 80, seed)
    same_as_json(raw)
    pods = [item for item in large_cluster.read_json_list(raw, "c.json").documents[0].data["items"]
            if item["kind"] == "Pod"]
    assert pods and all(set(pod) <= set(large_cluster.KEEP["Pod"]) for pod in pods)  # cut
    assert any("status" in item and "conditions" in item["status"]
               for item in load_bytes(raw, "c.json").documents[0].data["items"])  # what was cut


@pytest.mark.parametrize("text", [
    '{"kind": "Pod", "items": [{"kind": "Pod", "spec": {}}]}',  # not a list: read whole
    '{"kind": "List", "items": {"a": 1}}', '{"kind": "NodeList"}',
    # a duplicate key (the YAML reader's to report), where the cut would not even keep it
    '{"kind": "List", "items": [{"kind": "Pod", "metadata": {"managedFields": [{"a": 1, "a": 2}]}}]}',
    '{"kind": "List", "items": [{"kind": "Pod"}]} x', '[{"kind": "List"}]', 'kind: List\nitems: []\n',
])
def test_what_is_not_a_json_list_the_json_reader_reads_is_read_whole(text: str) -> None:
    assert large_cluster.read_json_list(text.encode(), "c.json") is None


def test_other_kinds_in_a_json_list_are_kept_whole() -> None:
    text = ('{"apiVersion": "v1", "kind": "List", "items": [{"kind": "Namespace", "metadata": {"name": "a", '
            '"labels": {"x": "y"}}, "status": {"phase": "Active"}}, {"kind": "Node", "metadata": {"name": "n", '
            '"uid": "u"}, "status": {"allocatable": {"cpu": "4"}, "conditions": []}}, 5, null]}')
    items = large_cluster.read_json_list(text.encode(), "c.json").documents[0].data["items"]
    namespace = {"kind": "Namespace", "metadata": {"name": "a", "labels": {"x": "y"}}, "status": {"phase": "Active"}}
    node = {"kind": "Node", "metadata": {"name": "n"}, "status": {"allocatable": {"cpu": "4"}}}
    assert items == [namespace, node, 5, None]
    same_as_json(text.encode())


def test_load_sends_a_json_list_beyond_the_limit_to_the_item_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = kubectl_json(2, 5, 0)
    whole = large_cluster.load(raw, "c.json")
    monkeypatch.setattr(yaml_loader, "MAX_BYTES", len(raw) - 1)
    cut = large_cluster.load(raw, "c.json")
    assert cut.documents[0].data != whole.documents[0].data  # each Node and Pod cut
    assert comparable(*read_cluster(cut.documents, "c.json")) == comparable(*read_cluster(whole.documents, "c.json"))
    duplicated = raw.replace(b'"kind": "Pod"', b'"kind": "Pod", "kind": "Pod"', 1)
    assert [d.code for d in large_cluster.load(duplicated, "c.json").diagnostics] == ["file-too-large"]


def test_a_real_size_file_reads_as_its_json(tmp_path: Path) -> None:
    """Over the YAML reader's 64 MiB, through the command line's reading: the same cluster as the
    same objects printed as JSON (read by the JSON reader)."""
    json_path, yaml_path = generated.write_cluster(tmp_path / "big", 400, 14_000)
    assert yaml_path.stat().st_size > yaml_loader.MAX_BYTES
    from mpigen.io import ClusterInput, load_cluster

    from_yaml, yaml_diagnostics = load_cluster(ClusterInput(str(yaml_path)))
    from_json, json_diagnostics = load_cluster(ClusterInput(str(json_path)))
    assert yaml_diagnostics == json_diagnostics == []
    assert replace(from_yaml, runtimes=None) == replace(from_json, runtimes=None)
    assert from_yaml.runtimes.objects == from_json.runtimes.objects == {}
    assert len(from_yaml.nodes) == 400 and from_yaml.bound_pods > 10_000
