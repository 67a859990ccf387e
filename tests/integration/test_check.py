"""``mpigen check`` as a user meets it: exit codes, the drift report, --fix, configuration defaults,
and a check of hundreds of trees that stays on the fast path (deepdiff never imported)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mpigen.main import cli
from mpigen.emit.writer import OWNED_LIST
from tests.golden.cases import ROOT

SPEC = """\
apiVersion: mpigen.dev/v1alpha1
kind: TrainingJob
metadata:
  name: {name}
spec:
  framework: mpi
  image: example/train:1
  command: [python, train.py]
  workers: {workers}
  resources: {{gpu: 1, cpu: "4", memory: 16Gi}}
  scheduling: {{gang: volcano}}
  environments:
    prod: {{workers: 16}}
"""


def run(args: list[str], cwd: Path) -> tuple[int, str, str]:
    """The CLI in-process from ``cwd``: exit code, stdout, stderr."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(cli, args, catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


def write_spec(project: Path, name: str, workers: int = 2, folder: str = "specs") -> str:
    path = project / folder / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SPEC.format(name=name, workers=workers))
    return path.relative_to(project).as_posix()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A repository (its .git stops the configuration search) with two specs built into deploy/."""
    (tmp_path / ".git").mkdir()
    for name in ("alpha", "beta"):
        spec = write_spec(tmp_path, name)
        code, _, err = run(["build", spec, "-o", "deploy"], tmp_path)
        assert code == 0, err
    return tmp_path


def snapshot(root: Path) -> dict[str, tuple[bytes, int, int]]:
    return {p.relative_to(root).as_posix(): (p.read_bytes(), p.stat().st_ino, p.stat().st_mtime_ns)
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_in_step_exits_0(project: Path) -> None:
    code, out, err = run(["check", "specs/alpha.yaml", "specs/beta.yaml", "-o", "deploy"], project)
    assert code == 0, err
    assert out == "all 2 trees in step\n"


def test_drift_exits_1_with_the_changed_field(project: Path) -> None:
    write_spec(project, "alpha", workers=3)
    before = snapshot(project / "deploy")
    code, out, err = run(["check", "specs/alpha.yaml", "specs/beta.yaml", "-o", "deploy"], project)
    assert code == 1, err
    lines = out.splitlines()
    assert "deploy/alpha/base/mpijob.yaml: differs from the spec in 6 fields (on disk -> from the spec)" in lines
    assert "    spec.mpiReplicaSpecs.Worker.replicas: 2 -> 3" in lines
    assert "    spec.runPolicy.schedulingPolicy.minAvailable: 3 -> 4" in lines
    assert '    spec.runPolicy.schedulingPolicy.minResources["nvidia.com/gpu"]: "2" -> "3"' in lines
    assert not any(line.startswith("deploy/beta") for line in lines)
    assert lines[-1] == "1 of 2 trees drifted"
    assert "mpigen check --fix" in out
    assert snapshot(project / "deploy") == before  # check alone writes nothing


def test_every_kind_of_drift_in_one_report(project: Path) -> None:
    tree = project / "deploy" / "alpha"
    (tree / "overlays/prod/kustomization.yaml").unlink()
    mpijob = tree / "base/mpijob.yaml"
    mpijob.write_text(mpijob.read_text().replace("# Generated", "# generated"))
    (tree / "overlays/old").mkdir()
    (tree / "overlays/old/kustomization.yaml").write_text("resources: [../../base]\n")
    owned = json.loads((tree / OWNED_LIST).read_text())
    owned["files"].append("overlays/old/kustomization.yaml")
    (tree / OWNED_LIST).write_text(json.dumps(owned))
    code, out, _ = run(["check", "specs/alpha.yaml", "-o", "deploy/"], project)
    assert code == 1
    assert out.splitlines() == [
        "deploy/alpha/base/mpijob.yaml: formatting differs (same data, other text: comments, quoting or layout)",
        "deploy/alpha/overlays/old/kustomization.yaml: extra (mpigen wrote it and would no longer write it; "
        "--fix deletes it)",
        "deploy/alpha/overlays/prod/kustomization.yaml: missing (mpigen would write it)",
        "to rewrite them: mpigen check --fix (or mpigen build SPEC -o DIR)",
        "1 of 1 tree drifted",
    ]


def test_fix_rewrites_and_leaves_foreign_files_untouched(project: Path) -> None:
    readme = project / "deploy/alpha/README.md"
    readme.write_text("# notes kept with the tree\n")
    mine = project / "deploy/alpha/overlays/prod/our-extra-patch.yaml"
    mine.write_text("- op: add\n  path: /metadata/labels/x\n  value: y\n")
    foreign = {p: (p.read_bytes(), p.stat().st_ino, p.stat().st_mtime_ns) for p in (readme, mine)}
    beta = snapshot(project / "deploy/beta")
    write_spec(project, "alpha", workers=3)

    code, out, err = run(["check", "specs/alpha.yaml", "specs/beta.yaml", "-o", "deploy", "--fix"], project)
    assert code == 0, err
    assert "    spec.mpiReplicaSpecs.Worker.replicas: 2 -> 3" in out.splitlines()  # says what it fixed
    assert "rewrote deploy/alpha (4 files)" in out.splitlines()
    assert out.splitlines()[-1] == "rewrote 1 of 2 trees"
    assert {p: (p.read_bytes(), p.stat().st_ino, p.stat().st_mtime_ns) for p in foreign} == foreign
    assert snapshot(project / "deploy/beta") == beta  # a tree in step is not rewritten

    code, out, err = run(["check", "specs/alpha.yaml", "specs/beta.yaml", "-o", "deploy"], project)
    assert (code, out) == (0, "all 2 trees in step\n"), err
    assert "replicas: 3" in (project / "deploy/alpha/base/mpijob.yaml").read_text()


def test_fix_deletes_extra_owned_files_and_writes_missing_ones(project: Path) -> None:
    spec = project / "specs/alpha.yaml"
    spec.write_text(spec.read_text().replace("  environments:\n    prod: {workers: 16}\n",
                                             "  environments:\n    dev: {workers: 1}\n"))
    code, out, _ = run(["check", "specs/alpha.yaml", "-o", "deploy", "--fix"], project)
    assert code == 0
    assert not (project / "deploy/alpha/overlays/prod").exists()
    assert (project / "deploy/alpha/overlays/dev/kustomization.yaml").is_file()
    assert run(["check", "specs/alpha.yaml", "-o", "deploy"], project)[0] == 0


def test_fix_refuses_to_overwrite_a_file_mpigen_did_not_write(project: Path) -> None:
    (project / "deploy/alpha" / OWNED_LIST).unlink()
    before = snapshot(project / "deploy/alpha")
    code, out, err = run(["check", "specs/alpha.yaml", "-o", "deploy", "--fix"], project)
    assert code == 1
    assert "not written by mpigen" in out
    assert "which it did not write" in err
    assert out.splitlines()[-1] == "rewrote 0 of 1 tree; 1 could not be rewritten"
    assert snapshot(project / "deploy/alpha") == before


PYTORCH = """\
apiVersion: mpigen.dev/v1alpha1
kind: TrainingJob
metadata: {{name: queued, namespace: volcano}}
spec:
  framework: pytorch
  image: example/train:1
  command: [python, train.py]
  workers: {workers}
  scheduling: {{gang: volcano, queue: {queue}}}
