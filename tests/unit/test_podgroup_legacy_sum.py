"""mpi-operator v0.4.0's scheduler-plugins minResources sum (``podgroup._legacy_sum``).

v0.4.0's ``calculatePGMinResources`` (pkg/controller/podgroup.go@v0.4.0) adds every container's
requests once per replica: ``for rp in order { for i < replicas { for c in containers {
addResources } } }``. ``addResources`` stores a name's first quantity with ``DeepCopy`` (the text
it was parsed from is kept) and ``Add``s the later ones (the text is dropped; a zero sum takes the
addend's format). The expected strings below are worked out by hand from those rules; a literal
port of the Go loop checks the closed form on random small jobs.
"""

from __future__ import annotations

import random

import pytest

from mpigen.operator.podgroup import GANG_SCHEDULER_PLUGINS, calculate_min_resources, new_pod_group
from mpigen.operator.quantity import Quantity
from mpigen.versions import OperatorVersion

V04 = OperatorVersion(0, 4, 0)
V08 = OperatorVersion(0, 8, 0)


def _job(launcher: list[dict | None], worker: list[dict | None] | None, workers: int = 1) -> dict:
    """Each container is given as its requests (None: no resources)."""
    def template(requests_list):
        return {"spec": {"containers": [
            {"name": f"c{i}", "image": "mpi:latest", **({"resources": {"requests": r}} if r is not None else {})}
            for i, r in enumerate(requests_list)]}}

    specs = {"Launcher": {"replicas": 1, "template": template(launcher)}}
    if worker is not None:
        specs["Worker"] = {"replicas": workers, "template": template(worker)}
    return {"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob",
            "metadata": {"name": "job", "namespace": "ml"}, "spec": {"mpiReplicaSpecs": specs}}


def _sum(job: dict, version: OperatorVersion = V04) -> dict[str, str]:
    return {k: str(v) for k, v in calculate_min_resources(None, job, {}, version).items()}


# ------------------------------------------------------------------ the parsed text survives


@pytest.mark.parametrize("raw", ["0356Ki", "09m", "+1", "1.500", "1E3"])
def test_lone_quantity_keeps_its_text(raw):
    # One container of the one-replica Launcher: DeepCopy keeps the text (v0.8.0's Mul drops it).
    job = _job([{"cpu": raw}], [None])
    assert _sum(job) == {"cpu": raw}
    assert _sum(job, V08) != {"cpu": raw}
    assert new_pod_group(job, GANG_SCHEDULER_PLUGINS, version=V04)["spec"]["minResources"] == {"cpu": raw}


def test_lone_quantity_of_a_one_replica_worker_keeps_its_text():
    assert _sum(_job([None], [{"memory": "0356Ki"}], workers=1)) == {"memory": "0356Ki"}


def test_unquoted_float_keeps_go_json_text():
    # YAML 1e21 is a JSON number; Go's UnmarshalJSON parses its text "1e+21" and keeps it.
    assert _sum(_job([{"cpu": 1e21}], [None])) == {"cpu": "1e+21"}


@pytest.mark.parametrize(("launcher", "worker", "workers", "want"), [
    # 2 x 0356Ki = 712Ki: the second Add drops the text.
    ([None], [{"memory": "0356Ki"}], 2, {"memory": "712Ki"}),
    # 09m + 09m from two containers of the Launcher: 18m.
    ([{"cpu": "09m"}, {"cpu": "09m"}], [None], 1, {"cpu": "18m"}),
    # Launcher and Worker both ask: 09m + 1 = 1009m.
    ([{"cpu": "09m"}], [{"cpu": "1"}], 1, {"cpu": "1009m"}),
    # only the name asked once keeps its text
    ([{"cpu": "09m", "memory": "01Gi"}], [{"cpu": "1"}], 1, {"cpu": "1009m", "memory": "01Gi"}),
])
def test_text_dropped_once_added_to(launcher, worker, workers, want):
    assert _sum(_job(launcher, worker, workers)) == want


# ------------------------------------------------------------------ zero partial sums


def test_zero_crossing_takes_the_next_addends_format():
    # 1 + 3 x (-500m, 250e-3): partial sums 1, .5, .75, .25, .5, 0 (before the 3rd 250e-3), .25.
    # The Add to that zero takes 250e-3's DecimalExponent: "250e-3". v0.8.0 (1 + 3*-500m + 3*250e-3,
    # never zero before an addend) keeps DecimalSI: "250m".
    job = _job([{"cpu": "1"}], [{"cpu": "-500m"}, {"cpu": "250e-3"}], workers=3)
    assert _sum(job) == {"cpu": "250e-3"}
    assert _sum(job, V08) == {"cpu": "250m"}


def test_no_zero_crossing_keeps_the_first_format():
    # 1 + 3 x (250e-3, -500m): sums 1, 1.25, .75, 1, .5, .75, .25: never zero, DecimalSI.
    assert _sum(_job([{"cpu": "1"}], [{"cpu": "250e-3"}, {"cpu": "-500m"}], workers=3)) == {"cpu": "250m"}


