"""Validate many files on every core: the work is split by file, the results merged in order.

How many processes a run gets is decided from what its work costs (:func:`processes_for`): an
estimate of its CPU time from its documents and bytes, against what a worker costs to start. A
few files stay in one process; a thousand small ones, or one large file, get every core. Workers
are forked (a bare ``os.fork``: see :func:`shared`) after this process has checked the first
file (or the first document of a large one), so they start with everything that imported and
compiled (jsonschema-rs, the schemas, the lint rules) rather than each doing it again; they and
this process take chunks of files from one queue until it is empty; each returns its files'
diagnostics, and the merged report is the same, byte for byte, as a single-process run.

:func:`spread` and :func:`shared` are not tied to validation: ``mpigen check`` compiles and
compares its specs with them (:mod:`mpigen.drift.specs`).
"""

from __future__ import annotations

import os
from typing import Any, Callable, TypeVar

from ..diagnostics import Diagnostic
from ..load.document import Document
from ..load.scan import nesting_beyond_parser, split_documents
from ..load.yaml_loader import decode, iter_text
from .engine import EMPTY_FILE, Coverage, ValidateOptions, run_runtimes, validate_bytes, validate_items, with_run_runtimes

SECONDS_PER_DOCUMENT = 120e-6
SECONDS_PER_BYTE = 170e-9
"""What checking costs, measured on the 2-core development machine (bench/generate.py's MPIJobs,
one per file and 10,000 in one file, in one process after a first file): 0.12 ms a document
(building it, the schema, the operator's rules, the lint rules) and 0.17 us a byte (the YAML
reader); a file costs nothing beyond its documents. A 1 kB manifest is about 0.29 ms."""
SECONDS_PER_PROCESS = 0.004
"""What a worker costs: the fork, its exit, its answer pickled and read back (about 1.5 ms of
the parent's CPU and 2 ms of the child's, measured alike); it imports nothing (see the module)."""
MIN_WORK_PER_PROCESS = 6 * SECONDS_PER_PROCESS
"""A process is added for each share of this much estimated work: a worker saves at least six
times what it costs (100 small manifests stay in one process; 200 get two)."""


Checked = tuple[list[Diagnostic], list[Document], Coverage]
"""One file's (or piece's) diagnostics, documents kept, and objects checked and skipped."""


def _file(name: str, raw: bytes, options: ValidateOptions, keep: bool) -> Checked:
    coverage = Coverage()
    found, documents = validate_bytes(raw, name, options, keep, coverage)
    return found, documents, coverage


def _piece(args: tuple[str, int, str, ValidateOptions, bool]) -> tuple[list[Diagnostic], list[Document], Coverage,
                                                                      tuple[int, bool]]:
    """One piece of a large file: its diagnostics and documents placed at their lines in the file,
    its objects, and (documents read, whether an error stopped the stream)."""
    name, lines, text, options, keep = args
    kept: list[Document] | None = [] if keep else None
    ending: list[tuple[int, bool]] = []
    coverage = Coverage()
    found = validate_items(iter_text(text, name, lines, checked=True, ending=ending), name, options, kept, coverage)
    return found, kept or [], coverage, ending[0]


def validate_files(contents: dict[str, bytes], options: ValidateOptions, keep_documents: bool = False,
                   workers: int | None = None, coverage: Coverage | None = None,
                   beside: dict[str, bytes] | None = None) -> tuple[list[Diagnostic], dict[str, list[Document]]]:
    """Diagnostics of every file (in file order) and, when asked, each file's documents;
    ``coverage``, when given, adds up the objects checked and skipped.

    The training runtimes of every file, and of the files ``beside`` them (read for their
    runtimes only, not checked: the other files of their folders), are known to the TrainJobs and
    specs of every file (:func:`~.engine.run_runtimes`): found before any file is checked, so
    each worker, and each piece of a large file, starts with them."""
    options = with_run_runtimes(options, run_runtimes([*contents.items(), *(beside or {}).items()]))
    items = list(contents.items())
    processes = processes_for(items, workers or cores())
    if processes > 1 and len(items) == 1:
        results = [_large_file(*items[0], options, keep_documents, processes)]
    elif processes > 1:
        results = spread(items, lambda item: _file(*item, options, keep_documents), processes)
    else:
        results = [_file(name, raw, options, keep_documents) for name, raw in items]
    diagnostics: list[Diagnostic] = []
    documents: dict[str, list[Document]] = {}
    for (name, _), (found, docs, counted) in zip(items, results):
        diagnostics += found
        documents[name] = docs
        if coverage is not None:
            coverage.add(counted)
    return diagnostics, documents


