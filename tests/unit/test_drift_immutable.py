"""mpigen.drift.immutable: the fields the API server refuses to change on a live object."""

from __future__ import annotations

import copy

import pytest

from mpigen.drift.immutable import (ANY_KEY, FIXED, FIXED_STRING, NO_ADDING, NO_REMOVAL, SET_ONCE, ImmutableField,
                                    MapItems, UnknownRule, correlated_paths, fields_for, immutable_fields, lookup, schema_fields)
from mpigen.spec.schema import load_schema

QUEUE = ("spec", "runPolicy", "schedulingPolicy", "queue")
ABSENT = object()


def entries(api_version: str, kind: str) -> dict[tuple[str, ...], list[ImmutableField]]:
    out: dict[tuple[str, ...], list[ImmutableField]] = {}
    for entry in fields_for(api_version, kind):
        out.setdefault(entry.path, []).append(entry)
    return out


@pytest.mark.parametrize("kind", ["PyTorchJob", "TFJob"])
def test_the_training_jobs_queue_is_set_once_by_their_crd(kind: str) -> None:
    (queue,) = entries("kubeflow.org/v1", kind)[QUEUE]
    assert queue.mode == SET_ONCE
    assert queue.json_path == "spec.runPolicy.schedulingPolicy.queue"
    assert queue.origin == "github.com/kubeflow/training-operator v1.9.4"
    assert queue.source == f"manifests/base/crds/kubeflow.org_{kind.lower()}s.yaml x-kubernetes-validations"
    assert queue.rule == "the CRD's validation rule 'self == oldSelf'"
    assert not queue.condition


def _schema_at(schema: dict, path: tuple[str, ...]) -> dict:
    node = schema
    for part in path:
        node = node["properties"][part]
    return node


def _table_from(schemas: dict[str, dict]) -> list[ImmutableField]:
    lock = load_schema("lock.json")
    return schema_fields(lock, lambda name: schemas.get(name) or load_schema(name))


def test_the_crd_entries_are_read_from_the_schemas_not_written_down() -> None:
    pytorch = copy.deepcopy(load_schema("kubeflow.org/pytorchjob_v1.json"))
    del _schema_at(pytorch, QUEUE)["x-kubernetes-validations"]
    mpijob = copy.deepcopy(load_schema("kubeflow.org/mpijob_v2beta1.json"))
    slots = _schema_at(mpijob, ("spec", "slotsPerWorker"))
    slots["x-kubernetes-validations"] = [{"rule": "self == oldSelf", "message": "immutable"},
                                         {"rule": "self >= 0", "message": "not a transition rule"}]
    table = _table_from({"kubeflow.org/pytorchjob_v1.json": pytorch, "kubeflow.org/mpijob_v2beta1.json": mpijob})
    found = {(e.kind, e.path) for e in table if e.group == "kubeflow.org"}
    assert found == {("TFJob", QUEUE), ("MPIJob", ("spec", "slotsPerWorker"))}
    (slots_entry,) = [e for e in table if e.kind == "MPIJob"]
    assert slots_entry.origin == "github.com/kubeflow/mpi-operator v0.8.2" and slots_entry.mode == SET_ONCE


def test_a_rule_under_a_map_matches_every_key() -> None:
    tfjob = copy.deepcopy(load_schema("kubeflow.org/tfjob_v1.json"))
    replica = _schema_at(tfjob, ("spec", "tfReplicaSpecs"))["additionalProperties"]
    replica["properties"]["restartPolicy"]["x-kubernetes-validations"] = [{"rule": "oldSelf == self"}]
    table = _table_from({"kubeflow.org/tfjob_v1.json": tfjob})
    assert ("TFJob", ("spec", "tfReplicaSpecs", ANY_KEY, "restartPolicy")) in {(e.kind, e.path) for e in table}


@pytest.mark.parametrize("rule", [{"rule": "self >= oldSelf"}, {"rule": "self == oldSelf", "optionalOldSelf": True},
                                  {"rule": "!has(oldSelf.queue) || has(self.queue)"}])
def test_a_transition_rule_not_understood_stops_the_table(rule: dict) -> None:
    pytorch = copy.deepcopy(load_schema("kubeflow.org/pytorchjob_v1.json"))
    _schema_at(pytorch, ("spec", "runPolicy"))["x-kubernetes-validations"] = [rule]
    with pytest.raises(UnknownRule, match="spec.runPolicy"):
        _table_from({"kubeflow.org/pytorchjob_v1.json": pytorch})


def test_a_transition_rule_inside_atomic_list_items_stops_the_table() -> None:
    pytorch = copy.deepcopy(load_schema("kubeflow.org/pytorchjob_v1.json"))
    replica = _schema_at(pytorch, ("spec", "pytorchReplicaSpecs"))["additionalProperties"]
    args = _schema_at(replica, ("template", "spec", "containers"))["items"]["properties"]["args"]
    args["items"]["x-kubernetes-validations"] = [{"rule": "self == oldSelf"}]
    with pytest.raises(UnknownRule, match="not a list-map"):
        _table_from({"kubeflow.org/pytorchjob_v1.json": pytorch})


