"""Hypothesis strategies for hostile input: mutated specs, mutated manifests, mutated YAML text.

Three families, each starting from the project's own valid inputs so that mutations reach deep
into the pipeline instead of dying at the first schema check:

- :func:`mutated_specs`: a spec from ``specs/*.yaml`` with a few mutations. Half of them keep the
  shape the schema accepts (odd but legal values: 2**31-1 workers, ``1e-9`` CPUs, ``WaitForWorkersReady``
  with a gang, environments that null a required field...), so the check, expand, render and gang
  stages run; the others break it (wrong types, missing and extra keys, unicode keys and values,
  huge and negative numbers, odd quantities).
- :func:`mutated_manifests`: the documents of ``golden/*/base.yaml`` and
  ``tests/cases/lint/**/*.yaml``, mutated the same way with MPIJob-, PyTorchJob- and TFJob-shaped
  values (replicas, slots, quantities, schedulingPolicy, kinds and apiVersions swapped).
- :func:`mutated_yaml_bytes`: raw text of those files (or of a mutated document) with byte-level
  damage: flips, truncation, inserted tabs, CR, BOM, NUL and invalid UTF-8, anchors and aliases
  (defined, undefined, recursive), tags (standard, custom, Python object tags), flow brackets,
  document markers and directives.

Each strategy returns the file's bytes (what the CLI reads), except the dict-level helpers.
All text is surrogate-free (a lone surrogate cannot be encoded as UTF-8, so no file holds one);
astral characters (emoji, mathematical letters) are drawn on purpose.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable

import yaml
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]

SPEC_FILES = sorted((ROOT / "specs").glob("*.yaml"))
MANIFEST_FILES = sorted((ROOT / "golden").glob("*/base.yaml")) + sorted((ROOT / "tests" / "cases" / "lint").rglob("*.yaml"))
CLUSTER_FILE = ROOT / "specs" / "cluster" / "priorityclasses.yaml"
# Raw text seeds: every YAML file the project ships as an example or a test case.
TEXT_FILES = sorted(set(SPEC_FILES) | set(MANIFEST_FILES) | set((ROOT / "tests" / "cases").rglob("*.yaml"))
                    | {CLUSTER_FILE})


def _documents(path: Path) -> list[Any]:
    try:
        return [d for d in yaml.safe_load_all(path.read_text("utf-8")) if d is not None]
    except (yaml.YAMLError, UnicodeDecodeError):  # a deliberately broken test case: raw seed only
        return []


SPECS: list[dict[str, Any]] = [d for p in SPEC_FILES for d in _documents(p) if isinstance(d, dict)]
MANIFESTS: list[list[Any]] = [docs for docs in (_documents(p) for p in MANIFEST_FILES) if docs]
TEXTS: list[bytes] = [p.read_bytes() for p in TEXT_FILES]

# ------------------------------------------------------------------------------------- values

SURROGATE_FREE = st.characters(blacklist_categories=("Cs",))
ASTRAL = st.characters(min_codepoint=0x10000, max_codepoint=0x10FFFF, blacklist_categories=("Cs",))
TRICKY_CHARS = ["\n", "\r", "\r\n", "\t", "\x00", "\x07", "\x1b", "\x7f", "\x85", "\xa0", "\u2028", "\u2029",
                "\ufeff", "\ufffe", "\uffff", "\u202e", "\u200b", "'", '"', "#", ":", ": ", " #", "-", "- ",
                "{", "}", "[", "]", ",", "&", "*", "!", "|", ">", "%", "@", "`", "\\", " ", "  ", "?", "<<", "~",
                "$", "$(", ")", ";", "&&", "||", "\U0001F4A5", "\U0001D54F", "\u0301"]
TRICKY_STRINGS = [
    "", " ", "~", "null", "Null", "NULL", "yes", "no", "on", "off", "y", "n", "Y", "N", "true", "False",
    "1.10", "12:30", "190:20:30", "0o17", "0x1F", "0b101", "017", "1_000", "1e3", ".5", "+1", "-0", ".inf",
    "-.inf", ".nan", "<<", "=", "---", "...", "--- x", "- x", "a: b", "a:b", "#c", "x #c", "? x", "!tag",
    "&a", "*a", "|", ">-", "%YAML 1.1", "@x", "`id`", "{{ .Values.x }}", "{{", "}}", "${HOME}", "$(rm -rf /)",
    "a;b && c || d | e > f < g", "'\"'", "\\", "\\n", "2001-12-14", "2001-12-14t21:59:43.10-05:00",
    "\u202eevil", "\U0001F4A5", "\U0001D54F" * 3, "x" * 300, "a\nb", "a\n", "\n", " a ", "\ta", "a\r\nb",
    "\x00", "\ufeffa",
]
QUANTITIES = [
    "0", "1", "-1", "+1", "500m", "0.5", ".5", "5.", "1.5Gi", "1Ki", "1ki", "1k", "1K", "1M", "1Mi", "1e3",
    "1E3", "1e-9", "1e-10", "1e400", "-1e400", "1e18", "1e19", "9223372036854775807", "9223372036854775808",
    "18446744073709551616", "999999999999999999999Ei", "1Ei", "8Ei", "0.000000001", "0.0000000001", "1n",
    "1u", "1m", "1 Gi", "Gi", "1Gi ", " 1", "1..5", "0x10", "1_000", "NaN", "Infinity", "1e", "e3",
    "1.0e+3", "-0", "-0.0", "1.000000000000000000001", "123456789012345678901234567890", "1Pi", "1E",
    "1EiB", "½", "\u0661", "1\u00a0Gi", "\U0001D7CF",
]
HUGE_NUMBERS = [0, -1, 1, 2, 2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 2**53 + 1, 2**63 - 1, 2**63, -(2**63),
                -(2**63) - 1, 2**64, 10**30, -(10**30), 10**400]


def unicode_text(min_size: int = 0, max_size: int = 16) -> st.SearchStrategy[str]:
    """Text mixing any non-surrogate character, astral ones and YAML/shell metacharacters."""
    pieces = st.one_of(SURROGATE_FREE, ASTRAL, st.sampled_from(TRICKY_CHARS))
    return st.lists(pieces, min_size=min_size, max_size=max_size).map("".join)


numbers = st.one_of(
    st.integers(min_value=-(2**80), max_value=2**80),
    st.sampled_from(HUGE_NUMBERS),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.5, -0.5, 1e-9, 1e300, -1e300, 1.5e-310, 0.1 + 0.2, 2.0**63, 1e21, 1e22]),
)
quantities = st.one_of(st.sampled_from(QUANTITIES), st.integers(min_value=-(2**70), max_value=2**70),
                       st.floats(allow_nan=False, allow_infinity=False),
                       st.builds(lambda n, s: f"{n}{s}", st.integers(-(10**25), 10**25),
                                 st.sampled_from(["", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti",
                                                  "Pi", "Ei", "n", "u", "e3", "e-3", "E18", "e19"])))
scalars = st.one_of(st.none(), st.booleans(), numbers, unicode_text(), st.sampled_from(TRICKY_STRINGS), quantities)
keys = st.one_of(unicode_text(min_size=0, max_size=10),
                 st.sampled_from(["", "<<", "on", "y", "N", "1", "1.10", "null", "~", "apiVersion", "kind", "metadata",
                                  "spec", "name", "workers", "gpu", "cpu", "nvidia.com/gpu", "a/b", "-", "? x",
                                  "Launcher", "Worker", "replicas", "template", "containers", "environments"]))
values = st.recursive(scalars, lambda children: st.one_of(st.lists(children, max_size=3),
                                                          st.dictionaries(keys, children, max_size=3)),
                      max_leaves=8)

# ------------------------------------------------------------------- plausible (legal) values

job_names = st.one_of(st.sampled_from(["a", "job", "x" * 40, "a" * 49, "a" * 50, "a" * 63, "a" * 253, "a.b", "a-1",
                                       "1a", "a-", "A", "a_b", "a..b"]),
                      st.from_regex(r"[a-z]([-a-z0-9]{0,20}[a-z0-9])?", fullmatch=True))
dns_labels = st.from_regex(r"[a-z0-9]([-a-z0-9]{0,12}[a-z0-9])?", fullmatch=True)
ints_legal = st.one_of(st.integers(min_value=0, max_value=64), st.sampled_from([0, 1, 2**31 - 1, 2**31, 10_000]))
bounded = st.one_of(ints_legal, st.sampled_from([-1, 2**63 - 1, 2**63]))
resource_maps = st.dictionaries(
    st.sampled_from(["gpu", "cpu", "memory", "ephemeral-storage", "rdma/hca", "example.com/foo", "hugepages-2Mi"]),
    quantities, max_size=4)
env_values = st.one_of(unicode_text(), st.integers(min_value=-(2**70), max_value=2**70),
                       st.sampled_from(TRICKY_STRINGS),
                       st.builds(lambda n, k: {"secretKeyRef": {"name": n, "key": k}}, dns_labels, dns_labels))
env_maps = st.dictionaries(st.from_regex(r"[-._a-zA-Z][-._a-zA-Z0-9]{0,10}", fullmatch=True)
                           | st.sampled_from(["PATH", "OMPI_MCA_orte_default_hostfile", "K_MPI_JOB_ROLE", "N", "y"]),
                           env_values, max_size=4)
volumes = st.lists(st.fixed_dictionaries(
    {"claimName": st.one_of(dns_labels, unicode_text(min_size=1), st.sampled_from(["9lives", "UPPER", "---", "a" * 80])),
     "mountPath": st.one_of(st.sampled_from(["/data", "/", "/root/.ssh", "/etc/mpi", "/data/"]),
                            unicode_text().map(lambda s: "/" + s))},
    optional={"readOnly": st.booleans(), "subPath": unicode_text(), "name": dns_labels}), max_size=3)
ssh_paths = st.sampled_from(["/root/.ssh", "/root", "/root/", "/home/mpiuser/.ssh", "/", "//x", "/home/u/.ssh/",
                             "/root/.ssh/../../etc"])
string_fields = st.one_of(dns_labels, unicode_text(), st.sampled_from(TRICKY_STRINGS))

SPEC_FIELDS: dict[tuple[str, ...], st.SearchStrategy[Any]] = {
    ("metadata", "name"): job_names,
    ("metadata", "namespace"): st.one_of(dns_labels, st.sampled_from(["", "Default", "a" * 64])),
    ("metadata", "labels"): st.dictionaries(unicode_text(min_size=1, max_size=8), string_fields, max_size=3),
    ("metadata", "annotations"): st.dictionaries(
        st.sampled_from(["scheduling.volcano.sh/queue-name", "mpigen.dev/disable", "a/b", "note"]),
        string_fields, max_size=3),
    ("spec", "image"): string_fields,
    ("spec", "command"): st.lists(string_fields, min_size=1, max_size=4),
    ("spec", "workers"): bounded,
    ("spec", "slotsPerWorker"): st.one_of(st.integers(min_value=1, max_value=16), st.sampled_from([2**31 - 1])),
    ("spec", "resources"): resource_maps,
    ("spec", "resources", "gpu"): st.one_of(st.integers(0, 16), st.sampled_from(["0", "8", "99999999999999999999"])),
    ("spec", "priorityClassName"): st.sampled_from(["", "gpu-training", "launcher-low", "high-priority", "missing"]),
    ("spec", "imagePullPolicy"): st.sampled_from(["Always", "IfNotPresent", "Never"]),
    ("spec", "imagePullSecrets"): st.lists(dns_labels, max_size=2),
    ("spec", "serviceAccountName"): string_fields,
    ("spec", "nodeSelector"): st.dictionaries(dns_labels, string_fields, max_size=2),
    ("spec", "tolerations"): st.lists(st.fixed_dictionaries({}, optional={
        "key": dns_labels, "operator": st.sampled_from(["Exists", "Equal"]), "value": string_fields,
        "effect": st.sampled_from(["NoSchedule", "PreferNoSchedule", "NoExecute"]),
        "tolerationSeconds": st.integers(-(2**63), 2**63)}), max_size=2),
    ("spec", "mpi", "implementation"): st.sampled_from(["OpenMPI", "Intel", "MPICH"]),
    ("spec", "mpi", "extraArgs"): st.lists(string_fields, max_size=3),
    ("spec", "mpi", "sshAuthMountPath"): ssh_paths,
    ("spec", "mpi", "launcherCreationPolicy"): st.sampled_from(["AtStartup", "WaitForWorkersReady"]),
    ("spec", "mpi", "runLauncherAsWorker"): st.booleans(),
    ("spec", "mpi", "launcher", "image"): string_fields,
    ("spec", "mpi", "launcher", "resources"): resource_maps,
    ("spec", "mpi", "launcher", "priorityClassName"): st.sampled_from(["", "launcher-low", "gpu-training", "x"]),
    ("spec", "scheduling", "gang"): st.sampled_from(["volcano", "scheduler-plugins", "none"]),
    ("spec", "scheduling", "schedulerName"): string_fields,
    ("spec", "scheduling", "queue"): string_fields,
    ("spec", "scheduling", "priorityClass"): st.sampled_from(["", "high-priority", "launcher-low", "x"]),
    ("spec", "scheduling", "minAvailable"): bounded,
    ("spec", "scheduling", "minResources"): resource_maps,
    ("spec", "scheduling", "scheduleTimeoutSeconds"): bounded,
    ("spec", "runPolicy", "cleanPodPolicy"): st.sampled_from(["None", "Running", "All"]),
    ("spec", "runPolicy", "ttlSecondsAfterFinished"): bounded,
    ("spec", "runPolicy", "activeDeadlineSeconds"): st.one_of(bounded, st.sampled_from([2**63 - 1, 2**63])),
    ("spec", "runPolicy", "backoffLimit"): bounded,
    ("spec", "runPolicy", "suspend"): st.booleans(),
    ("spec", "env"): env_maps,
    ("spec", "volumes"): volumes,
}
ENV_NAMES = st.one_of(st.sampled_from(["dev", "prod", "a", "x.y", "e_1", "Prod", "-x", ""]), dns_labels)

_MPIJOB_REPLICA = ("spec", "mpiReplicaSpecs")
_CONTAINER = ("template", "spec", "containers", 0)
MANIFEST_FIELDS: dict[tuple[Any, ...], st.SearchStrategy[Any]] = {
    ("apiVersion",): st.sampled_from(["kubeflow.org/v2beta1", "kubeflow.org/v1", "kubeflow.org/v1alpha2",
                                      "kubeflow.org/v1alpha1", "v1", "batch/v1", "mpigen.dev/v1alpha1", "",
                                      "scheduling.volcano.sh/v1beta1", "a/b/c", "/"]),
    ("kind",): st.sampled_from(["MPIJob", "PyTorchJob", "TFJob", "List", "PodGroup", "PriorityClass", "TrainingJob",
                                "Pod", "", "mpijob"]),
    ("metadata", "name"): job_names,
    ("metadata", "namespace"): st.one_of(dns_labels, st.just("")),
    ("metadata", "annotations"): st.dictionaries(
        st.sampled_from(["mpigen.dev/disable", "scheduling.volcano.sh/queue-name", "sidecar.istio.io/inject"]),
        st.sampled_from(["all", "zero-replicas,hostname", "", "true", "false", "q"]), max_size=2),
    ("spec", "slotsPerWorker"): st.one_of(bounded, st.just(None)),
    ("spec", "runLauncherAsWorker"): st.booleans(),
    ("spec", "sshAuthMountPath"): ssh_paths,
    ("spec", "mpiImplementation"): st.sampled_from(["OpenMPI", "Intel", "MPICH", "mvapich", ""]),
    ("spec", "launcherCreationPolicy"): st.sampled_from(["AtStartup", "WaitForWorkersReady", "Later"]),
    ("spec", "runPolicy", "cleanPodPolicy"): st.sampled_from(["None", "Running", "All", "Sometimes"]),
    ("spec", "runPolicy", "suspend"): st.booleans(),
    ("spec", "runPolicy", "backoffLimit"): bounded,
    ("spec", "runPolicy", "managedBy"): st.sampled_from(["kubeflow.org/mpi-operator", "kueue.x-k8s.io/multikueue", "x"]),
    ("spec", "runPolicy", "schedulingPolicy", "minAvailable"): bounded,
    ("spec", "runPolicy", "schedulingPolicy", "queue"): string_fields,
    ("spec", "runPolicy", "schedulingPolicy", "priorityClass"): st.sampled_from(["", "high-priority", "x"]),
    ("spec", "runPolicy", "schedulingPolicy", "minResources"): st.dictionaries(
        st.sampled_from(["cpu", "memory", "nvidia.com/gpu"]), quantities, max_size=3),
    ("spec", "runPolicy", "schedulingPolicy", "scheduleTimeoutSeconds"): bounded,
    _MPIJOB_REPLICA + ("Launcher", "replicas"): bounded,
    _MPIJOB_REPLICA + ("Worker", "replicas"): bounded,
    _MPIJOB_REPLICA + ("Worker",): st.just(None),
    _MPIJOB_REPLICA + ("Launcher", "restartPolicy"): st.sampled_from(["OnFailure", "Never", "Always", "ExitCode"]),
    _MPIJOB_REPLICA + ("Worker", "template", "spec", "priorityClassName"): st.sampled_from(["", "gpu-training", "x"]),
    _MPIJOB_REPLICA + ("Worker", "template", "spec", "schedulerName"): st.sampled_from(
        ["volcano", "scheduler-plugins-scheduler", "default-scheduler", ""]),
    _MPIJOB_REPLICA + ("Launcher", "template", "spec", "hostNetwork"): st.booleans(),
    _MPIJOB_REPLICA + ("Launcher",) + _CONTAINER + ("command",): st.lists(string_fields, max_size=4),
    _MPIJOB_REPLICA + ("Launcher",) + _CONTAINER + ("resources", "limits"): resource_maps,
    _MPIJOB_REPLICA + ("Worker",) + _CONTAINER + ("resources", "requests"): st.dictionaries(
        st.sampled_from(["cpu", "memory", "nvidia.com/gpu"]), quantities, max_size=3),
    _MPIJOB_REPLICA + ("Worker",) + _CONTAINER + ("command",): st.lists(string_fields, max_size=3),
    _MPIJOB_REPLICA + ("Worker", "template", "spec", "containers"): st.lists(st.one_of(values, st.just({})), max_size=2),
    ("spec", "pytorchReplicaSpecs", "Master", "replicas"): bounded,
    ("spec", "tfReplicaSpecs", "Worker", "replicas"): bounded,
    ("items",): st.lists(values, max_size=2),
}

# ------------------------------------------------------------------------------ the mutator


def paths(obj: Any, path: tuple = ()) -> list[tuple]:
    """Every path in ``obj`` (the root excluded), depth first."""
    out = []
    if isinstance(obj, dict):
        for key, value in obj.items():
            out.append(path + (key,))
            out += paths(value, path + (key,))
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            out.append(path + (i,))
            out += paths(value, path + (i,))
    return out


def _get(obj: Any, path: tuple) -> Any:
    for part in path:
        obj = obj[part]
    return obj


def put(obj: dict, path: tuple, value: Any) -> None:
    """Set ``path`` in ``obj``, creating (or overwriting with) mappings and lists on the way."""
    node: Any = obj
    for i, part in enumerate(path[:-1]):
        following = path[i + 1]
        want = list if isinstance(following, int) else dict
        child = node[part] if (isinstance(node, dict) and part in node) or (
            isinstance(node, list) and isinstance(part, int) and part < len(node)) else None
        if not isinstance(child, want) or (want is list and following >= len(child)):
            child = [{}] * (following + 1) if want is list else {}
            child = [copy.deepcopy(c) for c in child] if want is list else child
            if isinstance(node, list):
                while len(node) <= part:
                    node.append(None)
            node[part] = child
        node = child
    last = path[-1]
    if isinstance(node, list):
        while len(node) <= last:
            node.append(None)
    node[last] = value


@st.composite
def mutate(draw: Callable, doc: Any, fields: dict[tuple, st.SearchStrategy[Any]], max_mutations: int = 4) -> Any:
    """``doc`` (deep-copied) after 1..max_mutations mutations, legal-looking or not."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(min_value=1, max_value=max_mutations))):
        existing = paths(doc)
        action = draw(st.sampled_from(["field", "field", "field", "set", "delete", "add", "retype", "empty",
                                       "swap", "null", "duplicate"]))
        if action == "field" or not existing or not isinstance(doc, dict):
            if not isinstance(doc, dict):
                doc = {}
            path = draw(st.sampled_from(sorted(fields, key=repr)))
            put(doc, path, draw(fields[path]))
            continue
        path = draw(st.sampled_from(existing))
        parent = _get(doc, path[:-1])
        current = parent[path[-1]]
        if action == "set":
            parent[path[-1]] = draw(values)
        elif action == "delete":
            del parent[path[-1]]
        elif action == "add" and isinstance(current, dict):
            current[draw(keys)] = draw(values)
        elif action == "add" and isinstance(current, list):
            current.insert(draw(st.integers(0, len(current))), draw(values))
        elif action == "add":  # a scalar grows a suffix
            parent[path[-1]] = str(current) + draw(unicode_text(min_size=1, max_size=3))
        elif action == "retype":
            parent[path[-1]] = draw(st.sampled_from([
                [current], {"value": current}, str(current), json.dumps(current, default=str), len(str(current)),
                -len(str(current)), float(len(str(current))) + 0.5, not current]))
        elif action == "empty":
            parent[path[-1]] = draw(st.sampled_from([{}, [], "", 0]))
        elif action == "swap":
            other = draw(st.sampled_from(existing))
            parent[path[-1]] = copy.deepcopy(_get(doc, other)) if other[:len(path)] != path else None
        elif action == "null":
            parent[path[-1]] = None
        elif action == "duplicate" and isinstance(current, list) and current:
            current.append(copy.deepcopy(draw(st.sampled_from(current))))
        elif action == "duplicate" and isinstance(current, dict) and current:
            key = draw(st.sampled_from(sorted(current, key=repr)))
            current[str(key) + draw(st.sampled_from(["", "s", "_", "\u200b", " "]))] = copy.deepcopy(current[key])
    return doc


