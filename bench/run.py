"""`make bench`: issue 24's goals, mpigen beside its peers in the same run, on the same inputs.

Five groups of rows (`--only GROUP`, repeatable; default: all), printed as two tables:

* cluster: `mpigen podgroup SPEC --cluster FILE` on a generated GPU cluster as `kubectl get
  nodes,pods -A -o json` and `-o yaml` print it, beside `json.load` of the JSON file, at the
  given scale and at a tenth of it (bench/cluster.py);
* live: `mpigen podgroup SPEC --kube-context` reading the local cluster (cluster/, started if it is
  not running) given the generated cluster's objects, beside `json.load` of kubectl's listing of the
  same lists, at a tenth of the cluster rows' scale unless told (bench/live.py);
* lint: `mpigen validate` beside kubeconform (1,000 small files, 1,000 files of 2.7 kB, one
  10,000-document file, the upstream corpus) and beside kubectl-validate (the corpus);
* build: a cold `mpigen build SPEC --env prod` and the floor (`python -c "import click, yaml"`)
  beside `kubectl kustomize` of the same overlay; `mpigen check` with its cache; compiling a
  10,000-worker job;
* growth: mpigen on an input and on ten times that input (files, one large file with its peak
  RSS, `check`, and the cluster check from the cluster rows).

How commands are timed: bench/measure.py; the peers and their inputs: bench/peers.py; the
tables: bench/table.py. BENCHMARKS.md describes every row and its goal.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable, TypeVar

from bench.cluster import write_cluster
from bench.generate import write_manifests, write_specs, write_stream
from bench.live import live_rows
from bench.measure import Command, Failed, compile_times, in_turns, output_of, peak_rss
from bench.peers import (CORES, copy_corpus, corpus_kinds, crd_pins, files_read, kubeconform, kubectl_validate,
                         module_reader, offline_env, tool, write_crds)
from bench.table import GrowthRow, Row, report

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
MPIGEN = [str(BIN / "mpigen")]
KUBECTL = str(BIN / "kubectl")
GROUPS = ("cluster", "live", "lint", "build", "growth")
NOT_INSTALLED = "({} is not installed: `make tools` puts it in ./bin)"
T = TypeVar("T")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", choices=GROUPS, metavar="GROUP",
                        help=f"run only this group of rows (repeatable): {', '.join(GROUPS)}; default: all")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs of each command (large inputs: half)")
    parser.add_argument("--files", type=int, default=1000, help="files of the lint rows (growth: 10x)")
    parser.add_argument("--documents", type=int, default=10000, help="documents of the large file (growth: 10x)")
    parser.add_argument("--specs", type=int, default=500, help="specs of the check rows (growth: 10x)")
    parser.add_argument("--cluster-nodes", type=int, default=5000, help="nodes of the cluster (also: a tenth)")
    parser.add_argument("--cluster-pods", type=int, default=150_000, help="pods of the cluster (also: a tenth)")
    parser.add_argument("--live-nodes", type=int, help="nodes of the live row (default: a tenth of the cluster's)")
    parser.add_argument("--live-pods", type=int, help="pods of the live row (default: a tenth of the cluster's)")
    args = parser.parse_args(argv)
    args.groups = [group for group in GROUPS if group in (args.only or GROUPS)]
    args.live_nodes = args.cluster_nodes // 10 if args.live_nodes is None else args.live_nodes
    args.live_pods = args.cluster_pods // 10 if args.live_pods is None else args.live_pods
    return args


class Inputs:
    """The generated inputs, each written once into the work folder when a row first needs it."""

    def __init__(self, work: Path):
        self.work = work
        self._made: dict[tuple[object, ...], object] = {}

    def _once(self, key: tuple[object, ...], make: Callable[[], T]) -> T:
        if key not in self._made:
            self._made[key] = make()
        return self._made[key]  # type: ignore[return-value]  (the key names what make returns)

    def manifests(self, n: int, small: bool) -> Path:
        def make() -> Path:
            folder = self.work / f"{'small' if small else 'files'}-{n}"
            write_manifests(folder, n, small=small)
            return folder
        return self._once(("manifests", n, small), make)

    def stream(self, documents: int) -> Path:
        return self._once(("stream", documents), lambda: write_stream(self.work / f"stream-{documents}.yaml", documents))

    def repo(self, specs: int) -> Path:
        """A repository of ``specs`` specs with two environments each and their committed output."""
        def make() -> Path:
            repo = self.work / f"repo-{specs}"
            write_specs(repo / "specs", specs)
            (repo / ".mpigen.yaml").write_text("specs: [specs/*.yaml]\noutput: deploy\n")
            subprocess.run(MPIGEN + ["check", "--fix"], cwd=repo, check=True, stdout=subprocess.DEVNULL,
                           env=self.cache_env(specs))
            return repo
        return self._once(("repo", specs), make)

    def cache_env(self, specs: int) -> dict[str, str]:
        return {**os.environ, "MPIGEN_CACHE_DIR": str(self.work / f"cache-{specs}")}

    def corpus(self) -> tuple[Path, int]:
        folder = self.work / "upstream"
        return self._once(("corpus",), lambda: (folder, copy_corpus(folder)))

    def crds(self) -> Path:
        """The CRDs of the corpus' custom kinds, from the pinned modules (for kubectl-validate)."""
        def make() -> Path:
            folder = self.work / "crds"
            write_crds(folder, crd_pins(corpus_kinds()), module_reader())
            return folder
        return self._once(("crds",), make)

    def cluster(self, nodes: int, pods: int) -> tuple[Path, Path]:
        return self._once(("cluster", nodes, pods), lambda: write_cluster(self.work / f"cluster-{nodes}", nodes, pods))


