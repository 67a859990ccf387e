"""Hypothesis strategies for the differential tests: random MPIJobs and the cluster around them.

A *case* is a plain dict::

    {"id": "c17", "version": "v0.8.2" | "v0.8.0" | "v0.4.0", "gang": "volcano" | "scheduler-plugins" | "",
     "schedulerName": "...", "priorityClasses": [{"name": ..., "value": ...}], "mpijob": {...}}

which is, minus ``version``, the request line the oracle programs read (``harness.py`` adds
``maxPods``). The MPIJob is what the API server would hand the controller, before defaulting.

What varies (the issue's list): Worker replicas 0..10,000 or absent (and the Worker spec absent),
one to three containers per replica, requests and limits in every quantity format (DecimalSI,
BinarySI, DecimalExponent, milli, fractional, large, JSON numbers), the resource names cpu,
memory, nvidia.com/gpu and example.com/x; PriorityClasses present, absent, equal, launcher higher
or lower (values are drawn from a small set so that ties are frequent); every schedulingPolicy
field set or not; the Volcano queue annotation; pod templates that already carry a
schedulerName, the group annotation or the group label; both gang schedulers (and none, rarely);
the runPolicy fields the launcher Job copies; every operator version. Most jobs are valid, so that
PodGroups get compared; some are not (Worker replicas 0 or unset, a Launcher with 2 replicas or
none, a job name too long for its hostnames), which checks that mpigen and the operator reject the
same jobs.

Large replica counts cost the oracle real time (the controller creates every worker Pod), so
the replica count is drawn from size classes: mostly small, sometimes up to 300, about one case
in twenty up to 10,000.
"""

from __future__ import annotations

import contextlib

from hypothesis import strategies as st

VERSIONS = ("v0.8.2", "v0.8.0", "v0.4.0")
GANGS = ("volcano", "scheduler-plugins")
RESOURCE_NAMES = ("cpu", "memory", "nvidia.com/gpu", "example.com/x")
PRIORITY_CLASS_NAMES = ("high", "low", "mid")
VOLCANO_QUEUE_ANNOTATION = "scheduling.volcano.sh/queue-name"
GROUP_ANNOTATION = "scheduling.k8s.io/group-name"
GROUP_LABEL = "scheduling.x-k8s.io/pod-group"
SCHEDULER_NAMES = ("scheduler-plugins-scheduler", "default-scheduler", "my-scheduler")
# A 52-character name: "<name>-worker-<i>" exceeds 63 characters from 1,000 workers on.
LONG_NAME = "a-rather-long-training-job-name-for-hostname-checks-x"
JOB_NAMES = ("pi", "job", "tensorflow-benchmarks", LONG_NAME)

DECIMAL_SUFFIXES = ("", "n", "u", "m", "k", "M", "G", "T", "P", "E")
BINARY_SUFFIXES = ("Ki", "Mi", "Gi", "Ti", "Pi", "Ei")


@st.composite
def _number_text(draw) -> str:
    """An unsigned decimal: integer, fractional, with leading zeros or a bare fraction."""
    kind = draw(st.integers(0, 5))
    if kind <= 2:
        return str(draw(st.one_of(st.integers(0, 16), st.integers(0, 10**6), st.integers(0, 10**20))))
    whole = draw(st.integers(0, 4096))
    frac = draw(st.text("0123456789", min_size=1, max_size=draw(st.sampled_from([1, 3, 10]))))
    if kind == 3:
        return f"{whole}.{frac}"
    if kind == 4:
        return f".{frac}"
    return f"0{whole}"


@st.composite
def quantity_texts(draw) -> str:
    """A quantity string in any format apimachinery parses."""
    fmt = draw(st.sampled_from(["decimal", "milli", "binary", "exponent", "large", "fixed"]))
    sign = draw(st.sampled_from(["", "", "", "", "", "", "", "", "+", "-"]))
    number = draw(_number_text())
    if fmt == "decimal":
        return sign + number + draw(st.sampled_from(DECIMAL_SUFFIXES))
    if fmt == "milli":
        return sign + number + "m"
    if fmt == "binary":
        return sign + number + draw(st.sampled_from(BINARY_SUFFIXES))
    if fmt == "exponent":
        e = draw(st.sampled_from(["e", "E"]))
        exp = draw(st.integers(-12, 21))
        exp_sign = "+" if exp >= 0 and draw(st.booleans()) else ""
        return f"{sign}{number}{e}{exp_sign}{exp}"
    if fmt == "large":
        return sign + draw(st.sampled_from(["12E", "9Ei", "8Ei", "1000P", "1Pi", "999999999999999999999",
                                            "9223372036854775807", "9223372036854775808", "1e30", "7E"]))
    return draw(st.sampled_from(["1", "500m", "1Gi", "1024Mi", "960000", "1.5", "0.5", "2", "100Mi",
                                 "1k", "1e3", "0", "250m", "4", "16Gi", "1500m"]))


