"""One large file checked without holding it whole: its bytes read in blocks to find where it can
be cut, then each piece read, decoded and checked on its own, the first by this process and the
others by it and its workers (:mod:`.parallel`). Memory is bounded by a block and a piece, not by
the file: a 260 MB file of 100,000 documents is read in pieces of at most :data:`PIECE_BYTES`.

The report is the one the whole file read gives (:func:`.parallel.validate_files` with the file's
bytes), byte for byte: the pieces start at document markers (a line ``---``), where the whole
file's documents start too, and each is read with the count of lines before it. Where the whole
text would not be cut (directives, line breaks other than newlines, nesting the parser would not
survive: :class:`~mpigen.load.scan.Cuts`), or it is one piece, the whole file is read as
before: that path, which refuses a YAML file over :data:`~mpigen.load.yaml_loader.MAX_BYTES`,
decides (such a file is refused from its size, not read). So does an error that stops a piece
before its end (a one-piece read may say something else there); and a text that is not UTF-8 is
reported where :func:`~mpigen.load.yaml_loader.decode` reports it, alone.

As for a large file cut into pieces in memory (:func:`.parallel._large_file`), a Helm template
(``template-file``) is recognised only where the whole file decides (an error stopped a piece).

The size limit: :data:`~mpigen.load.yaml_loader.MAX_BYTES` bounds what one read holds, so a file
over it is read when every piece is within it: each document at most that large (and the file
at most :data:`MAX_PARTS` times that, about 8.5 GB). A larger document makes the file
``file-too-large``, as before.

Only a run of one file given by its path streams (from :data:`STREAM_FROM` bytes, a regular
file): many files are checked as before, and ``--kubeconform``, which needs the text and the
documents, reads the file whole.
"""

from __future__ import annotations

import os
import re
from typing import Any, BinaryIO, Callable

from ..diagnostics import Diagnostic, UsageError
from ..load.scan import Cuts
from ..load.yaml_loader import MAX_BYTES, iter_text, not_utf8, too_large
from .engine import RUNTIME_WORD, Coverage, ValidateOptions, run_runtimes, runtimes_in, with_run_runtimes
from .parallel import (MAX_TASKS, PIECES_PER_WORKER, Piece, _piece, cores, in_pieces, merged, processes_by_size,
                       stopped_early, validate_files)

STREAM_FROM = 4 * 1024 * 1024
"""A file of at least this many bytes, alone in a run, is streamed (read whole, it would hold
about three times its size: the bytes, the text and a piece)."""
PIECE_BYTES = 4 * 1024 * 1024
"""The most a piece holds when its documents allow (a 260 MB file is cut into 64 of them)."""
BLOCK_BYTES = 1024 * 1024
"""How much of the file the scan for cuts reads at a time."""
MAX_PARTS = (MAX_TASKS - 1) // 2
"""The target size of a piece is at least the file's size over this: any two pieces in a row
hold more than the target (:class:`~mpigen.load.scan.Cuts`), so there are never more pieces than
:data:`.parallel.MAX_TASKS`."""
_BOM = b"\xef\xbb\xbf"
_BLANK = re.compile(rb"(?:\xef\xbb\xbf)?[ \t\r\n]*")
"""A start that does not yet say whether a text is JSON (its limit is larger: see decode)."""
_RUNTIME = RUNTIME_WORD.encode()


def validate_large_file(path: str, options: ValidateOptions, beside: Callable[[], dict[str, bytes]],
                        names_runtimes: Callable[[bytes], bool], coverage: Coverage | None = None,
                        workers: int | None = None, block_size: int = BLOCK_BYTES) -> list[Diagnostic]:
    """The diagnostics of the file at ``path`` (the name it is reported by), as
    ``validate_files({path: bytes}, options, beside=..., coverage=coverage)`` gives them.

    ``beside``: the files beside it (read for their training runtimes), read only when
    ``names_runtimes`` says the file may need them. ``workers``: the cores to use (default:
    every core). ``block_size``: what the scan reads at a time."""
    available = workers or cores()
    scan = _scan(path, available, block_size, names_runtimes)
    pieces = [] if scan is None else scan.cuts.pieces()
    if scan is None or len(pieces) < 2 or any(end - start > MAX_BYTES for start, end, _ in pieces):
        return _whole(path, options, beside, names_runtimes, coverage, workers)
    skip = scan.skip
    runtimes = _file_runtimes(path, pieces, skip) if scan.runtimes else []
    more = beside() if scan.names_runtimes else {}
    options = with_run_runtimes(options, runtimes + run_runtimes(more.items()))
    processes = processes_by_size(scan.cuts.size, 1, lambda: scan.cuts.markers, available)
    tasks = [(path, path, start + skip, end + skip, lines, options) for start, end, lines in pieces]
    done = in_pieces(tasks, _range, processes)
    not_utf8_at = next((piece for piece in done if isinstance(piece, Diagnostic)), None)
    if not_utf8_at is not None:  # the whole file is not UTF-8, and decode reports only that
        return [] if not_utf8_at.code in options.disabled else [not_utf8_at]
    if stopped_early(done):  # the whole file decides (as _large_file's fallback: in this process)
        return _whole(path, options, beside, names_runtimes, coverage, 1)
    found, _, counted = merged(done)
    if coverage is not None:
        coverage.add(counted)
    return found