def cold_check(inputs: Inputs, specs: int) -> Command:
    """`mpigen check` of the repository of ``specs`` specs, its cache emptied before each run."""
    env = inputs.cache_env(specs)
    return Command(MPIGEN + ["check"], cwd=inputs.repo(specs), env=env,
                   before=lambda: shutil.rmtree(env["MPIGEN_CACHE_DIR"], ignore_errors=True))


def validate(path: Path, ok: tuple[int, ...] = (0,)) -> Command:
    return Command(MPIGEN + ["validate", str(path)], ok=ok)


def failed_row(name: str, error: Failed) -> Row:
    return Row(name, None, note=f"({error.reason})")


# --------------------------------------------------------------------------------- the groups


def cluster_rows(inputs: Inputs, nodes: int, pods: int, repeat: int) -> tuple[list[Row], float | None]:
    """The JSON and YAML rows at ``nodes`` and ``pods``, and mpigen's median on the JSON file
    (None if it was not measured), for the growth table."""
    as_json, as_yaml = inputs.cluster(nodes, pods)
    spec = str(ROOT / "specs/horovod-volcano.yaml")
    peer = Command([sys.executable, "-c", f"import json; json.load(open({str(as_json)!r}))"])
    rows, json_seconds = [], None
    for path, limit, memory_limit in ((as_json, 2.0, 2.0), (as_yaml, 5.0, None)):
        name = (f"podgroup --cluster: {nodes} nodes, {pods} pods, kubectl -o {path.suffix[1:]} "
                f"({path.stat().st_size / 1e6:.0f} MB)")
        ours = Command(MPIGEN + ["podgroup", spec, "--cluster", str(path)], ok=(0, 1))  # 1: the gang does not fit
        code, output = output_of(ours)
        if code != 0 and ": error file-too-large " in output:  # its exit 1 is a refusal, not the gang's verdict
            rows.append(failed_row(name, Failed(ours.argv, code, output)))
            continue
        try:
            mine, theirs = in_turns([ours, peer], repeat)
        except Failed as error:
            rows.append(failed_row(name, error))
            continue
        rss, peer_rss = peak_rss(ours), peak_rss(peer)
        memory_met = memory_limit is None or rss <= memory_limit * peer_rss
        rows.append(Row(name, mine.wall, theirs.wall, "json.load", limit, cpu=(mine.cpu, theirs.cpu),
                        extra_goal=f"peak <= {memory_limit:.2f}x" if memory_limit else "", extra_met=memory_met,
                        note=f"(peak {rss} MiB / {peer_rss} MiB = {rss / peer_rss:.2f}x)"))
        if path is as_json:
            json_seconds = mine.wall
    return rows, json_seconds


