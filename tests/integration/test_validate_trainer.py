"""``mpigen validate`` on Kubeflow Trainer v2.3.0's kinds (TrainJob, TrainingRuntime,
ClusterTrainingRuntime) and JobSet: the CRDs' schemas with their CEL rules, Trainer's webhooks.

Cases are ``tests/cases/validate/trainer/``: every file of ``valid/`` passes ``--strict`` (and
kubeconform ``-strict`` with mpigen's schemas); in ``invalid/``, a line ending in
``# error: CODE: TEXT`` must carry an error of that code whose message contains TEXT, and no
other line an error. The default runtimes mpigen ships pass too.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.golden.cases import ROOT, run

CASES = ROOT / "tests" / "cases" / "validate" / "trainer"
VALID = sorted((CASES / "valid").glob("*.yaml"))
INVALID = sorted((CASES / "invalid").glob("*.yaml"))
MARK = re.compile(r"#\s*error:\s*(?P<code>[a-z0-9-]+):\s*(?P<text>.+?)\s*$")
DEFAULTS = ROOT / "mpigen" / "data" / "trainer" / "v2.3.0" / "runtimes.json"


def marks(path: Path) -> dict[int, tuple[str, str]]:
    found = {}
    for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        match = MARK.search(line)
        if match and not line.lstrip().startswith("#"):
            found[number] = (match["code"], match["text"])
    return found


def diagnostics(path: Path) -> tuple[int, list[dict]]:
    code, out, err = run(["validate", str(path.relative_to(ROOT)), "--format", "json", "--strict"])
    return code, json.loads(out)["diagnostics"]


def test_the_cases_cover_every_kind() -> None:
    kinds = set()
    for path in VALID:
        kinds |= set(re.findall(r"^kind: (\w+)", path.read_text("utf-8"), re.M))
    assert kinds >= {"TrainJob", "TrainingRuntime", "JobSet"}
    assert VALID and INVALID


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_valid_cases_pass_strict(path: Path) -> None:
    code, found = diagnostics(path)
    assert code == 0 and [d for d in found if d["severity"] != "info"] == [], found


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_each_refusal_is_reported_at_its_line(path: Path) -> None:
    expected = marks(path)
    assert expected, f"{path.name}: no '# error:' mark"
    code, found = diagnostics(path)
    assert code == 1
    errors = [d for d in found if d["severity"] == "error"]
    by_line: dict[int, list[dict]] = {}
    for diagnostic in errors:
        by_line.setdefault(diagnostic["line"], []).append(diagnostic)
    assert sorted(by_line) == sorted(expected), "\n".join(f"{d['line']}: {d['code']} {d['message']}" for d in errors)
    for line, (mark_code, text) in expected.items():
        assert [d["code"] for d in by_line[line]] == [mark_code], by_line[line]
        assert text in by_line[line][0]["message"], by_line[line][0]


def test_default_runtimes_validate_clean() -> None:
    """The ClusterTrainingRuntimes mpigen ships (what `kubectl kustomize manifests/overlays/runtimes`
    builds at v2.3.0): schema, CEL rules and lint rules accept every one."""
    code, found = diagnostics(DEFAULTS)
    assert code == 0 and found == [], found
    assert len(json.loads(DEFAULTS.read_text("utf-8"))["items"]) == 8


def test_a_trainjob_says_which_runtimes_it_was_checked_against() -> None:
    code, out, _ = run(["validate", str((CASES / "valid" / "torch-distributed.yaml").relative_to(ROOT)),
                        "--format", "json", "-v"])
    notes = [d for d in json.loads(out)["diagnostics"] if d["code"] == "default-runtime"]
    assert code == 0 and len(notes) == 1 and "Kubeflow Trainer v2.3.0" in notes[0]["message"], notes


def test_the_default_runtime_note_stays_beside_another_runtime(tmp_path: Path) -> None:
    """A runtime in the TrainJob's file joins the runtimes it is checked against: torch-distributed
    still comes from Trainer's defaults, and the note still says so (it went missing)."""
    other = {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainingRuntime",
             "metadata": {"name": "unrelated", "namespace": "default"},
             "spec": {"mlPolicy": {"numNodes": 1}, "template": {"spec": {"replicatedJobs": []}}}}
    both = tmp_path / "both.yaml"
    both.write_text((ROOT / "tests/cases/trainjobs/torch-plain.yaml").read_text("utf-8") + "---\n"
                    + json.dumps(other) + "\n")
    code, out, _ = run(["validate", str(both), "--format", "json", "-v"])
    notes = [d for d in json.loads(out)["diagnostics"] if d["code"] == "default-runtime"]
    assert len(notes) == 1 and "'torch-distributed'" in notes[0]["message"], out