def processes_for(items: list[tuple[str, bytes]], cores: int) -> int:
    """How many processes (this one and the workers, at most ``cores``) the files are worth: one
    per :data:`MIN_WORK_PER_PROCESS` of their estimated CPU time. Documents are counted (by
    their ``---`` markers) only when the bytes alone do not already fill every core."""
    return processes_by_size(sum(len(raw) for _, raw in items), len(items),
                             lambda: sum(raw.count(b"\n---") for _, raw in items), cores)


def processes_by_size(size: int, files: int, markers: Callable[[], int], cores: int) -> int:
    """:func:`processes_for` of ``files`` of ``size`` bytes in all, whose lines after their
    first that start with ``---`` are counted by ``markers`` when needed."""
    estimate = size * SECONDS_PER_BYTE + files * SECONDS_PER_DOCUMENT
    if estimate < cores * MIN_WORK_PER_PROCESS:  # close to the line: the documents beyond each file's first
        estimate += markers() * SECONDS_PER_DOCUMENT
    return processes_by_estimate(estimate, cores)


def processes_by_estimate(seconds: float, cores: int) -> int:
    """How many processes (this one and the workers, at most ``cores``) work estimated at ``seconds``
    of CPU time is worth: one per :data:`MIN_WORK_PER_PROCESS`."""
    if cores < 2:
        return 1
    return max(1, min(cores, int(seconds / MIN_WORK_PER_PROCESS)))


def _large_file(name: str, raw: bytes, options: ValidateOptions, keep: bool, workers: int) -> Checked:
    """One large multi-document file, cut at document markers and checked piece by piece in parallel."""
    text, problems = decode(raw, name)
    # The nesting check reads the whole file (as a one-piece read does) before it is cut.
    # The first piece is the first document, read here before the workers start (see the module).
    pieces = split_documents(text, min(workers * PIECES_PER_WORKER, MAX_TASKS), first=1) \
        if text is not None and nesting_beyond_parser(text) is None else []
    if text is None or len(pieces) < 3:
        return _file(name, raw, options, keep)
    tasks = [(name, lines, piece, options, keep) for lines, piece in pieces]
    done = in_pieces(tasks, _piece, workers)
    if stopped_early(done):
        return _file(name, raw, options, keep)
    return merged(done)


Piece = tuple[list[Diagnostic], list[Document], Coverage, tuple[int, bool]]
"""A piece of a large file checked (:func:`_piece`)."""
Result = TypeVar("Result")


def in_pieces(tasks: list[Any], work: Callable[[Any], Result], workers: int) -> list[Result]:
    """The pieces of a large file checked: the first here (see the module), then the others by
    this process and the workers."""
    first = work(tasks[0])
    return [first] + shared(tasks[1:], work, workers)


def stopped_early(done: list[Piece]) -> bool:
    """Whether an error stopped a piece before its end of the file: what a one-piece read says
    there can differ (an unclosed quote runs on into the next document's marker), so it decides."""
    return any(stopped for _, _, _, (_, stopped) in done[:-1])


def merged(done: list[Piece]) -> Checked:
    """The pieces' results as one file's, documents numbered on from piece to piece. A piece
    of empty documents or comments alone says ``empty-file`` of itself: the file is empty only
    when every piece says so."""
    diagnostics: list[Diagnostic] = []
    documents: list[Document] = []
    coverage = Coverage()
    before = 0
    empty = all(len(found) == 1 and found[0].code == EMPTY_FILE for found, _, _, _ in done)
    for found, docs, counted, (count, stopped) in done:
        diagnostics += found if empty and not diagnostics else [d for d in found if d.code != EMPTY_FILE]
        for doc in docs:  # document numbers restart in each piece
            doc.index += before
        documents += docs
        coverage.add(counted)
        before += count
    return diagnostics, documents, coverage


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def shared(tasks: list[Any], work: Any, processes: int | None = None) -> list[Any]:
    """``[work(task) for task in tasks]``, computed by this process and ``processes - 1`` children
    forked for it (one per task beyond the first when not given), all at once.

    The tasks are handed out one at a time, as make's jobserver hands out tokens: their numbers
    are bytes in a pipe, and each process reads one, does that task and reads the next, so a
    process that runs slower (a busy core) takes fewer. A bare ``os.fork`` and a pipe per child
    rather than :mod:`multiprocessing`, whose import alone cost a run of ``mpigen validate`` about
    as much as checking a hundred files. A child sends back its results, or the exception it
    raised, pickled, and leaves with ``os._exit`` (no exit handler, no flush of output it
    inherited). A child that dies without an answer is an internal error.
    """
    import gc
    import pickle

    if len(tasks) > MAX_TASKS:
        raise ValueError(f"at most {MAX_TASKS} tasks, not {len(tasks)}")
    processes = len(tasks) if processes is None else max(1, min(processes, len(tasks)))
    # Everything alive now (the imported modules above all) is left out of collections while the
    # work runs: they do not walk it, and the children do not write to its pages (copy on write).
    # What was frozen before (by a large text's reading, mpigen.load.pause, or by a program that
    # calls mpigen's API and freezes its own objects) stays frozen: then nothing is unfrozen after.
    thaw = gc.get_freeze_count() == 0
    gc.freeze()
    queue, fill = os.pipe()
    os.write(fill, bytes(range(len(tasks))))  # fewer bytes than a pipe holds
    os.close(fill)
    children: list[tuple[int, int]] = []
    try:
        for _ in range(processes - 1):
            read_end, write_end = os.pipe()
            try:
                pid = os.fork()
            except OSError:
                os.close(read_end)
                os.close(write_end)
                raise
            if pid == 0:  # pragma: no cover - the child; its work is covered through the parent
                os.close(read_end)
                _answer(write_end, _drain, (queue, tasks, work), pickle)
            os.close(write_end)
            children.append((pid, read_end))
        results = _drain((queue, tasks, work))
    finally:
        os.close(queue)
        answers = [_collect(pid, read_end, pickle) for pid, read_end in children]
        if thaw:
            gc.unfreeze()
    for ok, value in answers:
        if not ok:
            raise value
        results.update(value)
    return [results[number] for number in range(len(tasks))]


