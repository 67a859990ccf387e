"""Parallel validation gives exactly the report of a single process: same diagnostics, same lines."""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

import pytest

from mpigen.load.scan import split_documents
from mpigen.validation.engine import ValidateOptions, validate_bytes
from mpigen.validation.parallel import validate_files

ROOT = Path(__file__).resolve().parents[2]
GOOD = (ROOT / "golden/horovod-volcano/base.yaml").read_text()
BAD = (ROOT / "tests/cases/validate/mixed.yaml").read_text()


def test_one_large_file_in_pieces_reports_what_one_process_reports(monkeypatch) -> None:
    from mpigen.validation import parallel as module

    monkeypatch.setattr(module, "MIN_WORK_PER_PROCESS", 1e-9)  # every core, whatever the work
    text = "".join((BAD if i % 7 == 3 else GOOD) for i in range(60))
    raw = text.encode()
    sequential, _ = validate_bytes(raw, "big.yaml", ValidateOptions(), keep_documents=False)
    parallel, by_file = validate_files({"big.yaml": raw}, ValidateOptions(), keep_documents=True, workers=2)
    documents = by_file["big.yaml"]
    assert sequential and sorted(parallel) == sorted(sequential)
    assert [d.index for d in documents] == list(range(len(documents)))
    lines = text.splitlines()
    mpijobs = [d for d in documents if isinstance(d.data, dict) and d.data.get("kind") == "MPIJob"]
    assert all(lines[d.line - 1].startswith("apiVersion: kubeflow.org/v2beta1") for d in mpijobs)


HAZARDS = """\
---
apiVersion: v1
kind: ConfigMap
metadata: {name: hazards}
data:
  a: y
  a: again
  on: 1
  t: !!binary aGk=
  list: [n, "y", 1.10]
  base: &b {x: 1}
  merged: {<<: *b, z: 2}
---
tagged: !custom value
"""


BROKEN = "---\nbroken: [unclosed\n"
DEEP = "---\nx:\n" + " " * 10_000 + "y: 1\n"


OPEN_QUOTE = "---\nq: 'never closed\n"  # a one-piece read runs on into the next marker


@pytest.mark.parametrize("where, extra", [(None, ""), (44, BROKEN), (20, BROKEN), (30, DEEP), (20, OPEN_QUOTE)],
                         ids=["clean", "syntax error last", "syntax error in the middle", "deep indent",
                              "open quote in the middle"])
def test_pieces_give_every_line_and_position_of_the_whole(monkeypatch, where: int | None, extra: str) -> None:
    """Pieces are read with the count of lines before them: every diagnostic, document line and
    position equals a one-piece read's, with warnings and errors in every piece; an error that
    stops a one-piece read stops the pieces' report there too, and document numbers run on."""
    from mpigen.validation import parallel as module

    monkeypatch.setattr(module, "MIN_WORK_PER_PROCESS", 1e-9)  # every core, whatever the work
    text = "".join((HAZARDS if i % 3 == 0 else (BAD if i % 7 == 3 else GOOD)) + (extra if i == where else "")
                   for i in range(45))
    raw = text.encode()
    sequential, whole = validate_bytes(raw, "big.yaml", ValidateOptions(), keep_documents=True)
    parallel, by_file = validate_files({"big.yaml": raw}, ValidateOptions(), keep_documents=True, workers=2)
    assert len(split_documents(text, 2 * module.PIECES_PER_WORKER)) > 8
    if extra != DEEP:
        assert {d.code for d in sequential} >= {"yaml-duplicate-key", "yaml-bool", "yaml-key", "yaml-tag"}
    assert sorted(parallel) == sorted(sequential)
    assert by_file["big.yaml"] == whole  # data, line, positions, key positions, plain texts


