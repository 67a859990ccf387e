"""``mpigen validate`` against the API server: the same manifests, the same verdict.

Every case of tests/server_corpus.py (the broken manifests of tests/cases/apiserver/, the golden
objects as written and their seeded mutations) goes to ``mpigen validate`` (one run over all of
them, ``--format json``) and to kube-apiserver 1.35 with the pinned CRDs and training-operator's
webhook (``kubectl create --dry-run=server``, in the namespace ``agree-validate``). They agree when
both refuse, or both accept (validate's warnings allowed). Figure: ``validate agrees with the API
server on A/N manifests``, then a table of every disagreement.

The API server checks a job's pod templates only against the CRD's schema; the Pod rules run when
the operator creates the pods, which ``mpigen validate`` checks beforehand (the ``pod-*`` rules).
That class is the corpus of tests/cases/pod_rules/: each case's bare Pod goes to the API server
(``kubectl create --dry-run=server``), which must refuse it with the corpus's message, and
validate must report the job template carrying it with the expected code, at the field, in the
API server's words (tests/pod_corpus.py). Figure: ``validate catches A/N pod errors the API
server refuses at pod creation``.

A figure below N/N fails the test unless each shortfall is a documented gap: ``GAPS`` below, the one
list of them, each with its reason; tests/unit/test_server_corpus.py pins every gap in ``make
test`` (validate's verdict on it is the one the gap states). A gap that no longer disagrees fails
the test too, so that the list stays true.
"""

from __future__ import annotations

import fnmatch
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.e2e.conftest import FIGURES, ROOT, Kube
from tests.pod_corpus import cases as pod_cases
from tests.pod_corpus import caught, errors as pod_errors
from tests.server_corpus import cases, file_name

NAMESPACE = "agree-validate"
POD_PREFIX = "pod_rules/"  # the second figure's cases, in GAPS

STRICTER = "validate refuses what the API server accepts"
MISSED = "the API server refuses what validate passes"

GAPS: dict[str, tuple[str, str]] = {
    # pattern (fnmatch, on the case's name) -> (which way, why)
    "stricter-mpijob-launcher-replicas": (STRICTER, (
        "mpi-operator v0.8.2 has no admission webhook: the API server stores any MPIJob its CRD's schema takes, "
        "and the operator's validation.go refuses it afterwards (the job is marked Failed, nothing is created). "
        "validate reports that refusal (mpijob-invalid) before the job is applied.")),
    "stricter-mpijob-clean-pod-policy": (STRICTER, "as above: validation.go's cleanPodPolicy values, not the CRD's"),
    "*#MPIJob/negative-replicas@*": (STRICTER, "as above: validation.go refuses replicas below 1 (Worker) or other "
                                               "than 1 (Launcher); the CRD has no minimum"),
    "stricter-mpijob-hostname": (STRICTER, (
        "the operator refuses a job whose last worker hostname <name>-worker-<n> is no DNS-1035 label "
        "(validateMPIJobName); the API server only asks the name to be a DNS-1123 subdomain (hostname)")),
    "stricter-mpijob-int32": (STRICTER, (
        "the API server stores a custom resource as JSON and takes 3000000000 in an int32 field; mpi-operator "
        "decodes MPIJobs into Go's int32 and cannot read the object, nor list any MPIJob beside it")),
    "*#MPIJob/int32-overflow@*": (STRICTER, "as above, for the field the mutation drew"),
    "*#TrainingRuntime/int32-overflow@*": (STRICTER, (
        "a TrainingRuntime is a custom resource too: the API server stores the JSON, and Kubeflow Trainer "
        "decodes runtimes into Go's int32 and cannot read it")),
    "*#TrainJob/drop-required@*": (STRICTER, (
        "the API server stored these TrainJobs on the local cluster although the CRD's schema marks the field "
        "required (an env var's name, a runtime patch's volume name or mount path); Trainer copies them into the "
        "JobSet's pod templates, whose Pods the API server refuses, so nothing runs: validate reports the "
        "missing field before the job is applied")),
    "*#PodGroup/int32-overflow@*": (STRICTER, (
        "kube-batch's PodGroup is a custom resource too: the API server stores the JSON, kube-batch's Go int32 "
        "cannot read it")),
    "golden/tensorflow-ps/*#TFJob/negative-replicas@*": (STRICTER, (
        "training-operator checks no TFJob replica count: -1 Workers create no pods, and the job's gang "
        "(schedulingPolicy.minAvailable, all its pods) never gathers, which validate refuses "
        "(min-available-too-large)")),
    "stricter-tfjob-zero-workers": (STRICTER, (
        "training-operator's webhook takes a TFJob with 0 Workers (and no Chief); the operator then marks it "
        "Succeeded at once, having trained nothing (zero-replicas)")),
    "stricter-priority-class-without-value": (STRICTER, (
        "Kubernetes' OpenAPI schema marks PriorityClass.value required, and mpigen's schema follows it; the API "
        "server decodes a missing value as 0 and accepts it")),
    "stricter-duplicate-key": (STRICTER, (
        "kubectl's YAML reader keeps the last of two equal keys; validate refuses the ambiguity "
        "(yaml-duplicate-key)")),
    "stricter-yaml-tag": (STRICTER, (
        "kubectl reads an unknown tag's text as a string; validate reads plain data only and refuses a tag that "
        "would construct an object (yaml-tag)")),
    "missed-no-api-version": (MISSED, (
        "validate reads folders that hold other YAML too (kustomizations, values files): a document that is not "
        "a Kubernetes object is skipped and reported as such (not-an-object, an info); --require-schema makes it "
        "an error")),
    "missed-no-kind": (MISSED, "as above"),
    "missed-unknown-kind": (MISSED, (
        "validate cannot know which CRDs a cluster serves: an object of a kind it has no schema nor rule for is "
        "skipped and reported (no-schema, an info); --require-schema makes it an error")),
}


