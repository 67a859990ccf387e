"""bench/: the parts of `make bench` that do not time anything (nothing here is timed): the rows'
verdicts and their table, the groups --only selects, what the peers are given (the corpus, the
CRD folder of kubectl-validate) and how their output is read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from bench.measure import Failed, Timing
from bench.peers import (CORPUS, ROOT, Reader, copy_corpus, corpus_kinds, crd_pins, files_read,
                         kubectl_validate, offline_env, write_crds)
import bench.run
from bench.run import GROUPS, Inputs, cluster_rows, parse_args
from bench.table import GrowthRow, Row, report


# ------------------------------------------------------------------------------------ the rows


def test_a_row_beside_a_peer_is_met_within_its_ratio() -> None:
    row = Row("validate", 0.8, 1.0, "kubeconform", 0.8, cpu=(0.7, 1.0), cpu_limit=0.8)
    assert row.met is True
    assert row.line() == ("| validate | 0.800 s | 1.000 s | 0.80x kubeconform | 0.700 s / 1.000 s = 0.70x | "
                          "<= 0.80x wall and CPU | met |")


def test_a_row_over_its_wall_or_cpu_ratio_is_not_met() -> None:
    assert Row("v", 0.81, 1.0, "kubeconform", 0.8).met is False
    over_cpu = Row("v", 0.5, 1.0, "kubeconform", 1.0, cpu=(1.1, 1.0), cpu_limit=1.0)
    assert over_cpu.met is False and over_cpu.line().endswith("| <= 1.00x wall and CPU | NOT MET |")


def test_a_row_whose_peer_or_mpigen_did_not_run_is_not_met_and_says_why() -> None:
    no_peer = Row("corpus", 0.7, None, "kubectl-validate", 0.3, note="(kubectl-validate is not installed)")
    assert no_peer.met is False
    assert no_peer.line() == ("| corpus | 0.700 s | - | - | - | <= 0.30x wall | NOT MET (kubectl-validate is "
                              "not installed) |")
    refused = Row("cluster", None, note="(refused: file-too-large)")
    assert refused.met is False and refused.line().endswith("| NOT MET (refused: file-too-large) |")


def test_the_floor_row_has_no_goal_and_a_row_alone_is_held_to_seconds() -> None:
    floor = Row("floor", 0.05, 0.09, "kubectl kustomize", cpu=(0.04, 0.08))
    assert floor.met is None and floor.line().endswith("| 0.56x kubectl kustomize | 0.040 s / 0.080 s = 0.50x | "
                                                       "- (floor) | - |")
    assert Row("check (cache)", 0.2, limit=0.3).met is True
    assert Row("check (cache)", 0.3, limit=0.3).line().endswith("| - | - | - | < 0.3 s | NOT MET |")


def test_a_further_goal_fails_the_row() -> None:
    row = Row("cluster", 1.0, 1.0, "json.load", 2.0, extra_goal="peak <= 2.00x", extra_met=False)
    assert row.met is False and "| <= 2.00x wall, peak <= 2.00x | NOT MET |" in row.line()


def test_growth_rows_hold_the_time_and_the_memory_ratio() -> None:
    assert GrowthRow("files", "1000 files", "10000 files", 1.0, 11.0).met is True
    assert GrowthRow("files", "1000 files", "10000 files", 1.0, 11.5).met is False
    memory = GrowthRow("file", "26 MB", "260 MB", 1.0, 10.0, rss=(100, 250), rss_limit=2.0)
    assert memory.met is False
    assert memory.line() == ("| file | 26 MB: 1.000 s | 260 MB: 10.000 s | 10.00x | 100 / 250 MiB = 2.50x | "
                             "<= 11x time, peak <= 2x | NOT MET |")
    refused = GrowthRow("file", "26 MB", "260 MB", None, None, note="(refused: file-too-large)")
    assert refused.met is False and refused.line().endswith("| - | - | <= 11x time | NOT MET (refused: file-too-large) |")
    elsewhere = GrowthRow("cluster", "500 nodes", "5000 nodes", None, None, elsewhere=True)
    assert elsewhere.met is None and elsewhere.line().endswith("| - |")


def test_the_report_fails_on_any_row_not_met_and_ignores_rows_without_a_goal() -> None:
    met = Row("a", 0.5, 1.0, "peer", 0.8)
    floor = Row("floor", 0.5, 1.0, "peer")
    lines, all_met = report([met, floor], [GrowthRow("g", "s", "l", None, None, elsewhere=True)])
    assert all_met and lines[0].startswith("| benchmark |") and "" in lines and lines[-1].startswith("| g |")
    assert report([met], [GrowthRow("g", "s", "l", 1.0, 12.0)])[1] is False
    assert report([met, Row("b", 0.9, 1.0, "peer", 0.8)], [])[1] is False


def test_a_failed_command_is_told_by_mpigen_s_error_code() -> None:
    output = "big.yaml:1:1: error file-too-large file has 270000000 characters; mpigen reads at most 67108864\n"
    assert Failed(["/x/mpigen", "validate"], 1, output).reason == "mpigen exited 1: error file-too-large"
    assert Failed(["/x/kubeconform"], 2, "boom\n").reason == "kubeconform exited 2: boom"


# --------------------------------------------------------------------------- the command line


def test_a_cluster_file_mpigen_refuses_is_not_met_and_not_timed(tmp_path: Path, monkeypatch) -> None:
    """podgroup exits 1 when the gang does not fit (a verdict, timed) and when it refuses the file
    (file-too-large: nothing to time; the row once printed such a refusal as met, at 0.03x)."""
    as_json, as_yaml = tmp_path / "c.json", tmp_path / "c.yaml"
    as_json.write_text("{}")
    as_yaml.write_text("a: 1\n")
    monkeypatch.setattr(Inputs, "cluster", lambda self, nodes, pods: (as_json, as_yaml))
    refusal = "c.yaml:1:1: error file-too-large file has 729320566 characters; mpigen reads at most 67108864\n"
    monkeypatch.setattr(bench.run, "output_of", lambda command: (1, refusal) if str(as_yaml) in command.argv
                        else (1, "c.json: the gang does not fit\n"))
    timed: list[list[str]] = []

    def in_turns(commands, repeat):
        timed.append(commands[0].argv)
        return [Timing(1.0, 1.0), Timing(0.5, 0.5)]

    monkeypatch.setattr(bench.run, "in_turns", in_turns)
    monkeypatch.setattr(bench.run, "peak_rss", lambda command: 100)
    rows, json_seconds = cluster_rows(Inputs(tmp_path), 5, 50, 1)
    assert [str(as_json) in argv for argv in timed] == [True]
    assert json_seconds == 1.0
    assert rows[0].met is True
    assert rows[1].met is False and "mpigen exited 1: error file-too-large" in rows[1].line()


def test_every_group_runs_by_default_and_only_selects_groups_in_their_order() -> None:
    assert parse_args([]).groups == list(GROUPS) == ["cluster", "live", "lint", "build", "growth"]
    assert parse_args(["--only", "growth", "--only", "lint"]).groups == ["lint", "growth"]
    assert parse_args(["--only", "cluster", "--cluster-nodes", "50"]).groups == ["cluster"]
    with pytest.raises(SystemExit):
        parse_args(["--only", "everything"])


def test_the_live_row_is_at_a_tenth_of_the_cluster_rows_unless_told() -> None:
    args = parse_args(["--only", "live"])
    assert (args.live_nodes, args.live_pods) == (500, 15_000)
    args = parse_args(["--cluster-nodes", "50", "--cluster-pods", "90", "--live-pods", "7"])
    assert (args.live_nodes, args.live_pods) == (5, 7)


def test_a_generated_object_is_created_without_what_the_server_sets_or_refuses() -> None:
    from bench.cluster import objects
    from bench.live import LABEL, NO_KUBELET, creatable

    generated = list(objects(2, 40))
    made = [creatable(obj) for obj in generated]
    assert generated == list(objects(2, 40))  # the generated objects are left as they are
    for obj in made:
        assert not {"uid", "resourceVersion", "creationTimestamp", "managedFields", "ownerReferences"} \
            & set(obj["metadata"])
        assert obj["metadata"]["labels"][LABEL] == "true"
    nodes = [obj for obj in made if obj["kind"] == "Node"]
    assert nodes and all(obj["status"]["allocatable"] for obj in nodes)  # a kubelet creates it with its status
    pods = [obj for obj in made if obj["kind"] == "Pod"]
    assert pods and all("status" not in obj and "priority" not in obj["spec"] and "preemptionPolicy" not in obj["spec"]
                        and obj["spec"]["schedulerName"] == "default-scheduler" for obj in pods)
    for pod in pods:
        volumes = {volume["name"] for volume in pod["spec"].get("volumes", [])}
        assert all(m["name"] in volumes for c in pod["spec"]["containers"] for m in c.get("volumeMounts", []))
        kept = {(t["key"], t["effect"]) for t in pod["spec"]["tolerations"] if "tolerationSeconds" not in t}
        assert {(key, "NoExecute") for key in NO_KUBELET} <= kept


# ------------------------------------------------------------------------------------ the peers


def test_the_corpus_is_copied_without_its_lock(tmp_path: Path) -> None:
    count = copy_corpus(tmp_path)
    files = sorted(p for p in tmp_path.rglob("*") if p.is_file())
    assert count == len(files) == len(json.loads((CORPUS / "lock.json").read_text())["files"]) > 100
    assert not any(p.name == "lock.json" for p in files)


def _fake_module(pins: dict) -> Reader:
    """A reader of pinned modules that serves each pinned path a CRD of the pin's kind."""
    by_path = {pin["path"]: kind for kind, pin in pins.items()}

    def read(module: str, version: str, path: str) -> bytes:
        api_version, kind = by_path[path]
        crd = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
               "spec": {"group": api_version.rpartition("/")[0], "names": {"kind": kind}}}
        return yaml.safe_dump(crd).encode()
    return read


