"""``mpigen import manifest`` over the upstream releases' own example jobs: the round trip.

For every job manifest of the pinned releases' examples (mpi-operator's examples/v2beta1,
training-operator's examples/, Kubeflow Trainer's examples/: tests/upstream_corpus.py's ``job_manifests``):
the spec it prints, built, gives the same objects as the manifest: ``mpigen explain --format
yaml`` of the one and of the other (the manifest as ``mpigen migrate`` makes it current, when it
is of a retired version; a TrainJob's spec in a folder beside copies of the manifest and of the
files beside it, whose runtimes explain reads as import read them) are the same, but for the
annotation ``sidecar.istio.io/inject: "false"`` that mpigen writes on every job on purpose (and,
under Kueue, which suspends a job with a queue name when it is created, a JobSet's ``suspend``).
A manifest the spec cannot express is refused (exit 1, nothing printed) with located diagnostics
of documented codes, each listed with its reason. The test prints ``A/N upstream job manifests
round-trip``.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from mpigen.api import read_beside
from mpigen.main import cli
from mpigen.render.pods import ISTIO_INJECT
from tests.upstream_corpus import ROOT, job_manifests

MANIFESTS = job_manifests()
ROUND_TRIPS = 21
"""Those that round-trip now: fewer is a regression (more: raise it)."""
KUEUE_QUEUE = "kueue.x-k8s.io/queue-name"
LOCATED = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): error (?P<code>[a-z0-9-]+) ")


def _errors_documented() -> set[str]:
    text = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    return set(re.findall(r"^\| `([a-z0-9-]+)` \|", text, re.M))


def _run(args: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def _objects(text: str, kueue: bool) -> list:
    """explain's documents, without mpigen's Istio annotation on the pods, the launcher Job's and
    the JobSet's pod templates (``kueue``: without the JobSet's ``suspend``, which Kueue owns)."""
    out = []
    for obj in yaml.safe_load_all(text):
        holders = [obj, (obj.get("spec") or {}).get("template") if obj.get("kind") == "Job" else None]
        if obj.get("kind") == "JobSet":
            holders += [((r.get("template") or {}).get("spec") or {}).get("template") for r in
                        obj["spec"].get("replicatedJobs") or []]
            if kueue:
                obj["spec"].pop("suspend", None)
        for holder in holders:
            annotations = ((holder or {}).get("metadata") or {}).get("annotations")
            if isinstance(annotations, dict) and annotations.get(ISTIO_INJECT) == "false":
                del annotations[ISTIO_INJECT]
                if not annotations:
                    del holder["metadata"]["annotations"]
                    if not holder["metadata"]:
                        del holder["metadata"]
        out.append(obj)
    return out


def _explain_differs(manifest: Path, spec: Path, config: Path) -> str | None:
    kueue = any(KUEUE_QUEUE in str(((obj or {}).get("metadata") or {}).get("labels") or {})
                for obj in yaml.safe_load_all(manifest.read_text(encoding="utf-8")))
    code, want, err = _run(["explain", "--format", "yaml", "--config", str(config), str(manifest)])
    assert code == 0, err
    code, got, err = _run(["explain", "--format", "yaml", "--config", str(config), str(spec)])
    assert code == 0, err
    want_objects, got_objects = _objects(want, kueue), _objects(got, kueue)
    for a, b in zip(want_objects, got_objects):
        if a != b:
            return f"{a.get('kind')} {a['metadata']['name']} differs:\n{yaml.safe_dump(a)}\n---\n{yaml.safe_dump(b)}"
    if len(want_objects) != len(got_objects):
        return f"{len(want_objects)} objects for the manifest, {len(got_objects)} for the spec"
    return None


def test_upstream_job_manifests_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert len(MANIFESTS) == 28, "the releases' example jobs are 28: is tests/cases/upstream/ whole?"
    config = tmp_path / ".mpigen.yaml"  # the defaults, whatever configuration the checkout has
    config.write_text("{}\n", encoding="utf-8")
    documented = _errors_documented()
    passed, refused, problems = [], [], []
    for index, manifest in enumerate(MANIFESTS):
        code, spec, err = _run(["import", "manifest", "--config", str(config), str(manifest.file)])
        if code != 0:
            errors = [line for line in err.splitlines() if ": error " in line]
            refused.append(f"{manifest.path}:\n  " + "\n  ".join(e.replace(f"{manifest.file}:", "") for e in errors))
            if code != 1 or not errors or spec:
                problems.append(f"{manifest.path}: exit {code}, {len(errors)} errors, "
                                f"{'a spec printed' if spec else 'nothing printed'}:\n{err}")
            for line in errors:
                found = LOCATED.match(line)
                if not found or found["code"] not in documented:
                    problems.append(f"{manifest.path}: not a located diagnostic of a documented code: {line}")
            continue
        current = manifest.file
        if "kubeflow.org/v1 MPIJob" in manifest.kinds:  # a retired MPIJob: explain reads it migrated
            current = tmp_path / f"migrated-{index}.yaml"
            migrated, text, err = _run(["migrate", str(manifest.file), "-o", str(current)])
            assert migrated == 0, err
        folder = tmp_path / f"case-{index}"  # a TrainJob's spec beside the manifest's runtimes
        folder.mkdir()
        if manifest.holds(["TrainJob"]):  # the manifest and the files beside it, whose runtimes import read
            shutil.copy(manifest.file, folder / "manifest.yaml")
            for path in read_beside([str(manifest.file)]):
                shutil.copy(path, folder / f"beside-{Path(path).name}")
        written = folder / "spec.yaml"
        written.write_text(spec, encoding="utf-8")
        differing = _explain_differs(current, written, config)
        if differing:
            problems.append(f"{manifest.path}: the spec builds another job: {differing}")
        else:
            passed.append(manifest.path)
    with capsys.disabled():
        print(f"\n{len(passed)}/{len(MANIFESTS)} upstream job manifests round-trip")
        for reason in refused:
            print(reason)
    assert not problems, "\n".join(problems)
    assert len(passed) >= ROUND_TRIPS, f"{len(passed)} round-trip, {ROUND_TRIPS} did before"


def _without_jobset_metadata(docs: list[dict[str, Any]]) -> None:
    for patch in docs[0]["spec"]["runtimePatches"]:
        del patch["trainingRuntimeSpec"]["template"]["metadata"]


def _with_initializer_mount(docs: list[dict[str, Any]]) -> None:
    runtime = next(d for d in docs if d["kind"] == "TrainingRuntime")
    rjob = next(r for r in runtime["spec"]["template"]["spec"]["replicatedJobs"] if r["name"] == "dataset-initializer")
    container = rjob["template"]["spec"]["template"]["spec"]["containers"][0]
    container["volumeMounts"] = [{"name": "initializer", "mountPath": "/workspace"}]


REFUSED_FOR = {
    "trainer@v2.3.0/examples/yaml/02-runtime-patches.yaml": _without_jobset_metadata,
    "trainer@v2.3.0/examples/yaml/05-multi-step.yaml": _with_initializer_mount,
}
"""Trainer's example TrainJobs the spec cannot express, each with the one change that takes away
what its diagnostics say: the JobSet's labels and annotations, the initializer mount Trainer's
webhook asks for."""


@pytest.mark.parametrize("path", sorted(REFUSED_FOR))
def test_refused_trainer_examples_round_trip_without_what_is_refused(path: str, tmp_path: Path) -> None:
    """A refusal's reason is the whole reason: without it, the example round-trips."""
    manifest = next(m for m in MANIFESTS if m.path == path)
    docs = [d for d in yaml.safe_load_all(manifest.file.read_text(encoding="utf-8")) if d]
    code, _, err = _run(["import", "manifest", str(manifest.file)])
    assert code == 1, err
    REFUSED_FOR[path](docs)
    config = tmp_path / ".mpigen.yaml"
    config.write_text("{}\n", encoding="utf-8")
    changed = tmp_path / "manifest.yaml"
    changed.write_text(yaml.safe_dump_all(docs, sort_keys=False), encoding="utf-8")
    code, spec, err = _run(["import", "manifest", "--config", str(config), str(changed)])
    assert code == 0, err
    written = tmp_path / "spec.yaml"
    written.write_text(spec, encoding="utf-8")
    assert _explain_differs(changed, written, config) is None