def quantities():
    """A quantity as the MPIJob holds it: mostly a string, sometimes a JSON number."""
    return st.one_of(
        quantity_texts(), quantity_texts(), quantity_texts(),
        st.integers(0, 2**53),
        st.sampled_from([0.5, 1.5, 0.25, 2.0, 1e-07, 1e16, 1e21, 123.456, 0.1]),
    )


def resource_lists(min_size: int = 0):
    return st.dictionaries(st.sampled_from(RESOURCE_NAMES), quantities(), min_size=min_size, max_size=4)


@st.composite
def resources(draw) -> dict | None:
    """A container's resources: requests and/or limits, possibly empty, possibly absent."""
    shape = draw(st.sampled_from(["none", "requests", "limits", "both", "both", "empty"]))
    if shape == "none":
        return None
    if shape == "empty":
        return draw(st.sampled_from([{}, {"requests": {}}, {"limits": {}}, {"requests": {}, "limits": {}}]))
    out = {}
    if shape in ("requests", "both"):
        out["requests"] = draw(resource_lists(min_size=1))
    if shape in ("limits", "both"):
        out["limits"] = draw(resource_lists(min_size=1))
    return out


@st.composite
def containers(draw, role: str) -> list[dict]:
    out = []
    for i in range(draw(st.integers(1, 3))):
        container = {"name": f"{role}-{i}", "image": "mpioperator/mpi-pi:openmpi"}
        res = draw(resources())
        if res is not None:
            container["resources"] = res
        out.append(container)
    return out


@st.composite
def templates(draw, role: str, gang: str) -> dict:
    spec: dict = {"containers": draw(containers(role))}
    if draw(st.integers(0, 2)):
        spec["priorityClassName"] = draw(st.sampled_from(PRIORITY_CLASS_NAMES + ("missing",)))
    if draw(st.integers(0, 5)) == 0:
        spec["schedulerName"] = draw(st.sampled_from(["default-scheduler", "volcano", "other"]))
    if draw(st.integers(0, 5)) == 0:
        spec["initContainers"] = [{"name": "init", "image": "busybox",
                                   "resources": {"requests": {"cpu": "100", "memory": "64Gi"}}}]
    template: dict = {"spec": spec}
    metadata: dict = {}
    if draw(st.integers(0, 5)) == 0:
        metadata["annotations"] = {GROUP_ANNOTATION: "other", "sidecar.istio.io/inject": "false"}
    if draw(st.integers(0, 5)) == 0:
        metadata["labels"] = {GROUP_LABEL: "other", "team": "vision"}
    if metadata:
        template["metadata"] = metadata
    return template


@st.composite
def worker_replicas(draw) -> int:
    size = draw(st.integers(0, 19))
    if size < 15:
        return draw(st.integers(0, 8))
    if size < 19:
        return draw(st.integers(0, 300))
    return draw(st.one_of(st.just(10_000), st.integers(0, 10_000)))