def test_kubectl_validate_gets_one_crd_per_custom_kind_of_the_corpus(tmp_path: Path) -> None:
    kinds = corpus_kinds()
    pins = crd_pins(kinds)
    written = write_crds(tmp_path, pins, _fake_module(pins))
    # Every kind of the corpus that mpigen's schemas take from a CRD (schemas/lock.json) has its file.
    lock = json.loads((ROOT / "schemas" / "lock.json").read_text())
    crd_sources = {s["name"] for s in json.loads((ROOT / "scripts/schema_sources.json").read_text())["sources"]
                   if s["format"] == "crd"}
    from_crds = {(s["apiVersion"], s["kind"]) for s in lock["schemas"].values() if s["source"] in crd_sources}
    assert set(written) == kinds & from_crds
    assert {("kubeflow.org/v2beta1", "MPIJob"), ("kubeflow.org/v1", "PyTorchJob"),
            ("trainer.kubeflow.org/v1alpha1", "TrainJob")} <= set(written)
    assert sorted(tmp_path.iterdir()) == sorted(written.values())  # one file per kind, nothing else
    for (api_version, kind), path in written.items():
        (crd,) = yaml.safe_load_all(path.read_text())
        assert (crd["spec"]["group"], crd["spec"]["names"]["kind"]) == (api_version.split("/")[0], kind)