@st.composite
def environments(draw: Callable) -> dict[str, Any]:
    """``spec.environments``: partial specs drawn from the spec fields, with nulls that remove."""
    out: dict[str, Any] = {}
    for name in draw(st.lists(ENV_NAMES, max_size=3, unique=True)):
        override: dict[str, Any] = {}
        for path in draw(st.lists(st.sampled_from([p for p in sorted(SPEC_FIELDS) if p[0] == "spec"]),
                                  max_size=3, unique=True)):
            put(override, path[1:], draw(st.one_of(SPEC_FIELDS[path], st.none())))
        out[name] = override
    return out


def dump(doc: Any, style: str) -> bytes:
    """A document as a user (or a tool) might have written it."""
    if style == "json":  # JSON is YAML; json.dumps writes NaN/Infinity, which YAML reads as strings
        return json.dumps(doc, ensure_ascii=False, indent=1, default=str).encode("utf-8")
    flow = style == "flow"
    text = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, default_flow_style=flow, width=10**9 if style == "wide" else 80)
    return text.encode("utf-8")


def dump_all(docs: list[Any], style: str) -> bytes:
    if style == "json":
        return b"\n---\n".join(dump(d, style) for d in docs)
    return yaml.safe_dump_all(docs, allow_unicode=True, sort_keys=False,
                              default_flow_style=style == "flow").encode("utf-8")