def _kubeconform() -> str | None:
    return shutil.which("kubeconform") or next(
        (str(p) for p in (ROOT / "bin" / "kubeconform",) if p.is_file()), None)


def test_kubeconform_strict_accepts_the_valid_cases_and_the_default_runtimes() -> None:
    assert _kubeconform(), "kubeconform is missing: `make tools` installs it into ./bin"
    cmd = [_kubeconform(), "-strict", "-summary", "-schema-location",
           "schemas/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json", *map(str, VALID), str(DEFAULTS)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Valid: 11, Invalid: 0, Errors: 0, Skipped: 0" in done.stdout, done.stdout


QUEUE_IN_THE_WRONG_PLACE = """\
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata: {name: torch-volcano, namespace: research}
spec:
  mlPolicy: {numNodes: 2, torch: {}}
  podGroupPolicy: {volcano: {}}
  template:
    spec:
      replicatedJobs:
      - name: node
        template:
          metadata:
            labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}
          spec:
            template:
              spec:
                schedulerName: volcano
                containers: [{name: node, image: pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime}]
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: ddp
  namespace: research
  annotations: {scheduling.volcano.sh/queue-name: research}
spec:
  runtimeRef: {name: torch-volcano, kind: TrainingRuntime}
  runtimePatches:
  - manager: example.com/team
    trainingRuntimeSpec:
      template:
        spec:
          replicatedJobs:
          - name: node
            template:
              spec:
                template:
                  metadata:
                    annotations: {scheduling.volcano.sh/queue-name: research}
"""


def test_a_trainjob_queue_annotation_trainer_does_not_read(tmp_path: Path) -> None:
    """Trainer v2.3.0's volcano plugin reads the queue on the JobSet template (the runtime's
    spec.template.metadata, a runtime patch's template.metadata): not on the TrainJob's own
    metadata, not on a replicated job's pod template. The PodGroup gets no queue, and validate says
    where to write it."""
    path = tmp_path / "job.yaml"
    path.write_text(QUEUE_IN_THE_WRONG_PLACE)
    code, out, _ = run(["validate", str(path), "--format", "json"])
    found = json.loads(out)["diagnostics"]
    assert code == 0 and [(d["line"], d["code"], d["path"]) for d in found] == [
        (25, "queue-ignored", 'metadata.annotations["scheduling.volcano.sh/queue-name"]'),
        (39, "queue-ignored", "spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template"
                              '.spec.template.metadata.annotations["scheduling.volcano.sh/queue-name"]')]
    assert all("the runtime's spec.template.metadata.annotations, or the TrainJob's "
               "spec.runtimePatches[].trainingRuntimeSpec.template.metadata.annotations; write it there"
               in d["message"] for d in found)
    code, out, err = run(["podgroup", str(path)])
    assert code == 0 and "queue:" not in out, out + err


def _split_case(name: str) -> tuple[str, str]:
    """A case of tests/cases/trainjobs/ as (its runtime, its TrainJob), the texts of two files."""
    runtime, job = (ROOT / "tests/cases/trainjobs" / name).read_text("utf-8").split("\n---\n")
    return runtime + "\n", job


def _codes(args: list[str]) -> tuple[int, list[str], str]:
    code, out, err = run(["validate", *args, "--format", "json"])
    return code, [d["code"] for d in json.loads(out)["diagnostics"] if d["severity"] != "info"], out + err


def test_a_runtime_in_another_file_of_the_run_is_known_to_every_file(tmp_path: Path) -> None:
    """A TrainJob whose runtime is in another file (of another folder) of the same validate call:
    both are applied together, and Trainer finds the runtime (it was trainjob-runtime-missing)."""
    runtime, job = _split_case("torch-coscheduling.yaml")
    (tmp_path / "runtimes").mkdir()
    (tmp_path / "jobs").mkdir()
    (tmp_path / "runtimes" / "torch.yaml").write_text(runtime)
    (tmp_path / "jobs" / "resnet.yaml").write_text(job)
    for args in ([str(tmp_path / "jobs" / "resnet.yaml"), str(tmp_path / "runtimes" / "torch.yaml")],
                 [str(tmp_path / "runtimes" / "torch.yaml"), str(tmp_path / "jobs" / "resnet.yaml")], [str(tmp_path)]):
        code, codes, said = _codes(args)
        assert code == 0 and codes == [], said
    code, codes, said = _codes([str(tmp_path / "jobs" / "resnet.yaml")])  # alone, its runtime is missing
    assert code == 1 and codes == ["trainjob-runtime-missing"], said
    assert ("is not among the default runtimes of Kubeflow Trainer v2.3.0 (the cluster's runtimes were not "
            "given)") in said


def test_a_runtime_in_a_file_beside_the_trainjob_is_known(tmp_path: Path) -> None:
    """A file given alone still has its folder's runtimes: a pre-commit hook passes the staged files
    only (and a few at a time), and a kustomize base holds the runtime in a file of its own."""
    runtime, job = _split_case("torch-coscheduling.yaml")
    (tmp_path / "trainingruntime.yaml").write_text(runtime)
    (tmp_path / "trainjob.yaml").write_text(job)
    code, codes, said = _codes([str(tmp_path / "trainjob.yaml")])
    assert code == 0 and codes == [], said
    (tmp_path / "trainingruntime.yaml").rename(tmp_path / ".hidden.yaml")  # what a folder would not give
    code, codes, said = _codes([str(tmp_path / "trainjob.yaml")])
    assert code == 1 and codes == ["trainjob-runtime-missing"], said


def test_a_spec_may_name_a_runtime_of_another_file_of_the_run(tmp_path: Path) -> None:
    runtime, _ = _split_case("torch-coscheduling.yaml")
    (tmp_path / "runtimes").mkdir()
    (tmp_path / "runtimes" / "torch.yaml").write_text(runtime)
    spec = tmp_path / "spec.yaml"
    spec.write_text("apiVersion: mpigen.dev/v1alpha1\nkind: TrainingJob\nmetadata: {name: resnet, namespace: vision}\n"
                    "spec:\n  framework: pytorch\n  runtime: {name: torch-coscheduling, kind: TrainingRuntime}\n"
                    "  image: pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime\n  command: [torchrun, train.py]\n"
                    "  workers: 2\n")
    code, out, err = run(["validate", str(spec), str(tmp_path / "runtimes" / "torch.yaml"), "--format", "json", "-v"])
    found = json.loads(out)["diagnostics"]
    assert code == 0 and [d for d in found if d["severity"] != "info"] == [], out + err
    assert "default-runtime" not in [d["code"] for d in found]  # the runtime is the file's, not a default one
    code, codes, said = _codes([str(spec)])
    assert code == 1 and codes == ["runtime-not-found"], said


def test_explain_and_podgroup_know_the_runtime_beside_the_trainjob_as_validate_does(tmp_path: Path) -> None:
    runtime, job = _split_case("torch-coscheduling.yaml")
    (tmp_path / "trainingruntime.yaml").write_text(runtime)
    (tmp_path / "trainjob.yaml").write_text(job)
    code, out, err = run(["podgroup", str(tmp_path / "trainjob.yaml")])
    assert code == 0 and "minMember: 4" in out, err
    code, out, err = run(["explain", str(tmp_path / "trainjob.yaml")])
    assert code == 0 and "resnet-ddp" in out, err
