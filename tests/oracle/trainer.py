"""The TrainJob half of the differential tests: Kubeflow Trainer v2.3.0 against mpigen.

The oracle ``tests/oracle/trainer-v2.3`` (see its ``main.go``) runs the real runtime framework of
Trainer v2.3.0 -- every plugin, on a controller-runtime fake client holding the runtime and the
PriorityClasses -- after the API server's own pruning and defaulting on Trainer's CRDs, and prints
what ``NewObjects`` builds. Here each case is compared with :func:`mpigen.trainer.framework.build`:

* the defaulted TrainJob and runtime (mpigen's port of the CRDs' defaults against the API
  server's structural defaulting);
* the outcome: objects built / a webhook refuses the runtime or the TrainJob (and then the field
  paths it names) / the framework returns an error / Go panics;
* every object, by kind and name (PodGroup, SSH Secret, hostfile ConfigMap, JobSet), field for
  field once the oracle's ownerReferences and Go's empty values (``{}``, ``[]``, ``null``: the
  typed round trip writes ``metadata: {}`` and ``resources: {}``) are set aside; the runtime
  snapshot ConfigMap with its YAML read back;
* the warnings (a deprecated ClusterTrainingRuntime).

Where Go's plugin order is random (an xgboost runtime: the order of the TrainJob's env and the
DMLC_* variables, see :mod:`mpigen.trainer.ml`) the env must be the same set, and a different
order is a note (``ENV_ORDER_NOTE``), not a disagreement.

The runtimes are the upstream default runtimes, read from the Trainer module in the Go module
cache the oracle builds with (``base_runtimes``; never copied into the repository), varied by
the strategies (``strategies.trainer_cases``).

Used by ``harness.py`` (which owns the processes, the report and ``A/N cases agree``).
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import yaml

from mpigen.trainer import framework
from mpigen.trainer.info import TrainerError
from mpigen.trainer.mpi import Hostfile

MODULE = "trainer-v2.3"
VERSION = "trainer-v2.3.0"
TRAINER_MODULE = "github.com/kubeflow/trainer/v2@v2.3.0"
ENV_ORDER_NOTE = "trainer.env:plugin-order"
# The default runtimes of manifests/base/runtimes the strategies start from (file -> name).
BASE_RUNTIMES = {
    "torch_distributed.yaml": "torch-distributed",
    "deepspeed_distributed.yaml": "deepspeed-distributed",
    "jax_distributed.yaml": "jax-distributed",
    "xgboost_distributed.yaml": "xgboost-distributed",
    "data-cache/torch_distributed_with_cache.yaml": "torch-distributed-with-cache",
    "torchtune/llama3_2/llama3_2_1B.yaml": "torchtune-llama3.2-1b",
}
_GO_PATH = re.compile(r"((?:spec|metadata)(?:\.[A-Za-z]+|\[[A-Za-z0-9./-]+\])*): "
                      r"(?:Invalid value|Required value|Unsupported value|Duplicate value|Forbidden|Not found)")


def module_dir() -> Path:
    """The Trainer module in the oracle's Go module cache (present once the oracle was built)."""
    from tests.oracle.harness import GOMODCACHE

    return GOMODCACHE / "github.com" / "kubeflow" / "trainer" / "v2@v2.3.0"


def oracle_args() -> list[str]:
    return ["-crds", str(module_dir() / "manifests" / "base" / "crds")]


def base_runtimes() -> dict[str, dict[str, Any]]:
    """name -> the upstream default runtime (ClusterTrainingRuntime) of Trainer v2.3.0, read from
    the module (``go mod download`` fetches it into the oracle's module cache when missing)."""
    folder = module_dir() / "manifests" / "base" / "runtimes"
    if not folder.is_dir():
        import subprocess

        from tests.oracle.harness import ORACLE_DIR, go_env
        subprocess.run(["go", "mod", "download", "github.com/kubeflow/trainer/v2"], cwd=ORACLE_DIR / MODULE,
                       env=go_env(), check=True, capture_output=True)
    out = {}
    for path, name in BASE_RUNTIMES.items():
        runtime = yaml.safe_load((folder / path).read_text())
        assert runtime["metadata"]["name"] == name, (path, runtime["metadata"]["name"])
        out[name] = runtime
    return out


def request_of(case: dict) -> dict:
    return {"id": case["id"], "trainJob": case["trainJob"], "runtime": case["runtime"],
            "priorityClasses": case["priorityClasses"]}