"""


@pytest.fixture
def pytorch(tmp_path: Path) -> Path:
    """A repository with one PyTorchJob in queue research, built into deploy/."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "queued.yaml").write_text(PYTORCH.format(workers=2, queue="research"))
    code, _, err = run(["build", "queued.yaml", "-o", "deploy"], tmp_path)
    assert code == 0, err
    return tmp_path


def test_a_queue_change_is_an_immutable_field_warning(pytorch: Path) -> None:
    (pytorch / "queued.yaml").write_text(PYTORCH.format(workers=2, queue="nlp"))
    job = pytorch / "deploy/queued/base/pytorchjob.yaml"
    line = job.read_text().splitlines().index("      queue: research") + 1
    code, out, err = run(["check", "queued.yaml", "-o", "deploy"], pytorch)
    assert code == 1  # drift, as before
    assert '    spec.runPolicy.schedulingPolicy.queue: "research" -> "nlp"' in out.splitlines()
    (warning,) = err.splitlines()
    assert warning.startswith(f"deploy/queued/base/pytorchjob.yaml:{line}:7: warning immutable-field PyTorchJob "
                              'queued: spec.runPolicy.schedulingPolicy.queue: "research" -> "nlp": the API server '
                              "refuses this change on a live object")
    assert ("so the job must be deleted and re-created: kubectl delete -k deploy/queued/base, then kubectl apply -k "
            "deploy/queued/base (spec.runPolicy.schedulingPolicy.queue)") in warning

    code, out, err = run(["check", "queued.yaml", "-o", "deploy", "--fix"], pytorch)
    assert code == 0
    assert "rewrote deploy/queued (2 files)" in out.splitlines()
    assert [w.split(": warning ")[1].split(" ")[0] for w in err.splitlines()] == ["immutable-field"]
    assert "queue: nlp" in job.read_text()
    assert run(["check", "queued.yaml", "-o", "deploy"], pytorch)[:3:2] == (0, "")


