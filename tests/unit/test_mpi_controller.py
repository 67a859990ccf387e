"""The port of mpi-operator v0.8.2's object builders (mpi_job_controller.go) behind `mpigen explain`."""

from __future__ import annotations

import copy

import pytest

from mpigen.operator.mpi_controller import NotCreated, config_map_bytes, created_objects, host, hostfile, index_digits
from mpigen.operator.mpi_defaults import set_defaults
from mpigen.versions import OperatorVersion


def job(workers: int | None = 2, implementation: str = "OpenMPI", **spec_extra) -> dict:
    replicas = {"Launcher": {"replicas": 1, "template": {"spec": {"containers": [
        {"name": "l", "image": "i", "command": ["mpirun"], "env": [{"name": "MINE", "value": "1"}]}]}}}}
    if workers is not None:
        replicas["Worker"] = {"replicas": workers, "template": {"spec": {"containers": [{"name": "w", "image": "i"}]}}}
    return {"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob", "metadata": {"name": "pi", "namespace": "ml"},
            "spec": {"slotsPerWorker": 2, "mpiImplementation": implementation, "mpiReplicaSpecs": replicas,
                     **spec_extra}}


def kinds(objects) -> list[str]:
    return [f"{o['kind']}/{o['metadata']['name']}" for o in objects]


def test_hostfile_formats() -> None:
    assert hostfile(job()) == "pi-worker-0.pi.ml.svc slots=2\npi-worker-1.pi.ml.svc slots=2\n"
    assert hostfile(job(implementation="Intel")) == "pi-worker-0.pi.ml.svc:2\npi-worker-1.pi.ml.svc:2\n"
    assert hostfile(job(implementation="MPICH"), "cluster.local") == (
        "pi-worker-0.pi.ml.svc.cluster.local:2\npi-worker-1.pi.ml.svc.cluster.local:2\n")
    assert hostfile(job(runLauncherAsWorker=True)).splitlines()[0] == "pi-launcher.pi.ml.svc slots=2"


def test_objects_in_sync_order_with_a_gang() -> None:
    objects = list(created_objects(job(), "volcano"))
    assert kinds(objects) == ["Service/pi", "ConfigMap/pi-config", "Secret/pi-ssh", "PodGroup/pi",
                              "Pod/pi-worker-0", "Pod/pi-worker-1", "Job/pi-launcher"]
    secret = objects[2]
    assert set(secret["data"].values()) == {"<redacted>"}
    assert objects[1]["data"]["discover_hosts.sh"] == "#!/bin/sh\n"


def test_launcher_env_and_mounts_per_implementation() -> None:
    objects = {o["kind"]: o for o in created_objects(job())}
    launcher = objects["Job"]["spec"]["template"]
    env = [(e["name"], e.get("value")) for e in launcher["spec"]["containers"][0]["env"]]
    assert env == [("MINE", "1"), ("K_MPI_JOB_ROLE", "launcher"), ("OMPI_MCA_orte_keep_fqdn_hostnames", "true"),
                   ("OMPI_MCA_orte_default_hostfile", "/etc/mpi/hostfile"),
                   ("OMPI_MCA_plm_rsh_args", "-o ConnectionAttempts=10"), ("OMPI_MCA_orte_set_default_slots", "2"),
                   ("NVIDIA_VISIBLE_DEVICES", None), ("NVIDIA_DRIVER_CAPABILITIES", None)]
    mounts = launcher["spec"]["containers"][0]["volumeMounts"]
    assert mounts == [{"name": "ssh-auth", "mountPath": "/root/.ssh"}, {"name": "mpi-job-config", "mountPath": "/etc/mpi"}]
    assert launcher["spec"]["volumes"][0]["secret"]["defaultMode"] == 0o600
    mpich = {o["kind"]: o for o in created_objects(job(implementation="MPICH", runLauncherAsWorker=True))}
    names = [e["name"] for e in mpich["Job"]["spec"]["template"]["spec"]["containers"][0]["env"]]
    assert names == ["MINE", "K_MPI_JOB_ROLE", "HYDRA_HOST_FILE", "HYDRA_LAUNCH_EXTRA_ARGS"]
    assert mpich["Job"]["spec"]["template"]["metadata"]["labels"]["training.kubeflow.org/replica-index"] == "0"