def gap(name: str) -> tuple[str, tuple[str, str]] | None:
    """(pattern, (which way, why)) of the documented gap a case falls under, or None."""
    for pattern, entry in GAPS.items():
        if fnmatch.fnmatchcase(name, pattern):
            return pattern, entry
    return None


def _namespace(kube: Kube) -> None:
    if kube.kubectl("get", "namespace", NAMESPACE, check=False).returncode != 0:
        kube.kubectl("create", "namespace", NAMESPACE)


def _server(kube: Kube, path: Path) -> tuple[bool, str]:
    """(refused, answer) of ``kubectl create --dry-run=server`` on one file."""
    done = kube.kubectl("create", "--dry-run=server", "-n", NAMESPACE, "-f", str(path), check=False, timeout=60)
    return done.returncode != 0, (done.stderr.strip() or done.stdout.strip())


def _validate(kube: Kube, paths: list[Path]) -> dict[str, list[dict]]:
    """File -> validate's error diagnostics, from one ``mpigen validate --format json`` run."""
    done = kube.mpigen("validate", "--format", "json", *map(str, paths))
    assert done.returncode in (0, 1), done.stderr
    found: dict[str, list[dict]] = {str(p): [] for p in paths}
    for d in json.loads(done.stdout)["diagnostics"]:
        if d["severity"] == "error":
            found.setdefault(d["file"], []).append(d)
    return found


