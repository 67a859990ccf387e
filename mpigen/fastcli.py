"""The ``mpigen`` entry point: ``mpigen build SPEC [--env NAME]`` and ``mpigen validate PATH...``
without loading click.

Compiling a spec takes about a millisecond; starting the command-line layer took several times
that. The commonest commands, ``mpigen build SPEC`` with or without ``--env NAME`` and ``mpigen
validate PATH...`` without options (the pre-commit hook's), are therefore recognised here by hand
and run with the very steps of the click commands. Every other command line, including every one
that is malformed, asks for help, or names a path click would refuse (a folder or unreadable file
to build, an unreadable path to validate), goes to the click CLI (:func:`mpigen.cli.main`)
untouched, before anything is read or printed. Output, messages and exit codes are the same
either way (a test runs both on a table of command lines and compares them byte for byte).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the build's path
if TYPE_CHECKING:
    from typing import Any

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3  # as mpigen.diagnostics


def parse(argv: list[str]) -> tuple[str, str | None] | None:
    """(SPEC, env) for ``build SPEC [--env NAME]`` in any order that click reads the same; else None.

    Only the plain forms are taken: no ``--``, no other option, an environment name and a spec
    that do not start with a dash (``-`` alone is stdin), and a spec that is a readable regular
    file, so that click's own path checks could not have said anything.
    """
    if not argv or argv[0] != "build" or os.environ.get("_MPIGEN_COMPLETE"):
        return None
    spec: str | None = None
    env: str | None = None
    rest = argv[1:]
    i = 0
    while i < len(rest):
        arg = rest[i]
        if arg.startswith("--env="):
            value, i = arg[len("--env="):], i + 1
        elif arg == "--env" and i + 1 < len(rest):
            value, i = rest[i + 1], i + 2
        elif spec is None and (arg == "-" or not arg.startswith("-")):
            spec, i = arg, i + 1
            continue
        else:
            return None
        if env is not None or not value or value.startswith("-"):
            return None
        env = value
    if spec is None or not _plain_file(spec):
        return None
    return spec, env


def parse_validate(argv: list[str]) -> list[str] | None:
    """The paths of ``validate PATH...`` when nothing else is given; else None.

    Every path must be ``-`` or an existing, readable file or folder that does not start with a
    dash: click's path check (readable) has nothing to say about those, and the rest is done by
    the very code click's command runs (:func:`mpigen.validate.command.run`).
    """
    if len(argv) < 2 or argv[0] != "validate" or os.environ.get("_MPIGEN_COMPLETE"):
        return None
    paths = argv[1:]
    for path in paths:
        if path != "-" and (path.startswith("-") or not _readable(path)):
            return None
    return paths


def _plain_file(path: str) -> bool:
    if path == "-":
        return True
    import stat

    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(mode) and os.access(path, os.R_OK)


def _readable(path: str) -> bool:
    try:
        return os.path.exists(path) and os.access(path, os.R_OK)
    except ValueError:  # a NUL in the path
        return False


def _echo(text: str, err: bool = False) -> None:
    """``click.echo(text, err=err, nl=False)``: click itself writes anything it might alter."""
    stream = sys.stderr if err else sys.stdout
    if stream is None:
        return
    encoding = getattr(stream, "encoding", None)
    if "\x1b" in text or not encoding or getattr(stream, "errors", None) is None or _is_ascii(encoding):
        import click  # ANSI codes to strip, or a stream click would re-wrap

        click.echo(text, err=err, nl=False)
        return
    if text:
        stream.write(text)
    stream.flush()


def _is_ascii(encoding: str) -> bool:
    import codecs

    try:
        return codecs.lookup(encoding).name == "ascii"
    except LookupError:
        return False


class _Stop(Exception):
    def __init__(self, code: int):
        self.code = code


def _usage(message: str) -> None:
    _echo(f"mpigen: {message}\n", err=True)
    raise _Stop(EXIT_USAGE)


def build(spec: str, env: str | None) -> int:
    """``mpigen.cli.build`` with its defaults (no ``--cluster``, ``-o`` or ``--operator-version``)."""
    from .cli_io import Usage, read_input, require_environment
    from .diagnostics import has_errors, sort_diagnostics
    from .load.yaml_loader import load_bytes
    from .operator.versions import DEFAULT_OPERATOR_VERSION, parse_version
    from .pipeline import Options, compile_specs

    version = parse_version(DEFAULT_OPERATOR_VERSION)
    diagnostics: list[Any] = []
    try:
        raw, name = read_input(spec)
    except Usage as exc:
        _usage(str(exc))
    result = compile_specs(load_bytes(raw, name), name, Options(version, None))
    diagnostics += result.diagnostics
    for diagnostic in sort_diagnostics(diagnostics):
        _echo(diagnostic.format() + "\n", err=True)
    if has_errors(diagnostics):
        return EXIT_INVALID
    try:
        require_environment(result.jobs, env)
    except Usage as exc:
        _usage(str(exc))
    from .emit.yaml_emit import dump_all

    _echo(dump_all([obj for job in result.jobs for obj in job.objects(env)]))
    return EXIT_OK


def validate(paths: list[str]) -> int:
    """``mpigen.cli_validate.validate`` with its defaults (no option given)."""
    from .cli_io import Usage
    from .validate.command import run

    try:
        text, summary, code = run(paths)
    except Usage as exc:
        _usage(str(exc))
    _echo(text)
    if summary is not None:
        sys.stdout.flush()
        _echo(summary + "\n", err=True)
    return code


def main(argv: list[str] | None = None) -> int:
    """Entry point (``[project.scripts]``, ``python -m mpigen``): a fast path or the click CLI."""
    args = sys.argv[1:] if argv is None else list(argv)
    parsed = parse(args)
    paths = parse_validate(args) if parsed is None else None
    if parsed is None and paths is None:
        from .cli import main as click_main

        return click_main(argv)
    try:
        try:
            return build(*parsed) if parsed is not None else validate(paths or [])
        except (EOFError, KeyboardInterrupt):
            _echo("\n", err=True)  # what click prints before its Abort
            _echo("mpigen: interrupted\n", err=True)
            return EXIT_USAGE
    except _Stop as stop:
        return stop.code
    except BrokenPipeError:
        return _broken_pipe()
    except OSError as exc:
        import errno

        if exc.errno != errno.EPIPE:
            return _internal(exc)
        return _broken_pipe()
    except Exception as exc:  # a bug: say so, without a traceback unless asked
        return _internal(exc)


def _broken_pipe() -> int:
    """As click's main does on EPIPE: quiet the streams' later flushes and exit 1."""
    from click.utils import _PacifyFlushWrapper

    sys.stdout = _PacifyFlushWrapper(sys.stdout)  # type: ignore[assignment]
    sys.stderr = _PacifyFlushWrapper(sys.stderr)  # type: ignore[assignment]
    return EXIT_INVALID


def _internal(exc: Exception) -> int:
    if os.environ.get("MPIGEN_DEBUG"):
        raise exc
    _echo(f"mpigen: internal error: {type(exc).__name__}: {exc}\n"
          "This is a bug in mpigen; run again with MPIGEN_DEBUG=1 for a traceback and report it.\n", err=True)
    return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