def test_a_worker_change_is_not_an_immutable_field(pytorch: Path) -> None:
    (pytorch / "queued.yaml").write_text(PYTORCH.format(workers=4, queue="research"))
    code, out, err = run(["check", "queued.yaml", "-o", "deploy"], pytorch)
    assert code == 1
    assert "    spec.pytorchReplicaSpecs.Worker.replicas: 2 -> 4" in out.splitlines()
    assert "immutable-field" not in err and err == ""


def test_spec_errors_are_diagnostics_and_exit_1(project: Path) -> None:
    spec = project / "specs/alpha.yaml"
    spec.write_text(spec.read_text().replace("workers: 2", "workers: -1"))
    code, out, err = run(["check", "specs/alpha.yaml", "specs/beta.yaml", "-o", "deploy"], project)
    assert code == 1
    assert out == ""
    assert err.startswith("specs/alpha.yaml:9:12: error ")
    assert "(spec.workers)" in err
    assert "Traceback" not in err


def test_two_specs_with_one_job_name(project: Path) -> None:
    other = project / "specs/alpha-copy.yaml"
    other.write_text((project / "specs/alpha.yaml").read_text())
    code, out, err = run(["check", "specs/alpha.yaml", "specs/alpha-copy.yaml", "-o", "deploy"], project)
    assert code == 1
    assert "duplicate-job" in err and "specs/alpha-copy.yaml" in err
    assert out == ""


@pytest.mark.parametrize(("args", "message"), [
    (["check", "specs/alpha.yaml"], "no output folder: give -o DIR or set output in the configuration"),
    (["check", "-o", "deploy"], "no SPEC given and no specs patterns in the configuration"),
    (["check", "specs/alpha.yaml", "-o", "specs/beta.yaml"], "'specs/beta.yaml' is a file"),
    (["check", "specs/missing.yaml", "-o", "deploy"], "specs/missing.yaml: cannot read"),
    (["check", "specs", "-o", "deploy"], "'specs' is a directory"),
    (["check", "-", "-o", "deploy"], "not stdin"),
    (["check", "specs/alpha.yaml", "-o", "deploy", "--operator-version", "v0.1"], "--operator-version"),
    (["check", "specs/alpha.yaml", "-o", "deploy", "--cluster", "missing.yaml"], "missing.yaml: cannot read"),
    (["check", "specs/alpha.yaml", "-o", "deploy", "--config", "missing.yaml"], "cannot read"),
    (["check", "--bogus"], "No such option"),
])
def test_usage_errors_exit_2(project: Path, args: list[str], message: str) -> None:
    code, out, err = run(args, project)
    assert code == 2, (out, err)
    assert message in err
    assert "Traceback" not in err


def test_bad_configuration_exits_2(project: Path) -> None:
    (project / ".mpigen.yaml").write_text("output: deploy\nspecz: [x]\n")
    code, _, err = run(["check"], project)
    assert code == 2
    assert "unknown setting(s) specz" in err


def test_bad_operator_version_in_configuration_exits_2(project: Path) -> None:
    (project / ".mpigen.yaml").write_text("specs: [specs/*.yaml]\noutput: deploy\noperatorVersion: latest\n")
    code, _, err = run(["check"], project)
    assert code == 2
    assert "operatorVersion" in err


