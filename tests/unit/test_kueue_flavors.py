"""Kueue's flavor assignment and quota tree (``mpigen.scheduler.admission.kueue_flavors``,
``kueue_cohort``), on cases of Kueue v0.19.2's own ``pkg/scheduler/flavorassigner/
flavorassigner_test.go`` (``TestAssignFlavors``), each named after the upstream case: the same
ClusterQueues, usage, PodSets and preemption oracle (``testOracle``: Preempt unless told), and the
same representative mode, flavors, borrowing, usage and status message."""

from __future__ import annotations

from typing import Any

import pytest

from mpigen.operator.quantity import Quantity
from mpigen.scheduler.admission.kueue_cohort import build_tree, lowest_subtree_that_fits
from mpigen.scheduler.admission.kueue_flavors import (FIT, NO_CANDIDATES, NO_FIT, POSSIBLE_PREEMPT, PREEMPT,
                                                      FlavorAssigner, PodSet)
from mpigen.scheduler.admission.kueue_objects import (ClusterQueue, Cohort, FlavorQuotas, Preemption, Quota,
                                                      ResourceFlavor, ResourceGroup, Workload, kueue_amount)
from mpigen.scheduler.nodes import PodShape, Taint

FLAVORS = {f.name: f for f in (
    ResourceFlavor("default"),
    ResourceFlavor("one", {"type": "one"}),
    ResourceFlavor("two", {"type": "two"}),
    ResourceFlavor("tainted", node_taints=(Taint("instance", "spot", "NoSchedule"),)),
    ResourceFlavor("taint_and_toleration", node_taints=(Taint("instance", "spot", "NoSchedule"),),
                   tolerations=({"key": "instance", "operator": "Equal", "value": "spot", "effect": "NoSchedule"},)),
)}


def amount(name: str, text: str) -> int:
    return kueue_amount(name, Quantity.parse(text))


def flavor(name: str, **resources: Any) -> FlavorQuotas:
    """``MakeFlavorQuotas``: a resource's nominal quota, or (nominal, borrowingLimit, lendingLimit)."""
    quotas = {}
    for resource, value in resources.items():
        resource = resource.replace("_", "/") if resource != "pods" else resource
        nominal, borrowing, lending = (value, None, None) if isinstance(value, str) else value
        quotas[resource] = Quota(amount(resource, nominal), None if borrowing is None else amount(resource, borrowing),
                                 None if lending is None else amount(resource, lending))
    return FlavorQuotas(name, quotas)


def queue(name: str, *flavors: FlavorQuotas, cohort: str = "", **kwargs: Any) -> ClusterQueue:
    covered = tuple(dict.fromkeys(r for f in flavors for r in f.resources))
    return ClusterQueue(name, cohort, (ResourceGroup(covered, flavors),), {}, **kwargs)


def podset(name: str, count: int, tolerations: tuple = (), node_selector: dict | None = None,
           affinity: tuple | None = None, **requests: str) -> PodSet:
    parsed = {r: Quantity.parse(v) for r, v in requests.items()}
    shape = PodShape(parsed, node_selector or {}, affinity, tolerations)
    return PodSet(name, count, shape, {r: kueue_amount(r, q) for r, q in parsed.items()})


def usage(cq: str, **used: str) -> Workload:
    """``clusterQueueUsage``: what the ClusterQueue's admitted Workloads hold, flavor_resource=value."""
    held = {}
    for key, value in used.items():
        flavor_name, resource = key.split("__")
        held[(flavor_name, resource)] = amount(resource, value)
    return Workload("ns", f"used-{cq}", cluster_queue=cq, usage=held)


def assign(podsets: list[PodSet], cq: ClusterQueue, secondary: ClusterQueue | None = None,
           workloads: tuple[Workload, ...] = (), simulation: dict | None = None, cohorts: tuple[Cohort, ...] = ()):
    tree = build_tree([cq] + ([secondary] if secondary else []), cohorts, workloads)

    def oracle(fr: tuple[str, str], value: int) -> tuple[str, int]:  # testOracle
        return (simulation or {}).get(fr, (POSSIBLE_PREEMPT, 0))

    return FlavorAssigner(cq, tree.queues[cq.name], FLAVORS, oracle).assign(podsets)