styles = st.sampled_from(["block", "block", "flow", "json", "wide"])


@st.composite
def mutated_spec_docs(draw: Callable) -> dict[str, Any]:
    """A spec from specs/*.yaml, mutated (a plain Python document)."""
    doc = copy.deepcopy(draw(st.sampled_from(SPECS)))
    if draw(st.booleans()) and isinstance(doc.get("spec"), dict):
        doc["spec"]["environments"] = draw(environments())
    return draw(mutate(doc, SPEC_FIELDS))


@st.composite
def mutated_specs(draw: Callable) -> bytes:
    """The bytes of a spec file: one mutated spec, sometimes two documents or a second copy."""
    doc = draw(mutated_spec_docs())
    style = draw(styles)
    extra = draw(st.sampled_from([[], [], [], ["copy"], ["other"]]))
    if not extra:
        return dump(doc, style)
    second = copy.deepcopy(doc) if extra == ["copy"] else draw(mutated_spec_docs())
    return dump_all([doc, second], style)


# -------------------------------------------------------- roles and pod-template patches

# A small spec per framework, its roles and its training container's name, for role_patch_specs.
_ROLE_BASES: dict[str, tuple[dict[str, Any], tuple[str, ...], str | None]] = {
    "mpi": ({"framework": "mpi", "image": "i:1", "command": ["python", "t.py"], "workers": 2,
             "resources": {"gpu": 2, "cpu": "4"}, "env": {"A": "1"}}, ("launcher", "worker"), None),
    "pytorch": ({"framework": "pytorch", "image": "i:1", "command": ["torchrun", "t.py"], "workers": 2,
                 "resources": {"gpu": 1}}, ("master", "worker"), "pytorch"),
    "tensorflow": ({"framework": "tensorflow", "image": "i:1", "command": ["python", "t.py"], "workers": 1,
                    "tensorflow": {"ps": {"replicas": 1}, "chief": {}}}, ("chief", "ps", "worker"), "tensorflow"),
}
_ODD = st.sampled_from([None, 0, 1, "x", "", True, [], {}, [None], [1], {"a": None}, "1.5", -1])
_PATCH_VALUES = st.recursive(_ODD, lambda inner: st.one_of(
    st.dictionaries(st.sampled_from(["limits", "requests", "name", "$patch", "image", "path"]), inner, max_size=2),
    st.lists(inner, max_size=2)), max_leaves=4)