def test_pieces_of_empty_documents_do_not_say_the_file_is_empty(monkeypatch) -> None:
    """A piece that holds empty documents or comments only: the file is not empty (a piece said
    so of itself), unless every piece is."""
    from mpigen.validation import parallel as module

    monkeypatch.setattr(module, "MIN_WORK_PER_PROCESS", 1e-9)  # every core, whatever the work
    for text in (GOOD * 10 + "---\n# nothing\n" * 300, "---\n# nothing\n" * 300):
        one, _ = validate_bytes(text.encode(), "big.yaml", ValidateOptions())
        pieces, _ = validate_files({"big.yaml": text.encode()}, ValidateOptions(), workers=40)
        assert pieces == one
    assert [d.code for d in one] == ["empty-file"]


def test_many_files_in_processes_report_in_file_order(monkeypatch) -> None:
    from mpigen.validation import parallel as module

    contents = {f"f{i:03d}.yaml": (BAD if i % 5 == 0 else GOOD).encode() for i in range(40)}
    one, _ = validate_files(contents, ValidateOptions(), workers=1)
    monkeypatch.setattr(module, "MIN_WORK_PER_PROCESS", 1e-9)  # every core, whatever the work
    both, _ = validate_files(contents, ValidateOptions(), workers=2)
    assert one and one == both


def _square_or_fail(task: int) -> int:
    if task == 13:
        raise ValueError("thirteen")
    return task * task


def test_shared_returns_every_result_in_task_order() -> None:
    from mpigen.validation.parallel import shared

    assert shared([1, 2, 3, 4], _square_or_fail) == [1, 4, 9, 16]
    assert shared(list(range(20, 220)), _square_or_fail, 2) == [n * n for n in range(20, 220)]
    assert shared([5], _square_or_fail, 2) == [25]


def test_shared_leaves_frozen_what_was_frozen_before() -> None:
    """A program that calls mpigen's API may have frozen its own objects (gc.freeze before forking
    its workers, say); so may a large text's reading (mpigen.load.pause): they stay frozen. What
    shared() froze for itself is thawed when nothing was frozen before."""
    import gc

    from mpigen.validation.parallel import shared

    gc.unfreeze()  # what earlier tests' large texts left frozen
    assert shared([1, 2, 3], _square_or_fail, 2) == [1, 4, 9]
    assert gc.get_freeze_count() == 0
    kept = [[n] for n in range(1000)]
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        assert shared([1, 2, 3], _square_or_fail, 2) == [1, 4, 9]
        assert gc.get_freeze_count() >= before > 0, kept[0]
    finally:
        gc.unfreeze()


def test_shared_raises_what_a_child_raised_and_reaps_every_child() -> None:
    from mpigen.validation.parallel import shared

    with pytest.raises(ValueError, match="thirteen"):
        shared([1, 13, 3, 13, 5], _square_or_fail, 3)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # no child left behind


PARENT = os.getpid()


MARKER = Path("took-a-task")  # a child touches it; each test points it into its tmp_path


def _until_a_child_took_one() -> None:
    """In this process: wait (up to 10 s) until the child has taken the other task, so that the
    test does not depend on how soon the machine runs the child."""
    deadline = time.monotonic() + 10
    while not MARKER.exists() and time.monotonic() < deadline:
        time.sleep(0.005)


def _die_in_a_child(task: int) -> int:
    if os.getpid() != PARENT:
        MARKER.touch()
        os._exit(7)  # a worker that dies without an answer
    _until_a_child_took_one()
    return task


def test_shared_reports_a_child_that_died_without_an_answer(tmp_path: Path, monkeypatch) -> None:
    from mpigen.validation.parallel import shared

    monkeypatch.setattr(sys.modules[__name__], "MARKER", tmp_path / "took-a-task")

    with pytest.raises(RuntimeError, match="ended without an answer"):
        shared([1, 2], _die_in_a_child, 2)


def test_tasks_go_to_whichever_process_is_free() -> None:
    """A process that is slow gets fewer tasks: here this one sleeps on each, the child does not."""
    from mpigen.validation.parallel import shared

    where = shared(list(range(40)), _pid_after_a_pause_in_the_parent, 2)
    # The child takes a task a millisecond, this process one per 0.1 s: to fail, the child would
    # have to stand still for two seconds (a busy CI machine does not make this test flaky).
    assert where.count(PARENT) < 20 and len(set(where)) == 2


