"""``mpigen validate`` between its command line and its output: arguments in; the report, the
summary line and the exit code out. The click command (:mod:`mpigen.cli_validate`) and the fast
entry point (:mod:`mpigen.fastcli`) both print what this returns, so that they cannot differ.
"""

from __future__ import annotations

from ..cli_io import Usage, cluster_classes, operator_version, read_input
from ..diagnostics import sort_diagnostics


def run(paths: list[str], fmt: str = "text", strict: bool = False, use_kubeconform: bool = False,
        gang: str | None = None, scheduler_name: str | None = None, cluster_file: str | None = None,
        version_text: str | None = None, disable: tuple[str, ...] = (), config_file: str | None = None,
        verbose: bool = False) -> tuple[str, str | None, int]:
    """(report for stdout, summary line for stderr or None, exit code); :class:`Usage` for a
    usage or I/O error, raised before anything would be printed."""
    from pathlib import Path

    from ..config import ConfigError, load_config
    from ..lint.base import LintOptions
    from ..pipeline import Options
    from . import report
    from .discover import MissingPath, discover
    from .engine import ValidateOptions
    from .parallel import validate_files

    try:
        config = load_config(Path(config_file) if config_file else None)
    except ConfigError as exc:
        raise Usage(str(exc)) from None
    version = operator_version(version_text or config.operator_version or "v0.8.0")
    cluster_path = cluster_file or (str(config.root / config.cluster) if config.cluster else None)
    classes, diagnostics = cluster_classes(cluster_path)
    options = ValidateOptions(
        lint=LintOptions(gang=gang or config.gang, scheduler_name=scheduler_name or config.scheduler_name,
                         priority_classes=classes, operator_version=version),
        build=Options(version, classes),
        disabled=frozenset(disable) | config.disable,
    )
    try:
        files = discover(list(paths))
    except MissingPath as exc:
        raise Usage(f"{exc}: no such file or folder") from None
    contents: dict[str, bytes] = {}
    for path in files:
        raw, name = read_input(path)
        contents[name] = raw
    found, documents = validate_files(contents, options, keep_documents=use_kubeconform)
    diagnostics += found
    if use_kubeconform:
        from . import kubeconform

        try:
            found = kubeconform.run(contents, kubeconform.find_binary())
        except (kubeconform.KubeconformMissing, kubeconform.KubeconformFailed) as exc:
            raise Usage(str(exc)) from None
        ours = {(d.file, d.path) for d in diagnostics if d.code in ("schema", "unknown-field", "missing-field")}
        diagnostics += [d for d in kubeconform.diagnostics(found, documents) if (d.file, d.path) not in ours]
    diagnostics = sort_diagnostics(diagnostics)
    summary = report.summary(diagnostics, len(contents)) if fmt in ("text", "github") else None
    return report.render(diagnostics, fmt, list(contents), verbose), summary, report.exit_code(diagnostics, strict)