def test_configuration_gives_specs_and_output(project: Path) -> None:
    (project / ".mpigen.yaml").write_text('specs: ["specs/*.yaml"]\noutput: deploy\n')
    sub = project / "somewhere/deeper"
    sub.mkdir(parents=True)
    code, out, err = run(["check"], sub)  # found upwards; its paths are relative to its folder
    assert (code, out) == (0, "all 2 trees in step\n"), err

    write_spec(project, "beta", workers=5)
    code, out, _ = run(["check"], project)
    assert code == 1
    assert "deploy/beta/base/mpijob.yaml: differs" in out
    assert out.splitlines()[-1] == "1 of 2 trees drifted"
    code, out, _ = run(["check"], sub)
    assert "../../deploy/beta/base/mpijob.yaml: differs" in out  # shown relative to where it runs

    code, _, _ = run(["check", "--fix"], sub)
    assert code == 0
    assert run(["check"], project)[0] == 0


def test_command_line_wins_over_configuration(project: Path) -> None:
    (project / ".mpigen.yaml").write_text('specs: ["nothing/*.yaml"]\noutput: nowhere\n')
    code, out, err = run(["check", "specs/alpha.yaml", "-o", "deploy"], project)
    assert (code, out) == (0, "1 tree in step\n"), err


def test_tool_mpigen_in_pyproject_and_explicit_config(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.mpigen]\nspecs = ["specs/alpha.yaml", "specs/beta.yaml"]\n'
                                            'output = "deploy"\n')
    code, out, err = run(["check"], project)
    assert (code, out) == (0, "all 2 trees in step\n"), err
    (project / "conf").mkdir()
    (project / "conf/check.yaml").write_text('specs: ["../specs/*.yaml"]\noutput: ../deploy\n')
    code, out, err = run(["check", "--config", "conf/check.yaml"], project)
    assert (code, out) == (0, "all 2 trees in step\n"), err