# ------------------------------------------------------------------ normalizing


def normalized(obj: Any) -> Any:
    """Without the oracle's owner references, timestamps and Go's empty values."""
    if isinstance(obj, dict):
        out = {k: normalized(v) for k, v in obj.items()
               if k not in ("ownerReferences", "creationTimestamp", "resourceVersion", "managedFields")}
        return {k: v for k, v in out.items() if v not in ({}, [], None)}
    if isinstance(obj, list):
        return [normalized(v) for v in obj]
    if isinstance(obj, Hostfile):
        return str(obj)
    return obj


def _sorted_env(obj: Any) -> Any:
    """The same object with every container's env sorted by name (for the plugin-order note)."""
    if isinstance(obj, dict):
        out = {k: _sorted_env(v) for k, v in obj.items()}
        if isinstance(out.get("env"), list) and "name" in out:
            out["env"] = sorted(out["env"], key=lambda e: json.dumps(e, sort_keys=True))
        return out
    if isinstance(obj, list):
        return [_sorted_env(v) for v in obj]
    return obj


# ------------------------------------------------------------------ what mpigen says


@dataclass
class Expected:
    outcome: str  # "ok" | "refused" | "error" | "mpigen-error"
    detail: str = ""
    paths: list[str] = field(default_factory=list)  # of the TrainJob (webhook)
    runtime_paths: list[str] = field(default_factory=list)  # of the runtime (its webhook)
    trainjob: dict | None = None  # defaulted
    runtime: dict | None = None  # defaulted
    objects: dict[tuple[str, str], Any] = field(default_factory=dict)
    snapshot: dict | None = None
    warnings: list[str] = field(default_factory=list)
    built: Any = None

    # harness.Expected's fields that report() and coverage() read
    podgroup: dict | None = None
    min_resources_variants: list = field(default_factory=list)
    workers: int = 0


def go_path(path: tuple) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out


def expected(case: dict) -> Expected:
    try:
        trainjob, runtime = framework.prepared(case["trainJob"], case["runtime"])
        exp = Expected("ok", trainjob=trainjob, runtime=runtime)
        classes = {pc["name"]: pc["value"] for pc in case["priorityClasses"]}
        try:
            built = framework.build(case["trainJob"], case["runtime"], classes)
        except framework.Refused as exc:
            exp.outcome, exp.detail = "refused", str(exc)
            exp.paths = sorted({go_path(p) for p, _ in exc.problems if p[:1] != ("runtime",)})
            exp.runtime_paths = sorted({go_path(p[1:]) for p, _ in exc.problems if p[:1] == ("runtime",)})
            return exp
        except TrainerError as exc:
            exp.outcome, exp.detail = "error", str(exc)
            return exp
        exp.built = built
        exp.objects = {(o["kind"], o["metadata"]["name"]): normalized(o) for o in built.objects}
        exp.snapshot = normalized(built.snapshot)
        exp.warnings = built.warnings
        exp.podgroup = built.podgroup
        exp.workers = sum(ps.count for ps in built.info.pod_sets)
        return exp
    except Exception as e:  # a crash of mpigen's port is a disagreement, not a harness failure
        return Expected("mpigen-error", f"{type(e).__name__}: {e}")


def outcome(response: dict) -> str:
    error = response.get("error") or ""
    if not error:
        return "ok"
    if error.startswith(("validation:", "runtime-validation:")):
        return "refused"
    if error.startswith("panic:"):
        return "panic"
    if error.startswith("build:"):
        return "error"
    return "oracle-error"


