"""The pod fields production jobs need, job-wide and per role, compiled from small specs: placement,
security contexts, the host network, args and envFrom, init containers and sidecars, ports and
probes, DRA claims, every volume source, extra device resources in the gang; and the spec
rules that guard them."""

from __future__ import annotations

from typing import Any

import pytest

from mpigen.diagnostics import Severity
from mpigen.load.yaml_loader import load_text
from mpigen.pipeline import Options, compile_specs

HEAD = """apiVersion: mpigen.dev/v1alpha1
kind: TrainingJob
metadata:
  name: demo
spec:
"""
MPI = "  framework: mpi\n  image: horovod/horovod:0.28.1\n  command: [python, train.py]\n  workers: 2\n"
PYTORCH = "  framework: pytorch\n  image: pytorch/pytorch:2.3.0\n  command: [python, train.py]\n  workers: 2\n"
TENSORFLOW = "  framework: tensorflow\n  image: tensorflow/tensorflow:2.15.0\n  command: [python, train.py]\n  workers: 2\n"


def compile_body(body: str):
    return compile_specs(load_text(HEAD + body, "demo.yaml"), "demo.yaml", Options())


def build(body: str) -> dict[str, Any]:
    result = compile_body(body)
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    assert not errors, errors
    return result.jobs[0].base[0]


def findings(body: str) -> list[tuple[str, str, Severity]]:
    return [(d.code, d.path, d.severity) for d in compile_body(body).diagnostics]


def pods(job: dict[str, Any]) -> dict[str, dict[str, Any]]:
    key = next(k for k in job["spec"] if k.endswith("ReplicaSpecs"))
    return {rtype: replica["template"]["spec"] for rtype, replica in job["spec"][key].items()}