def test_configuration_gives_operator_version_and_cluster(tmp_path: Path) -> None:
    """A tree built for v0.4.0 with the cluster's classes is in step only when check uses both too."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "specs").mkdir()
    shutil.copy(ROOT / "specs/priority-order.yaml", tmp_path / "specs")
    shutil.copytree(ROOT / "specs/cluster", tmp_path / "cluster")
    (cluster,) = sorted(p.relative_to(tmp_path).as_posix() for p in (tmp_path / "cluster").glob("*.yaml"))
    options = ["--cluster", cluster, "--operator-version", "v0.4.0"]
    code, _, err = run(["build", "specs/priority-order.yaml", "-o", "deploy", *options], tmp_path)
    assert code == 0, err

    (tmp_path / ".mpigen.yaml").write_text('specs: ["specs/*.yaml"]\noutput: deploy\n')
    assert run(["check"], tmp_path)[0] == 1  # defaults: v0.8.2, no cluster
    assert run(["check", *options], tmp_path)[0] == 0
    (tmp_path / ".mpigen.yaml").write_text(
        f'specs: ["specs/*.yaml"]\noutput: deploy\ncluster: {cluster}\noperatorVersion: v0.4.0\n')
    code, out, err = run(["check"], tmp_path)
    assert (code, out) == (0, "1 tree in step\n"), err
    assert run(["check", "--operator-version", "v0.8.0"], tmp_path)[0] == 1  # the option wins


def test_patterns_that_match_nothing(project: Path) -> None:
    (project / ".mpigen.yaml").write_text('specs: ["specs/*.yaml", "other/*.yaml"]\noutput: deploy\n')
    code, out, err = run(["check"], project)
    assert code == 0
    assert "specs pattern 'other/*.yaml'" in err and "matches no file" in err
    # No spec at all: nothing to check when nothing was written, but every tree mpigen wrote is drift.
    (project / ".mpigen.yaml").write_text('specs: ["other/*.yaml"]\noutput: elsewhere\n')
    code, out, err = run(["check"], project)
    assert (code, out) == (0, "no trees to check\n"), err
    assert "matches no file" in err
    (project / ".mpigen.yaml").write_text('specs: ["other/*.yaml"]\noutput: deploy\n')
    code, out, err = run(["check"], project)
    assert code == 1
    assert out.splitlines()[-1] == "2 of 2 trees drifted"


def test_a_deleted_spec_is_drift_and_fix_removes_exactly_what_mpigen_wrote(project: Path) -> None:
    (project / ".mpigen.yaml").write_text('specs: ["specs/*.yaml"]\noutput: deploy\n')
    tree = project / "deploy/beta"
    owned = json.loads((tree / OWNED_LIST).read_text())["files"]
    readme = tree / "README.md"
    readme.write_text("# notes of ours\n")
    ours = tree / "overlays/prod/our-patch.yaml"
    ours.write_text("- op: add\n")
    (tree / "empty-of-ours").mkdir()
    kept = {p: (p.read_bytes(), p.stat().st_ino) for p in (readme, ours)}
    alpha = snapshot(project / "deploy/alpha")
    (project / "specs/beta.yaml").unlink()

    code, out, err = run(["check"], project)
    assert code == 1, err
    assert out.splitlines() == [
        "deploy/beta: written by mpigen for job 'beta', which no spec defines any more (its spec was deleted or "
        f"renamed); --fix removes the files mpigen wrote there (listed in {OWNED_LIST}) and nothing else",
        "to fix them: mpigen check --fix",
        "1 of 2 trees drifted",
    ]
    assert all((tree / rel).is_file() for rel in owned)  # check alone removes nothing
    # Given on the command line, the specs may be a few of many: other trees are not drift then.
    assert run(["check", "specs/alpha.yaml", "-o", "deploy"], project)[:2] == (0, "1 tree in step\n")

    code, out, err = run(["check", "--fix"], project)
    assert code == 0, err
    assert out.splitlines()[-2:] == [
        f"removed deploy/beta: {len(owned)} files mpigen wrote (the files that were not mpigen's are kept)",
        "removed 1 of 2 trees"]
    assert not any((tree / rel).exists() for rel in owned) and not (tree / OWNED_LIST).exists()
    assert {p: (p.read_bytes(), p.stat().st_ino) for p in kept} == kept
    assert (tree / "empty-of-ours").is_dir() and not (tree / "base").exists()
    assert sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*")) == [
        "README.md", "empty-of-ours", "overlays", "overlays/prod", "overlays/prod/our-patch.yaml"]
    assert snapshot(project / "deploy/alpha") == alpha
    assert run(["check"], project)[:2] == (0, "1 tree in step\n")  # what is left is not mpigen's

    # A tree of mpigen's files only goes entirely; with the last spec gone there is nothing to check.
    (project / "specs/alpha.yaml").unlink()
    code, out, err = run(["check", "--fix"], project)
    assert code == 0, err
    assert out.splitlines()[-2:] == [f"removed deploy/alpha: {len(owned)} files mpigen wrote", "removed 1 of 1 tree"]
    assert not (project / "deploy/alpha").exists()
    assert run(["check"], project)[:2] == (0, "no trees to check\n")


def test_check_is_listed_in_help(project: Path) -> None:
    code, out, _ = run(["--help"], project)
    assert code == 0 and "check" in out
    code, out, _ = run(["check", "--help"], project)
    for option in ("--output", "--fix", "--cluster", "--operator-version", "--config"):
        assert option in out


PROBE = """\
import sys
from mpigen.main import main
code = main(sys.argv[1:])
sys.stdout.flush()
print("deepdiff imported:", "deepdiff" in sys.modules)
sys.exit(code)
"""


def test_hundreds_of_specs_stay_on_the_fast_path(tmp_path: Path) -> None:
    """300 trees in step are checked without parsing a single tree file: deepdiff is never imported
    (importing it alone costs more than comparing bytes). One changed file does import it."""
    from mpigen.emit.writer import write_tree
    from mpigen.load.yaml_loader import load_text
    from mpigen.pipeline import Options, compile_specs
    from mpigen.render.kustomize import kustomize_files

    (tmp_path / ".git").mkdir()
    (tmp_path / "specs").mkdir()
    for i in range(300):
        name = f"job-{i:03d}"
        text = SPEC.format(name=name, workers=1 + i % 7)
        (tmp_path / "specs" / f"{name}.yaml").write_text(text)
        result = compile_specs(load_text(text, f"{name}.yaml"), f"{name}.yaml", Options())
        write_tree(tmp_path / "deploy", name, kustomize_files(result.jobs[0]))
    (tmp_path / ".mpigen.yaml").write_text('specs: ["specs/*.yaml"]\noutput: deploy\n')

    def probe() -> subprocess.CompletedProcess:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        return subprocess.run([sys.executable, "-c", PROBE, "check"], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=600)

    done = probe()
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["all 300 trees in step", "deepdiff imported: False"]

    mpijob = tmp_path / "deploy/job-123/base/mpijob.yaml"  # 5 workers
    mpijob.write_text(mpijob.read_text().replace("replicas: 5", "replicas: 40"))
    done = probe()
    assert done.returncode == 1, done.stderr
    assert "    spec.mpiReplicaSpecs.Worker.replicas: 40 -> 5" in done.stdout.splitlines()
    assert done.stdout.splitlines()[-2:] == ["1 of 300 trees drifted", "deepdiff imported: True"]


def test_a_stale_staging_folder_is_reported_and_fix_removes_it(project: Path) -> None:
    """A build killed mid-write leaves its staging folder beside DIR (a warning: the trees are
    whole) or, where it could not be put there, inside DIR (an error: kubectl apply -R -f DIR
    would read it); --fix removes both, as the job's next build does."""
    beside = project / ".deploy.alpha.mpigen-staging-abc12345"
    (beside / "base").mkdir(parents=True)
    (beside / "base" / "mpijob.yaml.mpigen-staged").write_text("half written")
    args = ["check", "specs/alpha.yaml", "specs/beta.yaml", "-o", "deploy"]
    code, out, err = run(args, project)
    assert code == 0, err
    assert out == "all 2 trees in step\n"
    assert err.startswith(".deploy.alpha.mpigen-staging-abc12345: warning stale-staging a staging folder beside deploy")

    inside = project / "deploy" / ".beta.mpigen-staging-xyz12345"
    (inside / "base").mkdir(parents=True)
    (inside / "base" / "mpijob.yaml").write_text("kind: MPIJob\n")
    code, out, err = run(args, project)
    assert code == 1
    assert "deploy/.beta.mpigen-staging-xyz12345: error stale-staging" in err
    assert "kubectl apply -R -f deploy" in err

    code, out, err = run(args + ["--fix"], project)
    assert code == 0, err
    assert not beside.exists() and not inside.exists()
    assert run(args, project)[:3] == (0, "all 2 trees in step\n", "")