CPU_4 = flavor("default", cpu="4")
CASES = {
    "single flavor, fits": dict(
        podsets=[podset("main", 1, cpu="1", memory="1Mi")], cq=queue("cq", flavor("default", cpu="1", memory="2Mi")),
        mode=FIT, flavors={"main": {"cpu": "default", "memory": "default"}},
        usage={("default", "cpu"): 1000, ("default", "memory"): 2**20}),
    "single flavor, fits tainted flavor": dict(
        podsets=[podset("main", 1, ({"key": "instance", "operator": "Equal", "value": "spot",
                                      "effect": "NoSchedule"},), cpu="1")],
        cq=queue("cq", flavor("tainted", cpu="4")), mode=FIT, flavors={"main": {"cpu": "tainted"}}),
    "single flavor, fits tainted flavor with toleration": dict(
        podsets=[podset("main", 1, cpu="1")], cq=queue("cq", flavor("taint_and_toleration", cpu="4")), mode=FIT,
        flavors={"main": {"cpu": "taint_and_toleration"}}),
    "single flavor, used resources, doesn't fit": dict(
        podsets=[podset("main", 1, cpu="2")], cq=queue("cq", CPU_4), workloads=(usage("cq", default__cpu="3"),),
        mode=PREEMPT, flavors={"main": {"cpu": "default"}},
        message="couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor default, "
                "1 more needed"),
    "multiple flavors, fits while skipping tainted flavor": dict(
        podsets=[podset("main", 1, cpu="3")], cq=queue("cq", flavor("tainted", cpu="4"), flavor("two", cpu="4")),
        mode=FIT, flavors={"main": {"cpu": "two"}}),
    "multiple flavors, fits a node selector": dict(
        podsets=[podset("main", 1, node_selector={"type": "two", "ignored1": "foo"},
                        affinity=({"matchExpressions": [{"key": "ignored2", "operator": "In", "values": ["bar"]}]},),
                        cpu="1")],
        cq=queue("cq", flavor("one", cpu="4"), flavor("two", cpu="4")), mode=FIT, flavors={"main": {"cpu": "two"}}),
    "multiple flavors, doesn't fit node affinity": dict(
        podsets=[podset("main", 1, affinity=({"matchExpressions": [{"key": "type", "operator": "In",
                                                                    "values": ["three"]}]},), cpu="1")],
        cq=queue("cq", flavor("one", cpu="4"), flavor("two", cpu="4")), mode=NO_FIT, flavors={"main": {}},
        message="couldn't assign flavors to pod set main: flavor one doesn't match node affinity, flavor two doesn't "
                "match node affinity"),
    "multiple specs, fits borrowing": dict(
        podsets=[podset("driver", 1, cpu="4", memory="1Gi"), podset("worker", 1, cpu="6", memory="4Gi")],
        cq=queue("cq", flavor("default", cpu=("2", "98", None), memory="2Gi"), cohort="test-cohort"),
        secondary=queue("secondary", flavor("default", cpu="198", memory="198Gi"), cohort="test-cohort"),
        mode=FIT, borrowing=1, flavors={"driver": {"cpu": "default", "memory": "default"},
                                        "worker": {"cpu": "default", "memory": "default"}},
        usage={("default", "cpu"): 10_000, ("default", "memory"): 5 * 2**30}),
    "not enough space to borrow": dict(
        podsets=[podset("main", 1, cpu="2")], cq=queue("cq", flavor("one", cpu="1"), cohort="test-cohort"),
        secondary=queue("secondary", flavor("one", cpu=("10", None, "0")), cohort="test-cohort"),
        workloads=(usage("secondary", one__cpu="9"),), mode=NO_FIT, flavors={"main": {}},
        message="couldn't assign flavors to pod set main: insufficient quota for cpu in flavor one, previously "
                "considered podsets requests (0) + current podset request (2) > maximum capacity (1)"),
    "past max, but can preempt in ClusterQueue": dict(
        podsets=[podset("main", 1, cpu="2")], cq=queue("cq", flavor("one", cpu=("2", "8", None)), cohort="test-cohort"),
        secondary=queue("secondary", flavor("one", cpu="98"), cohort="test-cohort"),
        workloads=(usage("cq", one__cpu="9"), usage("secondary", one__cpu="9")),
        simulation={("one", "cpu"): (POSSIBLE_PREEMPT, 1)}, mode=PREEMPT, borrowing=1, flavors={"main": {"cpu": "one"}},
        message="couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor one, 1 more "
                "needed"),
    "past min, but can preempt in ClusterQueue": dict(
        podsets=[podset("main", 1, cpu="2")], cq=queue("cq", flavor("one", cpu="2")),
        workloads=(usage("cq", one__cpu="1"),), mode=PREEMPT, flavors={"main": {"cpu": "one"}},
        message="couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor one, 1 more "
                "needed"),
    "resource not listed in clusterQueue": dict(
        podsets=[podset("main", 1, **{"example.com/gpu": "2"})], cq=queue("cq", flavor("one", cpu="4")), mode=NO_FIT,
        flavors={"main": {}},
        message="couldn't assign flavors to pod set main: resource example.com/gpu unavailable in ClusterQueue"),
    "num pods fit": dict(
        podsets=[podset("main", 3, cpu="1")], cq=queue("cq", flavor("default", pods="3", cpu="10")), mode=FIT,
        flavors={"main": {"cpu": "default", "pods": "default"}},
        usage={("default", "pods"): 3, ("default", "cpu"): 3000}),
    "num pods don't fit": dict(
        podsets=[podset("main", 3, cpu="1")], cq=queue("cq", flavor("default", pods="2", cpu="10")), mode=NO_FIT,
        flavors={"main": {}},
        message="couldn't assign flavors to pod set main: insufficient quota for pods in flavor default, previously "
                "considered podsets requests (0) + current podset request (3) > maximum capacity (2)"),
    "borrow try next flavor, found the second flavor": dict(
        podsets=[podset("main", 1, cpu="9")],
        cq=queue("cq", flavor("one", pods="10", cpu=("10", "1", None)), flavor("two", pods="10", cpu="10"),
                 cohort="test-cohort", when_can_borrow="TryNextFlavor"),
        secondary=queue("secondary", flavor("one", cpu="1"), cohort="test-cohort"),
        workloads=(usage("cq", one__cpu="2"),), mode=FIT, flavors={"main": {"cpu": "two", "pods": "two"}}),
    "lend try next flavor, found the second flavor": dict(
        podsets=[podset("main", 1, cpu="9")],
        cq=queue("cq", flavor("one", pods="10", cpu=("10", None, "1")), flavor("two", pods="10", cpu=("10", None, "0")),
                 cohort="test-cohort", when_can_borrow="TryNextFlavor"),
        secondary=queue("secondary", flavor("one", cpu="1"), cohort="test-cohort"),
        workloads=(usage("cq", one__cpu="2"),), mode=FIT, flavors={"main": {"cpu": "two", "pods": "two"}},
        usage={("two", "cpu"): 9000, ("two", "pods"): 1}),
    "borrow before try next flavor": dict(  # whenCanBorrow MayStopSearch (the default): the first flavor, borrowing
        podsets=[podset("main", 1, cpu="9")],
        cq=queue("cq", flavor("one", pods="10", cpu=("10", "1", None)), flavor("two", pods="10", cpu="10"),
                 cohort="test-cohort"),
        secondary=queue("secondary", flavor("one", cpu="1"), cohort="test-cohort"),
        workloads=(usage("cq", one__cpu="2"),), mode=FIT, borrowing=1,
        flavors={"main": {"cpu": "one", "pods": "one"}}),
    "cannot preempt in cohort (oracle returns None) for the first flavor, tries the second flavor (which fits)": dict(
        podsets=[podset("main", 1, cpu="2")],
        cq=queue("cq", flavor("one", cpu=("0", "2", None)), flavor("two", cpu=("0", "2", None)), cohort="test-cohort",
                 when_can_borrow="MayStopSearch", when_can_preempt="MayStopSearch",
                 preemption=Preemption(reclaim_within_cohort="LowerPriority", borrow_within_cohort="LowerPriority")),
        secondary=queue("secondary", flavor("one", cpu="2"), flavor("two", cpu="2"), cohort="test-cohort"),
        workloads=(usage("secondary", one__cpu="2"),), simulation={("one", "cpu"): (NO_CANDIDATES, 0)}, mode=FIT,
        borrowing=1, flavors={"main": {"cpu": "two"}}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_assign_flavors(name: str) -> None:
    case = dict(CASES[name])
    found = assign(case.pop("podsets"), case.pop("cq"), case.pop("secondary", None), case.pop("workloads", ()),
                   case.pop("simulation", None))
    assert found.mode() == case.pop("mode")
    assert {ps.name: {r: f.flavor for r, f in ps.flavors.items()} for ps in found.podsets} == case.pop("flavors")
    assert found.borrowing == case.pop("borrowing", 0)
    if "usage" in case:
        assert found.usage == case.pop("usage")
    assert found.message() == case.pop("message", "")
    assert not case


def test_assign_flavors_case_count() -> None:
    assert len(CASES) == 18


# --- the quota tree: pkg/scheduler/preemption/classical FindHeightOfLowestSubtreeThatFits and the
# hierarchical cohorts of pkg/cache/scheduler (a Cohort's parent and its own quota)


def test_borrowing_height_in_a_hierarchy_of_cohorts() -> None:
    """mpigen's own case of ``FindHeightOfLowestSubtreeThatFits`` (the borrowing levels of
    ``TestAssignment_RequiresBorrowing``: 0, 1, 2): a ClusterQueue in cohort left under root, whose
    sibling cohort right holds the spare quota."""
    cq = queue("cq", flavor("default", cpu="2"), cohort="left")
    sibling = queue("other", flavor("default", cpu="1"), cohort="left")
    cohorts = (Cohort("left", "root"), Cohort("right", "root",
                                              (ResourceGroup(("cpu",), (flavor("default", cpu="10"),)),)),
               Cohort("root"))
    tree = build_tree([cq, sibling], cohorts, ())
    node, fr = tree.queues["cq"], ("default", "cpu")
    assert lowest_subtree_that_fits(node, fr, 2000) == (0, True)  # within its nominal quota
    assert lowest_subtree_that_fits(node, fr, 3000) == (1, True)  # its cohort left lends the sibling's 1
    assert lowest_subtree_that_fits(node, fr, 5000) == (2, False)  # only the root, with right's 10
    assert node.available(fr) == 13000 and node.potential_available(fr) == 13000


def test_lending_limit_keeps_quota_from_the_cohort() -> None:
    """resource_node.go: a lendingLimit keeps subtree - lendingLimit local; the cohort gets the rest."""
    lender = queue("lender", flavor("default", cpu=("10", None, "4")), cohort="c")
    borrower = queue("borrower", flavor("default", cpu=("0", "100", None)), cohort="c")
    tree = build_tree([lender, borrower], (), (usage("lender", default__cpu="7"),))
    fr = ("default", "cpu")
    assert tree.cohorts["c"].subtree[fr] == 4000  # the lender's 10 less the 6 it keeps
    assert tree.cohorts["c"].usage[fr] == 1000  # 7 used, 6 of them local
    assert tree.queues["borrower"].available(fr) == 3000
    assert tree.queues["lender"].available(fr) == 3000  # 6 - 6 local, and the cohort's 3


def test_a_cohort_cycle_is_found() -> None:
    tree = build_tree([queue("cq", CPU_4, cohort="a")], (Cohort("a", "b"), Cohort("b", "a")), ())
    assert set(tree.cycle) == {"a", "b"}


def test_flavor_fungibility_and_amounts() -> None:
    """Kueue's amounts: cpu in millicores, the rest as Value() (rounded up); too large is unlimited."""
    assert amount("cpu", "1.5") == 1500 and amount("memory", "1.5") == 2 and amount("nvidia.com/gpu", "8") == 8
    assert amount("memory", "100Ei") == 2**63 - 1