def test_per_role_placement_launcher_on_cpu_workers_on_gpu() -> None:
    body = MPI + """  resources: {gpu: 8}
  nodeSelector: {pool: training}
  roles:
    launcher: {nodeSelector: {node-role: cpu}}
    worker:
      nodeSelector: {node-role: gpu}
      tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector: {matchLabels: {training.kubeflow.org/job-role: worker}}
            topologyKey: kubernetes.io/hostname
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule}
"""
    launcher, worker = pods(build(body)).values()
    assert launcher["nodeSelector"] == {"node-role": "cpu", "pool": "training"}
    assert "tolerations" not in launcher and "affinity" not in launcher
    assert worker["nodeSelector"] == {"node-role": "gpu", "pool": "training"}
    assert worker["tolerations"][0]["key"] == "nvidia.com/gpu"
    assert worker["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][0]["topologyKey"] \
        == "kubernetes.io/hostname"
    assert worker["topologySpreadConstraints"][0]["maxSkew"] == 1


def test_security_contexts_host_network_runtime_class() -> None:
    body = PYTORCH + """  securityContext: {capabilities: {add: [IPC_LOCK]}}
  podSecurityContext: {runAsUser: 1000, fsGroup: 1000}
  hostNetwork: true
  runtimeClassName: nvidia
"""
    for pod in pods(build(body)).values():
        assert pod["containers"][0]["securityContext"] == {"capabilities": {"add": ["IPC_LOCK"]}}
        assert pod["securityContext"] == {"runAsUser": 1000, "fsGroup": 1000}
        assert (pod["hostNetwork"], pod["dnsPolicy"], pod["runtimeClassName"]) == \
            (True, "ClusterFirstWithHostNet", "nvidia")


def test_dns_policy_given_stays() -> None:
    body = PYTORCH + "  hostNetwork: true\n  dnsPolicy: Default\n"
    assert {p["dnsPolicy"] for p in pods(build(body)).values()} == {"Default"}


def test_git_secret_keeps_a_given_fs_group() -> None:
    body = PYTORCH + """  podSecurityContext: {fsGroup: 1000}
  code: {git: {repository: https://github.com/org/repo.git, secret: git-creds}}
"""
    for pod in pods(build(body)).values():
        assert pod["securityContext"] == {"fsGroup": 1000, "fsGroupChangePolicy": "OnRootMismatch"}


def test_args_env_from_ports_probes_go_on_the_training_container() -> None:
    body = PYTORCH + """  args: [--epochs, "3"]
  envFrom: [{configMapRef: {name: settings}}]
  ports: [{containerPort: 9090, name: metrics}]
  readinessProbe: {tcpSocket: {port: 23456}}
  roles:
    master: {livenessProbe: {exec: {command: [cat, /tmp/alive]}}}
"""
    master, worker = (p["containers"][0] for p in pods(build(body)).values())
    for main in (master, worker):
        assert main["args"] == ["--epochs", "3"]
        assert main["envFrom"] == [{"configMapRef": {"name": "settings"}}]
        assert main["ports"] == [{"containerPort": 23456, "name": "pytorchjob-port"},
                                 {"containerPort": 9090, "name": "metrics"}]
        assert main["readinessProbe"] == {"tcpSocket": {"port": 23456}}
    assert "livenessProbe" in master and "livenessProbe" not in worker


def test_mpi_program_settings_are_the_launchers_and_role_env_is_forwarded() -> None:
    body = MPI + """  args: [--epochs=3]
  env: {A: "1"}
  envFrom: [{secretRef: {name: creds}}]
  roles:
    launcher: {env: {B: "2"}}
    worker: {env: {C: "3"}}
"""
    launcher, worker = (p["containers"][0] for p in pods(build(body)).values())
    assert launcher["args"] == ["--epochs=3"] and "args" not in worker
    assert launcher["envFrom"] == [{"secretRef": {"name": "creds"}}] and "envFrom" not in worker
    assert [e["name"] for e in launcher["env"]] == ["A", "B"]
    assert worker["env"] == [{"name": "C", "value": "3"}]
    command = launcher["command"]
    assert [command[i + 1] for i, w in enumerate(command) if w == "-x"] == ["PATH", "LD_LIBRARY_PATH", "A", "B"]
    assert worker["command"] == ["/usr/sbin/sshd", "-De"]


def test_sidecars_start_first_then_code_sync_then_init_containers() -> None:
    body = PYTORCH + """  code: {git: {repository: https://github.com/org/repo.git}}
  volumes: [{name: logs, emptyDir: {}, mountPath: /logs}]
  sidecars: [{name: shipper, image: fluent/fluent-bit:3.1, volumeMounts: [{name: logs, mountPath: /logs}]}]
  initContainers: [{name: fetch, image: busybox:1.36, command: ["true"]}]
"""
    for pod in pods(build(body)).values():
        assert [(c["name"], c.get("restartPolicy")) for c in pod["initContainers"]] == \
            [("shipper", "Always"), ("code-sync", None), ("fetch", None)]


def test_every_volume_source_mounted_or_only_defined() -> None:
    body = PYTORCH + """  volumes:
    - {name: config, configMap: {name: settings}, mountPath: /etc/train, readOnly: true}
    - {name: scratch, ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Ti}}}}}, mountPath: /scratch}
    - {name: shared, nfs: {server: nfs.example.com, path: /export}, mountPath: /shared, subPathExpr: $(POD_NAME)}
    - {name: dataset, csi: {driver: s3.csi.example.com, volumeAttributes: {bucket: data}}}
    - {hostPath: {path: /dev/infiniband, type: Directory}, mountPath: /dev/infiniband, name: ib}
"""
    (pod, _) = pods(build(body)).values()
    assert pod["volumes"] == [
        {"name": "config", "configMap": {"name": "settings"}},
        {"name": "scratch", "ephemeral": {"volumeClaimTemplate": {"spec": {
            "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Ti"}}}}}},
        {"name": "shared", "nfs": {"server": "nfs.example.com", "path": "/export"}},
        {"name": "dataset", "csi": {"driver": "s3.csi.example.com", "volumeAttributes": {"bucket": "data"}}},
        {"name": "ib", "hostPath": {"path": "/dev/infiniband", "type": "Directory"}},
    ]
    assert pod["containers"][0]["volumeMounts"] == [
        {"name": "config", "mountPath": "/etc/train", "readOnly": True},
        {"name": "scratch", "mountPath": "/scratch"},
        {"name": "shared", "mountPath": "/shared", "subPathExpr": "$(POD_NAME)"},
        {"name": "ib", "mountPath": "/dev/infiniband"},
    ]


