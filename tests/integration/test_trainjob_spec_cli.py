"""A spec with ``spec.runtime`` through the command line: build, validate, explain and podgroup
show what Kubeflow Trainer v2.3.0 creates for the TrainJob built from it, on the TrainingRuntime
written beside it."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.golden.cases import run

CLUSTER = "specs/cluster/priorityclasses.yaml"
DEEPSPEED = "specs/trainjob-deepspeed-volcano.yaml"


def test_podgroup_of_a_runtime_spec_is_the_copys_volcano_group() -> None:
    code, out, err = run(["podgroup", DEEPSPEED, "--cluster", CLUSTER])
    assert code == 0, err
    group = yaml.safe_load(out)
    assert group["apiVersion"] == "scheduling.volcano.sh/v1beta1"
    assert group["spec"]["minMember"] == 4  # 3 node pods and the launcher
    assert group["spec"]["queue"] == "research" and group["spec"]["priorityClassName"] == "gpu-training"
    assert group["spec"]["minResources"] == {"cpu": "256", "memory": "2Ti", "nvidia.com/gpu": "32"}
    code, out, err = run(["podgroup", DEEPSPEED, "--cluster", CLUSTER, "--env", "dev"])
    assert code == 0 and yaml.safe_load(out)["spec"]["queue"] == "dev", err


def test_explain_of_a_runtime_spec_names_the_runtime_beside_it() -> None:
    code, out, err = run(["explain", "specs/trainjob-pytorch-coscheduling.yaml"])
    assert code == 0, err
    assert out.startswith("TrainJob research/llama-ddp (Trainer v2.3.0; TrainingRuntime llama-ddp: torch; "
                          "podGroupPolicy: coscheduling)")
    assert "minMember: 4   scheduleTimeoutSeconds: 300" in out
    assert "default-runtime" in err and "runtime-copy" in err


def test_podgroup_of_a_runtime_without_a_gang_is_a_note() -> None:
    code, out, err = run(["podgroup", "specs/trainjob-kueue.yaml"])
    assert code == 0 and out == "", err
    assert "no-podgroup" in err


def test_the_built_files_validate_together(tmp_path: Path) -> None:
    """The TrainingRuntime and the TrainJob in one file: validate finds the runtime beside the job
    in either order; without it the TrainJob's runtime is missing."""
    code, out, err = run(["build", DEEPSPEED])
    assert code == 0, err
    docs = [d for d in yaml.safe_load_all(out) if d]
    assert [d["kind"] for d in docs] == ["TrainingRuntime", "TrainJob"]
    for name, objects in (("in-order.yaml", docs), ("reversed.yaml", docs[::-1])):
        path = tmp_path / name
        path.write_text(yaml.safe_dump_all(objects))
        code, out, err = run(["validate", "--strict", "--cluster", CLUSTER, str(path)])
        assert code == 0, out + err
    alone = tmp_path / "elsewhere" / "alone.yaml"  # not beside the files that hold its runtime
    alone.parent.mkdir()
    alone.write_text(yaml.safe_dump(docs[1]))
    code, out, err = run(["validate", "--cluster", CLUSTER, str(alone)])
    assert code == 1 and "trainjob-runtime-missing" in out + err


def test_podgroup_of_the_production_spec_counts_what_the_copy_and_its_patch_give() -> None:
    """specs/trainjob-deepspeed-infiniband.yaml: the RDMA devices count in the PodGroup; the host
    network, the placement, the init containers (the copy's) and the nodes' pod template patch are
    in the pods explain shows."""
    code, out, err = run(["podgroup", "specs/trainjob-deepspeed-infiniband.yaml", "--cluster", CLUSTER])
    assert code == 0, err
    group = yaml.safe_load(out)
    assert group["spec"]["minMember"] == 5  # 4 node pods and the launcher
    assert group["spec"]["minResources"] == {"cpu": "240", "memory": "2400Gi", "nvidia.com/gpu": "40",
                                             "rdma/hca": "5"}
    code, out, err = run(["explain", "specs/trainjob-deepspeed-infiniband.yaml", "--cluster", CLUSTER,
                          "--format", "yaml"])
    assert code == 0, err
    jobset = next(d for d in yaml.safe_load_all(out) if d and d["kind"] == "JobSet")
    for rjob in jobset["spec"]["replicatedJobs"]:
        pod = rjob["template"]["spec"]["template"]["spec"]
        assert pod["hostNetwork"] is True and pod["nodeSelector"] == {"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"}
        assert [c["name"] for c in pod["initContainers"]] == ["log-shipper", "fetch-dataset"]
    node = next(r for r in jobset["spec"]["replicatedJobs"] if r["name"] == "node")
    assert node["template"]["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] == 300