MAX_TASKS = 255
"""Task numbers are single bytes in the queue pipe (a read of one byte is atomic)."""


def _drain(args: tuple[int, list[Any], Any]) -> dict[int, Any]:
    """Take task numbers from the queue until it is empty; the results by number."""
    queue, tasks, work = args
    done: dict[int, Any] = {}
    while True:
        token = os.read(queue, 1)
        if not token:
            return done
        done[token[0]] = work(tasks[token[0]])


def _answer(write_end: int, work: Any, task: Any, pickle: Any) -> None:  # pragma: no cover - in a child
    try:
        try:
            payload = pickle.dumps((True, work(task)), protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException as exc:  # sent to the parent, which raises it (with this traceback)
            import traceback

            trace = traceback.format_exc()
            try:
                payload = pickle.dumps((False, (exc, trace)), protocol=pickle.HIGHEST_PROTOCOL)
            except Exception:
                payload = pickle.dumps((False, (RuntimeError(f"{type(exc).__name__}: {exc}"), trace)))
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(payload)
    finally:
        os._exit(0)


class _WorkerTraceback(Exception):
    """Where an exception raised in a worker came from (its ``__cause__``, shown under
    MPIGEN_DEBUG=1 as the traceback of the worker)."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return f"in a validation worker:\n{self.text}"


def _collect(pid: int, read_end: int, pickle: Any) -> tuple[bool, Any]:
    """A child's answer: (True, results) or (False, the exception to raise); the child is always
    reaped and its pipe closed."""
    payload = b""
    try:
        with os.fdopen(read_end, "rb") as pipe:
            payload = pipe.read()
    except OSError:
        pass  # reported below as no answer
    finally:
        _, status = os.waitpid(pid, 0)
    if not payload:
        return False, RuntimeError(f"a validation worker (pid {pid}) ended without an answer "
                                   f"(wait status {status})")
    try:
        ok, value = pickle.loads(payload)
    except Exception as exc:  # an answer that cannot be read back is a bug, reported as such
        return False, RuntimeError(f"a validation worker's answer could not be read: {type(exc).__name__}: {exc}")
    if not ok:
        exc, trace = value
        exc.__cause__ = _WorkerTraceback(trace)
        return False, exc
    return True, value


Item = TypeVar("Item")


def spread(items: list[Item], work: Callable[[Item], Result], processes: int) -> list[Result]:
    """``[work(item) for item in items]`` on ``processes`` processes (:func:`shared`), in the order of
    ``items``. The first item is done here before the workers start (see the module). Then many
    small interleaved chunks, taken by whichever process is free: items of different sizes and cores
    of different speeds even out. Only the results cross between processes (pickled): the items and
    ``work`` are the workers' by the fork, so ``work`` may be any callable."""
    if not items:
        return []
    first = work(items[0])
    rest = items[1:]
    count = min(len(rest), processes * CHUNKS_PER_WORKER, MAX_TASKS)
    if count == 0:
        return [first]
    chunks = [rest[i::count] for i in range(count)]
    done = shared(chunks, lambda chunk: [work(item) for item in chunk], processes)
    results: list[Any] = [None] * len(rest)
    for offset, chunk_results in enumerate(done):
        for position, result in enumerate(chunk_results):
            results[offset + position * count] = result
    return [first, *results]


CHUNKS_PER_WORKER = 16
PIECES_PER_WORKER = 8
"""A large file is cut into this many pieces per worker: enough for a busy core to take fewer."""