def test_dra_claims_are_the_pods_and_the_training_containers() -> None:
    body = PYTORCH + "  resourceClaims: [{name: gpus, resourceClaimTemplateName: eight-gpus}]\n"
    for pod in pods(build(body)).values():
        assert pod["resourceClaims"] == [{"name": "gpus", "resourceClaimTemplateName": "eight-gpus"}]
        assert pod["containers"][0]["resources"] == {"claims": [{"name": "gpus"}]}


def test_device_resources_count_in_the_gang_like_gpus() -> None:
    body = MPI + "  resources: {gpu: 8, rdma/hca: 1}\n  scheduling: {gang: volcano}\n"
    job = build(body)
    assert job["spec"]["runPolicy"]["schedulingPolicy"]["minResources"] == {"nvidia.com/gpu": "16", "rdma/hca": "2"}
    assert job["spec"]["slotsPerWorker"] == 8


def test_role_images_and_a_tf_role_of_its_own() -> None:
    body = TENSORFLOW + """  tensorflow: {ps: {replicas: 2}}
  roles:
    ps: {image: tensorflow/tensorflow:2.15.0-cpu, resources: {cpu: "4"}, nodeSelector: {pool: cpu}}
"""
    ps, worker = pods(build(body)).values()
    assert ps["containers"][0]["image"] == "tensorflow/tensorflow:2.15.0-cpu"
    assert ps["nodeSelector"] == {"pool": "cpu"} and "nodeSelector" not in worker


def test_mpi_container_names_job_wide_and_per_role() -> None:
    """An MPIJob's training containers may have any name (the operator sets up the first container);
    a patch reaches them by that name."""
    body = MPI + """  containerName: mpi
  roles:
    launcher:
      containerName: mpi-launcher
      podTemplatePatch: {spec: {containers: [{name: mpi-launcher, stdin: true}]}}
"""
    launcher, worker = pods(build(body)).values()
    assert [c["name"] for c in launcher["containers"]] == ["mpi-launcher"]
    assert launcher["containers"][0]["stdin"] is True and launcher["containers"][0]["command"][0] == "mpirun"
    assert [c["name"] for c in worker["containers"]] == ["mpi"]
    assert ("patch-adds-container", "spec.roles.launcher.podTemplatePatch.spec.containers[0]",
            Severity.WARNING) not in findings(body)


def test_an_empty_command_runs_the_images_entrypoint_with_args() -> None:
    """``command: []``: no command (the image's entrypoint runs, with args), never under mpirun; an
    MPI worker's ``[]`` leaves the operator's sshd default (no command and no args) to it."""
    mpi = build(MPI.replace("[python, train.py]", "[]") + "  args: [mpirun, -n, '2', /home/mpiuser/pi]\n"
                "  roles: {worker: {command: []}}\n")
    launcher, worker = pods(mpi).values()
    assert "command" not in launcher["containers"][0]
    assert launcher["containers"][0]["args"] == ["mpirun", "-n", "2", "/home/mpiuser/pi"]
    assert "command" not in worker["containers"][0] and "args" not in worker["containers"][0]
    master, _ = pods(build(PYTORCH.replace("[python, train.py]", "[]") + "  args: [--backend, gloo]\n")).values()
    assert "command" not in master["containers"][0] and master["containers"][0]["args"] == ["--backend", "gloo"]


# --- the rules ---------------------------------------------------------------------------------

