"""The Python API (mpigen.build, mpigen.validate, mpigen.explain): the names issue 23 fixes, a
cheap ``import mpigen``, and the same objects, text and diagnostics as the commands, which call it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import mpigen
from mpigen.diagnostics import Severity, UsageError
from tests.golden.cases import discover, run

ROOT = Path(__file__).resolve().parents[2]
GOLDEN_CASES = discover()
BUILDS = [(case, env) for case in GOLDEN_CASES for env in [None, *case.envs]]
SPECS = sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("specs/*.yaml"))
INVALID_SPECS = sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("tests/cases/specs/invalid/*.yaml"))
VALIDATE_PATHS = ["specs", "golden", "tests/cases/validate", "tests/cases/specs/invalid"]
MANIFESTS = ["golden/horovod-volcano/base.yaml", "golden/pytorch-ddp/base.yaml", "golden/tensorflow-ps/base.yaml",
             "golden/trainjob-deepspeed-volcano/base.yaml"]


def test_the_cases_are_found() -> None:
    assert len(GOLDEN_CASES) >= 15 and len(SPECS) >= 15 and len(INVALID_SPECS) >= 20


def test_import_mpigen_imports_nothing_else_of_mpigen() -> None:
    """The API is imported when first used: ``import mpigen`` stays as cheap as the start-up needs."""
    probe = "import sys, mpigen\nprint(' '.join(sorted(m for m in sys.modules if m.startswith('mpigen'))))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.split() == ["mpigen"]


def test_the_fixed_names_are_the_functions_whatever_is_imported() -> None:
    import mpigen.explanation  # noqa: F401 - the stage packages do not take the API's names
    import mpigen.validation  # noqa: F401
    from mpigen import build, explain, validate

    assert (mpigen.build, mpigen.validate, mpigen.explain) == (build, validate, explain)
    assert all(callable(f) and f.__module__ == "mpigen.api" and f.__doc__ for f in (build, validate, explain))
    assert mpigen.Diagnostic is mpigen.diagnostics.Diagnostic and mpigen.UsageError is UsageError
    assert {"build", "validate", "explain"} <= set(dir(mpigen))
    with pytest.raises(AttributeError):
        mpigen.no_such_name  # noqa: B018


def test_the_package_is_typed() -> None:
    import tomllib

    assert (ROOT / "mpigen" / "py.typed").is_file()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "py.typed" in config["package-data"]["mpigen"]


@pytest.mark.parametrize(("case", "env"), BUILDS, ids=[f"{c.name}-{e or 'base'}" for c, e in BUILDS])
def test_build_gives_the_reviewed_golden_output(case, env, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    result = mpigen.build(case.spec, env=env, cluster=case.cluster, operator_version=case.operator_version)
    assert result.ok and result.env == env
    golden = (case.folder / f"{env or 'base'}.yaml").read_text("utf-8")
    assert result.yaml() == golden
    assert result.objects == list(yaml.safe_load_all(golden))
    code, _, err = run(["build", case.spec, *case.options(), *(["--env", env] if env else []), "-v"])
    assert code == 0 and err == "".join(d.format() + "\n" for d in result.diagnostics)


@pytest.mark.parametrize("spec", INVALID_SPECS)
def test_build_of_an_invalid_spec_gives_the_commands_diagnostics(spec: str, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    options = re.search(r"^# options: --operator-version (\S+)$", (ROOT / spec).read_text("utf-8"), re.M)
    version = options.group(1) if options else None
    result = mpigen.build(spec, operator_version=version)
    assert not result.ok and result.objects == [] and result.jobs == []
    code, out, err = run(["build", spec, "-v", *(["--operator-version", version] if version else [])])
    assert (code, out) == (1, "")
    assert err == "".join(d.format() + "\n" for d in result.diagnostics)


@pytest.mark.parametrize("spec", SPECS)
def test_build_of_a_spec_as_data_gives_the_same_objects_without_lines(spec: str, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    from_file = mpigen.build(spec)
    data = yaml.safe_load((ROOT / spec).read_text("utf-8"))
    from_data = mpigen.build(data)
    assert from_data.objects == from_file.objects and from_data.yaml() == from_file.yaml()
    assert sorted((d.code, d.path, d.message) for d in from_data.diagnostics) == \
        sorted((d.code, d.path, d.message) for d in from_file.diagnostics)
    assert all(d.file == "<data>" and d.line is None and d.column is None for d in from_data.diagnostics)
    from_bytes = mpigen.build(("job.yaml", (ROOT / spec).read_bytes()))
    assert from_bytes.objects == from_file.objects
    assert [d.with_file(spec) for d in from_bytes.diagnostics] == from_file.diagnostics


def test_build_errors_of_the_input_are_diagnostics() -> None:
    result = mpigen.build({"apiVersion": "mpigen.dev/v1alpha1", "kind": "TrainingJob", "metadata": {"name": "x"},
                           "spec": {"framework": "horovod", "workers": "two"}})
    assert not result.ok and result.objects == []
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    assert errors and all(d.file == "<data>" and d.line is None for d in errors)
    assert "spec.workers" in {d.path for d in errors}
    assert [d.code for d in mpigen.build(("empty.yaml", b"")).diagnostics] == ["no-spec"]
    assert [d.code for d in mpigen.build(("list.yaml", b"- 1\n")).diagnostics] == ["not-a-spec"]


def test_build_usage_errors_raise(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    lacks = r"^--env nope: no such environment in resnet-ddp \(environments: dev, prod\)$"
    with pytest.raises(UsageError, match=lacks):
        mpigen.build("specs/scheduler-plugins-envs.yaml", env="nope")
    with pytest.raises(UsageError, match="cannot read: No such file or directory") as missing:
        mpigen.build(tmp_path / "missing.yaml")
    assert missing.value.path == str(tmp_path / "missing.yaml")
    with pytest.raises(UsageError, match="unknown code 'no-such-rule'"):
        mpigen.build("specs/pytorch-ddp.yaml", disable=["no-such-rule"])
    with pytest.raises(UsageError, match="--operator-version"):
        mpigen.build("specs/pytorch-ddp.yaml", operator_version="nine")
    with pytest.raises(TypeError):
        mpigen.build(42)  # type: ignore[arg-type]


def test_build_with_a_cluster_file(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    clustered = mpigen.build("specs/horovod-volcano.yaml", cluster=ROOT / "specs/cluster/priorityclasses.yaml")
    _, out, _ = run(["build", "specs/horovod-volcano.yaml", "--cluster", "specs/cluster/priorityclasses.yaml"])
    assert clustered.ok and clustered.yaml() == out


@pytest.mark.parametrize("fmt", ["text", "json", "junit", "github", "sarif"])
def test_validate_gives_the_commands_report(fmt: str, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    result = mpigen.validate(VALIDATE_PATHS)
    code, out, err = run(["validate", "--format", fmt, "-v", *VALIDATE_PATHS])
    assert result.report(fmt, verbose=True) == out
    assert code == (0 if result.ok else 1) and not result.ok  # the invalid cases are among them
    if fmt in ("text", "github"):
        assert err == result.summary() + "\n"
    assert len(result.files) == len(set(result.files)) > 100 and result.coverage.checked > 100


def test_validate_of_objects_reports_each_at_its_index_without_lines() -> None:
    good = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "ok"}, "data": {"a": "b"}}
    bad = {"apiVersion": "kubeflow.org/v2beta1", "kind": "MPIJob", "metadata": {"name": "bad"},
           "spec": {"mpiReplicaSpecs": {"Worker": {"replicas": "two"}}}}
    assert mpigen.validate(good).ok
    result = mpigen.validate([good, bad])
    assert not result.ok and result.files == ["<data[0]>", "<data[1]>"]
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    assert errors and {d.file for d in errors} == {"<data[1]>"}
    assert all(d.line is None and d.column is None for d in result.diagnostics)
    assert "spec.mpiReplicaSpecs.Worker.replicas" in {d.path for d in errors}


def test_validate_options_and_usage_errors(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    (tmp_path / "job.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: yes}\n")
    assert [(d.code, d.line, d.column) for d in mpigen.validate(tmp_path).diagnostics] == [("schema", 4, 11)]
    assert mpigen.validate(tmp_path, disable={"schema"}).diagnostics == []
    assert mpigen.validate(tmp_path, exclude=["*/job.yaml"]).files == []
    skipped = mpigen.validate(("cm.yaml", b"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: d}\n"),
                              require_schema=True)
    assert not skipped.ok and skipped.coverage.skipped
    with pytest.raises(UsageError, match="no such file or folder") as missing:
        mpigen.validate(["specs", "no/such/path.yaml"])
    assert missing.value.path == "no/such/path.yaml"
    with pytest.raises(UsageError, match="gang"):
        mpigen.validate("specs", gang="slurm")
    with pytest.raises(UsageError, match="format"):
        mpigen.validate("specs/pytorch-ddp.yaml").report("xml")


@pytest.mark.parametrize("source", SPECS + MANIFESTS)
def test_explain_gives_the_commands_text_and_yaml(source: str, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    result = mpigen.explain(source)
    code, out, err = run(["explain", source])
    assert code == (0 if result.ok else 1)
    assert result.text == out and err == "".join(d.format() + "\n" for d in result.diagnostics)
    code, out, _ = run(["explain", source, "--format", "yaml"])
    assert result.yaml() == out
    assert [obj for job in result.jobs for obj in job.objects()] == list(yaml.safe_load_all(out))


def test_explain_tells_each_jobs_objects_and_gang(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    result = mpigen.explain("specs/horovod-volcano.yaml")
    spec = yaml.safe_load((ROOT / "specs/horovod-volcano.yaml").read_text())
    assert result.ok and [(job.kind, job.name, job.gang) for job in result.jobs] == \
        [("MPIJob", spec["metadata"]["name"], "volcano")]
    objects = list(result.jobs[0].objects())
    workers = spec["spec"]["workers"]
    assert sum(obj["kind"] == "Pod" for obj in objects) == workers  # the launcher is a Job
    hostfile = next(obj for obj in objects if obj["kind"] == "ConfigMap")["data"]["hostfile"]
    assert isinstance(hostfile, str) and len(hostfile.splitlines()) == workers
    assert result.jobs[0].text in result.text and result.jobs[0].fit is None


def test_explain_of_an_invalid_source_explains_nothing(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    result = mpigen.explain(INVALID_SPECS[0])
    assert not result.ok and result.jobs == [] and result.text == ""
    assert result.input_diagnostics and result.operator_diagnostics == []
    nothing = mpigen.explain({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}})
    assert [(d.code, d.file, d.line) for d in nothing.diagnostics] == [("no-mpijob", "<data>", None)]
    with pytest.raises(UsageError, match="not a DNS domain"):
        mpigen.explain("specs/pytorch-ddp.yaml", cluster_domain="a b")
    with pytest.raises(UsageError, match="no such environment"):
        mpigen.explain("specs/horovod-volcano.yaml", env="prod")


@pytest.mark.parametrize("source", ["specs/horovod-volcano.yaml", "specs/pytorch-ddp.yaml",
                                    "specs/trainjob-deepspeed-volcano.yaml"])
def test_explain_on_a_cluster_of_nodes_gives_the_commands_verdict(source: str, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    cluster = "tests/cases/cluster/kwok-nodes.yaml"
    result = mpigen.explain(source, cluster=cluster)
    code, out, err = run(["explain", source, "--cluster", cluster])
    assert (code, out) == (0 if result.ok else 1, result.text)
    assert err == "".join(d.format() + "\n" for d in result.diagnostics)
    assert any(job.fit is not None for job in result.jobs)
    assert all(job.fit is None or job.fit.outcome for job in result.jobs)


def test_explain_yaml_chunks_memory_does_not_grow_with_the_workers() -> None:
    """``mpigen explain --format yaml`` streams through ExplainResult.yaml_chunks: the operator's
    objects are generated one at a time and the hostfile line by line (peak memory measured by
    tracemalloc, for 8,000 workers against 1,000)."""
    import tracemalloc

    spec = yaml.safe_load((ROOT / "specs" / "horovod-infiniband.yaml").read_text("utf-8"))

    def peak(workers: int) -> tuple[int, int]:
        spec["spec"]["workers"] = workers
        result = mpigen.explain(spec)
        assert result.ok, result.diagnostics
        tracemalloc.start()
        try:
            size = sum(len(chunk) for chunk in result.yaml_chunks())
            return tracemalloc.get_traced_memory()[1], size
        finally:
            tracemalloc.stop()

    small, small_size = peak(1_000)
    large, large_size = peak(8_000)
    assert large_size > 7 * small_size  # the output grows with the workers ...
    assert large < small + 1024 * 1024, (small, large)  # ... the memory does not