def _pid_after_a_pause_in_the_parent(task: int) -> int:
    if os.getpid() == PARENT:
        time.sleep(0.1)
    else:
        time.sleep(0.001)
    return os.getpid()


def _fail_in_a_child(task: int) -> int:
    if os.getpid() != PARENT:
        MARKER.touch()
        raise ValueError("raised in a child")
    _until_a_child_took_one()
    return task


def test_a_childs_exception_carries_the_childs_traceback(tmp_path: Path, monkeypatch) -> None:
    import gc

    from mpigen.validation.parallel import shared

    monkeypatch.setattr(sys.modules[__name__], "MARKER", tmp_path / "took-a-task")
    gc.unfreeze()  # what earlier tests' large texts left frozen (shared() leaves that frozen)

    with pytest.raises(ValueError, match="raised in a child") as caught:
        shared([1, 2], _fail_in_a_child, 2)
    assert "in a validation worker" in str(caught.value.__cause__)
    assert "_fail_in_a_child" in str(caught.value.__cause__)
    assert gc.get_freeze_count() == 0  # frozen for the fork only


def test_more_pieces_than_task_numbers_on_a_machine_with_many_cores(monkeypatch) -> None:
    from mpigen.validation import parallel as module

    monkeypatch.setattr(module, "MIN_WORK_PER_PROCESS", 1e-9)  # every core, whatever the work
    text = "".join(f"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c{i}}}\n" for i in range(3000))
    found, by_file = validate_files({"many.yaml": text.encode()}, ValidateOptions(), keep_documents=True, workers=40)
    assert found == [] and len(by_file["many.yaml"]) == 3000


def test_kept_documents_let_their_nodes_go() -> None:
    _, kept = validate_bytes(GOOD.encode(), "f.yaml", ValidateOptions(), keep_documents=True)
    assert kept and all(doc._locator is None and doc.positions for doc in kept)


@pytest.mark.parametrize("files, cores, want", [
    ([GOOD] * 10, 2, 1),  # a few files: starting a worker would cost more than it saves
    ([GOOD] * 1000, 2, 2),  # a thousand: every core
    ([GOOD] * 1000, 8, 8),
    ([GOOD] * 1000, 1, 1),
    ([GOOD * 10_000], 2, 2),  # one large file
    ([GOOD * 10_000], 64, 64),
    (["a: 1\n" * 20_000], 2, 1),  # 100 kB, one document
    (["---\na: 1\n" * 1_000], 2, 2),  # 10 kB, a thousand documents: they are counted
    ([], 2, 1),
])
def test_processes_follow_the_estimated_cost_of_the_work(files: list[str], cores: int, want: int) -> None:
    from mpigen.validation.parallel import processes_for

    assert processes_for([(f"f{i}.yaml", text.encode()) for i, text in enumerate(files)], cores) == want


def test_a_thousand_small_files_go_to_both_cores_and_ten_do_not(tmp_path: Path, monkeypatch) -> None:
    """Through validate_files: the processes it forks, counted."""
    from bench.generate import small_mpijob
    from mpigen.validation import parallel as module

    forks = []
    real_fork = os.fork

    def fork() -> int:
        forks.append(1)
        return real_fork()

    monkeypatch.setattr(module.os, "fork", fork)
    rng = random.Random(0)
    small = {f"job-{i}.yaml": small_mpijob(i, rng).encode() for i in range(1000)}
    assert 900 < sum(map(len, small.values())) / len(small) < 1000
    for count, want in ((10, 0), (1000, 1)):
        found, _ = validate_files(dict(list(small.items())[:count]), ValidateOptions(), workers=2)
        assert found == [] and len(forks) == want, (count, forks)
        forks.clear()


