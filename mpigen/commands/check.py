"""``mpigen check [SPEC...] [-o DIR] [--fix]``: are the kustomize trees in DIR in step with the specs?

Each spec's tree is rebuilt in memory and compared with ``DIR/<job>/`` (see :mod:`mpigen.drift.compare`;
many specs are compiled and compared on every core, :mod:`mpigen.drift.specs`).
Defaults come from the configuration file (``.mpigen.yaml`` or ``[tool.mpigen]``): the ``specs``
globs when no SPEC is given, ``output``, ``cluster`` and ``operatorVersion``; relative paths there
are relative to the configuration's folder. Exit codes: 0 in step (or fixed), 1 invalid spec or
drift, 2 usage or I/O error.

When the specs come from the configuration, check knows every job there is: a tree in ``output``
that mpigen wrote (it holds ``.mpigen-owned``) for a job none of them defines is drift too (its
spec was deleted), and ``--fix`` removes the files mpigen wrote there. Specs given on the command
line may be a few of many, so other trees are left alone then.

A spec whose trees the cache (:mod:`mpigen.drift.cache`) vouches for is not even loaded.

A drifted tree whose new version changes a field the API server refuses to change on a live object
(:mod:`mpigen.drift.reapply`: the queue of a PyTorchJob, say) gets an ``immutable-field`` warning at
the committed line, saying the job must be deleted and re-created; the exit code stays that of the
drift (1), and ``--fix`` still rewrites the tree.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from .. import io
from ..config import Config
from ..diagnostics import EXIT_INVALID, EXIT_OK, Diagnostic, Severity, has_errors
from ..drift.cache import CheckCache
from ..drift.compare import JobDrift, orphan_drift
from . import OPERATOR_RULES, cluster_option, config_option, operator_version_option


def _spec_paths(specs: tuple[str, ...], config: Config) -> tuple[list[str], bool]:
    """The spec files to check, and whether they came from the configuration."""
    if specs:
        for spec in specs:
            if spec == "-":
                raise io.UsageError("check reads spec files, not stdin (-)")
        return list(dict.fromkeys(specs)), False
    if not config.specs:
        where = f"in {config.path}" if config.path else "(no .mpigen.yaml or [tool.mpigen] found)"
        raise io.UsageError(f"no SPEC given and no specs patterns in the configuration {where}")
    found: list[str] = []
    for pattern in config.specs:
        matches = sorted(p for p in glob.glob(os.path.join(config.root, pattern), recursive=True)
                         if os.path.isfile(p))
        if not matches:
            click.echo(f"mpigen: warning: specs pattern {pattern!r} in {config.path} matches no file", err=True)
        found += [io.display_path(p, config.root) for p in matches]
    return list(dict.fromkeys(found)), True  # none: every tree mpigen wrote is a spec's that is gone


def _output(output: str | None, config: Config, fix: bool = False, specs: bool = True) -> tuple[Path, str]:
    """The folder holding the trees, and how to show it (it may be missing when there are no ``specs``:
    then there is nothing to check)."""
    if output is not None:
        path, shown = Path(output), output.rstrip("/") or "/"
    elif config.output:
        path = config.root / config.output
        shown = io.display_path(path, config.root)
    else:
        where = f"{config.path} sets no output" if config.path else "no .mpigen.yaml or [tool.mpigen] found"
        raise io.UsageError(f"no output folder: give -o DIR or set output in the configuration ({where})")
    if not path.exists() and fix and specs:
        path.mkdir(parents=True)  # --fix writes the first trees too
    if not path.exists():
        return path, shown  # every tree is missing: drift, which --fix writes
    if not path.is_dir():
        raise io.UsageError(f"{shown}: not a folder")
    return path, shown


@dataclass(frozen=True)
class _CachedJob:
    """A job whose tree the cache vouches for: its name and the spec that defines it."""

    name: str
    source: str


def _duplicates(jobs: list[tuple[str, str]]) -> list[Diagnostic]:
    """Two spec files naming the same job would write the same tree (``jobs``: (name, spec file))."""
    sources: dict[str, list[str]] = {}
    for name, source in jobs:
        sources.setdefault(name, []).append(source)
    out = []
    for name, files in sorted(sources.items()):
        if len(set(files)) > 1:
            for file in files:
                others = ", ".join(f for f in files if f != file)
                out.append(Diagnostic(file, None, None, "metadata.name", "duplicate-job", Severity.ERROR,
                                      f"job {name!r} is also defined in {others}; both would write the same tree"))
    return out


@click.command()
@click.argument("specs", nargs=-1, type=click.Path(dir_okay=False), metavar="[SPEC]...")
@click.option("-o", "--output", "output", type=click.Path(file_okay=False), metavar="DIR",
              help="Folder holding the trees DIR/<job>/ (default: output in the configuration).")
@click.option("--fix", is_flag=True, help="Rewrite the trees that drifted (as mpigen build -o does).")
@cluster_option("PriorityClasses of the cluster, and its training runtimes for a spec with spec.runtime (default: cluster in the configuration).")
@operator_version_option(f"{OPERATOR_RULES} (default: operatorVersion in the configuration, else v0.8.2).",
                         default=None)
@config_option("Configuration file (default: .mpigen.yaml or pyproject.toml [tool.mpigen], "
               "searched upwards from the working directory).")
@click.option("--no-cache", is_flag=True, help="Compile every spec even when nothing changed since the last check.")
def check(specs: tuple[str, ...], output: str | None, fix: bool, cluster_input: io.ClusterInput,
          operator_version: str | None, config_file: str | None, no_cache: bool) -> int:
    """Compare the kustomize trees in DIR with what each SPEC compiles to (default: the specs in the
    configuration, and then a tree mpigen wrote for a job no spec defines is drift too). Exit 1 on
    drift; --fix rewrites the trees that drifted and removes what mpigen wrote for a deleted spec."""
    config = io.load_config(config_file)
    paths, from_config = _spec_paths(specs, config)
    root, shown = _output(output, config, fix, bool(paths))
    version, cluster_input = io.configured(config, operator_version, cluster_input)
    cluster, diagnostics = io.load_cluster(cluster_input)
    classes = None if cluster is None else cluster.priority_classes
    from ..emit.writer import clean_all_stale, stale_staging_diagnostics

    if fix:
        clean_all_stale(root)
    diagnostics += stale_staging_diagnostics(root, shown)

    cluster_bytes = io.cluster_key(cluster_input, cluster)
    disabled = ",".join(sorted(config.disable))  # the configuration's disable changes the verdict too
    cache = CheckCache.open(root, f"{version}\0{cluster_bytes.hex()}\0{disabled}")
    cached: list[_CachedJob] = []
    pending: list[tuple[str, bytes]] = []  # the specs to compile: (name, bytes)
    for path in paths:
        raw, name = io.read_input(path)
        entry = None if no_cache or not root.is_dir() else cache.lookup(root, name, raw)
        if entry is not None:  # nothing changed since it was last found in step
            cached += [_CachedJob(job, name) for job in entry["trees"]]
            for line in entry.get("warnings", []):
                click.echo(line, err=True)
            continue
        pending.append((name, raw))
    checked = []
    if pending:
        from ..drift.specs import check_specs  # only when a spec must be compiled
        from ..pipeline import Options

        options = Options(version, classes, io.cluster_runtimes(cluster), config.disable)
        checked = check_specs(pending, options, root)
    results = [job for spec in checked for job in spec.jobs]
    diagnostics += [d for spec in checked for d in spec.diagnostics]
    diagnostics += _duplicates([(job.job, job.source) for job in results] + [(job.name, job.source) for job in cached])
    io.report(diagnostics)
    if has_errors(diagnostics):
        return EXIT_INVALID

    if from_config:  # every spec there is: a tree of a job none defines is one whose spec is gone
        results += orphan_drift(root, [job.job for job in results] + [job.name for job in cached])
    drifted = [r for r in results if not r.in_step]
    if not no_cache:
        for (name, raw), spec in zip(pending, checked):
            if all(job.in_step for job in spec.jobs):
                cache.store(root, name, raw, [job.job for job in spec.jobs], [d.format() for d in spec.diagnostics])
        cache.save()
    refused: list[Diagnostic] = []
    if drifted:
        from ..drift.reapply import refused_changes  # what the API server would refuse to change
    for result in drifted:
        for drift in result.drift:
            where = "/".join(p for p in (shown, result.job, drift.path) if p)
            click.echo(f"{where}: {drift.describe()}")
            for line in drift.lines():
                click.echo(f"    {line}")
        refused += [change.diagnostic(f"{shown}/{result.job}") for change in refused_changes(result.tree, result.files)]
    io.report(refused)
    total = len(results) + len(cached)
    if not drifted:
        click.echo("no trees to check" if total == 0 else "1 tree in step" if total == 1
                   else f"all {total} trees in step")
        return EXIT_OK
    if not fix:
        if any(r.orphan for r in drifted):
            click.echo("to fix them: mpigen check --fix")
        else:
            click.echo("to rewrite them: mpigen check --fix (or mpigen build SPEC -o DIR)")
        click.echo(f"{len(drifted)} of {_trees(total)} drifted")
        return EXIT_INVALID
    return _rewrite(drifted, root, shown, total)


def _trees(count: int) -> str:
    return f"{count} tree" if count == 1 else f"{count} trees"


def _files(count: int) -> str:
    return f"{count} file" if count == 1 else f"{count} files"


def _rewrite(drifted: list[JobDrift], root: Path, shown: str, total: int) -> int:
    """``--fix``: every drifted tree written anew, as ``mpigen build -o`` writes it; a tree whose
    spec is gone loses the files mpigen wrote there."""
    from ..emit.writer import WriteError, remove_tree, write_tree

    failed = rewritten = removed = 0
    for result in drifted:
        where = f"{shown}/{result.job}"
        try:
            if result.orphan:
                gone = remove_tree(root, result.job)
            else:
                written = write_tree(root, result.job, result.files)
        except WriteError as exc:
            click.echo(f"mpigen: {exc}", err=True)
            failed += 1
            continue
        except OSError as exc:
            raise io.UsageError(f"{where}: cannot {'remove' if result.orphan else 'write'}: {exc}") from None
        if result.orphan:
            removed += 1
            kept = " (the files that were not mpigen's are kept)" if result.tree.exists() else ""
            click.echo(f"removed {where}: {_files(len(gone))} mpigen wrote{kept}")
        else:
            rewritten += 1
            click.echo(f"rewrote {where} ({_files(len(written))})")
    done = []
    if rewritten or not removed:
        done.append(f"rewrote {rewritten}")
    if removed:
        done.append(f"removed {removed}")
    how = "fixed" if any(r.orphan for r in drifted) else "rewritten"
    click.echo(f"{' and '.join(done)} of {_trees(total)}" + (f"; {failed} could not be {how}" if failed else ""))
    unstaged = _unstaged(root, [r.job for r in drifted])
    if unstaged:  # a pre-commit hook's run: the commit takes the index, not what was just written
        click.echo(f"not staged yet: git add {' '.join(f'{shown}/{job}' for job in unstaged)}")
    return EXIT_INVALID if failed else EXIT_OK


def _unstaged(root: Path, jobs: list[str]) -> list[str]:
    """The trees of ``jobs`` with changes git has not staged (written, removed or new), when
    ``root`` is in a git work tree; none when it is not, or git cannot tell."""
    import subprocess

    try:
        status = subprocess.run(["git", "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", *jobs],
                                cwd=root, capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return []
    if status.returncode != 0:
        return []
    changed = [entry for entry in status.stdout.decode("utf-8", "replace").split("\0") if len(entry) > 3]
    # XY PATH: Y is the work tree's change against the index ("?" for a file git does not track)
    paths = [entry[3:] for entry in changed if entry[1] != " "]
    return [job for job in jobs if any(p == job or p.startswith(f"{job}/") or f"/{job}/" in f"/{p}" for p in paths)]