def test_a_pinned_file_without_the_kind_s_crd_stops_the_bench(tmp_path: Path) -> None:
    pins = crd_pins({("kubeflow.org/v2beta1", "MPIJob")})
    with pytest.raises(SystemExit, match="no CRD of MPIJob"):
        write_crds(tmp_path, pins, lambda module, version, path: b"kind: ConfigMap\n")


def test_kubectl_validate_runs_offline_with_the_crd_folder() -> None:
    argv = kubectl_validate("kubectl-validate", Path("/c"), Path("/m"))
    assert argv[argv.index("--local-crds") + 1] == "/c" and "--version" in argv and argv[-1] == "/m"
    env = offline_env()
    assert env["KUBECONFIG"] == "/dev/null" and not any(key.startswith("KUBERNETES_SERVICE") for key in env)


def test_the_files_each_tool_read_are_taken_from_its_output() -> None:
    assert files_read("a.yaml:1:1: error x\n116 files checked: 27 error(s)", "mpigen") == 116
    assert files_read("Summary: 140 resources found in 116 files - Valid: 73", "kubeconform") == 116
    assert files_read('{\n "a.yaml": [], "b.yaml": []\n}\nError: validation failed\n', "kubectl-validate") == 2
    assert files_read("nothing", "kubeconform") is None and files_read("", "kubectl-validate") is None