_ROLE_VALUES = {"image": "j:2", "command": ["a"], "env": {"B": "2"}, "resources": {"cpu": 1}, "hostNetwork": True,
                "volumes": [{"name": "v2", "emptyDir": {}}], "sidecars": [{"name": "s", "image": "s:1"}],
                "nodeSelector": {"a": "b"}, "containerName": "main"}


def _patch_container(names: list[str | None]) -> st.SearchStrategy[dict[str, Any]]:
    fields = {
        "name": st.sampled_from(names),
        "resources": st.sampled_from([
            {"limits": {"nvidia.com/gpu": 1}}, {"limits": {"nvidia.com/gpu": "2"}}, {"limits": {"nvidia.com/gpu": "x"}},
            {"limits": {"nvidia.com/gpu": None}}, {"limits": {"nvidia.com/gpu": 2.5}}, None, "x",
            {"$patch": "replace"}, {"limits": None}, {"requests": {"cpu": "abc"}}, {"requests": {"cpu": [1]}}]),
        "$patch": st.sampled_from(["delete", "replace", "merge", "bogus"]),
        **{key: _PATCH_VALUES for key in ("env", "image", "command", "volumeMounts", "ports", "securityContext")},
    }
    return st.fixed_dictionaries({}, optional=fields).map(lambda c: {k: v for k, v in c.items() if v is not None
                                                                       or k != "name"})