def lint_rows(inputs: Inputs, args: argparse.Namespace) -> list[Row]:
    kc = tool("kubeconform")
    rows = []
    for name, folder, limit, cpu_limit in (
            (f"validate {args.files} small MPIJob files (~1 kB)", inputs.manifests(args.files, True), 1.0, 1.0),
            (f"validate {args.files} MPIJob files (2.7 kB)", inputs.manifests(args.files, False), 0.8, 0.8)):
        rows.append(beside_kubeconform(name, validate(folder), kc, folder, args.repeat, limit, cpu_limit))
    stream = inputs.stream(args.documents)
    rows.append(beside_kubeconform(f"validate one {args.documents}-document file "
                                   f"({stream.stat().st_size / 1e6:.0f} MB)", validate(stream), kc, stream,
                                   max(1, args.repeat // 2), 0.8, 0.8))
    return rows + corpus_rows(inputs, kc, tool("kubectl-validate"), args.repeat)


def beside_kubeconform(name: str, ours: Command, kc: str | None, path: Path, repeat: int, limit: float,
                       cpu_limit: float) -> Row:
    if kc is None:
        return Row(name, None, note=NOT_INSTALLED.format("kubeconform"))
    try:
        mine, theirs = in_turns([ours, Command(kubeconform(kc, path))], repeat)
    except Failed as error:
        return failed_row(name, error)
    return Row(name, mine.wall, theirs.wall, "kubeconform", limit, cpu=(mine.cpu, theirs.cpu), cpu_limit=cpu_limit)


def corpus_rows(inputs: Inputs, kc: str | None, kv: str | None, repeat: int) -> list[Row]:
    """The upstream corpus: mpigen, kubeconform and kubectl-validate in turns (each may exit 1:
    the corpus has invalid manifests), after a run of each that must have read every file."""
    corpus, count = inputs.corpus()
    names = (f"validate the upstream corpus ({count} files) beside kubeconform",
             f"validate the upstream corpus ({count} files) beside kubectl-validate")
    commands = {"mpigen": validate(corpus, ok=(0, 1))}
    missing = {}
    if kc is None:
        missing["kubeconform"] = NOT_INSTALLED.format("kubeconform")
    else:
        commands["kubeconform"] = Command(kubeconform(kc, corpus, ignore_missing=True), ok=(0, 1))
    if kv is None:
        missing["kubectl-validate"] = NOT_INSTALLED.format("kubectl-validate")
    else:
        try:
            crds = inputs.crds()
        except Exception as error:  # the Go module proxy or the go command failed: the row says so
            missing["kubectl-validate"] = f"(its CRDs could not be written: {error})"
        else:
            commands["kubectl-validate"] = Command(kubectl_validate(kv, crds, corpus), ok=(0, 1), env=offline_env())
    for peer, command in list(commands.items()):
        code, output = output_of(command)
        read = files_read(output, peer)
        if code not in command.ok or read != count:
            said = "no file count" if read is None else f"{read} of {count} files read"
            missing[peer] = f"({peer} exited {code}, {said}: {output[-300:]!r})"
            del commands[peer]
    if "mpigen" in missing:
        return [Row(name, None, note=missing["mpigen"]) for name in names]
    try:
        timings = dict(zip(commands, in_turns(list(commands.values()), repeat)))
    except Failed as error:
        return [failed_row(name, error) for name in names]
    mine = timings["mpigen"]
    rows = []
    for name, peer, limit in ((names[0], "kubeconform", 0.8), (names[1], "kubectl-validate", 0.3)):
        if peer in missing:
            rows.append(Row(name, mine.wall, None, peer, limit, note=missing[peer]))
        else:
            rows.append(Row(name, mine.wall, timings[peer].wall, peer, limit, cpu=(mine.cpu, timings[peer].cpu)))
    return rows


def build_rows(inputs: Inputs, args: argparse.Namespace) -> list[Row]:
    spec = ROOT / "specs/scheduler-plugins-envs.yaml"
    tree = inputs.work / "tree"
    subprocess.run(MPIGEN + ["build", str(spec), "-o", str(tree)], check=True, stderr=subprocess.DEVNULL)
    kustomize = Command([KUBECTL, "kustomize", str(tree / "resnet-ddp/overlays/prod")])
    build, floor, peer = in_turns([Command(MPIGEN + ["build", str(spec), "--env", "prod"]),
                                   Command([sys.executable, "-c", "import click, yaml"]), kustomize],
                                  args.repeat * 4)
    rows = [Row("build SPEC --env prod, cold", build.wall, peer.wall, "kubectl kustomize", 2.0,
                cpu=(build.cpu, peer.cpu)),
            Row('floor: python -c "import click, yaml"', floor.wall, peer.wall, "kubectl kustomize",
                cpu=(floor.cpu, peer.cpu))]
    env = inputs.cache_env(args.specs)
    (warm,) = in_turns([Command(MPIGEN + ["check"], cwd=inputs.repo(args.specs), env=env)], args.repeat)
    rows.append(Row(f"check {args.specs} specs x 2 environments, nothing changed (cache)", warm.wall, limit=0.3))
    # A 10,000-worker job compiles in the time of a 4-worker one (in-process: the start-up cost
    # of both is the same and would drown the difference).
    text = (ROOT / "tests/cases/specs/valid/ten-thousand-workers.yaml").read_text()
    small, large = compile_times([text.replace("workers: 10000", "workers: 4"), text])
    rows.append(Row("compile a 10,000-worker job (in-process)", large, small, "the 4-worker job", 1.1))
    return rows


def growth_rows(inputs: Inputs, args: argparse.Namespace, cluster: dict[int, float | None]) -> list[GrowthRow]:
    half = max(1, args.repeat // 2)
    rows = []
    n = args.files
    rows.append(grown("validate small MPIJob files", f"{n} files", f"{n * 10} files",
                      validate(inputs.manifests(n, True)), validate(inputs.manifests(n * 10, True)), args.repeat))
    d = args.documents
    small, large = inputs.stream(d), inputs.stream(d * 10)
    rows.append(grown("validate one multi-document file",
                      f"{d} documents ({small.stat().st_size / 1e6:.0f} MB)",
                      f"{d * 10} documents ({large.stat().st_size / 1e6:.0f} MB)",
                      validate(small), validate(large), half, rss_limit=2.0))
    s = args.specs
    rows.append(grown("check, cold cache", f"{s} specs x 2 environments", f"{s * 10} specs x 2 environments",
                      cold_check(inputs, s), cold_check(inputs, s * 10), args.repeat))
    nodes = args.cluster_nodes
    small_nodes, large_nodes = f"{nodes // 10} nodes", f"{nodes} nodes"
    if not cluster:
        rows.append(GrowthRow("podgroup --cluster (JSON)", small_nodes, large_nodes, None, None, elsewhere=True,
                              note="(from the cluster rows: run the cluster group too)"))
    else:
        rows.append(GrowthRow("podgroup --cluster (JSON)", small_nodes, large_nodes, cluster.get(nodes // 10),
                              cluster.get(nodes), note="(from the cluster rows)"))
    return rows


def grown(name: str, small_label: str, large_label: str, small: Command, large: Command, repeat: int,
          rss_limit: float | None = None) -> GrowthRow:
    """mpigen on the small and the large input in turns; with ``rss_limit``, the peak RSS of both."""
    try:
        small_t, large_t = in_turns([small, large], repeat)
    except Failed as error:
        return GrowthRow(name, small_label, large_label, None, None, note=f"({error.reason})")
    rss = (peak_rss(small), peak_rss(large)) if rss_limit else None
    return GrowthRow(name, small_label, large_label, small_t.wall, large_t.wall, rss=rss, rss_limit=rss_limit)


# ------------------------------------------------------------------------------------ the run


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    start_load, measured_commit = os.getloadavg()[0], commit()
    rows: list[Row] = []
    growth: list[GrowthRow] = []
    cluster: dict[int, float | None] = {}
    with tempfile.TemporaryDirectory(prefix="mpigen-bench-") as tmp:
        inputs = Inputs(Path(tmp))
        if "cluster" in args.groups:
            for nodes, pods in ((args.cluster_nodes // 10, args.cluster_pods // 10),
                                (args.cluster_nodes, args.cluster_pods)):
                found, cluster[nodes] = cluster_rows(inputs, nodes, pods, max(1, args.repeat // 2))
                rows += found
        if "live" in args.groups:
            rows += live_rows(Path(tmp), MPIGEN, str(ROOT / "specs/horovod-volcano.yaml"), args.live_nodes,
                              args.live_pods, max(1, args.repeat // 2), log=lambda line: print(line, file=sys.stderr))
        if "lint" in args.groups:
            rows += lint_rows(inputs, args)
        if "build" in args.groups:
            rows += build_rows(inputs, args)
        if "growth" in args.groups:
            growth = growth_rows(inputs, args, cluster)
    lines, all_met = report(rows, growth)
    print(f"Machine: {CORES} cores, Python {sys.version.split()[0]}; commit {measured_commit}; median of cold runs "
          f"(--repeat {args.repeat}; groups: {', '.join(args.groups)}); load average {start_load:.1f} at the "
          f"start, {os.getloadavg()[0]:.1f} at the end")
    print(f"Peers: kubeconform {tool('kubeconform')}, kubectl-validate {tool('kubectl-validate')}, kubectl {KUBECTL}")
    print()
    print("\n".join(lines))
    return 0 if all_met else 1


def commit() -> str:
    """The checkout's commit, marked when the work tree differs from it."""
    def git(*argv: str) -> str:
        return subprocess.run(["git", *argv], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    return (git("rev-parse", "--short", "HEAD") or "unknown") + ("+changes" if git("status", "--porcelain") else "")


if __name__ == "__main__":
    sys.exit(main())