MIGRATED = 10
"""The upstream jobs ``mpigen migrate --to trainjob`` converts without a loss (a floor)."""


def test_upstream_jobs_migrated_to_trainjobs_round_trip(tmp_path: Path) -> None:
    """Every upstream example job that ``mpigen migrate --to trainjob`` converts without a loss (a
    TrainJob, most often beside the TrainingRuntime migrate writes for it, which is no copy mpigen
    writes: the spec names it as it is), imported: the spec, beside the migrated file, explains as
    the migrated file does."""
    config = tmp_path / ".mpigen.yaml"
    config.write_text("{}\n", encoding="utf-8")
    migrated = 0
    for index, manifest in enumerate(job_manifests(("mpi-operator", "training-operator"))):
        folder = tmp_path / f"case-{index}"
        folder.mkdir()
        current = folder / "manifest.yaml"
        code, _, _ = _run(["migrate", "--to", "trainjob", str(manifest.file), "-o", str(current)])
        if code != 0:
            continue
        code, spec, err = _run(["import", "manifest", "--config", str(config), str(current)])
        assert code == 0, (manifest.path, err)
        written = folder / "spec.yaml"
        written.write_text(spec, encoding="utf-8")
        assert _explain_differs(current, written, config) is None, manifest.path
        migrated += 1
    assert migrated >= MIGRATED