@pytest.mark.parametrize("body, expected", [
    (MPI + "  roles: {workers: {nodeSelector: {a: b}}}\n", ("role-unknown", "spec.roles.workers", Severity.ERROR)),
    (TENSORFLOW + "  roles: {chief: {image: x}}\n", ("role-unknown", "spec.roles.chief", Severity.ERROR)),
    (MPI + "  mpi: {launcher: {image: a}}\n  roles: {launcher: {image: b}}\n",
     ("role-conflict", "spec.roles.launcher.image", Severity.ERROR)),
    (MPI + "  sidecars: [{name: s, image: x, restartPolicy: Never}]\n",
     ("sidecar", "spec.sidecars[0].restartPolicy", Severity.ERROR)),
    (MPI + "  sidecars: [{name: s, image: x}]\n  initContainers: [{name: s, image: y}]\n",
     ("init-container-name", "spec.initContainers[0].name", Severity.ERROR)),
    (MPI + "  initContainers: [{name: fetch, image: x, volumeMounts: [{name: data, mountPath: /data}]}]\n",
     ("volume-undefined", "spec.initContainers[0].volumeMounts[0].name", Severity.ERROR)),
    (MPI + "  volumes: [{name: v, emptyDir: {}, configMap: {name: c}}]\n",
     ("volume-source", "spec.volumes[0]", Severity.ERROR)),
    (MPI + "  volumes: [{emptyDir: {}, mountPath: /x}]\n", ("volume-name", "spec.volumes[0]", Severity.ERROR)),
    (MPI + "  roles: {launcher: {resources: {gpu: 1}}}\n",
     ("launcher-gpu", "spec.roles.launcher.resources.gpu", Severity.WARNING)),
    (MPI + "  roles: {worker: {env: {OMPI_MCA_plm_rsh_args: x}}}\n",
     ("env-reserved", "spec.roles.worker.env.OMPI_MCA_plm_rsh_args", Severity.WARNING)),
    (MPI + "  hostNetwork: true\n", ("host-network-ssh", "spec.hostNetwork", Severity.WARNING)),
    (PYTORCH + "  containerName: trainer\n", ("framework-field", "spec.containerName", Severity.ERROR)),
    (MPI + "  roles: {launcher: {image: null}}\n", ("role-null", "spec.roles.launcher.image", Severity.ERROR)),
    (MPI + "  scheduling: {gang: scheduler-plugins}\n  labels: {scheduling.x-k8s.io/pod-group: other}\n",
     ("group-mark", 'spec.labels["scheduling.x-k8s.io/pod-group"]', Severity.ERROR)),
    (PYTORCH + "  scheduling: {gang: volcano}\n  roles: {worker: {annotations: {scheduling.k8s.io/group-name: x}}}\n",
     ("group-mark", 'spec.roles.worker.annotations["scheduling.k8s.io/group-name"]', Severity.ERROR)),
    (MPI + "  roles: {launcher: {env: {T: 12:30}}}\n",
     ("yaml-number", "spec.roles.launcher.env.T", Severity.ERROR)),
    (MPI + "  resources: {cpu: 2}\n  roles: {worker: {resources: {gpu: 2}}}\n  scheduling: {gpuTopology: true}\n",
     ("host-network-ssh", "spec.scheduling.gpuTopology", Severity.WARNING)),
    (TENSORFLOW + "  roles: {worker: {containerName: tf}}\n",
     ("framework-field", "spec.roles.worker.containerName", Severity.ERROR)),
])
def test_rules(body: str, expected: tuple) -> None:
    assert expected in findings(body)


def test_a_volume_only_defined_may_be_mounted_by_a_sidecar_of_a_role() -> None:
    body = MPI + """  roles:
    launcher:
      volumes: [{name: fluent, configMap: {name: fluent-bit}}]
      sidecars: [{name: shipper, image: fluent/fluent-bit:3.1, volumeMounts: [{name: fluent, mountPath: /etc/fb}]}]
"""
    assert not [f for f in findings(body) if f[2] is Severity.ERROR]


def test_a_lint_finding_on_a_role_setting_is_reported_there() -> None:
    body = MPI + "  roles:\n    worker:\n      nodeSelector: {\"bad key!\": x}\n"
    found = [f for f in findings(body) if f[2] is Severity.ERROR]
    assert found and all(path.startswith("spec.roles.worker.nodeSelector") for _, path, _ in found), found


# --- the pod template patch -------------------------------------------------------------------