def _pod_template_patches(container: str) -> st.SearchStrategy[dict[str, Any]]:
    """Pod-template patches, legal and not: directives, deleted and replaced lists, odd values."""
    names = [container, "side", None, "launcher", "worker"]
    pod = st.fixed_dictionaries({}, optional={
        "containers": st.one_of(st.lists(_patch_container(names), max_size=2),
                                st.sampled_from([None, {"name": "x"}, "x", [1]])),
        "volumes": st.sampled_from([[{"name": "v", "emptyDir": {}}], [{"name": "v", "$patch": "delete"}], [{}], None,
                                    [1, "x"], {"$patch": "replace"}]),
        "$patch": st.sampled_from(["delete", "replace"]),
        "$setElementOrder/containers": st.sampled_from([[{"name": "x"}], [], None, ["x"], [{"name": container}]]),
        **{key: _PATCH_VALUES for key in ("initContainers", "nodeSelector", "tolerations", "hostNetwork", "affinity",
                                          "priorityClassName", "overhead", "securityContext", "$retainKeys")},
    })
    return st.fixed_dictionaries({}, optional={
        "metadata": st.sampled_from([{"labels": {"a": "b"}}, {"labels": {"a": 1}}, {"labels": {"a": None}},
                                     {"annotations": None}, {}, {"$patch": "replace"}]),
        "$patch": st.sampled_from(["delete", "replace"]),
        "spec": pod,
    })