def _one_line(text: str, limit: int = 240) -> str:
    text = " / ".join(line.strip() for line in text.splitlines() if line.strip())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def test_validate_agrees_with_the_api_server(kube: Kube, tmp_path: Path) -> None:
    _namespace(kube)
    all_cases = cases()
    paths: list[Path] = []
    for case in all_cases:
        if case.path is not None:
            paths.append(case.path)
        else:
            path = tmp_path / file_name(case)
            path.write_text(case.text, "utf-8")
            paths.append(path)
    assert len(set(paths)) == len(paths), "two cases share a file name"
    with ThreadPoolExecutor(max_workers=4) as pool:
        verdicts = list(pool.map(lambda p: _server(kube, p), paths))
    validated = _validate(kube, paths)

    agree, rows, undocumented, corpus_errors = 0, [], [], []
    matched: set[str] = set()
    for case, path, (refused, answer) in zip(all_cases, paths, verdicts):
        errors = validated.get(str(path), [])
        if case.server is not None:  # a file of the corpus says what the API server answers: still true?
            if refused != (case.server == "refuses"):
                corpus_errors.append(f"{case.name}: the corpus says the API server {case.server}, it "
                                     f"{'refused' if refused else 'accepted'}: {_one_line(answer)}")
            elif refused and case.apiserver and case.apiserver not in answer:
                corpus_errors.append(f"{case.name}: refused, but not with {case.apiserver!r}: {_one_line(answer)}")
        if refused == bool(errors):
            agree += 1
            continue
        shown = "; ".join(f"{d['code']} {d['message']} ({d['path']})" for d in errors) or "no error"
        found = gap(case.name)
        way = MISSED if refused else STRICTER
        if found and found[1][0] == way:
            matched.add(found[0])
            note = f"documented gap ({found[0]})"
        else:
            undocumented.append(case.name)
            note = "NOT DOCUMENTED"
        rows.append(f"  {case.name} | {'refused: ' + _one_line(answer) if refused else 'accepted'} | "
                    f"validate: {_one_line(shown)} | {note}")
    FIGURES.append(f"validate agrees with the API server on {agree}/{len(all_cases)} manifests")
    if rows:
        FIGURES.append("  file | API server | mpigen validate | gap")
        FIGURES.extend(rows)
    stale = sorted(p for p in set(GAPS) - matched if not p.startswith(POD_PREFIX))
    assert not corpus_errors, "the corpus is wrong about the API server:\n" + "\n".join(corpus_errors)
    assert not undocumented, "disagreements that are not documented gaps:\n" + "\n".join(rows)
    assert not stale, f"documented gaps that no longer disagree (remove them from GAPS): {stale}"


def test_validate_catches_the_pod_errors_the_api_server_refuses(kube: Kube, tmp_path: Path) -> None:
    _namespace(kube)
    corpus = pod_cases()
    paths = []
    for case in corpus:
        path = tmp_path / f"{case.path.stem}.json"
        path.write_text(json.dumps(case.pod), "utf-8")
        paths.append(path)
    with ThreadPoolExecutor(max_workers=4) as pool:
        verdicts = list(pool.map(lambda p: _server(kube, p), paths))
    found, rows, undocumented = 0, [], []
    matched: set[str] = set()
    for case, (refused, answer) in zip(corpus, verdicts):
        server_ok = refused and case.apiserver in answer
        validate_ok = caught(case)
        if server_ok and validate_ok:
            found += 1
            continue
        name = f"{POD_PREFIX}{case.path.stem}"
        shown = "; ".join(d.format() for d in pod_errors(case)) or "no error"
        documented = gap(name)
        if documented:
            matched.add(documented[0])
        else:
            undocumented.append(name)
        server = (f"refused: {_one_line(answer)}" if refused else "accepted") + \
            ("" if server_ok else f" (expected {case.apiserver!r})")
        rows.append(f"  {name} | {server} | validate ({case.header['code']} expected): {_one_line(shown)} | "
                    f"{'documented gap (' + documented[0] + ')' if documented else 'NOT DOCUMENTED'}")
    FIGURES.append(f"validate catches {found}/{len(corpus)} pod errors the API server refuses at pod creation")
    if rows:
        FIGURES.append("  case | API server (bare Pod) | mpigen validate (job template) | gap")
        FIGURES.extend(rows)
    stale = sorted(p for p in set(GAPS) - matched if p.startswith(POD_PREFIX))
    assert not undocumented, "pod errors that are not caught and not documented:\n" + "\n".join(rows)
    assert not stale, f"documented gaps that no longer disagree (remove them from GAPS): {stale}"