GPU_PATCH = """  resources: {cpu: "4"}
  scheduling: {gang: volcano}
  roles:
    worker:
      podTemplatePatch:
        spec:
          containers:
          - name: worker
            resources: {limits: {nvidia.com/gpu: "2"}, requests: {nvidia.com/gpu: "2"}}
"""


def test_a_patch_that_adds_a_gpu_to_the_worker_raises_min_resources_and_np() -> None:
    plain = build(MPI + "  resources: {cpu: \"4\"}\n  scheduling: {gang: volcano}\n")
    patched = build(MPI + GPU_PATCH)
    assert plain["spec"]["slotsPerWorker"] == 1 and patched["spec"]["slotsPerWorker"] == 2
    np = [c["command"][c["command"].index("-np") + 1] for c in
          (pods(job)["Launcher"]["containers"][0] for job in (plain, patched))]
    assert np == ["2", "4"]
    assert "nvidia.com/gpu" not in plain["spec"]["runPolicy"]["schedulingPolicy"]["minResources"]
    assert patched["spec"]["runPolicy"]["schedulingPolicy"]["minResources"] == {"cpu": "8", "nvidia.com/gpu": "4"}
    assert pods(patched)["Worker"]["containers"][0]["resources"]["limits"] == {"cpu": "4", "nvidia.com/gpu": "2"}


def test_a_patch_that_adds_env_to_the_launcher_is_forwarded_by_openmpi() -> None:
    body = MPI + """  env: {A: "1"}
  roles:
    launcher:
      podTemplatePatch: {spec: {containers: [{name: launcher, env: [{name: Z, value: "2"}]}]}}
"""
    command = pods(build(body))["Launcher"]["containers"][0]["command"]
    # a strategic merge patch puts the items it adds before the template's, as kubectl does
    assert [command[i + 1] for i, w in enumerate(command) if w == "-x"] == ["PATH", "LD_LIBRARY_PATH", "Z", "A"]


def test_a_patch_that_gives_the_launcher_a_command_keeps_it() -> None:
    body = MPI + "  roles:\n    launcher:\n      podTemplatePatch: {spec: {containers: [{name: launcher, command: [sh, run.sh]}]}}\n"
    assert pods(build(body))["Launcher"]["containers"][0]["command"] == ["sh", "run.sh"]


def test_a_job_wide_patch_applies_to_every_role_then_the_roles() -> None:
    body = PYTORCH + """  podTemplatePatch: {spec: {hostIPC: true, terminationGracePeriodSeconds: 60}}
  roles:
    master: {podTemplatePatch: {spec: {terminationGracePeriodSeconds: 5}}}
"""
    master, worker = pods(build(body)).values()
    assert (master["hostIPC"], master["terminationGracePeriodSeconds"]) == (True, 5)
    assert (worker["hostIPC"], worker["terminationGracePeriodSeconds"]) == (True, 60)


@pytest.mark.parametrize("patch, expected", [
    ("{containers: []}", ("patch-not-pod-template", "spec.podTemplatePatch.containers")),
    ("{replicas: 3}", ("patch-owned", "spec.podTemplatePatch.replicas")),
    ("{metadata: {name: x}}", ("patch-not-pod-template", "spec.podTemplatePatch.metadata.name")),
    ("{metadata: {annotations: {scheduling.k8s.io/group-name: x}}}",
     ("patch-owned", 'spec.podTemplatePatch.metadata.annotations["scheduling.k8s.io/group-name"]')),
    ("{spec: {schedulerName: default-scheduler}}", ("patch-owned", "spec.podTemplatePatch.spec.schedulerName")),
    ("{spec: {hostname: h}}", ("patch-owned", "spec.podTemplatePatch.spec.hostname")),
    ("{spec: {restartPolicy: Always}}", ("patch-owned", "spec.podTemplatePatch.spec.restartPolicy")),
    ("{spec: {volumes: [{name: ssh-auth, emptyDir: {}}]}}", ("patch-owned", "spec.podTemplatePatch.spec.volumes[0].name")),
    ("{spec: {containers: [{name: worker, volumeMounts: [{name: x, mountPath: /etc/mpi}]}]}}",
     ("patch-owned", "spec.podTemplatePatch.spec.containers[0].volumeMounts[0]")),
    ("{spec: {containers: [{image: x}]}}", ("patch-merge-key", "spec.podTemplatePatch.spec.containers[0]")),
    ("{spec: {hostIPC: \"yes\"}}", ("schema", "spec.podTemplatePatch.spec.hostIPC")),
    ("{spec: {bogus: 1}}", ("unknown-field", "spec.podTemplatePatch.spec.bogus")),
])
def test_what_a_patch_may_not_do_is_an_error_at_its_line(patch: str, expected: tuple) -> None:
    body = MPI + "  scheduling: {gang: volcano}\n  podTemplatePatch: " + patch + "\n"
    assert expected + (Severity.ERROR,) in findings(body)
    assert not compile_body(body).jobs  # nothing is written on an error