def test_a_transition_rule_inside_list_map_items_correlates_them_by_key() -> None:
    """TrainJob's runtimePatches (a list-map keyed by manager): each patch's manager is immutable."""
    (manager,) = entries("trainer.kubeflow.org/v1alpha1", "TrainJob")[
        ("spec", "runtimePatches", MapItems(("manager",)), "manager")]
    assert manager.mode == SET_ONCE and manager.json_path == "spec.runtimePatches[manager=*].manager"
    old = {"spec": {"runtimePatches": [{"manager": "a", "x": 1}, {"manager": "b", "x": 2}]}}
    new = {"spec": {"runtimePatches": [{"manager": "c"}, {"manager": "b", "x": 3}, {"manager": "a", "x": 1}]}}
    path = ("spec", "runtimePatches", MapItems(("manager",)), "x")
    pairs = list(correlated_paths(old, new, path))
    assert pairs == [(("spec", "runtimePatches", 0, "x"), ("spec", "runtimePatches", 2, "x")),
                     (("spec", "runtimePatches", 1, "x"), ("spec", "runtimePatches", 1, "x"))]
    assert [(lookup(old, a, ABSENT), lookup(new, b, ABSENT)) for a, b in pairs] == [(1, 1), (2, 3)]


def test_every_shipped_schema_rule_is_interpreted() -> None:
    """A schema bump that brings a transition rule of a new shape fails here, not in a user's check."""
    kinds = {(e.group, e.kind) for e in immutable_fields()}
    assert {("jobset.x-k8s.io", "JobSet"), ("trainer.kubeflow.org", "TrainJob"),
            ("kubeflow.org", "PyTorchJob")} <= kinds


def test_mpijob_has_no_crd_rule_and_no_operator_webhook() -> None:
    paths = set(entries("kubeflow.org/v2beta1", "MPIJob"))
    assert paths == {("metadata", "labels", "kueue.x-k8s.io/queue-name"),
                     ("metadata", "labels", "kueue.x-k8s.io/priority-class")}


def test_the_webhooks_and_core_rules() -> None:
    (managed,) = entries("kubeflow.org/v1", "TFJob")[("spec", "runPolicy", "managedBy")]
    assert managed.mode == FIXED and "tfjob_webhook.go" in managed.source
    # PyTorchJob's webhook passes the new object as the old one: it refuses nothing on update
    assert ("spec", "runPolicy", "managedBy") not in entries("kubeflow.org/v1", "PyTorchJob")
    (selector,) = entries("apps/v1", "Deployment")[("spec", "selector")]
    assert selector.origin == "k8s.io/kubernetes v1.35.1" and "ValidateDeploymentUpdate" in selector.source
    assert fields_for("v1", "Service") == ()
    queue_label = entries("kubeflow.org/v1", "PyTorchJob")[("metadata", "labels", "kueue.x-k8s.io/queue-name")]
    assert [e.mode for e in queue_label] == [FIXED_STRING] and "suspended" in queue_label[0].condition
    priority = entries("kubeflow.org/v2beta1", "MPIJob")[("metadata", "labels", "kueue.x-k8s.io/priority-class")]
    assert sorted(e.mode for e in priority) == [NO_ADDING, NO_REMOVAL]


def test_every_entry_names_its_origin_and_source() -> None:
    for entry in immutable_fields():
        assert entry.origin and entry.source and entry.rule, entry


def _entry(mode: str) -> ImmutableField:
    return ImmutableField("g", "K", ("f",), mode, "origin", "source", "rule")


@pytest.mark.parametrize(("mode", "old", "new", "refused"), [
    (SET_ONCE, "a", "b", True), (SET_ONCE, "a", "a", False), (SET_ONCE, ABSENT, "b", False),
    (SET_ONCE, "a", ABSENT, False), (SET_ONCE, 1, True, True),
    (FIXED, ABSENT, "x", True), (FIXED, "x", ABSENT, True), (FIXED, ABSENT, ABSENT, False),
    (FIXED, {"a": 1}, {"a": 1}, False), (FIXED, {"a": 1}, {"a": 2}, True),
    (FIXED_STRING, ABSENT, "", False), (FIXED_STRING, ABSENT, "q", True), (FIXED_STRING, "q", "r", True),
    (FIXED_STRING, "q", "q", False),
    (NO_REMOVAL, "p", ABSENT, True), (NO_REMOVAL, "p", "", True), (NO_REMOVAL, "p", "r", False),
    (NO_REMOVAL, ABSENT, "r", False),
    (NO_ADDING, ABSENT, "p", True), (NO_ADDING, "", "p", True), (NO_ADDING, "p", "r", False),
    (NO_ADDING, "p", ABSENT, False),
])
def test_what_each_mode_refuses(mode: str, old: object, new: object, refused: bool) -> None:
    assert _entry(mode).refuses(old, new, ABSENT) is refused


def test_paths_with_a_wildcard() -> None:
    obj = {"spec": {"r": {"Master": {"p": 1}, "Worker": {}}}}
    assert [a for a, _ in correlated_paths(obj, obj, ("spec", "r", ANY_KEY, "p"))] == [("spec", "r", "Master", "p"),
                                                                                       ("spec", "r", "Worker", "p")]
    assert list(correlated_paths(obj, obj, ("spec", "x"))) == [(("spec", "x"), ("spec", "x"))]
    assert lookup(obj, ("spec", "r", "Master", "p"), ABSENT) == 1
    assert lookup(obj, ("spec", "r", "Worker", "p"), ABSENT) is ABSENT