def _file_and_what_was_ready(*args):
    """A file's check, noting whether the schema validator was compiled before it started."""
    from mpigen.spec.schema import fast_validator_for
    from mpigen.validation import parallel as module

    ready = fast_validator_for.cache_info().currsize
    with open(MARKER, "a") as notes:
        notes.write(f"{os.getpid()} {ready}\n")
    lines = MARKER.read_text().splitlines()
    if len(lines) > 1 and os.getpid() == PARENT:  # after its first file: until a worker has started
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and all(line.split()[0] == str(PARENT) for line in lines):
            time.sleep(0.01)
            lines = MARKER.read_text().splitlines()
    return module._file_inner(*args)


def test_workers_start_with_what_the_first_file_imported_and_compiled(tmp_path: Path, monkeypatch) -> None:
    from mpigen.spec.schema import fast_validator_for
    from mpigen.validation import parallel as module

    monkeypatch.setattr(module, "MIN_WORK_PER_PROCESS", 1e-9)
    monkeypatch.setattr(sys.modules[__name__], "MARKER", tmp_path / "notes")
    monkeypatch.setattr(module, "_file_inner", module._file, raising=False)
    monkeypatch.setattr(module, "_file", _file_and_what_was_ready)
    fast_validator_for.cache_clear()  # as in a new process
    contents = {f"f{i:03d}.yaml": GOOD.encode() for i in range(40)}
    found, _ = validate_files(contents, ValidateOptions(), workers=2)
    notes = [line.split() for line in (tmp_path / "notes").read_text().splitlines()]
    firsts = {}
    for pid, ready in notes:
        firsts.setdefault(pid, int(ready))
    assert str(os.getpid()) in firsts and len(firsts) == 2, notes  # a worker took chunks too
    assert all(firsts[pid] >= 1 for pid in firsts if pid != str(os.getpid())), notes


RUNTIME, TRAINJOB = (ROOT / "tests/cases/trainjobs/torch-coscheduling.yaml").read_text().split("\n---\n")
RUNTIME += "\n"


def test_every_worker_knows_the_runtimes_of_every_file(monkeypatch) -> None:
    """A TrainJob in one file, its runtime in another: whichever process checks the TrainJob knows
    the runtime (workers were given only the runtimes of the files they checked)."""
    from mpigen.validation import parallel as module

    contents = {f"f{i:03d}.yaml": GOOD.encode() for i in range(40)}
    contents["f000.yaml"], contents["f039.yaml"] = TRAINJOB.encode(), RUNTIME.encode()
    monkeypatch.setattr(module, "MIN_WORK_PER_PROCESS", 1e-9)  # every core, whatever the work
    assert module.processes_for(list(contents.items()), 2) == 2
    found, _ = validate_files(contents, ValidateOptions(), workers=2)
    assert found == []
    alone, _ = validate_files({"f000.yaml": TRAINJOB.encode()}, ValidateOptions(), workers=2)
    assert [d.code for d in alone] == ["trainjob-runtime-missing"]


def test_every_piece_of_a_large_file_knows_the_runtimes_of_the_whole(monkeypatch) -> None:
    """The TrainJob in the first piece of a large file cut into pieces, its runtime in the last."""
    from mpigen.validation import parallel as module

    monkeypatch.setattr(module, "MIN_WORK_PER_PROCESS", 1e-9)  # every core, whatever the work
    text = "---\n" + TRAINJOB + "".join(GOOD for _ in range(40)) + "---\n" + RUNTIME
    assert len(split_documents(text, 2 * module.PIECES_PER_WORKER)) > 8
    one, _ = validate_bytes(text.encode(), "big.yaml", ValidateOptions())
    pieces, _ = validate_files({"big.yaml": text.encode()}, ValidateOptions(), workers=2)
    assert one == [] and pieces == []


def test_files_beside_the_run_give_their_runtimes_only() -> None:
    """A file beside the run (of a given file's folder) is read for its runtimes, not checked."""
    bad = {"other.yaml": BAD.encode(), "runtime.yaml": RUNTIME.encode()}
    found, _ = validate_files({"job.yaml": TRAINJOB.encode()}, ValidateOptions(), beside=bad)
    assert found == []