@pytest.mark.parametrize("body, expected", [
    (MPI + "  nodeSelector: {pool: a}\n  roles: {worker: {podTemplatePatch: {spec: {nodeSelector: {pool: b}}}}}\n",
     ("patch-overrides", "spec.roles.worker.podTemplatePatch.spec.nodeSelector")),
    (MPI + "  securityContext: {runAsUser: 0}\n  roles: {worker: {podTemplatePatch: {spec: {containers: "
           "[{name: worker, securityContext: {privileged: true}}]}}}}\n",
     ("patch-overrides", "spec.roles.worker.podTemplatePatch.spec.containers[0].securityContext")),
    (MPI + "  podTemplatePatch: {spec: {containers: [{name: worker, env: [{name: A, value: b}]}]}}\n",
     ("patch-adds-container", "spec.podTemplatePatch.spec.containers[0]")),
    (PYTORCH + "  nodeSelector: {pool: a}\n  podTemplatePatch: {spec: {nodeSelector: null}}\n",
     ("patch-overrides", "spec.podTemplatePatch.spec.nodeSelector")),
    (PYTORCH + "  labels: {team: a}\n  podTemplatePatch: {metadata: {labels: null}}\n",
     ("patch-overrides", "spec.podTemplatePatch.metadata.labels")),
])
def test_warnings_of_a_patch(body: str, expected: tuple) -> None:
    assert expected + (Severity.WARNING,) in findings(body)


def test_a_patch_that_removes_what_the_spec_sets_says_removes() -> None:
    result = compile_body(PYTORCH + "  nodeSelector: {pool: a}\n  podTemplatePatch: {spec: {nodeSelector: null}}\n")
    [message] = [d.message for d in result.diagnostics if d.code == "patch-overrides"]
    assert message.startswith("the patch removes the master and worker pods' nodeSelector, which spec.nodeSelector "
                              "sets: ")


def test_an_mpi_patch_that_adds_a_container_first_is_refused_and_set_element_order_fixes_it() -> None:
    exporter = "{name: exporter, image: prom/node-exporter:v1.8.2}"
    body = MPI + f"  roles: {{worker: {{podTemplatePatch: {{spec: {{containers: [{exporter}]}}}}}}}}\n"
    assert ("patch-container-order", "spec.roles.worker.podTemplatePatch.spec.containers", Severity.ERROR) \
        in findings(body)
    ordered = MPI + ("  roles:\n    worker:\n      podTemplatePatch:\n        spec:\n"
                     "          $setElementOrder/containers: [{name: worker}, {name: exporter}]\n"
                     f"          containers: [{exporter}]\n")
    assert [c["name"] for c in pods(build(ordered))["Worker"]["containers"]] == ["worker", "exporter"]


def test_a_replacing_container_list_is_told_to_put_the_training_container_first() -> None:
    """Under ``$patch: replace`` the patch's list is the pod's, in its order: $setElementOrder is not
    the fix, listing the training container first is."""
    exporter, worker = "{name: exporter, image: prom/node-exporter:v1.8.2}", "{name: worker, image: horovod:1}"
    body = MPI + f"  roles: {{worker: {{podTemplatePatch: {{spec: {{containers: [{exporter}, {worker}, " \
                 "{$patch: replace}]}}}}\n"
    [message] = [d.message for d in compile_body(body).diagnostics if d.code == "patch-container-order"]
    assert message.endswith("the patch's list replaces the pod's (`$patch: replace`): put 'worker' first in it")
    fixed = body.replace(f"[{exporter}, {worker}, ", f"[{worker}, {exporter}, ")
    assert [c["name"] for c in pods(build(fixed))["Worker"]["containers"]] == ["worker", "exporter"]