@st.composite
def role_patch_specs(draw: Callable) -> bytes:
    """A small spec of any framework whose roles and job carry settings and pod-template patches,
    nulls and odd values: what the roles, the patch and the gang decoration must survive. It has
    an environment ``prod``."""
    framework = draw(st.sampled_from(sorted(_ROLE_BASES)))
    base, roles, container = _ROLE_BASES[framework]
    spec = copy.deepcopy(base)
    if draw(st.booleans()):
        spec["scheduling"] = {"gang": draw(st.sampled_from(["volcano", "scheduler-plugins", "kube-batch", "kueue"])),
                              "queue": "q"}
    if draw(st.booleans()):
        spec["podTemplatePatch"] = draw(_pod_template_patches(container or roles[0]))
    chosen = draw(st.lists(st.sampled_from(roles), unique=True, max_size=len(roles)))
    if chosen:
        spec["roles"] = {}
    for role in chosen:
        settings: dict[str, Any] = {}
        if draw(st.booleans()):
            settings["podTemplatePatch"] = draw(_pod_template_patches(container or role))
        for key in draw(st.lists(st.sampled_from(sorted(_ROLE_VALUES)), unique=True, max_size=2)):
            settings[key] = draw(st.sampled_from([None, _ROLE_VALUES[key]]))
        spec["roles"][role] = settings
    last = roles[-1]  # an environment prod always, with a patch of its own or none
    spec["environments"] = {"prod": draw(st.one_of(st.just({}), _pod_template_patches(container or last).map(
        lambda patch: {"roles": {last: {"podTemplatePatch": patch}}})))}
    doc = {"apiVersion": "mpigen.dev/v1alpha1", "kind": "TrainingJob", "metadata": {"name": "j"}, "spec": spec}
    return dump(doc, draw(styles))


