"""mpigen.render.pods: the pod pieces every framework shares.

Volumes (PVC and hostPath), code sync (git-sync over https or ssh, rsync), the workingDir
default, /dev/shm, ACK GPU topology, the pods' own labels and annotations, and the MPI
launcher's command when the user wrote the mpirun line. Through small specs compiled with
``compile_specs`` and directly on the functions.
"""

from __future__ import annotations

from typing import Any

import pytest

from mpigen.diagnostics import Severity
from mpigen.load.yaml_loader import load_text
from mpigen.pipeline import Options, compile_specs
from mpigen.render import pods

HEAD = """apiVersion: mpigen.dev/v1alpha1
kind: TrainingJob
metadata:
  name: demo
  labels: {team: vision}
spec:
"""
MPI = "  framework: mpi\n  image: horovod/horovod:0.28.1\n  command: [python, train.py]\n  workers: 2\n"
PYTORCH = "  framework: pytorch\n  image: pytorch/pytorch:2.3.0\n  command: [python, train.py]\n  workers: 2\n"
TENSORFLOW = "  framework: tensorflow\n  image: tensorflow/tensorflow:2.15.0\n  command: [python, train.py]\n  workers: 2\n"
REPLICA_KEYS = ("mpiReplicaSpecs", "pytorchReplicaSpecs", "tfReplicaSpecs")


def build(body: str, env: str | None = None) -> list[dict[str, Any]]:
    result = compile_specs(load_text(HEAD + body, "demo.yaml"), "demo.yaml", Options())
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    assert not errors, errors
    return result.jobs[0].objects(env)


def templates(job: dict[str, Any]) -> dict[str, dict[str, Any]]:
    (key,) = [k for k in REPLICA_KEYS if k in job["spec"]]
    return {rtype: replica["template"] for rtype, replica in job["spec"][key].items()}


def main_container(template: dict[str, Any]) -> dict[str, Any]:
    return template["spec"]["containers"][0]


# --- volumes ---------------------------------------------------------------------------------

def test_pvc_and_host_path_volumes_are_in_every_pod_and_container() -> None:
    body = PYTORCH + ("  volumes:\n"
                      "    - {claimName: data, mountPath: /data, readOnly: true, subPath: exp1}\n"
                      "    - {hostPath: /mnt/cache, mountPath: /cache}\n")
    (job,) = build(body)
    for template in templates(job).values():
        assert template["spec"]["volumes"] == [
            {"name": "data", "persistentVolumeClaim": {"claimName": "data", "readOnly": True}},
            {"name": "host-mnt-cache", "hostPath": {"path": "/mnt/cache"}},
        ]
        assert main_container(template)["volumeMounts"] == [
            {"name": "data", "mountPath": "/data", "readOnly": True, "subPath": "exp1"},
            {"name": "host-mnt-cache", "mountPath": "/cache"},
        ]


def test_a_spec_without_the_new_features_writes_none_of_their_fields() -> None:
    for body in (MPI, PYTORCH, TENSORFLOW):
        (job,) = build(body)
        for template in templates(job).values():
            spec = template["spec"]
            assert not {"initContainers", "volumes", "hostNetwork", "dnsPolicy", "schedulerName"} & spec.keys()
            assert not {"volumeMounts", "workingDir"} & main_container(template).keys()
            assert set(template["metadata"]["labels"]) == {"team"}


# --- /dev/shm ---------------------------------------------------------------------------------

@pytest.mark.parametrize("written, canonical", [
    ("2048Mi", "2Gi"), ("1.5Gi", "1536Mi"), ("2Gi", "2Gi"), ("1073741824", "1073741824"), ("1000000000", "1G"),
    ("0.5Gi", "512Mi"), ("500M", "500M"),
])
def test_shm_size_is_a_memory_empty_dir_with_the_canonical_quantity(written: str, canonical: str) -> None:
    (job,) = build(MPI + f"  shmSize: {written}\n")
    for template in templates(job).values():
        assert {"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": canonical}} in template["spec"]["volumes"]
        assert {"name": "dshm", "mountPath": "/dev/shm"} in main_container(template)["volumeMounts"]


