"""The rule modules, in the order their findings are documented. One module per rule.

The order goes from what stops an object from being accepted at all (API version, metadata,
replica counts, names), through what the API server refuses in the pods the operator creates (the
``pod-*`` rules, the Pod validation of Kubernetes; they also read Deployments) and in the other
objects mpigen writes or reads (Deployment, Service, ConfigMap, Secret, PriorityClass), and what
makes the MPI run itself fail (ranks, SSH), to gang scheduling, and ends with pod-level hygiene
(networking, sidecars, credentials). The Kubeflow Trainer rules (TrainJob, TrainingRuntime,
ClusterTrainingRuntime) come after the gang rules. ``_common`` and ``_trainer`` hold shared helpers.
"""

RULE_MODULES: tuple[str, ...] = (
    "legacy_api_version",
    "object_meta",
    "zero_replicas",
    "count_overflow",
    "container_name",
    "hostname",
    "pod_containers",
    "pod_ports",
    "pod_env",
    "pod_volumes",
    "pod_resources",
    "pod_probes",
    "pod_scheduling",
    "pod_security",
    "pod_spec",
    "deployment_spec",
    "service_spec",
    "config_data",
    "priority_class_spec",
    "hostfile_too_large",
    "slots_np_mismatch",
    "slots_gpu_mismatch",
    "worker_no_sshd",
    "ssh_path_non_root",
    "launcher_gpu",
    "clean_pod_policy_none",
    "scheduler_name_mismatch",
    "launcher_wait_gang_deadlock",
    "min_available_too_large",
    "min_resources_mismatch",
    "decimal_quantity_multiplied",
    "schedule_timeout_zero",
    "queue_ignored",
    "volcano_queue_name",
    "kueue_ignored",
    "priority_class_not_on_pods",
    "trainjob_runtime_missing",
    "trainjob_patch_target_missing",
    "trainer_limit_only_resource",
    "trainer_volcano_priority_class",
    "trainer_volcano_scheduler_name",
    "trainer_depends_on_gang_deadlock",
    "host_network_dns",
    "istio_sidecar",
    "plaintext_credential",
)

OBJECT_SERVER_RULES: tuple[str, ...] = ("object_meta", "deployment_spec", "service_spec", "config_data",
                                        "priority_class_spec")
"""The rules that port the API server's validation of an object itself (the ``pod-*`` rules port
its validation of the Pods an operator creates from a template): what they find, the API server
refuses when the object is applied."""