@st.composite
def scheduling_policies(draw, version: str, workers: int | None) -> dict | None:
    if not draw(st.integers(0, 2)):
        return None
    policy: dict = {}
    if draw(st.booleans()):
        guess = (workers or 0) + 1
        policy["minAvailable"] = draw(st.one_of(
            st.sampled_from([0, 1, 2, guess, guess - 1, guess + 1, max(guess // 2, 1)]),
            st.integers(-1, 10_001)))
    if draw(st.booleans()):
        policy["queue"] = draw(st.sampled_from(["", "research", "default"]))
    if draw(st.booleans()):
        policy["minResources"] = draw(resource_lists())
    if draw(st.booleans()):
        policy["priorityClass"] = draw(st.sampled_from(("",) + PRIORITY_CLASS_NAMES + ("missing",)))
    if draw(st.booleans()):
        policy["scheduleTimeoutSeconds"] = draw(st.sampled_from([0, 1, 60, 600, 2**31 - 1]))
    return policy


@st.composite
def priority_classes(draw) -> list[dict]:
    names = draw(st.lists(st.sampled_from(PRIORITY_CLASS_NAMES), unique=True, max_size=3))
    # A small value set makes equal priorities (the map-order case) frequent.
    return [{"name": n, "value": draw(st.sampled_from([0, 1, 100, 1000, -5, 2_000_000_000]))} for n in names]


@st.composite
def cases(draw, versions=VERSIONS, gangs=GANGS) -> dict:
    version = draw(st.sampled_from(versions))
    gang = draw(st.sampled_from(gangs)) if draw(st.integers(0, 15)) else ""
    name = draw(st.sampled_from(JOB_NAMES))
    metadata: dict = {"name": name, "namespace": draw(st.sampled_from(["default", "research"]))}
    if draw(st.integers(0, 2)) == 0:
        metadata["annotations"] = {VOLCANO_QUEUE_ANNOTATION: draw(st.sampled_from(["q-annotated", ""]))}

    specs: dict = {}
    if draw(st.integers(0, 30)):  # almost always a Launcher (the operator requires one)
        launcher: dict = {"template": draw(templates("launcher", gang))}
        shape = draw(st.integers(0, 12))
        if shape < 6:
            launcher["replicas"] = 1
        elif shape == 12:
            launcher["replicas"] = draw(st.sampled_from([0, 2]))  # invalid
        specs["Launcher"] = launcher
    workers: int | None = None
    worker_shape = draw(st.integers(0, 12))
    if worker_shape > 0:
        worker: dict = {"template": draw(templates("worker", gang))}
        if worker_shape > 1:  # else replicas is unset: defaulted to 0, which the operator rejects
            workers = draw(worker_replicas())
            worker["replicas"] = workers
        specs["Worker"] = worker
    # (worker_shape == 0: no Worker at all, a launcher-only job.)

    spec: dict = {"mpiReplicaSpecs": specs}
    run_policy: dict = {}
    policy = draw(scheduling_policies(version, workers))
    if policy is not None:
        run_policy["schedulingPolicy"] = policy
    if draw(st.integers(0, 3)) == 0:
        run_policy["cleanPodPolicy"] = draw(st.sampled_from(["Running", "None", "All"]))
    for field in ("ttlSecondsAfterFinished", "activeDeadlineSeconds", "backoffLimit"):  # the launcher Job's
        if draw(st.integers(0, 7)) == 0:
            run_policy[field] = draw(st.sampled_from([0, 1, 600]))
    if run_policy:
        spec["runPolicy"] = run_policy
    if draw(st.integers(0, 3)) == 0:
        spec["slotsPerWorker"] = draw(st.integers(1, 8))
    if version != "v0.4.0" and draw(st.integers(0, 5)) == 0:  # v0.5.0+ fields
        spec["runLauncherAsWorker"] = draw(st.booleans())
    if version != "v0.4.0" and draw(st.integers(0, 5)) == 0:
        spec["launcherCreationPolicy"] = draw(st.sampled_from(["AtStartup", "WaitForWorkersReady"]))

    case = {
        "version": version,
        "gang": gang,
        "schedulerName": draw(st.sampled_from(SCHEDULER_NAMES)) if gang == "scheduler-plugins" else "",
        "priorityClasses": draw(priority_classes()),
        "mpijob": {"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob", "metadata": metadata, "spec": spec},
    }
    return case


def draw_cases(n: int, seed: int = 0, **kwargs) -> list[dict]:
    """``n`` cases from :func:`cases`, reproducible for a given seed (and Hypothesis version).

    Hypothesis drives the generation (its example database and shrinking are off: the harness
    shrinks disagreements itself, against the oracle). Cases are drawn in chunks of 250, each
    with its own seed derived from ``seed``: one long run slows down as it grows.
    """
    return _draw(n, seed, kwargs, cases, "c")


def _draw(n: int, seed: int, kwargs: dict, strategy, prefix: str) -> list[dict]:
    drawn: list[dict] = []
    chunk = 0
    while len(drawn) < n:
        drawn.extend(_draw_chunk(min(n - len(drawn), 250), seed * 1_000_003 + chunk, kwargs, strategy))
        chunk += 1
    for i, case in enumerate(drawn[:n]):
        case["id"] = f"{prefix}{i}"
    return drawn[:n]


@contextlib.contextmanager
def _without_local_constants():
    """Hypothesis mixes literals found in every *imported* local module into its draws, so the
    same seed gives other cases under pytest than under the harness. Turn that off (a private
    hook; without it, generation merely depends on the imported modules)."""
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # pragma: no cover
        yield
        return
    original = getattr(providers, "_get_local_constants", None)
    if original is None or not hasattr(providers, "Constants"):  # pragma: no cover
        yield
        return
    empty = providers.Constants()
    providers._get_local_constants = lambda: empty
    try:
        yield
    finally:
        providers._get_local_constants = original


def _draw_chunk(n: int, seed: int, kwargs: dict, strategy=None) -> list[dict]:
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed

    drawn: list[dict] = []

    @hypothesis_seed(seed)
    @settings(max_examples=n, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given((strategy or cases)(**kwargs))
    def collect(case: dict) -> None:
        drawn.append(case)

    with _without_local_constants():
        collect()
    return drawn[:n]


# ------------------------------------------------------------------ PyTorchJob and TFJob (training-operator v1.9.4)

TRAINING_VERSION = "training-v1.9.4"
TRAINING_FRAMEWORKS = {"PyTorchJob": ("pytorchReplicaSpecs", "pytorch"), "TFJob": ("tfReplicaSpecs", "tensorflow")}


@st.composite
def training_replicas(draw, minimum: int) -> int | None:
    """Unset, or 0..10,000 in size classes (mostly small: the oracle creates every Pod)."""
    size = draw(st.integers(0, 39))
    if size < 4:
        return None
    if size < 34:
        return draw(st.integers(minimum, 6))
    if size < 39:
        return draw(st.integers(minimum, 300))
    return draw(st.one_of(st.just(10_000), st.integers(minimum, 10_000)))


@st.composite
def training_templates(draw, default_container: str) -> dict:
    containers = []
    n = draw(st.integers(1, 3))
    default_at = draw(st.integers(0, n - 1))
    for i in range(n):
        container = {"name": default_container if i == default_at else f"side-{i}", "image": "busybox"}
        res = draw(resources())
        if res is not None:
            container["resources"] = res
        if draw(st.integers(0, 6)) == 0:
            container["ports"] = [{"name": draw(st.sampled_from(["custom", "tfjob-port", "pytorchjob-port"])),
                                   "containerPort": 1234}]
        containers.append(container)
    spec: dict = {"containers": containers}
    if draw(st.integers(0, 2)):
        spec["priorityClassName"] = draw(st.sampled_from(PRIORITY_CLASS_NAMES + ("missing",)))
    if draw(st.integers(0, 7)) == 0:
        spec["schedulerName"] = draw(st.sampled_from(["default-scheduler", "volcano", "other"]))
    if draw(st.integers(0, 7)) == 0:
        spec["initContainers"] = [{"name": "init", "image": "busybox", "resources": {"requests": {"cpu": "100"}}}]
    template: dict = {"spec": spec}
    metadata: dict = {}
    if draw(st.integers(0, 7)) == 0:
        metadata["annotations"] = {GROUP_ANNOTATION: "other", "volcano.sh/task-spec": "other"}
    if draw(st.integers(0, 7)) == 0:
        metadata["labels"] = {GROUP_LABEL: "other", "team": "vision"}
    if metadata:
        template["metadata"] = metadata
    return template


@st.composite
def training_cases(draw, gangs=GANGS) -> dict:
    """A PyTorchJob or TFJob the training-operator's webhook accepts, and the cluster around it."""
    kind = draw(st.sampled_from(sorted(TRAINING_FRAMEWORKS)))
    key, default_container = TRAINING_FRAMEWORKS[kind]
    gang = draw(st.sampled_from(gangs))
    metadata: dict = {"name": draw(st.sampled_from(("pt", "job", "tensorflow-benchmarks"))),
                      "namespace": draw(st.sampled_from(["default", "research"]))}
    if draw(st.integers(0, 2)) == 0:
        metadata["annotations"] = {"scheduling.volcano.sh/queue-name": "q-annotated", "team": "vision"}
    specs: dict = {}
    if kind == "PyTorchJob":
        types = [t for t in ("Master", "Worker") if draw(st.integers(0, 5))] or ["Worker"]
    else:
        chief = draw(st.sampled_from([[], [], ["Chief"], ["Master"]]))
        types = [t for t in ("PS", "Worker", "Evaluator") if draw(st.integers(0, 2))] + chief or ["Worker"]
        types = [t.lower() if draw(st.integers(0, 9)) == 0 else t for t in types]  # camel-cased by defaults
    for rtype in types:
        replica: dict = {"template": draw(training_templates(default_container))}
        if rtype == "Master":  # the PyTorchJob webhook wants exactly 1, explicitly
            replica["replicas"] = 1
        else:
            replicas = draw(training_replicas(1 if kind == "PyTorchJob" else 0))
            if replicas is not None:
                replica["replicas"] = replicas
        if draw(st.integers(0, 4)) == 0:
            replica["restartPolicy"] = draw(st.sampled_from(["Never", "OnFailure", "Always", "ExitCode"]))
        specs[rtype] = replica
    total = sum(r.get("replicas", 1) for r in specs.values())
    run_policy: dict = {}
    if draw(st.integers(0, 2)):
        policy: dict = {}
        if draw(st.booleans()):
            policy["minAvailable"] = draw(st.one_of(
                st.sampled_from([0, 1, 2, total, total - 1, total + 1, max(total // 2, 1)]), st.integers(-1, 10_001)))
        if draw(st.booleans()):
            policy["queue"] = draw(st.sampled_from(["", "research", "default"]))
        if draw(st.integers(0, 3)) == 0:
            policy["minResources"] = draw(resource_lists())
        if draw(st.booleans()):
            policy["priorityClass"] = draw(st.sampled_from(("",) + PRIORITY_CLASS_NAMES + ("missing",)))
        if draw(st.booleans()):
            policy["scheduleTimeoutSeconds"] = draw(st.sampled_from([0, 1, 60, 2**31 - 1]))
        run_policy["schedulingPolicy"] = policy
    if draw(st.integers(0, 3)) == 0:
        run_policy["cleanPodPolicy"] = draw(st.sampled_from(["Running", "None", "All"]))
    if draw(st.integers(0, 20)) == 7:  # not 0: Hypothesis draws the bounds often
        run_policy["suspend"] = True
    spec: dict = {key: specs}
    if run_policy:
        spec["runPolicy"] = run_policy
    return {
        "version": TRAINING_VERSION,
        "gang": gang,
        "schedulerName": draw(st.sampled_from(SCHEDULER_NAMES)) if gang == "scheduler-plugins" else "",
        "priorityClasses": draw(priority_classes()),
        "job": {"apiVersion": "kubeflow.org/v1", "kind": kind, "metadata": metadata, "spec": spec},
    }


def draw_training_cases(n: int, seed: int = 0, **kwargs) -> list[dict]:
    """``n`` PyTorchJob/TFJob cases from :func:`training_cases` (ids ``t0``, ``t1``, ...)."""
    return _draw(n, seed, kwargs, training_cases, "t")


# ------------------------------------------------------------------ TrainJob (Kubeflow Trainer v2.3.0)

TRAINER_VERSION = "trainer-v2.3.0"
TRAINER_API = "trainer.kubeflow.org/v1alpha1"
ANCESTOR_LABEL = "trainer.kubeflow.org/trainjob-ancestor-step"
GPU_NAMES = ("nvidia.com/gpu", "amd.com/gpu")
# The upstream default runtimes the cases start from, by how often (torch and MPI dominate).
TRAINER_BASES = ("torch-distributed", "torch-distributed", "torch-distributed", "deepspeed-distributed",
                 "deepspeed-distributed", "mpi-launcher", "torch-distributed-with-cache", "torchtune-llama3.2-1b",
                 "jax-distributed", "xgboost-distributed")


def _counted(q) -> bool:
    """A quantity whose ``Value()`` Go computes exactly (below 2**62): CPUs and GPUs per node are
    counted with it, and beyond int64 Go overflows in representation-dependent ways that mpigen
    does not model (see mpigen.trainer.info.num_gpu_per_node)."""
    from mpigen.operator.podgroup import _parse

    try:
        return abs(_parse(q).value()) < 2**62
    except (ValueError, OverflowError):
        return False


def _valid_quantities(counted: bool = False):
    """Quantities an API server stores in a pod template: non-negative, in every format."""
    texts = quantity_texts().filter(lambda q: not q.startswith("-"))
    return st.one_of(
        st.sampled_from(["1", "2", "4", "8", "500m", "1500m", "0.5", "1Gi", "1024Mi", "16Gi", "960000", "1e3",
                         "100Mi", "1k", "0", "2.5", "3", "12", "64Gi", "1.5Gi"]),
        texts.filter(_counted) if counted else texts,
        st.integers(0, 64), st.sampled_from([0.5, 1.5, 2.0, 0.25]))


@st.composite
def _per_node(draw) -> dict:
    """``resourcesPerNode`` (or a runtime's node container resources): cpu, memory, GPUs -- a GPU
    often as a limit only, which the PodGroup's minResources (requests only) does not count."""
    out: dict = {}
    requests = {n: draw(_valid_quantities(counted=n == "cpu")) for n in ("cpu", "memory") if draw(st.integers(0, 2))}
    limits = {n: draw(_valid_quantities(counted=n == "cpu")) for n in ("cpu", "memory") if draw(st.integers(0, 4)) == 0}
    gpu = draw(st.integers(0, 5))
    if gpu:
        name = draw(st.sampled_from(GPU_NAMES)) if draw(st.integers(0, 4)) == 0 else GPU_NAMES[0]
        count = draw(st.sampled_from([1, 2, 4, 8, "1", "2", "8"]))
        if gpu <= 3:
            limits[name] = count  # limits only
        elif gpu == 4:
            requests[name] = limits[name] = count
        else:
            requests[name] = count
    if requests:
        out["requests"] = requests
    if limits:
        out["limits"] = limits
    return out


def _pod_spec(rjob: dict) -> dict:
    return rjob["template"]["spec"]["template"]["spec"]


@st.composite
def _runtime(draw, bases: dict, namespace: str) -> dict:
    """A variant of an upstream default runtime."""
    import copy as _copy

    base = draw(st.sampled_from(TRAINER_BASES))
    if base == "mpi-launcher":  # the MPI layout without runLauncherAsNode: launcher is the trainer
        runtime = _copy.deepcopy(bases["deepspeed-distributed"])
        runtime["metadata"]["name"] = "mpi-launcher"
        runtime["spec"]["mlPolicy"]["mpi"] = {"numProcPerNode": draw(st.sampled_from([1, 2, 4]))}
    else:
        runtime = _copy.deepcopy(bases[base])
    if draw(st.integers(0, 3)) == 0:
        runtime["kind"] = "TrainingRuntime"
        runtime["metadata"]["namespace"] = namespace
    spec = runtime["spec"]
    rjobs = spec["template"]["spec"]["replicatedJobs"]
    policy = draw(st.sampled_from(["none", "coscheduling", "coscheduling", "volcano", "volcano"]))
    if policy == "coscheduling":
        spec["podGroupPolicy"] = {"coscheduling": draw(st.sampled_from(
            [{}, {"scheduleTimeoutSeconds": 30}, {"scheduleTimeoutSeconds": 0}]))}
    elif policy == "volcano":
        volcano: dict = {}
        if draw(st.integers(0, 3)) == 0:
            volcano["networkTopology"] = draw(st.sampled_from([{}, {"mode": "soft"}, {"highestTierAllowed": 2},
                                                               {"mode": "hard", "highestTierAllowed": 3}]))
        spec["podGroupPolicy"] = {"volcano": volcano}
        if draw(st.integers(0, 2)) == 0:
            spec["template"].setdefault("metadata", {})["annotations"] = {
                "scheduling.volcano.sh/queue-name": draw(st.sampled_from(["research", "default"]))}
    if draw(st.integers(0, 4)) == 0:
        spec["mlPolicy"]["numNodes"] = draw(st.integers(1, 4))
    mpi = spec["mlPolicy"].get("mpi")
    if mpi is not None and draw(st.integers(0, 3)) == 0:
        mpi["numProcPerNode"] = draw(st.sampled_from([1, 2, 3]))
    if mpi is not None and draw(st.integers(0, 20)) == 0:
        mpi["mpiImplementation"] = ""  # the CRD's enum allows it; the MPI plugin returns an error
    for rjob in rjobs:
        pod = _pod_spec(rjob)
        node = next((c for c in pod["containers"] if c["name"] == "node"), None)
        if node is not None and draw(st.integers(0, 2)) == 0:
            node["resources"] = draw(_per_node())
        if node is not None and draw(st.integers(0, 5)) == 0:
            node["ports"] = draw(st.sampled_from([[{"containerPort": 8080}],
                                                  [{"name": "metrics", "containerPort": 9090}],
                                                  [{"containerPort": 29500, "name": "rdzv"}]]))
        if draw(st.integers(0, 3)) == 0:
            pod["priorityClassName"] = draw(st.sampled_from(PRIORITY_CLASS_NAMES))
        if draw(st.integers(0, 7)) == 0:
            pod["initContainers"] = [{"name": "warmup", "image": "busybox",
                                      "resources": {"requests": {"cpu": draw(_valid_quantities()), "memory": "2Gi"}}}]
            if draw(st.booleans()):
                pod["initContainers"][0]["restartPolicy"] = "Always"
        if draw(st.integers(0, 7)) == 0:
            pod["containers"].append({"name": "sidecar", "image": "busybox",
                                      "resources": {"requests": {"cpu": "100m", "memory": draw(_valid_quantities())}}})
        if node is not None and draw(st.integers(0, 6)) == 0:  # the runtime's own env, maybe overridden
            node["env"] = [{"name": "NCCL_DEBUG", "value": "WARN"}, {"name": "LOG", "value": "1"}]
        if draw(st.integers(0, 12)) == 0:  # pod-level requests and overhead count in PodRequests
            pod["resources"] = {"requests": {"cpu": draw(_valid_quantities()), "memory": "8Gi"}}
        if draw(st.integers(0, 12)) == 0:
            pod["overhead"] = {"cpu": "250m", "memory": draw(_valid_quantities())}
        labels = (rjob["template"].get("metadata") or {}).get("labels") or {}
        if labels.get(ANCESTOR_LABEL) is None and draw(st.integers(0, 5)) == 0:
            rjob["template"]["spec"]["parallelism"] = draw(st.integers(1, 3))
        _production_pod(draw, pod, node)
    if draw(st.integers(0, 6)) == 0:
        spec["template"]["spec"].setdefault("network", {})["subdomain"] = "net"
    if spec["mlPolicy"].get("torch") is not None and draw(st.integers(0, 5)) == 0:
        targets = [{"jobName": r["name"], "containerNames": [c["name"]]} for r in rjobs
                   for c in _pod_spec(r)["containers"] + _pod_spec(r).get("initContainers", []) if c["name"] != "node"]
        if targets:
            spec["mlPolicy"]["torch"]["envInjection"] = {"targets": targets[:1]}
    return runtime


def _production_pod(draw, pod: dict, node: dict | None) -> None:
    """What mpigen's TrainingRuntime copy writes into a runtime's pod template for a spec's
    production fields (mpigen/render/trainjob_pods.py): the host network, a runtime class, a spread,
    DRA claims (the node container claiming them: resourcesPerNode then drops them), ports, probes,
    envFrom."""
    if draw(st.integers(0, 9)) == 0:
        pod["hostNetwork"] = True
        pod["dnsPolicy"] = "ClusterFirstWithHostNet"
    if draw(st.integers(0, 12)) == 0:
        pod["runtimeClassName"] = "nvidia"
    if draw(st.integers(0, 12)) == 0:
        pod["topologySpreadConstraints"] = [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
                                             "whenUnsatisfiable": "ScheduleAnyway"}]
    if node is None:
        return
    if draw(st.integers(0, 9)) == 0:
        pod["resourceClaims"] = [{"name": "rdma", "resourceClaimTemplateName": "ib"}]
        node.setdefault("resources", {})["claims"] = [{"name": "rdma"}]
    if draw(st.integers(0, 12)) == 0:
        node["readinessProbe"] = {"tcpSocket": {"port": 9090}, "periodSeconds": 30}
    if draw(st.integers(0, 12)) == 0:
        node["envFrom"] = [{"configMapRef": {"name": "settings"}}]


@st.composite
def trainer_cases(draw, bases: dict) -> dict:
    """A TrainJob and the runtime it names (a variant of an upstream default runtime), and the
    cluster's PriorityClasses. Most are accepted by the webhooks; some are not (reserved env)."""
    namespace = draw(st.sampled_from(["default", "research"]))
    runtime = draw(_runtime(bases, namespace))
    name = draw(st.sampled_from(["pi", "train", "llm-finetune"]))
    ref: dict = {"name": runtime["metadata"]["name"]}
    if runtime["kind"] == "TrainingRuntime" or draw(st.integers(0, 3)) == 0:
        ref["kind"] = runtime["kind"]
    if draw(st.integers(0, 5)) == 0:
        ref["apiGroup"] = "trainer.kubeflow.org"
    trainer: dict = {}
    size = draw(st.integers(0, 39))
    if size >= 4:
        trainer["numNodes"] = draw(st.integers(1, 6)) if size < 36 else draw(
            st.one_of(st.just(10_000), st.integers(1, 300)))
    elif size == 3:  # the CRD sets no minimum
        trainer["numNodes"] = draw(st.sampled_from([0, -1]))
    if draw(st.integers(0, 2)) == 0:
        trainer["numProcPerNode"] = draw(st.integers(0, 8))
    if draw(st.integers(0, 2)):
        trainer["resourcesPerNode"] = draw(_per_node())
    if draw(st.integers(0, 2)) == 0:
        env = [{"name": "NCCL_DEBUG", "value": "INFO"}, {"name": "EMPTY", "value": ""},
               {"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}]
        trainer["env"] = env[:draw(st.integers(1, 3))]
        if draw(st.integers(0, 9)) == 0:  # refused by the torch or MPI webhook
            trainer["env"].append({"name": draw(st.sampled_from(["PET_NNODES", "OMPI_MCA_plm_rsh_args"])),
                                   "value": "1"})
    if draw(st.integers(0, 3)) == 0:
        trainer["image"] = "registry.example/train:1"
    command = None
    if runtime["metadata"]["name"].startswith("torchtune") and draw(st.integers(0, 2)):
        command = ["tune", "run"]
        if draw(st.booleans()):
            trainer["args"] = draw(st.sampled_from([["model.lora_attn_modules=[q_proj,v_proj]"],
                                                    ["model.quantize_base=True"], ["epochs=1"]]))
    elif draw(st.integers(0, 2)) == 0:
        command = ["python", "train.py"]
    if command is not None:
        trainer["command"] = command
    spec: dict = {"runtimeRef": ref}
    if trainer or draw(st.integers(0, 3)):
        spec["trainer"] = trainer
    if draw(st.integers(0, 15)) == 7:
        spec["suspend"] = True
    if draw(st.integers(0, 5)) == 0:
        spec["runtimePatches"] = [draw(_runtime_patch(runtime))]
        if draw(st.integers(0, 2)) == 0:  # a second manager's patch, merged over the first
            spec["runtimePatches"].append(dict(draw(_runtime_patch(runtime)), manager="example.com/tuner"))
    initializers = {r["name"] for r in runtime["spec"]["template"]["spec"]["replicatedJobs"]} & {
        "dataset-initializer", "model-initializer"}
    if initializers and draw(st.integers(0, 2)) == 0:
        source: dict = {"storageUri": "hf://org/data"}
        if draw(st.booleans()):
            source["env"] = [{"name": "HF_TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf", "key": "token"}}}]
        if draw(st.booleans()):
            source["secretRef"] = {"name": "creds"}
        spec["initializer"] = {draw(st.sampled_from(["dataset", "model"])): source}
    gang = next(iter((runtime["spec"].get("podGroupPolicy") or {"": None})))
    return {
        "version": TRAINER_VERSION,
        "gang": gang,
        "priorityClasses": draw(priority_classes()),
        "trainJob": {"apiVersion": TRAINER_API, "kind": "TrainJob",
                     "metadata": {"name": name, "namespace": namespace}, "spec": spec},
        "runtime": runtime,
    }


@st.composite
def _runtime_patch(draw, runtime: dict) -> dict:
    """A runtime patch as Kueue writes them (labels/annotations, node selector, tolerations) or as
    mpigen does for a spec's pod fields (the other fields of Trainer's PodSpecPatch: affinity, the
    pod's and a container's securityContext, volumes and mounts, imagePullSecrets,
    serviceAccountName, schedulingGates, terminationGracePeriodSeconds)."""
    rjob = draw(st.sampled_from(runtime["spec"]["template"]["spec"]["replicatedJobs"]))
    pod: dict = {}
    if draw(st.integers(0, 3)) == 0:
        pod["affinity"] = draw(st.sampled_from([
            {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "gpu", "operator": "Exists"}]}]}}},
            {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 10, "podAffinityTerm": {
                "topologyKey": "kubernetes.io/hostname", "labelSelector": {"matchLabels": {"a": "b"}}}}]}}]))
    if draw(st.booleans()):
        pod["nodeSelector"] = {"cloud.example/pool": draw(st.sampled_from(["a100", "h100"]))}
    if draw(st.integers(0, 3)) == 0:
        pod["securityContext"] = draw(st.sampled_from([{"runAsUser": 1000}, {"fsGroup": 2000, "runAsNonRoot": True}]))
    if draw(st.integers(0, 5)) == 0:
        pod["serviceAccountName"] = "trainer"
    if draw(st.integers(0, 5)) == 0:
        pod["imagePullSecrets"] = [{"name": "regcred"}]
    if draw(st.integers(0, 7)) == 0:
        pod["schedulingGates"] = [{"name": "example.com/gate"}]
    if draw(st.integers(0, 7)) == 0:
        pod["terminationGracePeriodSeconds"] = draw(st.sampled_from([0, 120]))
    if draw(st.booleans()):
        pod["tolerations"] = [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
    if draw(st.integers(0, 3)) == 0:
        pod["volumes"] = [{"name": "scratch", "emptyDir": {"sizeLimit": draw(st.sampled_from(["1Gi", "1000M"]))}}]
    sidecars = [c["name"] for c in _pod_spec(rjob)["containers"] if c["name"] not in
                ("node", "dataset-initializer", "model-initializer")]
    mains = [c["name"] for c in _pod_spec(rjob)["containers"] if c["name"] == "node"]
    if sidecars and draw(st.booleans()):
        pod["containers"] = [{"name": sidecars[0], "env": [{"name": "SIDE", "value": "1"}],
                              "volumeMounts": [{"name": "scratch", "mountPath": "/scratch"}]}]
    elif mains and draw(st.integers(0, 3)) == 0:  # as mpigen writes the spec's volumes and securityContext
        container: dict = {"name": "node", "volumeMounts": [{"name": "scratch", "mountPath": "/scratch"}]}
        if draw(st.booleans()):
            container["securityContext"] = {"capabilities": {"add": ["IPC_LOCK"]}}
        pod["containers"] = [container]
    elif draw(st.integers(0, 5)) == 0:  # env for the node container: the webhook refuses it
        pod["containers"] = [{"name": "node", "env": [{"name": "X", "value": "1"}]}]
    template: dict = {"spec": {"replicatedJobs": [{"name": rjob["name"], "template": {"spec": {"template": {
        "metadata": {"labels": {"kueue.x-k8s.io/podset": rjob["name"]}}, "spec": pod}}}}]}}
    if draw(st.booleans()):
        template["metadata"] = {"annotations": {"scheduling.volcano.sh/queue-name": "patched"}}
    return {"manager": "kueue.x-k8s.io/manager", "trainingRuntimeSpec": {"template": template}}


def draw_trainer_cases(n: int, seed: int = 0, **kwargs) -> list[dict]:
    """``n`` TrainJob cases from :func:`trainer_cases` (ids ``r0``, ``r1``, ...), on the upstream
    default runtimes of the Trainer module the oracle builds with (``trainer.base_runtimes``)."""
    from tests.oracle import trainer

    if n <= 0:
        return []
    kwargs.setdefault("bases", trainer.base_runtimes())
    return _draw(n, seed, kwargs, trainer_cases, "r")