MPIJOB_MANIFESTS = [docs for docs in MANIFESTS if any(isinstance(d, dict) and d.get("kind") == "MPIJob" for d in docs)]


@st.composite
def mutated_manifest_docs(draw: Callable, mpijobs_only: bool = False) -> list[Any]:
    docs = copy.deepcopy(draw(st.sampled_from(MPIJOB_MANIFESTS if mpijobs_only else MANIFESTS)))
    i = draw(st.integers(0, len(docs) - 1))
    docs[i] = draw(mutate(docs[i], MANIFEST_FIELDS))
    if draw(st.integers(0, 5)) == 0:  # wrapped in a List, as kubectl get -o yaml prints
        docs = [{"apiVersion": "v1", "kind": "List", "items": docs}]
    return docs


@st.composite
def mutated_manifests(draw: Callable, mpijobs_only: bool = False) -> bytes:
    """The bytes of a manifest file: golden outputs and lint cases (or only those with an MPIJob), mutated."""
    return dump_all(draw(mutated_manifest_docs(mpijobs_only)), draw(styles))


# ------------------------------------------------------------------------- raw text damage

TOKENS = [
    b"\t", b"\r", b"\r\n", b"\n", b"\xef\xbb\xbf", b"\x00", b"\x07", b"\x1b", b"\x7f", b"\xc2\x85",
    b"\xe2\x80\xa8", b"\xff", b"\xfe", b"\xc0\x80", b"\xed\xa0\x80", b"\xf0\x9f\x92\xa5", b"\xf4\x90\x80\x80",
    b"\x80", b"\xe2\x82", b"---\n", b"--- ", b"...\n", b"%YAML 1.1\n", b"%YAML 1.3\n", b"%TAG !e! tag:e.com,2000:\n",
    b"&a ", b"*a", b"*undefined", b"&a [*a]", b"<<: *a\n", b"<<: [*a, *a]\n", b"<<: 1\n",
    b"!!python/object/apply:os.system ['true'] ", b"!!python/name:os.system ", b"!!int ", b"!!float ", b"!!bool ",
    b"!!str ", b"!!null ", b"!!binary ", b"!!timestamp ", b"!!set ", b"!!omap ", b"!!pairs ", b"!!map ", b"!!seq ",
    b"!custom ", b"!<tag:yaml.org,2002:int> ", b"!e!x ", b"!", b"? ", b"? [a]\n: b\n", b"{", b"}", b"[", b"]",
    b"[" * 300, b"{a: " * 210, b"- " * 250, b",", b": ", b":", b"- ", b"#", b" #", b"'", b'"', b"\\", b"|", b">",
    b"|-\n", b">+\n", b"|2\n", b"@", b"`", b"%", b"~", b"9" * 400, b"0x" + b"f" * 40, b".inf", b".nan", b"1e400",
    b"-" * 80, b"on", b"y", b"no", b"12:30", b"1.10", b"0o17", b"2001-12-14", b"2001-13-45",
    b"key: value\nkey: other\n", b"\"\\x\"", b"\"\\ud800\"", b"\"\\U0010ffff\"", b"\"\\U00110000\"", b"'''",
    b"\"unterminated", b"a" * 1000, b"    ", b"\n  \n", b" " * 500 + b"x",
]
ALIAS_BOMB_SMALL = b"a: &a [x, x, x, x]\nb: &b [*a, *a, *a, *a]\nc: &c [*b, *b, *b, *b]\nd: [*c, *c, *c, *c]\n"