def test_a_lint_finding_on_what_a_patch_set_is_reported_at_the_patch() -> None:
    body = MPI + "  roles:\n    worker:\n      podTemplatePatch:\n        spec:\n          containers:\n" \
                 "          - name: worker\n            securityContext: {runAsUser: 1000}\n"
    assert ("ssh-path-non-root", "spec.roles.worker.podTemplatePatch.spec.containers[0].securityContext.runAsUser",
            Severity.ERROR) in findings(body)


def test_no_host_network_warning_once_mpirun_is_told_the_ssh_port() -> None:
    body = MPI + "  hostNetwork: true\n  mpi: {extraArgs: [-mca, plm_rsh_args, \"-p 2222\"]}\n"
    assert "host-network-ssh" not in [code for code, _, _ in findings(body)]


def test_null_removes_a_job_wide_setting_from_a_role_and_a_wrong_type_says_what_is_wanted() -> None:
    body = MPI + "  hostNetwork: true\n  mpi: {extraArgs: [-mca, plm_rsh_args, \"-p 2222\"]}\n" \
                 "  roles: {launcher: {hostNetwork: null}}\n"
    launcher, worker = pods(build(body)).values()
    assert "hostNetwork" not in launcher and worker["hostNetwork"] is True
    wrong = compile_body(MPI + "  roles:\n    worker:\n      nodeSelector: x\n"
                               "      tolerations: [{key: a, operator: Exist}]\n").diagnostics
    assert [(d.path, d.message) for d in wrong] == [
        ("spec.roles.worker.nodeSelector", 'expected a mapping or null, got a string "x"'),
        ("spec.roles.worker.tolerations[0].operator",
         'a string "Exist" is not allowed (did you mean Exists?); choose one of: Exists, Equal')]


def test_slots_per_worker_is_a_pytorchjobs_nproc_per_node() -> None:
    assert build(PYTORCH)["spec"]["nprocPerNode"] == "auto"
    assert build(PYTORCH + "  slotsPerWorker: 8\n")["spec"]["nprocPerNode"] == "8"


def test_null_command_and_resources_of_a_role() -> None:
    """``command: null`` in a role runs the image's entrypoint like ``[]``; ``resources: null``
    leaves the role without requests or limits (and out of minResources)."""
    body = MPI + "  resources: {gpu: 2, cpu: '4'}\n  roles: {launcher: {command: null}, worker: {resources: null}}\n"
    launcher, worker = pods(build(body)).values()
    assert "command" not in launcher["containers"][0]
    assert "resources" not in worker["containers"][0]


def test_an_mpi_launcher_that_runs_as_a_worker_has_the_workers_resources() -> None:
    body = MPI + "  resources: {cpu: '2'}\n  mpi: {runLauncherAsWorker: true}\n" \
                 "  roles: {worker: {resources: {gpu: 8, cpu: '16'}}}\n"
    launcher, worker = pods(build(body)).values()
    assert launcher["containers"][0]["resources"] == worker["containers"][0]["resources"]
    assert worker["containers"][0]["resources"]["limits"]["nvidia.com/gpu"] == "8"


def test_a_worker_off_the_host_network_needs_no_ssh_port() -> None:
    body = MPI + "  hostNetwork: true\n  roles: {worker: {hostNetwork: null}}\n"
    assert "host-network-ssh" not in [code for code, _, _ in findings(body)]