SEED = 20
RANDOM_SPECS = 120


def test_random_specs_built_imported_and_built_again() -> None:
    """Random specs (tests/random_specs.py), and each with production pod fields, roles and patches
    (``production_variant``): the job built from each environment, imported, builds again to the very
    same job (so to the same objects), with no finding of the import's own."""
    import random

    from mpigen.emit.yaml_emit import dump
    from mpigen.importers.manifest import ImportOptions, import_job
    from mpigen.importers.roundtrip import differences
    from mpigen.load.yaml_loader import load_text
    from mpigen.pipeline import Options, compile_specs
    from tests.random_specs import production_variant, random_specs, spec_yaml

    rng = random.Random(SEED)
    jobs = variants = 0
    for name, doc in random_specs(SEED, RANDOM_SPECS):
        for source in (doc, production_variant(rng, doc)):
            compiled = compile_specs(load_text(spec_yaml(source), f"{name}.yaml"), f"{name}.yaml", Options())
            if source is doc:
                assert compiled.jobs, [d.format() for d in compiled.diagnostics]
            elif not compiled.jobs:
                continue  # a variant the spec rules refuse
            variants += source is not doc
            for objects in [compiled.jobs[0].base, *compiled.jobs[0].environments.values()]:
                job = next((o for o in objects if o["kind"] in ("MPIJob", "PyTorchJob", "TFJob")), None)
                if job is None:  # a TrainJob
                    continue
                result = import_job(job, ImportOptions(beside=tuple(o for o in objects if o is not job)))
                assert result.findings == [], (name, result.findings)
                text = dump(result.spec)
                again = compile_specs(load_text(text, "imported.yaml"), "imported.yaml", Options())
                assert again.ok, (name, text, [d.format() for d in again.diagnostics])
                rebuilt = next(o for o in again.jobs[0].base if o["kind"] == job["kind"])
                assert rebuilt == job, (name, text, differences(job, rebuilt, result.gang, result.options))
                groups = [o for o in objects if o["kind"] == "PodGroup"]  # kube-batch's, which mpigen writes
                assert [o for o in again.jobs[0].base if o["kind"] == "PodGroup"] == groups, (name, text)
                assert result.consumed == groups
                jobs += 1
    assert jobs >= 2 * RANDOM_SPECS and variants >= RANDOM_SPECS * 3 // 4  # most variants are valid specs


