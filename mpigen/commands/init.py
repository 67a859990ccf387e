"""``mpigen init [DIR]``: a GitOps repository set up in one command.

Writes ``.mpigen.yaml`` (``specs`` and ``output``, what ``mpigen check`` and its pre-commit hook
read), a first spec with comments (``specs/<name>.yaml``, one that builds and validates as it is),
and ``.pre-commit-config.yaml`` with both hooks (``mpigen-validate``, ``mpigen-check``) as
``repo: local`` hooks that run the mpigen installed where ``git commit`` runs. A file that exists
is left alone (nothing is written) unless ``--force``.
"""

from __future__ import annotations

from pathlib import Path
from string import Template

import click

from .. import io
from ..config import CONFIG_FILE
from ..diagnostics import EXIT_OK
from ..names import DNS1035_MAX, job_name_problem

SPECS = "specs"
OUTPUT = "deploy"
PRE_COMMIT_CONFIG = ".pre-commit-config.yaml"

CONFIG = f"""\
# mpigen's configuration. `mpigen check` (and the mpigen-check pre-commit hook) rebuilds every spec
# that `specs` matches and compares it with its kustomize tree under `output`.
specs: ["{SPECS}/*.yaml"]
output: {OUTPUT}
# How the trees reach the cluster: server-side (kubectl apply --server-side, a GitOps tool's
# server-side apply) or client-side (kubectl apply). Server-side refuses what client-side forgives
# (an unknown field whose value is null), and mpigen then reports it as an error.
# apply: server-side
"""

# A spec is YAML with comments: text, written as it is. Template ($name), not str.format: the
# YAML has braces of its own.
FIRST_SPEC = Template("""\
# An mpigen spec: a short description of a Kubeflow training job, which mpigen compiles into the
# complete manifests, here an MPIJob (kubeflow.org/v2beta1) that runs the MPI Operator's pi example.
#
#   mpigen build $specs/$name.yaml      the manifests, on stdout
#   mpigen check --fix                  writes them as a kustomize tree, $output/$name/
#   mpigen explain $specs/$name.yaml    what the operator will create from them
#
# Every field is described in the JSON Schema that `mpigen --help` names (point your editor's YAML
# language server at it for completion) and in mpigen's README ("The spec").
apiVersion: mpigen.dev/v1alpha1
kind: TrainingJob
metadata:
  name: $name            # the job; also the pods' hostnames: $name-worker-<i>, $name-launcher
  # namespace: research
spec:
  framework: mpi         # mpi (MPIJob), pytorch (PyTorchJob) or tensorflow (TFJob)
  image: mpioperator/mpi-pi:openmpi
  command: [/home/mpiuser/pi]   # the program: the launcher runs it under mpirun on every slot
  workers: 2             # worker pods
  resources:             # per worker, written as requests and limits; gpu: 1 asks for nvidia.com/gpu
    cpu: 1
    memory: 1Gi
  mpi:
    sshAuthMountPath: /home/mpiuser/.ssh   # the image runs as mpiuser: its SSH keys go to its home
    launcher:
      resources:
        cpu: 500m
        memory: 512Mi
  # scheduling:          # gang scheduling: every pod of the job starts, or none does
  #   gang: volcano      # volcano, scheduler-plugins, kube-batch, kueue or none (the default)
  #   queue: default
  environments:          # partial specs merged over the one above: $output/$name/overlays/<name>
    prod:
      workers: 4
""")

HOOKS = (
    {"id": "mpigen-validate", "name": "mpigen validate", "entry": "mpigen validate", "types": ["yaml"]},
    {"id": "mpigen-check", "name": "mpigen check", "entry": "mpigen check", "pass_filenames": False,
     "always_run": True, "require_serial": True},
)
"""The hooks of mpigen's .pre-commit-hooks.yaml, as ``repo: local`` hooks (a test keeps them equal)."""


def pre_commit_config() -> str:
    lines = [
        "# pre-commit (https://pre-commit.com): run `pre-commit install` once; then every `git commit`",
        "# lints the staged YAML (mpigen-validate) and stops a commit whose kustomize trees are not in",
        "# step with their specs, a deleted spec included (mpigen-check, which reads .mpigen.yaml).",
        "# These hooks run the mpigen installed where `git commit` runs (language: system). To have",
        "# pre-commit install mpigen itself, name mpigen's repository instead of `repo: local`:",
        "#   - repo: https://github.com/<owner>/mpigen",
        "#     rev: <tag or commit>",
        "#     hooks:",
        "#       - id: mpigen-validate",
        "#       - id: mpigen-check",
        "repos:",
        "  - repo: local",
        "    hooks:",
    ]
    for hook in HOOKS:
        fields = {"name": hook["name"], "entry": hook["entry"], "language": "system",
                  **{key: value for key, value in hook.items() if key not in ("id", "name", "entry")}}
        lines.append(f"      - id: {hook['id']}")
        lines += [f"        {key}: {_yaml(value)}" for key, value in fields.items()]
    return "\n".join(lines) + "\n"


def _yaml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return f"[{', '.join(value)}]"
    return str(value)


def files(name: str) -> dict[str, str]:
    """What ``mpigen init`` writes: relative path -> text."""
    return {
        CONFIG_FILE: CONFIG,
        f"{SPECS}/{name}.yaml": FIRST_SPEC.substitute(name=name, specs=SPECS, output=OUTPUT),
        PRE_COMMIT_CONFIG: pre_commit_config(),
    }


@click.command()
@click.argument("folder", default=".", type=click.Path(file_okay=False), metavar="[DIR]")
@click.option("--name", default="train", show_default=True, metavar="NAME", help="The first spec's job name.")
@click.option("--force", is_flag=True, help="Overwrite files that exist.")
def init(folder: str, name: str, force: bool) -> int:
    """Set up DIR (default: here) as a GitOps repository of mpigen specs: .mpigen.yaml, a first
    spec with comments (specs/NAME.yaml) and .pre-commit-config.yaml with both hooks."""
    problem = job_name_problem(name)
    if problem:
        raise io.UsageError(f"--name {name!r}: a job name {problem}; use lower-case letters, digits and '-', "
                            "starting with a letter")
    longest = DNS1035_MAX - len("-worker-0")
    if len(name) > longest:
        raise io.UsageError(f"--name {name!r}: at most {longest} characters (its pods are {name}-worker-<i>)")
    root = Path(folder)
    planned = files(name)
    existing = [rel for rel in planned if (root / rel).exists()]
    if existing and not force:
        shown = ", ".join(str(root / rel) for rel in existing)
        raise io.UsageError(f"{shown}: already there; nothing written (--force overwrites)")
    for rel, text in planned.items():
        path = root / rel
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise io.UsageError(f"{path}: cannot write: {exc.strerror or exc}") from None
        click.echo(f"wrote {path}")
    spec = root / SPECS / f"{name}.yaml"
    click.echo("next:\n"
               f"  mpigen check --fix        # writes {root / OUTPUT / name}/ from {spec}\n"
               "  pre-commit install        # the hooks then run on every git commit")
    return EXIT_OK