def compare(case: dict, response: dict, exp: Expected) -> list:
    from tests.oracle.harness import Disagreement

    out: list = []

    def dis(key: str, detail: str, note: bool = False) -> None:
        out.append(Disagreement(case["id"], case["version"], key, detail, note=note))

    if exp.outcome == "mpigen-error":
        dis("mpigen-error", f"mpigen raised {exp.detail}; Trainer: {response.get('error') or 'ok'}")
        return out
    defaulted = response.get("defaulted") or {}
    for key, mine in (("trainJob", exp.trainjob), ("runtime", exp.runtime)):
        if key in defaulted and normalized(defaulted[key]) != normalized(mine):
            dis(f"defaulted.{key}", f"API server {json.dumps(normalized(defaulted[key]))}, "
                                    f"mpigen {json.dumps(normalized(mine))}")
    got = outcome(response)
    if got != exp.outcome:
        dis(f"outcome {got}/{exp.outcome}", f"Trainer: {response.get('error') or 'built its objects'}"
            + (f" [{response['panicAt']}]" if response.get("panicAt") else "") + f"; mpigen: {exp.detail or 'builds'}")
        return out
    if got == "refused":
        paths = sorted(set(_GO_PATH.findall(response["error"])))
        mine = exp.runtime_paths if response["error"].startswith("runtime-validation:") else exp.paths
        if paths != mine:
            dis("validation.paths", f"Trainer refuses {paths} ({response['error'][:300]}), mpigen {mine} "
                                    f"({exp.detail[:300]})")
        return out
    if got != "ok":
        return out
    if sorted(response.get("warnings") or []) != sorted(exp.warnings):
        dis("warnings", f"Trainer {response.get('warnings')}, mpigen {exp.warnings}")
    theirs = {}
    for obj in response["objects"]:
        theirs[(obj["kind"], obj["metadata"]["name"])] = normalized(obj)
    if sorted(theirs) != sorted(exp.objects):
        dis("objects", f"Trainer built {sorted(theirs)}, mpigen {sorted(exp.objects)}")
    for key in sorted(set(theirs) & set(exp.objects)):
        if theirs[key] == exp.objects[key]:
            continue
        if _sorted_env(theirs[key]) == _sorted_env(exp.objects[key]) and exp.built.info.policy("xgboost") is not None:
            dis(ENV_ORDER_NOTE, f"{key[0]} {key[1]}: the env in another order", note=True)
            continue
        dis(f"object.{key[0]}", _difference(theirs[key], exp.objects[key]))
    snapshot = response.get("snapshot")
    if snapshot is None:
        dis("snapshot", "Trainer applied no runtime snapshot")
    else:
        snapshot = dict(snapshot, data={k: yaml.safe_load(v) for k, v in (snapshot.get("data") or {}).items()})
        mine = copy.deepcopy(exp.snapshot)
        snapshot = normalized(snapshot)
        for obj in (snapshot, mine):  # the typed ConfigMap read back has no TypeMeta
            obj.pop("apiVersion", None)
            obj.pop("kind", None)
        for data in (snapshot["data"], mine["data"]):  # the object's TypeMeta: Go's client drops it
            for key in ("apiVersion", "kind"):
                data["runtime"].pop(key, None)
        if snapshot != mine:
            dis("snapshot", _difference(snapshot, mine))
    return out


def _difference(theirs: Any, mine: Any, path: str = "") -> str:
    """The first place two JSON values differ, for a readable disagreement."""
    if isinstance(theirs, dict) and isinstance(mine, dict):
        for key in sorted(set(theirs) | set(mine)):
            if theirs.get(key) != mine.get(key):
                return _difference(theirs.get(key), mine.get(key), f"{path}.{key}")
    if isinstance(theirs, list) and isinstance(mine, list) and len(theirs) == len(mine):
        for i, (a, b) in enumerate(zip(theirs, mine)):
            if a != b:
                return _difference(a, b, f"{path}[{i}]")
    return f"{path or '.'}: Trainer {json.dumps(theirs)[:600]}, mpigen {json.dumps(mine)[:600]}"


def coverage_keys(result: Any) -> Iterator[str]:
    case, exp = result.case, result.expected
    yield f"trainer outcome {outcome(result.response)}"
    if exp.outcome != "ok" or outcome(result.response) != "ok":
        return
    info = exp.built.info
    policy = next((p for p in ("torch", "mpi", "jax", "xgboost") if info.policy(p) is not None), "plain")
    yield f"trainer {policy} {case['gang'] or 'no-gang'}"
    if exp.podgroup is not None and exp.podgroup["spec"].get("minResources"):
        yield f"trainer minResources {case['gang']}"
    trainer = case["trainJob"]["spec"].get("trainer") or {}
    per_node = trainer.get("resourcesPerNode") or {}
    gpu_limits = any("gpu" in n for n in per_node.get("limits") or {})
    if gpu_limits and not any("gpu" in n for n in per_node.get("requests") or {}):
        yield "trainer GPU limits only"
    nproc = exp.built.num_proc_per_node
    if policy == "torch":
        kind = "int" if "numProcPerNode" in trainer else "auto" if nproc == "auto" else "cpu"
        yield f"trainer numProcPerNode {kind}"
    if policy == "mpi":
        yield "trainer numProcPerNode " + ("int" if "numProcPerNode" in trainer else "gpu" if nproc not in (1, None)
                                           and "numProcPerNode" not in trainer else "runtime")
    if any(pc["name"] == (pod or {}).get("priorityClassName") for pc in case["priorityClasses"]
           for pod in _pod_specs(case["runtime"])):
        yield "trainer priority class"
    if case["runtime"]["kind"] == "TrainingRuntime":
        yield "trainer TrainingRuntime"
    if case["trainJob"]["spec"].get("runtimePatches"):
        yield "trainer runtime patches"
    if exp.workers >= 1000:
        yield "trainer 1000+ nodes"
    if case["id"].startswith(BUILT_PREFIX):
        yield "trainer built from a spec"
        if case["runtime"]["kind"] == "TrainingRuntime":
            yield "trainer built on a copy"
    pods = list(_pod_specs(case["runtime"]))
    for field in ("hostNetwork", "initContainers", "resourceClaims", "topologySpreadConstraints"):
        if any(pod.get(field) for pod in pods):
            yield f"trainer pods' {field}"