def test_a_missing_output_folder_is_drift_that_fix_writes(project: Path) -> None:
    """No tree written yet (a new repository, or -o naming a new folder): every file is missing."""
    code, out, err = run(["check", "specs/alpha.yaml", "-o", "nowhere"], project)
    assert code == 1 and err == ""
    assert "nowhere/alpha/base/mpijob.yaml: missing (mpigen would write it)" in out
    assert not (project / "nowhere").exists()
    assert run(["check", "specs/alpha.yaml", "-o", "nowhere", "--fix"], project)[0] == 0
    assert run(["check", "specs/alpha.yaml", "-o", "nowhere"], project)[:2] == (0, "1 tree in step\n")


def test_build_reads_the_configuration_as_check_does(tmp_path: Path) -> None:
    """A tree that ``build -o`` writes in a repository whose configuration sets operatorVersion and
    cluster is in step for ``check`` (build used to ignore the configuration: check then found the
    tree it had just written drifted, and its hint, ``mpigen build SPEC -o DIR``, did not help)."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "specs").mkdir()
    shutil.copy(ROOT / "specs/priority-order.yaml", tmp_path / "specs")
    shutil.copytree(ROOT / "specs/cluster", tmp_path / "cluster")
    (cluster,) = sorted(p.relative_to(tmp_path).as_posix() for p in (tmp_path / "cluster").glob("*.yaml"))
    (tmp_path / ".mpigen.yaml").write_text(
        f'specs: ["specs/*.yaml"]\noutput: deploy\ncluster: {cluster}\noperatorVersion: v0.4.0\n')
    code, _, err = run(["build", "specs/priority-order.yaml", "-o", "deploy"], tmp_path)
    assert code == 0, err
    code, out, err = run(["check"], tmp_path)
    assert (code, out) == (0, "1 tree in step\n"), err
    configured = run(["build", "specs/priority-order.yaml"], tmp_path)
    given = run(["build", "specs/priority-order.yaml", "--cluster", cluster, "--operator-version", "v0.4.0",
                 "--config", os.devnull], tmp_path)
    assert configured[:2] == given[:2] and configured[0] == 0
    assert run(["build", "specs/priority-order.yaml", "--operator-version", "v0.8.0"], tmp_path)[1] != configured[1]


def test_disable_in_the_configuration_holds_for_every_command(tmp_path: Path) -> None:
    """A lint code the configuration switches off is off for build's validate-output stage, check,
    validate, explain and podgroup alike: one verdict on the spec."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "specs").mkdir()
    shutil.copy(ROOT / "tests/cases/specs/invalid/volcano-queue-name.yaml", tmp_path / "specs/job.yaml")
    commands = [["build", "specs/job.yaml"], ["validate", "specs/job.yaml"], ["explain", "specs/job.yaml"],
                ["podgroup", "specs/job.yaml"]]
    for args in commands:
        code, _, err = run(args, tmp_path)
        assert code == 1 and "volcano-queue-name" in err + _, (args, err)
    (tmp_path / ".mpigen.yaml").write_text('specs: ["specs/*.yaml"]\noutput: deploy\ndisable: [volcano-queue-name]\n')
    for args in commands + [["check", "--fix"], ["check"]]:
        code, out, err = run(args, tmp_path)
        assert code == 0 and "volcano-queue-name" not in out + err, (args, out, err)
    assert "queue: Vision_Team" in run(["podgroup", "specs/job.yaml"], tmp_path)[1]