def _trainjob_comes_back(name: str, objects: list[dict[str, Any]], alone: bool) -> bool:
    """The TrainJob built (``objects``: with the TrainingRuntime copy beside it, when it has one),
    imported and built again: what Trainer creates for it is the same (the runtime snapshot too:
    the copy is built again byte for byte), with no finding of the import's own. ``alone``: the
    TrainJob is imported without its file, its runtime known as the cluster's (the spec then names
    the copy as it is). Whether the import read a copy."""
    from mpigen.emit.yaml_emit import dump
    from mpigen.importers.manifest import ImportOptions, import_job
    from mpigen.importers.roundtrip import trainjob_differences
    from mpigen.load.trainer_runtimes import default_runtimes, with_runtimes
    from mpigen.load.yaml_loader import load_text
    from mpigen.pipeline import Options, compile_specs

    job = next(o for o in objects if o["kind"] == "TrainJob")
    beside = tuple(o for o in objects if o is not job)
    runtimes = with_runtimes(default_runtimes(), beside)
    copies = [o for o in beside if o["kind"] == "TrainingRuntime"]
    result = import_job(job, ImportOptions(beside=() if alone else beside, runtimes=runtimes))
    assert result.findings == [], (name, result.findings)
    text = dump(result.spec)
    again = compile_specs(load_text(text, "imported.yaml"), "imported.yaml", Options(trainer_runtimes=runtimes))
    assert again.ok, (name, text, [d.format() for d in again.diagnostics])
    ref = job["spec"]["runtimeRef"]
    runtime = runtimes.find(ref["kind"], ref["name"], job["metadata"].get("namespace"))
    assert trainjob_differences(job, runtime, again.jobs[0].base, runtimes) == [], (name, text)
    if alone:
        assert [o for o in again.jobs[0].base if o["kind"] == "TrainingRuntime"] == [], (name, text)
        return False
    assert result.consumed == copies, name
    assert [o for o in again.jobs[0].base if o["kind"] == "TrainingRuntime"] == copies, (name, text)
    return bool(copies)


def test_random_trainjob_specs_built_imported_and_built_again() -> None:
    """Random TrainJob specs (tests/random_specs.py's ``trainjob_variant``: the production pod fields,
    per-role settings and pod template patches of a TrainJob; ``requests_variant``: requests below
    the limits): the TrainJob built from each environment, imported with the TrainingRuntime copy
    beside it, builds again to what Trainer creates for it and to the same copy; imported alone,
    its runtime the cluster's, to what Trainer creates for it without a copy."""
    import random

    from mpigen.load.yaml_loader import load_text
    from mpigen.pipeline import Options, compile_specs
    from tests.random_specs import random_specs, requests_variant, spec_yaml, trainjob_variant

    rng = random.Random(SEED)
    jobs = copies = 0
    for name, doc in random_specs(SEED, RANDOM_SPECS):
        variant = trainjob_variant(rng, doc)
        if variant is None:  # TensorFlow: no Trainer runtime
            continue
        variant = requests_variant(rng, variant)
        compiled = compile_specs(load_text(spec_yaml(variant), f"{name}.yaml"), f"{name}.yaml", Options())
        if not compiled.jobs:
            continue  # a variant the spec rules refuse
        for objects in [compiled.jobs[0].base, *compiled.jobs[0].environments.values()]:
            copies += _trainjob_comes_back(name, objects, alone=False)
            _trainjob_comes_back(name, objects, alone=True)
            jobs += 1
    assert jobs >= RANDOM_SPECS and copies >= RANDOM_SPECS // 2, (jobs, copies)


def test_the_example_specs_come_back() -> None:
    """Every example spec of specs/, built, imported and built again: the same job (and kube-batch's
    PodGroup), in every environment; a TrainJob: what Trainer creates for it, and its copy."""
    from mpigen.emit.yaml_emit import dump
    from mpigen.importers.manifest import ImportOptions, import_job
    from mpigen.io import load_input
    from mpigen.load.yaml_loader import load_text
    from mpigen.pipeline import Options, compile_specs

    specs = sorted((ROOT / "specs").glob("*.yaml"))
    jobs = trainjobs = 0
    for path in specs:
        loaded, name = load_input(str(path))
        compiled = compile_specs(loaded, name, Options())
        assert compiled.ok, name
        for objects in [compiled.jobs[0].base, *compiled.jobs[0].environments.values()]:
            if any(o["kind"] == "TrainJob" for o in objects):
                _trainjob_comes_back(name, objects, alone=False)
                trainjobs += 1
                continue
            job = next(o for o in objects if o["kind"] in ("MPIJob", "PyTorchJob", "TFJob"))
            result = import_job(job, ImportOptions(beside=tuple(o for o in objects if o is not job)))
            assert result.findings == [], (name, result.findings)
            again = compile_specs(load_text(dump(result.spec), "imported.yaml"), "imported.yaml", Options())
            assert again.ok, (name, [d.format() for d in again.diagnostics])
            assert [o for o in again.jobs[0].base if o["kind"] in (job["kind"], "PodGroup")] == \
                [o for o in objects if o["kind"] in (job["kind"], "PodGroup")], name
            jobs += 1
    assert len(specs) >= 15 and jobs >= 17 and trainjobs >= 9