def test_shm_size_as_a_yaml_number() -> None:
    (job,) = build(PYTORCH + "  shmSize: 4000000000\n")  # a decimal number stays decimal (apimachinery)
    assert templates(job)["Master"]["spec"]["volumes"] == [
        {"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "4G"}}]


# --- code sync --------------------------------------------------------------------------------

def test_git_sync_over_https_reads_the_secret_and_never_a_literal_credential() -> None:
    body = PYTORCH + ("  code:\n    git:\n      repository: https://github.com/org/repo.git\n"
                      "      revision: v1.0\n      depth: 3\n      secret: git-creds\n")
    (job,) = build(body)
    for template in templates(job).values():
        (sync,) = template["spec"]["initContainers"]
        assert sync["name"] == "code-sync" and sync["image"] == pods.GIT_SYNC_IMAGE
        assert sync["args"] == [
            "--repo=https://github.com/org/repo.git", "--ref=v1.0", "--depth=3", "--root=/code", "--link=repo",
            "--one-time", "--username=$(GIT_SYNC_USERNAME)", "--password-file=/etc/git-secret/password"]
        assert sync["env"] == [{"name": "GIT_SYNC_USERNAME",
                                "valueFrom": {"secretKeyRef": {"name": "git-creds", "key": "username"}}}]
        assert sync["volumeMounts"] == [{"name": "code", "mountPath": "/code"},
                                        {"name": "git-secret", "mountPath": "/etc/git-secret", "readOnly": True}]
        assert {"name": "git-secret", "secret": {"secretName": "git-creds", "defaultMode": 0o400}} \
            in template["spec"]["volumes"]
        assert {"name": "code", "emptyDir": {}} in template["spec"]["volumes"]
        main = main_container(template)
        assert {"name": "code", "mountPath": "/code"} in main["volumeMounts"]
        assert main["workingDir"] == "/code/repo"
        assert "git-secret" not in [m["name"] for m in main["volumeMounts"]], "the Secret is the init container's only"


def test_git_sync_over_ssh_uses_the_key_file() -> None:
    body = MPI + "  code:\n    git: {repository: 'git@github.com:org/repo.git', secret: deploy-key}\n"
    (job,) = build(body)
    for template in templates(job).values():
        (sync,) = template["spec"]["initContainers"]
        assert "--ssh-key-file=/etc/git-secret/ssh" in sync["args"]
        assert "--ssh-known-hosts-file=/etc/git-secret/known_hosts" in sync["args"]
        assert not any(a.startswith(("--username", "--password")) for a in sync["args"])
        assert "env" not in sync
        assert sync["args"][:6] == ["--repo=git@github.com:org/repo.git", "--ref=HEAD", "--depth=1", "--root=/code",
                                    "--link=repo", "--one-time"]


def test_public_git_repository_needs_no_secret() -> None:
    (job,) = build(PYTORCH + "  code:\n    git: {repository: 'https://github.com/org/public.git'}\n")
    for template in templates(job).values():
        (sync,) = template["spec"]["initContainers"]
        assert sync["volumeMounts"] == [{"name": "code", "mountPath": "/code"}]
        assert "env" not in sync
        assert [v["name"] for v in template["spec"]["volumes"]] == ["code"]
        assert main_container(template)["workingDir"] == "/code/public"


def test_rsync_copies_the_source_into_the_code_volume() -> None:
    body = TENSORFLOW + "  code:\n    mountPath: /workspace/\n    rsync: {source: '10.0.0.5::backup/code/'}\n"
    (job,) = build(body)
    for template in templates(job).values():
        (sync,) = template["spec"]["initContainers"]
        assert sync["command"] == ["rsync", "-avP", "10.0.0.5::backup/code/", "/workspace/"]
        assert sync["image"] == "instrumentisto/rsync-ssh:alpine3.20"
        assert sync["volumeMounts"] == [{"name": "code", "mountPath": "/workspace/"}]
        assert main_container(template)["workingDir"] == "/workspace"


@pytest.mark.parametrize("code, working_dir", [
    ("{git: {repository: 'https://github.com/org/repo.git'}}", "/code/repo"),
    ("{mountPath: /src, git: {repository: 'git@github.com:org/other.git'}}", "/src/other"),
    ("{mountPath: /src/, git: {repository: 'https://github.com/org/x'}}", "/src/x"),
    ("{rsync: {source: 'host::m/'}}", "/code"),
])
def test_working_dir_defaults_to_the_checkout(code: str, working_dir: str) -> None:
    (job,) = build(PYTORCH + f"  code: {code}\n")
    assert {main_container(t)["workingDir"] for t in templates(job).values()} == {working_dir}


def test_an_explicit_working_dir_is_kept() -> None:
    body = PYTORCH + "  workingDir: /root/app\n  code: {git: {repository: 'https://github.com/org/repo.git'}}\n"
    (job,) = build(body)
    assert {main_container(t)["workingDir"] for t in templates(job).values()} == {"/root/app"}
    (plain,) = build(PYTORCH + "  workingDir: /root/app\n")
    assert {main_container(t)["workingDir"] for t in templates(plain).values()} == {"/root/app"}


# --- GPU topology -----------------------------------------------------------------------------

def test_gpu_topology_mpi_labels_only_the_gpu_pods_and_puts_every_pod_on_the_host_network() -> None:
    (job,) = build(MPI.replace("workers: 2", "workers: 3") + "  resources: {gpu: 2}\n  scheduling: {gpuTopology: true}\n")
    by_role = templates(job)
    for template in by_role.values():
        assert template["spec"]["hostNetwork"] is True
        assert template["spec"]["dnsPolicy"] == "ClusterFirstWithHostNet"
    worker = by_role["Worker"]
    assert worker["metadata"]["labels"] == {"gpu-topology": "demo", "gpu-topology-replica": "3", "team": "vision"}
    assert main_container(worker)["resources"]["limits"] == {"aliyun.com/gpu": "2"}
    assert main_container(worker)["resources"]["requests"] == {"aliyun.com/gpu": "2"}
    launcher = by_role["Launcher"]
    assert "gpu-topology" not in launcher["metadata"]["labels"]
    assert "resources" not in main_container(launcher)


def test_gpu_topology_counts_the_gpu_pods_of_every_role() -> None:
    body = TENSORFLOW + ("  resources: {gpu: 1}\n  scheduling: {gpuTopology: true}\n"
                         "  tensorflow: {chief: {}, ps: {replicas: 2, resources: {cpu: 2}}, evaluator: {}}\n")
    (job,) = build(body)
    by_role = templates(job)
    gpu_roles = {r for r, t in by_role.items() if "aliyun.com/gpu" in main_container(t).get("resources", {}).get("limits", {})}
    assert gpu_roles == {"Chief", "Worker", "Evaluator"}
    for rtype, template in by_role.items():
        labels = template["metadata"]["labels"]
        if rtype in gpu_roles:
            assert labels["gpu-topology"] == "demo" and labels["gpu-topology-replica"] == "4"  # 1 + 2 + 1
        else:
            assert "gpu-topology" not in labels and "gpu-topology-replica" not in labels
        assert template["spec"]["hostNetwork"] is True
        assert template["spec"]["dnsPolicy"] == "ClusterFirstWithHostNet"
        assert "nvidia.com/gpu" not in str(template)


def test_gpu_topology_replica_follows_the_environment_worker_count() -> None:
    body = PYTORCH + "  resources: {gpu: 1}\n  scheduling: {gpuTopology: true}\n  environments:\n    big: {workers: 9}\n"
    compiled = compile_specs(load_text(HEAD + body, "d.yaml"), "d.yaml", Options()).jobs[0]
    for env, want in ((None, "3"), ("big", "10")):
        (job,) = compiled.objects(env)
        assert {t["metadata"]["labels"]["gpu-topology-replica"] for t in templates(job).values()} == {want}


def test_without_gpu_topology_gpus_are_nvidia() -> None:
    (job,) = build(PYTORCH + "  resources: {gpu: 1}\n")
    for template in templates(job).values():
        assert main_container(template)["resources"]["limits"] == {"nvidia.com/gpu": "1"}
        assert "hostNetwork" not in template["spec"]


# --- labels and annotations -------------------------------------------------------------------

def test_spec_labels_and_annotations_go_on_the_pods_only() -> None:
    (job,) = build(PYTORCH + "  labels: {experiment: a, team: override}\n  annotations: {note: x}\n")
    assert job["metadata"]["labels"] == {"team": "vision"}
    assert "annotations" not in job["metadata"]
    for template in templates(job).values():
        assert template["metadata"]["labels"] == {"experiment": "a", "team": "override"}
        assert template["metadata"]["annotations"] == {"note": "x", "sidecar.istio.io/inject": "false"}


def test_env_var_keeps_a_secret_in_the_secret() -> None:
    assert pods.env_var("TOKEN", {"secretKeyRef": {"name": "s", "key": "k"}}) == {
        "name": "TOKEN", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}}
    assert pods.env_var("N", 3) == {"name": "N", "value": "3"}


# --- the MPI launcher's command ---------------------------------------------------------------

def _launcher_command(command: str, extra: str = "") -> list[str]:
    (job,) = build(MPI.replace("command: [python, train.py]", f"command: {command}") + extra)
    return main_container(templates(job)["Launcher"])["command"]


# The rank counts fill the 2 workers' 2 slots (slots-np-mismatch otherwise, as validate says).
@pytest.mark.parametrize("command, argv", [
    ("[mpirun, -np, '2', python, train.py]", ["mpirun", "-np", "2", "python", "train.py"]),
    ("[/usr/local/bin/mpiexec, -n, '2', python, train.py]", ["/usr/local/bin/mpiexec", "-n", "2", "python", "train.py"]),
    ("[horovodrun, -np, '2', -hostfile, /etc/mpi/hostfile, python, train.py]",
     ["horovodrun", "-np", "2", "-hostfile", "/etc/mpi/hostfile", "python", "train.py"]),
    ("[sh, -c, 'horovodrun -np 2 --hostfile /etc/mpi/hostfile python train.py']",
     ["sh", "-c", "horovodrun -np 2 --hostfile /etc/mpi/hostfile python train.py"]),
    ("[bash, -lc, 'mpirun -np 2 python train.py']", ["bash", "-lc", "mpirun -np 2 python train.py"]),
])
def test_a_command_that_starts_mpi_itself_is_kept_verbatim(command: str, argv: list[str]) -> None:
    assert _launcher_command(command) == argv


def test_mpirun_false_keeps_any_command_verbatim() -> None:
    assert _launcher_command("[python, launch.py]", "  mpi: {mpirun: false}\n") == ["python", "launch.py"]


def test_mpirun_true_wraps_even_an_mpi_starter() -> None:
    argv = _launcher_command("[horovodrun, python, t.py]", "  mpi: {mpirun: true}\n")
    assert argv[0] == "mpirun" and argv[-3:] == ["horovodrun", "python", "t.py"]


def test_a_plain_program_runs_under_mpirun() -> None:
    argv = _launcher_command("[python, train.py]")
    assert argv[:4] == ["mpirun", "--allow-run-as-root", "-np", "2"] and argv[-2:] == ["python", "train.py"]


def test_git_secret_is_readable_by_git_sync() -> None:
    """git-sync runs as 65533: the pod's fsGroup lets it read the Secret's files (git-sync's docs/ssh.md)."""
    for secret, want in (("  code: {git: {repository: https://g.example.com/r.git, secret: creds}}\n",
                          {"fsGroup": 65533, "fsGroupChangePolicy": "OnRootMismatch"}),
                         ("  code: {git: {repository: https://g.example.com/r.git}}\n", None)):
        for template in templates(build(PYTORCH + secret)[0]).values():
            assert template["spec"].get("securityContext") == want


def test_rsync_working_dir_follows_the_folder_rsync_creates() -> None:
    job = build(MPI + "  code: {rsync: {source: '10.0.0.5::code/bert'}}\n")[0]
    assert main_container(templates(job)["Launcher"])["workingDir"] == "/code/bert"
    job = build(MPI + "  code: {rsync: {source: '10.0.0.5::code/bert/'}}\n")[0]
    assert main_container(templates(job)["Launcher"])["workingDir"] == "/code"


@pytest.mark.parametrize("command", [
    '[sh, -c, "cd /code && mpirun -np 2 python train.py"]', "[horovodrun, -np, '2', --hostfile, /etc/mpi/hostfile, x]",
])
def test_a_users_mpirun_is_kept_as_written(command: str) -> None:
    job = build(MPI.replace("[python, train.py]", command))[0]
    launcher = main_container(templates(job)["Launcher"])["command"]
    assert launcher[0] != "mpirun" or launcher.count("mpirun") == 1
    assert launcher == __import__("yaml").safe_load(command)


def test_explicit_min_resources_name_gpus_as_the_pods_do() -> None:
    """Under ACK GPU topology the pods request aliyun.com/gpu, and so does an explicit minResources."""
    job = build(PYTORCH + "  resources: {gpu: 1}\n  scheduling: {gang: volcano, gpuTopology: true, "
                          "minResources: {gpu: 3, cpu: 2}}\n")[0]
    assert job["spec"]["runPolicy"]["schedulingPolicy"]["minResources"] == {"aliyun.com/gpu": "3", "cpu": "2"}
