"""mpigen.drift.reapply: the changes a drifted tree would ask of live objects that the server refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from mpigen.drift.reapply import refused_changes
from mpigen.emit.writer import write_tree
from mpigen.load.yaml_loader import load_text
from mpigen.pipeline import CompiledJob, Options, compile_specs
from mpigen.render.kustomize import kustomize_files

SPEC = """\
apiVersion: mpigen.dev/v1alpha1
kind: TrainingJob
metadata:
  name: demo
  namespace: volcano
spec:
  framework: {framework}
  image: example/train:1
  command: [python, train.py]
  workers: {workers}
  scheduling: {scheduling}
  tensorboard: {{logDir: /logs/tb}}
  volumes: [{{claimName: logs, mountPath: /logs}}]
  environments:
    prod: {prod}
"""
QUEUE = ("spec", "runPolicy", "schedulingPolicy", "queue")


def compiled(framework: str = "pytorch", workers: int = 2, scheduling: str = "{gang: volcano, queue: research}",
             prod: str = "{workers: 4}") -> CompiledJob:
    text = SPEC.format(framework=framework, workers=workers, scheduling=scheduling, prod=prod)
    result = compile_specs(load_text(text, "demo.yaml"), "demo.yaml", Options())
    assert result.ok, [d.format() for d in result.diagnostics]
    (job,) = result.jobs
    return job


def committed(tmp_path: Path, job: CompiledJob) -> Path:
    write_tree(tmp_path, "demo", kustomize_files(job))
    return tmp_path / "demo"


def line_of(path: Path, text: str) -> int:
    (line,) = [i for i, row in enumerate(path.read_text().splitlines(), 1) if text in row]
    return line


def test_a_queue_change_in_the_base_is_refused_for_every_folder(tmp_path: Path) -> None:
    tree = committed(tmp_path, compiled())
    (change,) = refused_changes(tree, kustomize_files(compiled(scheduling="{gang: volcano, queue: nlp}")))
    assert (change.file, change.path, change.old, change.new) == ("base/pytorchjob.yaml", QUEUE, "research", "nlp")
    assert change.line == line_of(tree / "base/pytorchjob.yaml", "queue: research")
    assert change.folders == ("base", "overlays/prod")
    assert (change.kind, change.name) == ("PyTorchJob", "demo")
    assert change.rule.json_path == "spec.runPolicy.schedulingPolicy.queue"
    diagnostic = change.diagnostic("deploy/demo")
    assert diagnostic.code == "immutable-field" and diagnostic.severity.value == "warning"
    assert diagnostic.file == "deploy/demo/base/pytorchjob.yaml"
    assert diagnostic.path == "spec.runPolicy.schedulingPolicy.queue"
    assert 'spec.runPolicy.schedulingPolicy.queue: "research" -> "nlp"' in diagnostic.message
    assert "the API server refuses this change on a live object" in diagnostic.message
    assert "must be deleted and re-created" in diagnostic.message
    assert "(deploy/demo/base or deploy/demo/overlays/prod)" in diagnostic.message


def test_workers_and_other_fields_change_freely(tmp_path: Path) -> None:
    tree = committed(tmp_path, compiled())
    assert refused_changes(tree, kustomize_files(compiled(workers=8, prod="{workers: 16}"))) == []
    tf_tree = committed(tmp_path / "tf", compiled("tensorflow"))
    assert refused_changes(tf_tree, kustomize_files(compiled("tensorflow", workers=3))) == []


def test_a_queue_set_or_removed_is_not_refused(tmp_path: Path) -> None:
    """A transition rule is evaluated only when the field is in both objects."""
    tree = committed(tmp_path, compiled(scheduling="{gang: none}"))
    assert "queue" not in (tree / "base/pytorchjob.yaml").read_text()
    assert refused_changes(tree, kustomize_files(compiled())) == []
    tree = committed(tmp_path / "again", compiled())
    assert refused_changes(tree, kustomize_files(compiled(scheduling="{gang: none}"))) == []


def test_the_volcano_default_queue_counts_as_set(tmp_path: Path) -> None:
    """Volcano without a queue gets ``default`` written out: naming one later changes it."""
    tree = committed(tmp_path, compiled(scheduling="{gang: volcano}"))
    (change,) = refused_changes(tree, kustomize_files(compiled()))
    assert (change.old, change.new) == ("default", "research")


def test_a_queue_change_of_one_environment_points_at_its_patch(tmp_path: Path) -> None:
    tree = committed(tmp_path, compiled(prod="{workers: 4, scheduling: {queue: nlp}}"))
    (change,) = refused_changes(tree, kustomize_files(compiled(prod="{workers: 4, scheduling: {queue: vision}}")))
    assert (change.file, change.old, change.new, change.folders) == (
        "overlays/prod/pytorchjob-patch.yaml", "nlp", "vision", ("overlays/prod",))
    patch = tree / "overlays/prod/pytorchjob-patch.yaml"
    assert change.line == line_of(patch, "value: nlp")
    assert "kubectl delete -k deploy/demo/overlays/prod, then kubectl apply -k deploy/demo/overlays/prod" in \
        change.diagnostic("deploy/demo").message


def test_the_base_moves_under_an_environment_that_sets_its_own_queue(tmp_path: Path) -> None:
    tree = committed(tmp_path, compiled(prod="{workers: 4, scheduling: {queue: nlp}}"))
    new = compiled(scheduling="{gang: volcano, queue: vision}", prod="{workers: 4, scheduling: {queue: nlp}}")
    (change,) = refused_changes(tree, kustomize_files(new))
    assert (change.file, change.old, change.new, change.folders) == (
        "base/pytorchjob.yaml", "research", "vision", ("base",))


def test_an_environment_that_starts_overriding_the_queue(tmp_path: Path) -> None:
    """The old value came from the base file: the warning points there, for the overlay only."""
    tree = committed(tmp_path, compiled())
    (change,) = refused_changes(tree, kustomize_files(compiled(prod="{workers: 4, scheduling: {queue: nlp}}")))
    assert (change.file, change.old, change.new, change.folders) == (
        "base/pytorchjob.yaml", "research", "nlp", ("overlays/prod",))


def test_the_kueue_queue_label_is_refused_while_the_job_runs(tmp_path: Path) -> None:
    tree = committed(tmp_path, compiled("mpi", scheduling="{gang: kueue, queue: team-a}"))
    (change,) = refused_changes(tree, kustomize_files(compiled("mpi", scheduling="{gang: kueue, queue: team-b}")))
    assert (change.kind, change.old, change.new) == ("MPIJob", "team-a", "team-b")
    assert change.path == ("metadata", "labels", "kueue.x-k8s.io/queue-name")
    message = change.diagnostic("deploy/demo").message
    assert "refuses this change on a live object while the job is not suspended" in message
    assert 'metadata.labels["kueue.x-k8s.io/queue-name"]: "team-a" -> "team-b"' in message


def test_a_deployment_selector_edited_by_hand_is_refused(tmp_path: Path) -> None:
    tree = committed(tmp_path, compiled())
    deployment = tree / "base/deployment.yaml"
    text = deployment.read_text()
    selector = text.index("matchLabels:")
    deployment.write_text(text[:selector] + text[selector:].replace("app.kubernetes.io/name: tensorboard",
                                                                    "app.kubernetes.io/name: board", 1))
    (change,) = refused_changes(tree, kustomize_files(compiled()))
    assert (change.kind, change.path, change.file) == ("Deployment", ("spec", "selector"), "base/deployment.yaml")
    assert change.old["matchLabels"]["app.kubernetes.io/name"] == "board"
    assert change.line == line_of(deployment, "selector:")
    assert "the Deployment must be deleted and re-created" in change.diagnostic("deploy/demo").message


def _outside(tree: Path) -> None:
    """The base names a file outside the tree: it is not read."""
    (tree.parent / "elsewhere").mkdir()
    (tree / "base/pytorchjob.yaml").rename(tree.parent / "elsewhere/pytorchjob.yaml")
    (tree / "base/kustomization.yaml").write_text("resources: [../../elsewhere/pytorchjob.yaml]\n")


@pytest.mark.parametrize(("damage", "folders"), [
    (lambda tree: (tree / "base/kustomization.yaml").write_text("resources: [pytorchjob.yaml]\nnamePrefix: x-\n"), []),
    (lambda tree: (tree / "base/pytorchjob.yaml").write_text("a: [b\n"), []),
    (lambda tree: (tree / "base/kustomization.yaml").unlink(), []),
    (lambda tree: (tree / "overlays/prod/pytorchjob-patch.yaml").write_text("- {op: replace, path: /x/y, value: 1}\n"),
     [("base",)]),
    (lambda tree: _outside(tree), []),
    (lambda tree: (tree / "overlays/prod/kustomization.yaml").write_text(
        "resources: [../../base]\npatches: [{path: pytorchjob-patch.yaml, target: {kind: TFJob, name: demo}}]\n"),
     [("base",)]),
])
def test_a_folder_mpigen_cannot_read_back_is_left_out(tmp_path: Path, damage, folders) -> None:
    tree = committed(tmp_path, compiled())
    damage(tree)
    changes = refused_changes(tree, kustomize_files(compiled(scheduling="{gang: volcano, queue: nlp}")))
    assert [c.folders for c in changes] == folders


def test_no_tree_no_change(tmp_path: Path) -> None:
    assert refused_changes(tmp_path / "missing", kustomize_files(compiled())) == []