def _pod_specs(runtime: dict) -> Iterator[dict]:
    for rjob in ((runtime.get("spec") or {}).get("template") or {}).get("spec", {}).get("replicatedJobs") or []:
        yield (((rjob.get("template") or {}).get("spec") or {}).get("template") or {}).get("spec") or {}


# ------------------------------------------------------------------ shrinking


def _variants(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """(path, smaller value) pairs: a key or list item left out, a number made small."""
    if isinstance(value, dict):
        for key in list(value):
            yield path + (key,), ...
        for key, v in value.items():
            yield from _variants(v, path + (key,))
    elif isinstance(value, list):
        for i in range(len(value)):
            yield path + (i,), ...
        for i, v in enumerate(value):
            yield from _variants(v, path + (i,))
    elif isinstance(value, int) and not isinstance(value, bool) and value > 2:
        yield path, 2


def _with(case: dict, path: tuple, value: Any) -> dict:
    new = copy.deepcopy(case)
    node = new
    for key in path[:-1]:
        node = node[key]
    if value is ...:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return new


def shrink(case: dict, still_disagrees, budget: int = 600) -> dict:
    """Greedy: leave out anything of the TrainJob, the runtime or the PriorityClasses that the
    disagreement does not need."""
    current = copy.deepcopy(case)
    progress = True
    while progress and budget > 0:
        progress = False
        for root in ("trainJob", "runtime", "priorityClasses"):
            for path, value in _variants(current[root], (root,)):
                if path[-1:] in (("apiVersion",), ("kind",), ("name",), ("metadata",), ("spec",)) and len(path) <= 3:
                    continue
                candidate = _with(current, path, value)
                budget -= 1
                if still_disagrees(candidate):
                    current, progress = candidate, True
                    break
                if budget <= 0:
                    break
            if progress or budget <= 0:
                break
    return current


# ------------------------------------------------------------------ fixed cases


def _with_policy(runtime: dict, policy: dict | None) -> dict:
    runtime = copy.deepcopy(runtime)
    if policy is not None:
        runtime["spec"]["podGroupPolicy"] = policy
    return runtime


def fixed_case(case_id: str, runtime: dict, trainer: dict | None = None, *, policy: dict | None = None,
               priority_classes: list[dict] | None = None, name: str = "pi", namespace: str = "default") -> dict:
    """A case on ``runtime`` (with ``podGroupPolicy`` = ``policy`` when given)."""
    runtime = _with_policy(runtime, policy)
    spec: dict = {"runtimeRef": {"name": runtime["metadata"]["name"], "kind": runtime["kind"]}}
    if trainer is not None:
        spec["trainer"] = trainer
    return {"id": case_id, "version": VERSION, "gang": next(iter(runtime["spec"].get("podGroupPolicy") or {""})),
            "priorityClasses": priority_classes or [], "runtime": runtime,
            "trainJob": {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob",
                         "metadata": {"name": name, "namespace": namespace}, "spec": spec}}


EXAMPLES = ("torch-coscheduling", "torch-volcano", "deepspeed-volcano", "deepspeed-namespaced", "torchtune",
            "jax-plain")


def example_cases() -> list[dict]:
    """TrainJobs on the upstream default runtimes, as a user would write them (ids: ``EXAMPLES``):
    the torch and MPI runtimes under both gang schedulers, GPUs as limits only, torchtune, a
    namespaced runtime."""
    bases = base_runtimes()
    gpus = {"requests": {"cpu": "8", "memory": "32Gi"}, "limits": {"nvidia.com/gpu": 4}}
    namespaced = copy.deepcopy(bases["deepspeed-distributed"])
    namespaced["kind"] = "TrainingRuntime"
    namespaced["metadata"]["namespace"] = "research"
    volcano_queue = copy.deepcopy(bases["torch-distributed"])
    volcano_queue["spec"]["template"]["metadata"] = {"annotations": {"scheduling.volcano.sh/queue-name": "research"}}
    volcano_queue["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"][
        "priorityClassName"] = "high"
    return [
        fixed_case("torch-coscheduling", bases["torch-distributed"], {"numNodes": 4, "resourcesPerNode": gpus},
                   policy={"coscheduling": {}}),
        fixed_case("torch-volcano", volcano_queue, {"numNodes": 2, "env": [{"name": "NCCL_DEBUG", "value": "INFO"}],
                                                    "resourcesPerNode": {"requests": {"cpu": "6"}}},
                   policy={"volcano": {}}, priority_classes=[{"name": "high", "value": 1000}]),
        fixed_case("deepspeed-volcano", bases["deepspeed-distributed"], {"numNodes": 3, "resourcesPerNode": gpus},
                   policy={"volcano": {}}),
        fixed_case("deepspeed-namespaced", namespaced, {"numNodes": 2, "numProcPerNode": 2},
                   policy={"coscheduling": {"scheduleTimeoutSeconds": 300}}, namespace="research"),
        fixed_case("torchtune", bases["torchtune-llama3.2-1b"], {"command": ["tune", "run"]},
                   policy={"coscheduling": {}}),
        fixed_case("jax-plain", bases["jax-distributed"], {"numNodes": 2}),
    ]


def example_case(case_id: str) -> dict:
    return next(c for c in example_cases() if c["id"] == case_id)


# ------------------------------------------------------------------ TrainJobs mpigen builds from specs

BUILT_PREFIX = "b"


def built_cases(n: int, seed: int = 0) -> list[dict]:
    """The TrainJobs ``mpigen build`` writes for random TrainJob specs (``tests/random_specs.py``:
    ``trainjob_variant``, with the production pod fields, per-role settings and pod template patches
    among them): each environment's TrainJob with the TrainingRuntime copy written beside it, else
    the default runtime it names, and a PriorityClass for every class the specs may name (ids
    ``b0``, ``b1``, ...). ``n`` cases at most; the specs are drawn with ``seed``."""
    import random

    from mpigen.load.trainer_runtimes import default_runtimes
    from mpigen.load.yaml_loader import load_text
    from mpigen.pipeline import Options, compile_specs
    from tests.random_specs import PRIORITY_CLASSES, random_specs, spec_yaml, trainjob_variant

    rng = random.Random(seed)
    classes = [{"name": name, "value": 1000 * (i + 1)} for i, name in enumerate(PRIORITY_CLASSES)]
    defaults = default_runtimes()
    out: list[dict] = []
    count = max(n, 1)
    while len(out) < n:
        for name, doc in random_specs(seed * 7919 + count, count):
            variant = trainjob_variant(rng, doc)
            if variant is None:
                continue
            result = compile_specs(load_text(spec_yaml(variant), f"{name}.yaml"), f"{name}.yaml", Options())
            if not result.ok:  # a random spec is valid: that would be build's bug, which the other tests find
                continue
            job = result.jobs[0]
            for env in [None, *job.environments]:
                objects = {obj["kind"]: obj for obj in job.objects(env)}
                trainjob = objects["TrainJob"]
                runtime = copy.deepcopy(objects.get("TrainingRuntime") or defaults.find(
                    trainjob["spec"]["runtimeRef"]["kind"], trainjob["spec"]["runtimeRef"]["name"]))
                trainjob = copy.deepcopy(trainjob)
                for obj in (trainjob, runtime) if runtime["kind"] == "TrainingRuntime" else (trainjob,):
                    obj["metadata"].setdefault("namespace", "default")  # as kubectl applies them
                out.append({"id": f"{BUILT_PREFIX}{len(out)}", "version": VERSION,
                            "gang": next(iter(runtime["spec"].get("podGroupPolicy") or {""})),
                            "priorityClasses": copy.deepcopy(classes), "runtime": runtime, "trainJob": trainjob})
            if len(out) >= n:
                break
        count += n
    return out[:n]