def test_podgroup_says_when_the_configuration_turns_the_gang_off(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    code, job, err = run(["build", str(ROOT / "specs/horovod-volcano.yaml")], tmp_path)
    assert code == 0, err
    (tmp_path / "job.yaml").write_text(job)
    assert run(["podgroup", "job.yaml"], tmp_path)[0] == 0
    (tmp_path / ".mpigen.yaml").write_text("gang: none\n")
    code, out, err = run(["podgroup", "job.yaml"], tmp_path)
    assert (code, out) == (1, "")
    assert "not-created" in err and "the configuration says the operator runs without gang scheduling" in err, err
    assert run(["podgroup", "job.yaml", "--gang", "volcano"], tmp_path)[0] == 0  # the option wins


def test_fix_in_a_git_repository_says_what_to_stage(tmp_path: Path) -> None:
    """A pre-commit hook runs ``check --fix`` on the staged specs: the commit takes the index, so
    the rewritten trees must be added; once they are, nothing is said."""
    git = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run(git + ["init", "-q"], cwd=tmp_path, check=True)
    for name in ("alpha", "beta"):
        assert run(["build", write_spec(tmp_path, name), "-o", "deploy"], tmp_path)[0] == 0
    subprocess.run(git + ["add", "-A"], cwd=tmp_path, check=True)
    subprocess.run(git + ["commit", "-qm", "trees"], cwd=tmp_path, check=True)
    write_spec(tmp_path, "alpha", workers=3)
    code, out, _ = run(["check", "specs/alpha.yaml", "-o", "deploy", "--fix"], tmp_path)
    assert code == 0 and out.splitlines()[-1] == "not staged yet: git add deploy/alpha"
    subprocess.run(git + ["add", "deploy"], cwd=tmp_path, check=True)
    write_spec(tmp_path, "alpha", workers=4)
    (tmp_path / "deploy" / "alpha").rename(tmp_path / "deploy" / "alpha-moved")  # now untracked, alpha missing
    code, out, _ = run(["check", "specs/alpha.yaml", "-o", "deploy", "--fix"], tmp_path)
    assert code == 0 and out.splitlines()[-1] == "not staged yet: git add deploy/alpha"
    subprocess.run(git + ["add", "-A", "deploy/alpha"], cwd=tmp_path, check=True)
    write_spec(tmp_path, "alpha", workers=5)
    code, out, _ = run(["check", "specs/alpha.yaml", "-o", "deploy"], tmp_path)
    assert code == 1 and "not staged" not in out  # without --fix nothing is written


def test_fix_outside_git_says_nothing_of_staging(project: Path) -> None:
    write_spec(project, "alpha", workers=3)
    code, out, _ = run(["check", "specs/alpha.yaml", "-o", "deploy", "--fix"], project)
    assert code == 0 and "not staged" not in out