def test_zero_total_pattern_repeats_the_crossing():
    # 3k + 2 x (-3k, 5e3, -2k): one replica adds 0; the sum before 5e3 is 0 in every replica,
    # so the result 3k has 5e3's DecimalExponent: "3e3" (v0.8.0: "3k").
    job = _job([{"cpu": "3k"}], [{"cpu": "-3k"}, {"cpu": "5e3"}, {"cpu": "-2k"}], workers=2)
    assert _sum(job) == {"cpu": "3e3"}
    assert _sum(job, V08) == {"cpu": "3k"}


def test_binary_format_after_a_crossing():
    # 1Gi + (-1Gi, 1024): 0 before 1024 (DecimalSI), so 1024 stays "1024", not "1Ki".
    assert _sum(_job([{"memory": "1Gi"}], [{"memory": "-1Gi"}, {"memory": "1024"}])) == {"memory": "1024"}
    # and the other way round: 1024 - 1024 + 1Ki = 0 before 1Ki (BinarySI): "1Ki".
    assert _sum(_job([{"memory": "1024"}], [{"memory": "-1024"}, {"memory": "1Ki"}])) == {"memory": "1Ki"}


def test_sum_ending_at_zero_is_written_0():
    assert _sum(_job([{"cpu": "2"}], [{"cpu": "-1"}], workers=2)) == {"cpu": "0"}


# ------------------------------------------------------------------ large replica counts


@pytest.mark.parametrize("workers", [10_000, 2**31 - 1])
def test_crossing_in_the_last_replica(workers):
    # (workers-1)k + workers x (1e3, -2k): the sum before the m-th 1e3 is (workers-1-m)k, zero in the
    # LAST replica (m = workers-1); before -2k it is (workers-m)k, never zero for m < workers.
    # Total -1k, in 1e3's DecimalExponent: "-1e3" (v0.8.0: "-1k").
    job = _job([{"cpu": f"{workers - 1}k"}], [{"cpu": "1e3"}, {"cpu": "-2k"}], workers=workers)
    assert _sum(job) == {"cpu": "-1e3"}
    if workers == 10_000:
        assert _sum(job, V08) == {"cpu": "-1k"}


def test_crossing_one_replica_before_the_last():
    # 9999k + 10,000 x (-2k, 1e3): before -2k: 9999k - m k, zero at m = 9999 (DecimalSI, the last
    # crossing); before 1e3: 9997k - m k, zero at m = 9997. Total -1k: "-1k".
    job = _job([{"cpu": "9999k"}], [{"cpu": "-2k"}, {"cpu": "1e3"}], workers=10_000)
    assert _sum(job) == {"cpu": "-1k"}


def test_cost_does_not_grow_with_replicas(monkeypatch):
    counts = {}
    original = Quantity.add

    def counting_add(self, other):
        counts[workers] = counts.get(workers, 0) + 1
        return original(self, other)

    monkeypatch.setattr(Quantity, "add", counting_add)
    for workers in (2, 10_000):
        _sum(_job([{"cpu": "1", "memory": "1Gi"}], [{"cpu": "-250m", "memory": "512Mi"}, {"cpu": "5e-1"}], workers))
    assert counts[2] == counts[10_000]


# ------------------------------------------------------------------ against a literal Go loop


def _go_loop(job: dict) -> dict[str, str]:
    """v0.4.0's loop as written (Launcher then Worker, equal priorities), one Add per addend."""
    out: dict[str, Quantity] = {}
    for rtype in ("Launcher", "Worker"):
        spec = job["spec"]["mpiReplicaSpecs"][rtype]
        for _ in range(spec["replicas"]):
            for c in spec["template"]["spec"]["containers"]:
                for name, raw in (c.get("resources") or {}).get("requests", {}).items():
                    q = Quantity.parse(raw)
                    out[name] = q if name not in out else out[name].add(q)  # DeepCopy / Add
    return {k: str(v) for k, v in out.items()}


_VALUES = ["0", "1", "-1", "2", "-2", "500m", "-500m", "1e3", "-1e3", "1k", "-1k", "1Ki", "-1Ki",
           "1024", "-1024", "250e-3", "09m", "0356Ki", "2Ki", "-2048"]


@pytest.mark.parametrize("seed", range(300))
def test_closed_form_matches_the_go_loop(seed):
    rnd = random.Random(seed)

    def containers(n):
        return [None if rnd.random() < 0.2 else {name: rnd.choice(_VALUES) for name in ("cpu", "memory")
                                                 if rnd.random() < 0.7} for _ in range(n)]

    job = _job(containers(rnd.randint(1, 3)), containers(rnd.randint(1, 3)), workers=rnd.randint(0, 6))
    assert _sum(job) == _go_loop(job)
