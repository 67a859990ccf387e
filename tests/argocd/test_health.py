"""Every health check of mpigen/gitops passes its health_test.yaml under gopher-lua, run as Argo
CD v3.5.1 runs it (tests/argocd/argocd-lua): as an argocd-cm script, with only the base, table and
safe os libraries (what `mpigen argocd` delivers), and as a built-in script of
resource_customizations/, with Lua's standard libraries open (what an upstream contribution gets).
The fixtures are discovered from the folders, as Argo CD's TestLuaHealthScript discovers them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.argocd import harness

KINDS = ["jobset.x-k8s.io/JobSet", "kubeflow.org/MPIJob", "kubeflow.org/PyTorchJob", "kubeflow.org/TFJob",
         "scheduling.volcano.sh/PodGroup", "scheduling.x-k8s.io/PodGroup", "trainer.kubeflow.org/TrainJob"]
CASES = harness.cases()
MIN_CASES = 49
# the verdicts each kind's fixtures must show (a PodGroup is never suspended: its job is)
JOB_VERDICTS = {"Progressing", "Healthy", "Degraded", "Suspended"}
PODGROUP_VERDICTS = {"Progressing", "Healthy", "Degraded"}


def test_the_folders_hold_every_kind_and_their_cases() -> None:
    assert harness.kinds() == KINDS
    assert len(CASES) >= MIN_CASES, f"{len(CASES)} health cases found under {harness.CUSTOMIZATIONS}"


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_shows_every_verdict_and_uses_every_fixture(kind: str) -> None:
    mine = [c for c in CASES if c.kind == kind]
    expected = PODGROUP_VERDICTS if kind.endswith("/PodGroup") else JOB_VERDICTS
    assert {c.status for c in mine} == expected
    fixtures = sorted(p.relative_to(harness.CUSTOMIZATIONS / kind).as_posix()
                      for p in (harness.CUSTOMIZATIONS / kind / "testdata").glob("*.yaml"))
    assert sorted(c.input_path for c in mine) == fixtures


@pytest.fixture(scope="module")
def verdicts(argocd_lua: Path) -> dict[tuple[str, bool], dict]:
    requests = [{"id": f"{case.id}|{open_libs}", "script": str(case.folder / "health.lua"),
                 "object": str(case.folder / case.input_path), "openLibs": open_libs}
                for case in CASES for open_libs in (False, True)]
    responses = harness.run(argocd_lua, "health", requests)
    return {(r["id"].rpartition("|")[0], r["id"].endswith("|True")): r for r in responses}


@pytest.mark.parametrize("open_libs", [False, True], ids=["argocd-cm", "built-in"])
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_health_check(case: harness.Case, open_libs: bool, verdicts: dict) -> None:
    got = verdicts[(case.id, open_libs)]
    assert not got.get("error"), got["error"]
    assert (got.get("status"), got.get("message", "")) == (case.status, case.message)


def test_the_harness_runs_an_argocd_cm_script_without_the_string_library(argocd_lua: Path, tmp_path: Path) -> None:
    """What makes the two runs differ: an argocd-cm script has no string library unless
    useOpenLibs, and a status that is none of Argo CD's becomes Unknown."""
    script = tmp_path / "health.lua"
    script.write_text('return {status = string.sub("Healthy!", 1, 7), message = obj.metadata.name}\n')
    invalid = tmp_path / "invalid.lua"
    invalid.write_text('return {status = "Fine", message = "x"}\n')
    fixture = harness.CUSTOMIZATIONS / "kubeflow.org/MPIJob/testdata/running.yaml"
    closed, opened, unknown = harness.run(argocd_lua, "health", [
        {"id": "closed", "script": str(script), "object": str(fixture), "openLibs": False},
        {"id": "opened", "script": str(script), "object": str(fixture), "openLibs": True},
        {"id": "unknown", "script": str(invalid), "object": str(fixture), "openLibs": False}])
    assert "attempt to index a non-table object(nil) with key 'sub'" in closed["error"]
    assert (opened.get("status"), opened.get("message")) == ("Healthy", "bert")
    assert (unknown["status"], unknown["message"]) == ("Unknown", "Lua returned an invalid health status")