def test_an_environments_patches_apply_after_the_bases_and_may_null_what_it_set() -> None:
    """An environment's podTemplatePatch, job-wide and per role, is applied after the base's
    patches, like a kustomize overlay's patch after the base: a null in it removes what the base
    (its fields or its patch) set."""
    body = PYTORCH + """  nodeSelector: {pool: gpu}
  podTemplatePatch: {spec: {hostIPC: true}}
  environments:
    dev:
      podTemplatePatch: {spec: {nodeSelector: null, terminationGracePeriodSeconds: 5}}
      roles:
        worker:
          podTemplatePatch: {spec: {containers: [{name: pytorch, securityContext: {runAsUser: 1000}}]}}
"""
    result = compile_body(body)
    assert not [d for d in result.diagnostics if d.severity is Severity.ERROR]
    job = result.jobs[0]
    base = pods(job.base[0])
    assert all(p["hostIPC"] is True and p["nodeSelector"] == {"pool": "gpu"} for p in base.values())
    dev = pods(job.environments["dev"][0])
    assert all(p["hostIPC"] is True and "nodeSelector" not in p and p["terminationGracePeriodSeconds"] == 5
               for p in dev.values())
    assert dev["Worker"]["containers"][0]["securityContext"] == {"runAsUser": 1000}
    assert "securityContext" not in dev["Master"]["containers"][0]


def test_a_finding_on_the_training_container_after_a_patch_added_one_before_it() -> None:
    """A PyTorchJob's training container is the one named pytorch, wherever a patch put it: a
    finding on it is reported at the spec field that wrote it, not at ``spec``."""
    body = PYTORCH + """  resources: {gpu: 1}
  podTemplatePatch:
    spec:
      containers:
      - {name: shipper, image: fluent/fluent-bit:3.1}
      - {name: pytorch, resources: {limits: {nvidia.com/gpu: 2}}}
"""
    assert ("pod-resources", "spec.resources.gpu", Severity.ERROR) in findings(body)


TENSORBOARD = "  tensorboard: {logDir: /runs/job}\n"
RUNS = "{name: runs, persistentVolumeClaim: {claimName: runs}, mountPath: /runs}"


@pytest.mark.parametrize("body, expected", [
    (PYTORCH + TENSORBOARD + f"  volumes: [{RUNS}]\n  roles: {{worker: {{volumes: [{{name: x, emptyDir: {{}}}}]}}}}\n",
     [("tensorboard-log-volume", "spec.roles.worker.volumes", Severity.WARNING)]),
    (PYTORCH + TENSORBOARD + f"  roles: {{master: {{volumes: [{RUNS}]}}}}\n", []),
    (MPI + TENSORBOARD + f"  volumes: [{RUNS}]\n  roles: {{launcher: {{volumes: []}}}}\n", []),
    (PYTORCH + TENSORBOARD, [("tensorboard-log-dir", "spec.tensorboard.logDir", Severity.ERROR)]),
])
def test_tensorboards_log_volume_with_role_volumes(body: str, expected: list) -> None:
    """The log volume may be a role's own; a role whose volumes leave it out is warned about."""
    assert [f for f in findings(body) if f[0].startswith("tensorboard")] == expected


def test_tensorboard_mounts_a_roles_log_volume() -> None:
    result = compile_body(PYTORCH + TENSORBOARD + f"  roles: {{master: {{volumes: [{RUNS}]}}}}\n")
    deployment = next(o for o in result.jobs[0].base if o["kind"] == "Deployment")
    assert deployment["spec"]["template"]["spec"]["volumes"] == [
        {"name": "runs", "persistentVolumeClaim": {"claimName": "runs", "readOnly": True}}]


def test_without_a_gang_the_pods_may_name_a_pod_group_of_their_own() -> None:
    body = MPI + "  annotations: {scheduling.k8s.io/group-name: mine}\n"
    assert "group-mark" not in [code for code, _, _ in findings(body)]


def test_a_role_conflict_with_an_environments_legacy_block_names_the_environment() -> None:
    body = MPI + "  roles: {launcher: {image: a:1}}\n  environments:\n    prod: {mpi: {launcher: {image: b:1}}}\n"
    [message] = [d.message for d in compile_body(body).diagnostics if d.code == "role-conflict"]
    assert message == ("the launcher's image is given twice, here and at environments.prod.mpi.launcher.image: "
                       "keep one")