def test_worker_pod_fields() -> None:
    pods = [o for o in created_objects(job(runLauncherAsWorker=True, sshAuthMountPath="/home/u/.ssh"),
                                        "scheduler-plugins", scheduler_name="coscheduler") if o["kind"] == "Pod"]
    pod = pods[1]
    assert pod["metadata"]["name"] == "pi-worker-1"
    assert pod["metadata"]["labels"]["training.kubeflow.org/replica-index"] == "2"  # padded by the launcher
    assert pod["metadata"]["labels"]["scheduling.x-k8s.io/pod-group"] == "pi"
    spec = pod["spec"]
    assert (spec["hostname"], spec["subdomain"], spec["schedulerName"], spec["restartPolicy"]) == (
        "pi-worker-1", "pi", "coscheduler", "Never")
    assert spec["dnsConfig"] == {"searches": ["pi.ml.svc.cluster.local"]}
    assert spec["containers"][0]["command"] == ["/usr/sbin/sshd", "-De"]  # none given: the operator's default
    assert "defaultMode" not in spec["volumes"][0]["secret"]


def test_suspended_job_creates_no_pods_and_a_suspended_launcher() -> None:
    objects = list(created_objects(job(runPolicy={"suspend": True}), "volcano"))
    assert kinds(objects) == ["Service/pi", "ConfigMap/pi-config", "Secret/pi-ssh", "Job/pi-launcher"]
    assert objects[-1]["spec"]["suspend"] is True


@pytest.mark.parametrize(("version", "policy"), [("v0.8.2", "Failed"), ("v0.8.1", "Failed"), ("v0.8.0", None),
                                                  ("v0.4.0", None)])
def test_launcher_job_pod_replacement_policy_by_release(version: str, policy: str | None) -> None:
    # newLauncherJob: v0.8.2 (mpi-operator #810, kubernetes/kubernetes#115844) replaces a launcher
    # pod only once it has failed, not while it is terminating; v0.8.0 leaves the Job's default.
    (launcher,) = [o for o in created_objects(job(), "volcano", version=OperatorVersion.parse(version))
                   if o["kind"] == "Job"]
    assert launcher["spec"].get("podReplacementPolicy") == policy
    assert list(launcher["spec"])[-1] == "template"


def test_launcher_job_pod_replacement_policy_is_the_default_release() -> None:
    (launcher,) = [o for o in created_objects(job(runPolicy={"suspend": True})) if o["kind"] == "Job"]
    assert launcher["spec"]["podReplacementPolicy"] == "Failed" and launcher["spec"]["suspend"] is True


def test_wait_for_workers_ready_defers_the_launcher() -> None:
    assert "Job/pi-launcher" not in kinds(created_objects(job(launcherCreationPolicy="WaitForWorkersReady")))
    alone = job(workers=None, launcherCreationPolicy="WaitForWorkersReady", runLauncherAsWorker=True)
    assert "Job/pi-launcher" in kinds(created_objects(alone))


def test_rejected_and_foreign_jobs_create_nothing() -> None:
    bad = job()
    bad["spec"]["mpiReplicaSpecs"]["Launcher"]["replicas"] = 2
    with pytest.raises(NotCreated, match="must be 1"):
        list(created_objects(bad))
    with pytest.raises(NotCreated, match="managedBy"):
        list(created_objects(job(runPolicy={"managedBy": "kueue.x-k8s.io/multikueue"})))


def test_namespace_defaults_and_input_is_not_modified() -> None:
    original = job()
    del original["metadata"]["namespace"]
    before = copy.deepcopy(original)
    config = next(o for o in created_objects(original) if o["kind"] == "ConfigMap")
    assert config["metadata"]["namespace"] == "default"
    assert config["data"]["hostfile"].startswith("pi-worker-0.pi.default.svc slots=2")
    assert original == before


def test_worker_count_bound() -> None:
    pods = [o for o in created_objects(job(workers=10_000), max_workers=1) if o["kind"] == "Pod"]
    assert [p["metadata"]["name"] for p in pods] == ["pi-worker-0"]