@st.composite
def damage(draw: Callable, raw: bytes, max_edits: int = 4) -> bytes:
    """``raw`` after 1..max_edits byte- or line-level edits."""
    for _ in range(draw(st.integers(min_value=1, max_value=max_edits))):
        action = draw(st.sampled_from(["flip", "truncate", "insert", "insert", "insert_line", "delete", "dup_line",
                                       "swap_lines", "indent", "tab_indent", "crlf", "cr", "bom", "anchor",
                                       "tag", "splice"]))
        pos = draw(st.integers(min_value=0, max_value=len(raw)))
        lines = raw.split(b"\n")
        li = draw(st.integers(min_value=0, max_value=max(len(lines) - 1, 0)))
        if action == "flip" and raw:
            at = min(pos, len(raw) - 1)
            raw = raw[:at] + bytes([raw[at] ^ draw(st.integers(1, 255))]) + raw[at + 1:]
        elif action == "truncate":
            raw = raw[:pos]
        elif action == "insert":
            raw = raw[:pos] + draw(st.sampled_from(TOKENS)) + raw[pos:]
        elif action == "insert_line":
            lines.insert(li, draw(st.sampled_from(TOKENS + [ALIAS_BOMB_SMALL])).rstrip(b"\n"))
            raw = b"\n".join(lines)
        elif action == "delete":
            end = draw(st.integers(min_value=pos, max_value=min(len(raw), pos + 40)))
            raw = raw[:pos] + raw[end:]
        elif action == "dup_line":
            lines.insert(li, lines[li])
            raw = b"\n".join(lines)
        elif action == "swap_lines" and len(lines) > 1:
            lj = draw(st.integers(min_value=0, max_value=len(lines) - 1))
            lines[li], lines[lj] = lines[lj], lines[li]
            raw = b"\n".join(lines)
        elif action == "indent":
            lines[li] = b" " * draw(st.integers(1, 3)) + lines[li]
            raw = b"\n".join(lines)
        elif action == "tab_indent":
            stripped = lines[li].lstrip(b" ")
            lines[li] = b"\t" * max(1, (len(lines[li]) - len(stripped)) // 2) + stripped
            raw = b"\n".join(lines)
        elif action == "crlf":
            raw = raw.replace(b"\n", b"\r\n")
        elif action == "cr":
            raw = raw.replace(b"\n", b"\r")
        elif action == "bom":
            raw = draw(st.sampled_from([b"\xef\xbb\xbf", b"\xef\xbb\xbf\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"])) + raw
        elif action == "anchor":  # an anchor on one value, its alias (or an undefined one) somewhere else
            value_lines = [i for i, line in enumerate(lines) if b": " in line]
            if value_lines:
                i = draw(st.sampled_from(value_lines))
                lines[i] = lines[i].replace(b": ", b": &anc ", 1)
                j = draw(st.sampled_from(value_lines))
                key, _, _ = lines[j].partition(b": ")
                lines[j] = key + b": " + draw(st.sampled_from([b"*anc", b"*nope", b"[*anc, *anc]", b"{<<: *anc}"]))
                raw = b"\n".join(lines)
        elif action == "tag":
            value_lines = [i for i, line in enumerate(lines) if b": " in line or line.lstrip().startswith(b"- ")]
            if value_lines:
                i = draw(st.sampled_from(value_lines))
                sep = b": " if b": " in lines[i] else b"- "
                tag = draw(st.sampled_from([t for t in TOKENS if t.startswith(b"!")]))
                lines[i] = lines[i].replace(sep, sep + tag, 1)
                raw = b"\n".join(lines)
        elif action == "splice":  # a piece of another file
            other = draw(st.sampled_from(TEXTS))
            start = draw(st.integers(0, len(other)))
            raw = raw[:pos] + other[start:start + draw(st.integers(0, 200))] + raw[pos:]
    return raw


@st.composite
def mutated_yaml_bytes(draw: Callable, sources: list[bytes] | None = None) -> bytes:
    """Raw YAML bytes with byte-level damage: a shipped file, or a mutated spec or manifest."""
    seed = draw(st.one_of(st.sampled_from(sources or TEXTS), mutated_specs(), mutated_manifests()))
    return draw(damage(seed))


@st.composite
def spec_bytes_damaged(draw: Callable) -> bytes:
    """A spec's bytes with text damage (for ``mpigen build``: mostly specs, so errors are deep)."""
    seed = draw(st.one_of(st.sampled_from([p.read_bytes() for p in SPEC_FILES]), mutated_specs()))
    return draw(damage(seed, max_edits=2))