class _Scan:
    """What the scan of a file found: where to cut it (:class:`~mpigen.load.scan.Cuts`), the
    bytes of a BOM to skip, and whether the text may name a runtime or holds one."""

    def __init__(self, cuts: Cuts, skip: int):
        self.cuts = cuts
        self.skip = skip
        self.names_runtimes = False
        self.runtimes = False


def _scan(path: str, cores: int, block_size: int, names_runtimes: Callable[[bytes], bool]) -> _Scan | None:
    """The file read block by block (whole lines each) into :class:`~mpigen.load.scan.Cuts`;
    None when it is not to be cut (the reason found first ends the scan)."""
    with _opened(path) as file:
        size = os.fstat(file.fileno()).st_size
        target = max(min(PIECE_BYTES, size / (cores * PIECES_PER_WORKER)), size / MAX_PARTS)
        head = _read(file, len(_BOM))
        scan = _Scan(Cuts(target), len(_BOM) if head == _BOM else 0)
        carry = b"" if scan.skip else head
        while True:
            chunk = _read(file, block_size)
            data = carry + chunk if carry else chunk
            end = len(data) if not chunk else data.rfind(b"\n") + 1
            block, carry = data[:end], data[end:]
            del data
            if len(carry) > MAX_BYTES:  # a line longer than a document may be
                return None
            if block:
                scan.names_runtimes = scan.names_runtimes or names_runtimes(block)  # (words: on one line)
                scan.runtimes = scan.runtimes or _RUNTIME in block
                scan.cuts.feed(block, final=not chunk)
                if scan.cuts.refused is not None:
                    return None
            if not chunk:
                return scan


def _file_runtimes(path: str, pieces: list[tuple[int, int, int]], skip: int) -> list[dict[str, Any]]:
    """The training runtimes of the file, as :func:`~.engine.run_runtimes` finds them in the
    whole text: from the pieces that name a runtime kind, each read alone. (An error that stops a
    piece before its end also stops the whole text's documents there, but then the whole file
    decides the report, runtimes included.)"""
    found: list[dict[str, Any]] = []
    for start, end, lines in pieces:
        raw = _read_range(path, start + skip, end + skip)
        if _RUNTIME not in raw:
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:  # reported as the file's only problem
            return []
        found += runtimes_in(iter_text(text, path, lines, checked=True))
    return found


def _range(task: tuple[str, str, int, int, int, ValidateOptions]) -> Piece | Diagnostic:
    """A piece of the file read, decoded and checked (:func:`.parallel._piece`), or where it is
    not UTF-8."""
    name, path, start, end, lines, options = task
    raw = _read_range(path, start, end)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return not_utf8(raw, exc, name, lines)
    del raw
    return _piece((name, lines, text, options, False))


def _whole(path: str, options: ValidateOptions, beside: Callable[[], dict[str, bytes]],
           names_runtimes: Callable[[bytes], bool], coverage: Coverage | None, workers: int | None) -> list[Diagnostic]:
    """The file read whole and checked as any file is; not read when it is too large to be read
    (the whole read's only diagnostic then, said from its size and first block)."""
    with _opened(path) as file:
        size = os.fstat(file.fileno()).st_size
        head = _read(file, BLOCK_BYTES) if size > MAX_BYTES else b""
        refused = None if _BLANK.fullmatch(head) else too_large(size, head, path)
        if refused is not None:
            return [] if refused.code in options.disabled else [refused]
        file.seek(0)
        raw = _read(file, -1)
    found, _ = validate_files({path: raw}, options, coverage=coverage, beside=beside() if names_runtimes(raw) else None,
                              workers=workers)
    return found


def _read_range(path: str, start: int, end: int) -> bytes:
    with _opened(path) as file:
        file.seek(start)
        raw = _read(file, end - start)
    if len(raw) != end - start:
        raise UsageError(f"{path}: changed while it was read", path)
    return raw


def _read(file: BinaryIO, size: int) -> bytes:
    """``size`` bytes of ``file`` (all that is left for -1): every read of the file goes here."""
    try:
        return file.read(size)
    except OSError as exc:
        raise UsageError(f"{file.name}: cannot read: {exc.strerror or exc}", file.name) from None


def _opened(path: str) -> BinaryIO:
    try:
        return open(path, "rb")
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror or exc}", path) from None