def test_the_operator_multiplies_decimal_quantities_of_its_own_template() -> None:
    """mpi-operator v0.5.0+ (#634): addResources' Mul on a copy that shares the inf.Dec of a
    quantity such as 1.5Gi multiplies the job's template; the Pods created next carry it."""
    spec = {"mpiReplicaSpecs": {
        "Launcher": {"replicas": 1, "template": {"spec": {"containers": [{"name": "l", "image": "x"}]}}},
        "Worker": {"replicas": 2, "template": {"spec": {"containers": [{"name": "w", "image": "x", "resources": {
            "requests": {"memory": "1.5Gi", "cpu": "2"}, "limits": {"memory": "1.5Gi", "ephemeral-storage": "0.5Ki"}}}]}}},
    }}
    mpijob = {"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob",
              "metadata": {"name": "pi", "namespace": "ml"}, "spec": spec}
    objects = list(created_objects(mpijob, "volcano"))
    group = next(o for o in objects if o["kind"] == "PodGroup")
    assert group["spec"]["minResources"] == {"cpu": "4", "ephemeral-storage": "1Ki", "memory": "3Gi"}
    for pod in (o for o in objects if o["kind"] == "Pod"):
        # requests x2 (int64-backed cpu is not); a limit only when its name has no request
        assert pod["spec"]["containers"][0]["resources"] == {
            "requests": {"memory": "3Gi", "cpu": "2"}, "limits": {"memory": "1536Mi", "ephemeral-storage": "1Ki"}}
    # without a gang, before v0.5.0, or with an explicit minResources nothing is multiplied
    for gang, version, policy in ((None, "v0.8.0", None), ("volcano", "v0.4.0", None),
                                  ("volcano", "v0.8.0", {"minResources": {"memory": "3Gi"}})):
        job = dict(mpijob, spec=dict(spec, runPolicy={"schedulingPolicy": policy} if policy else {}))
        pod = next(o for o in created_objects(job, gang, version=OperatorVersion.parse(version)) if o["kind"] == "Pod")
        assert pod["spec"]["containers"][0]["resources"]["requests"]["memory"] == "1536Mi"


def test_a_multiplied_quantity_is_not_parsed_again() -> None:
    """4607Pi is kept in an inf.Dec; x2 is 9214Pi, above 2^63-1, which only parsing would clamp."""
    spec = {"mpiReplicaSpecs": {
        "Launcher": {"replicas": 1, "template": {"spec": {"containers": [{"name": "l", "image": "x"}]}}},
        "Worker": {"replicas": 2, "template": {"spec": {"containers": [
            {"name": "w", "image": "x", "resources": {"requests": {"memory": "4607Pi"}}}]}}}}}
    job = {"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob", "metadata": {"name": "pi", "namespace": "ml"},
           "spec": spec}
    pod = next(o for o in created_objects(job, "volcano") if o["kind"] == "Pod")
    assert pod["spec"]["containers"][0]["resources"]["requests"]["memory"] == "9214Pi"


@pytest.mark.parametrize("workers", [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 1001, 1234])
@pytest.mark.parametrize("implementation, as_worker, domain, legacy", [
    ("OpenMPI", False, "", False), ("Intel", True, "", False), ("MPICH", False, "cluster.local", False),
    ("OpenMPI", True, "cluster.local", False), ("OpenMPI", False, "cluster.local", True), ("Intel", False, "", True)])
def test_config_map_bytes_are_the_length_of_the_text(workers: int, implementation: str, as_worker: bool, domain: str,
                                                     legacy: bool) -> None:
    """The closed form (digit counts of the indices) against the text the controller writes: the
    hostfile and discover_hosts.sh at creation (created_objects), and discover_hosts.sh with one
    `echo <host>` line per running worker (updateDiscoverHostsInConfigMap), across every digit boundary."""
    the_job = set_defaults(job(workers or None, implementation, slotsPerWorker=12, runLauncherAsWorker=as_worker))
    config = next(o for o in created_objects(the_job, cluster_domain=domain, version=OperatorVersion.parse(
        "v0.4.0" if legacy else "v0.8.0")) if o["kind"] == "ConfigMap")
    created = sum(len(value.encode()) for value in config["data"].values())
    running = created + sum(len(f"echo {host(the_job, f'pi-worker-{i}', domain, legacy)}\n") for i in range(workers))
    assert config_map_bytes(the_job, domain, legacy) == (created, running)


def test_index_digits_counts_the_digits_of_every_index() -> None:
    assert [index_digits(n) for n in (0, 1, 10, 11, 100, 101)] == [0, 1, 10, 12, 190, 193]
    assert index_digits(10**6) == sum(len(str(i)) for i in range(10**6))
