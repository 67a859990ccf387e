"""Realistic inputs for the benchmarks: MPIJob manifests and specs with environments."""

from __future__ import annotations

import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def mpijob(i: int, rng: random.Random) -> str:
    """A hand-written-style MPIJob (mpigen's own output for a varied spec)."""
    base = (ROOT / "golden/horovod-volcano/base.yaml").read_text()
    workers = rng.choice([2, 4, 8, 16, 64])
    return (base.replace("name: tensorflow-benchmarks", f"name: job-{i}")
                .replace("replicas: 2\n", f"replicas: {workers}\n")
                .replace('- "2"\n', f'- "{workers}"\n')
                .replace("minAvailable: 3", f"minAvailable: {workers + 1}")
                .replace("cpu: 8500m", f"cpu: {workers * 4}500m")
                .replace("memory: 33Gi", f"memory: {workers * 16 + 1}Gi")
                .replace('nvidia.com/gpu: "2"\n', f'nvidia.com/gpu: "{workers}"\n'))


SMALL = """apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata:
  name: job-{i}
  namespace: team-{team}
spec:
  slotsPerWorker: {slots}
  runPolicy:
    cleanPodPolicy: Running
  mpiReplicaSpecs:
    Launcher:
      replicas: 1
      template:
        metadata:
          annotations: {{sidecar.istio.io/inject: "false"}}
        spec:
          containers:
          - name: launcher
            image: horovod/horovod:0.28.1
            command: [mpirun, -np, "{np}", python, train.py, --epochs={epochs}]
            resources:
              limits:
                cpu: 500m
                memory: 1Gi
    Worker:
      replicas: {workers}
      template:
        metadata:
          annotations: {{sidecar.istio.io/inject: "false"}}
        spec:
          containers:
          - name: worker
            image: horovod/horovod:0.28.1
            resources:
              limits:
                cpu: "{cpu}"
                memory: {memory}Gi
                nvidia.com/gpu: "{slots}"
"""


def small_mpijob(i: int, rng: random.Random) -> str:
    """A small hand-written MPIJob (about 0.95 kB): a launcher and a worker with one container
    each, limits only, and no lint finding."""
    workers, slots = rng.choice([2, 4, 8, 16]), rng.choice([1, 2, 4, 8])
    return SMALL.format(i=i, team=i % 7, slots=slots, np=workers * slots, epochs=rng.randint(1, 90),
                        workers=workers, cpu=slots * 8, memory=slots * 64)


SPEC = """apiVersion: mpigen.dev/v1alpha1
kind: TrainingJob
metadata:
  name: job-{i}
  namespace: team-{team}
spec:
  framework: mpi
  image: horovod/horovod:0.28.1
  command: [python, train.py, --epochs={epochs}]
  workers: {workers}
  resources: {{gpu: {gpus}, cpu: "{cpu}", memory: {memory}Gi}}
  scheduling: {{gang: volcano, queue: team-{team}}}
  env: {{NCCL_DEBUG: WARN}}
  environments:
    dev: {{workers: 1, resources: {{gpu: 1}}}}
    prod: {{workers: {prod}, scheduling: {{priorityClass: high}}}}
"""


def spec(i: int, rng: random.Random) -> str:
    gpus = rng.choice([1, 2, 4, 8])
    return SPEC.format(i=i, team=i % 7, epochs=rng.randint(1, 90), workers=rng.choice([2, 4, 8]), gpus=gpus,
                       cpu=gpus * 8, memory=gpus * 64, prod=rng.choice([16, 32, 64]))


def write_manifests(folder: Path, n: int, seed: int = 0, small: bool = False) -> list[Path]:
    """``n`` MPIJob files: mpigen's own output for varied specs (2.7 kB), or ``small`` ones (0.95 kB)."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(n):
        path = folder / f"job-{i:05d}.yaml"
        path.write_text(small_mpijob(i, rng) if small else mpijob(i, rng))
        paths.append(path)
    return paths


def write_stream(path: Path, n: int, seed: int = 0) -> Path:
    rng = random.Random(seed)
    with path.open("w") as out:
        for i in range(n):
            out.write(mpijob(i, rng))
    return path


def write_specs(folder: Path, n: int, seed: int = 0) -> list[Path]:
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(n):
        path = folder / f"job-{i:05d}.yaml"
        path.write_text(spec(i, rng))
        paths.append(path)
    return paths
