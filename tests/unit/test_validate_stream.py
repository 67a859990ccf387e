"""One large file read in pieces (mpigen.validation.stream): the report of the whole file read,
byte for byte, with no read larger than a piece."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mpigen.load.scan import _marker_from, breaks_are_newlines, nesting_beyond_parser
from mpigen.validation import stream as module
from mpigen.validation.engine import ValidateOptions
from mpigen.validation.parallel import validate_files
from tests.unit.test_validate_parallel import BAD, BROKEN, GOOD, HAZARDS, OPEN_QUOTE, RUNTIME, TRAINJOB

MULTIBYTE = """\
---
apiVersion: v1
kind: ConfigMap
metadata: {name: multibyte}
data: {text: "é 日本 ---", "clé": "y"}
"""


def _text(extra: str = "", where: int | None = None, count: int = 45) -> str:
    return "".join((HAZARDS + MULTIBYTE if i % 3 == 0 else (BAD if i % 7 == 3 else GOOD))
                   + (extra if i == where else "") for i in range(count))


def _both(tmp_path: Path, raw: bytes, block_size: int = 97, workers: int = 2, **options):
    """What a one-piece read of the file says and what the streamed read says, with their
    coverage; the diagnostics sorted (as every report is: a TrainJob is checked after the other
    objects of its piece, not of the file)."""
    from mpigen.validation import Coverage

    path = tmp_path / "big.yaml"
    path.write_bytes(raw)
    whole_coverage, streamed_coverage = Coverage(), Coverage()
    whole, _ = validate_files({str(path): raw}, ValidateOptions(**options), coverage=whole_coverage, workers=1)
    streamed = module.validate_large_file(str(path), ValidateOptions(**options), dict, lambda raw: b"runtime" in raw,
                                          streamed_coverage, workers=workers, block_size=block_size)
    return ((sorted(whole), whole_coverage.checked, whole_coverage.skipped),
            (sorted(streamed), streamed_coverage.checked, streamed_coverage.skipped))


@pytest.fixture
def pieces(tmp_path: Path, monkeypatch) -> list[int]:
    """Small pieces (a few documents each) on both cores; the sizes of the pieces the streamed
    read checked, in this process and the workers, read after the run."""
    from mpigen.validation import parallel

    monkeypatch.setattr(parallel, "MIN_WORK_PER_PROCESS", 1e-9)  # every core, whatever the work
    monkeypatch.setattr(module, "PIECE_BYTES", 6000)
    notes = tmp_path / "pieces"
    notes.touch()
    real = module._range

    def counted(task):
        with open(notes, "a") as out:
            out.write(f"{task[3] - task[2]}\n")
        return real(task)

    monkeypatch.setattr(module, "_range", counted)
    return _Notes(notes)


class _Notes(list):
    def __init__(self, path: Path):
        super().__init__()
        self.path = path

    def __len__(self) -> int:
        return len(self.path.read_text().split())

    def __eq__(self, other: object) -> bool:
        return [int(n) for n in self.path.read_text().split()] == other


@pytest.mark.parametrize("text", [
    _text(), _text(BROKEN, 44), _text(BROKEN, 20), _text(OPEN_QUOTE, 20), _text().replace("\n", "\r\n"),
    "\ufeff" + _text(), "a: 1\n" + _text(), _text() + "---", _text() + "--- # the end\nlast: 1",
    _text("---\nx: [" + ", ".join(['"[[[["'] * 2000) + "]\n", 30),  # brackets in quotes: not deep
], ids=["clean", "syntax error last", "syntax error in the middle", "open quote in the middle", "crlf", "bom",
        "no marker first", "marker at the end", "last line unfinished", "brackets in quotes"])
@pytest.mark.parametrize("block_size", [1, 7, 4096])
def test_the_streamed_read_reports_what_the_whole_read_reports(tmp_path: Path, pieces, text: str,
                                                               block_size: int) -> None:
    """Blocks of 1 and 7 bytes put every marker, CRLF and multi-byte character across a block's
    end; the pieces are a few documents each."""
    whole, streamed = _both(tmp_path, text.encode(), block_size)
    assert streamed == whole
    assert whole[0] or whole[1]
    assert len(pieces) > 8


@pytest.mark.parametrize("text", [
    "%YAML 1.1\n" + _text(), _text("---\nx: 1\n%TAG ! tag:x,2000:\n", 30),
    _text("---\nx: a\rb\n", 30), _text("---\nx: a\x85b\n", 30), _text("---\nx: a\u2028b\n", 30),
    _text("---\nx:\n" + " " * 10_000 + "y: 1\n", 30), " " * 10_000 + "x: 1\n" + _text(),
    _text("---\nx: " + "[" * 5_001 + "]" * 5_001 + "\n", 30),
], ids=["yaml directive", "tag directive in the middle", "lone cr", "nel", "line separator", "deep indent",
        "deep indent first", "deep brackets"])
def test_a_file_not_to_cut_is_read_whole(tmp_path: Path, pieces, text: str) -> None:
    whole, streamed = _both(tmp_path, text.encode(), 64)
    assert streamed == whole and whole[0]
    assert pieces == []


@pytest.mark.parametrize("where", [2, 40])
def test_a_file_that_is_not_utf8_is_said_so_once_where_the_whole_read_says(tmp_path: Path, pieces, where: int) -> None:
    text = _text(f"---\nbad: é{'x' * 9}\n", where)
    raw = text.encode().replace("éx".encode(), b"\xe9x", 1)
    whole, streamed = _both(tmp_path, raw, 64)
    assert streamed == whole
    assert [(d.code, d.line, d.column) for d in whole[0]] == [("yaml-encoding", text[:text.index("éx")].count("\n") + 1,
                                                               len("bad: é"))]
    assert len(pieces) > 8


def test_every_piece_knows_the_runtimes_of_the_whole(tmp_path: Path, pieces) -> None:
    """The TrainJob in the first piece, its runtime in the last: found by reading the pieces that
    name it; without it, the TrainJob's runtime is missing in both reads."""
    text = "---\n" + TRAINJOB + GOOD * 40 + "---\n" + RUNTIME
    whole, streamed = _both(tmp_path, text.encode())
    assert whole == streamed and whole[0] == []
    count = len(pieces)
    whole, streamed = _both(tmp_path, text.replace("TrainingRuntime", "ConfigMap").encode())
    assert whole == streamed and "trainjob-runtime-missing" in {d.code for d in whole[0]}
    assert count > 8


@pytest.fixture
def reads(tmp_path: Path, monkeypatch) -> Path:
    """The size of every read of the file, whether of a block or a piece, in this process or a
    worker: one a line in the file returned."""
    notes = tmp_path / "reads"
    notes.touch()
    real = module._read

    def noted(file, size):
        data = real(file, size)
        with open(notes, "a") as out:
            out.write(f"{len(data)}\n")
        return data

    monkeypatch.setattr(module, "_read", noted)
    return notes


def test_a_document_larger_than_the_limit_makes_the_file_too_large(tmp_path: Path, pieces, reads: Path,
                                                                   monkeypatch) -> None:
    """Limits made small: a file over its limit, one of whose documents is too (14 kB of a
    12 kB limit), is refused as a whole read refuses it, from its size (not read whole); under a
    limit above every piece, read."""
    from mpigen.load import yaml_loader

    text = _text() + "---\nbig: |\n" + "  line\n" * 2000 + _text()
    monkeypatch.setattr(yaml_loader, "MAX_BYTES", len(text) // 2)
    monkeypatch.setattr(module, "MAX_BYTES", 12_000)
    monkeypatch.setattr(module, "BLOCK_BYTES", 4096)
    path = tmp_path / "big.yaml"
    path.write_text(text)
    streamed = module.validate_large_file(str(path), ValidateOptions(), dict, bool, block_size=97)
    assert max(int(n) for n in reads.read_text().split()) == 4096 and pieces == []
    whole, _ = validate_files({str(path): text.encode()}, ValidateOptions())
    assert streamed == whole and [d.code for d in whole] == ["file-too-large"]
    assert module.validate_large_file(str(path), ValidateOptions(disabled=frozenset({"file-too-large"})), dict,
                                      bool) == []
    monkeypatch.setattr(module, "MAX_BYTES", 16_000)
    _, streamed = _both(tmp_path, text.encode())
    assert "file-too-large" not in {d.code for d in streamed[0]} and streamed[1]
    assert len(pieces) > 8


def test_a_file_over_the_limit_is_read_in_bounded_pieces(tmp_path: Path, reads: Path) -> None:
    """A 72 MB file of 72 documents (over the 64 MiB a read may hold): every read, whether of a
    block or a piece, in this process or a worker, is at most a piece."""
    from mpigen.load.yaml_loader import MAX_BYTES

    comment = "# " + "x" * 999_000 + "\n"
    path = tmp_path / "huge.yaml"
    with open(path, "w") as out:
        for i in range(72):
            out.write(f"---\n{comment}apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c{i}\ndata:\n  flag: yes\n")
    assert os.path.getsize(path) > MAX_BYTES
    from mpigen.validation import Coverage

    coverage = Coverage()
    found = module.validate_large_file(str(path), ValidateOptions(), dict, bool, coverage, workers=2)
    assert sorted((d.line, d.code) for d in found) == [(8 + 8 * i, "schema") for i in range(72)]
    assert coverage.checked == 72
    sizes = [int(line) for line in reads.read_text().split()]
    assert sum(sizes) > 2 * MAX_BYTES  # scanned, then read piece by piece
    assert max(sizes) <= module.PIECE_BYTES


# The cuts themselves: what split_documents and nesting_beyond_parser say of the whole text.

LINES = ["---", "--- x", "---x", "----", "a: 1", " ---", "- a", "", "--- |", "%", "b: %", "x: a\rb", "c: é",
         "d: \u2028", "---\r", "e: [[", "f: ]", "'[' ", "# ---", "\t---"]


@given(st.lists(st.sampled_from(LINES), max_size=60).map("\n".join), st.booleans(),
       st.integers(min_value=1, max_value=40))
@settings(max_examples=300, deadline=None)
def test_cuts_are_the_markers_and_refusals_of_the_whole_text(text: str, newline_last: bool, block_size: int) -> None:
    """Whatever the blocks: cut where the whole text has markers, with its count of lines before
    each, and refused where split_documents or nesting_beyond_parser would refuse it."""
    import tempfile

    text += "\n" if newline_last else ""
    raw = text.encode()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "f.yaml")
        with open(path, "wb") as out:
            out.write(raw)
        scan = module._scan(path, 2, block_size, bool)
    whole_refuses = (text.startswith("%") or "\n%" in text or not breaks_are_newlines(text)
                     or nesting_beyond_parser(text) is not None)
    assert (scan is None) == whole_refuses
    if scan is None:
        return
    cuts = scan.cuts
    assert cuts.size == len(raw) and cuts.markers == raw.count(b"\n---")
    pieces = cuts.pieces()
    assert b"".join(raw[start:end] for start, end, _ in pieces) == raw
    starts = [len(raw[:offset].decode()) for offset, _, _ in pieces[1:]]
    assert starts[:1] == ([] if _marker_from(text, 1) is None else [_marker_from(text, 1)])
    for (_, _, lines), start in zip(pieces[1:], starts):
        assert _marker_from(text, start) == start and lines == text.count("\n", 0, start)


def test_pieces_are_within_the_target_or_one_document() -> None:
    from mpigen.load.scan import Cuts

    sizes = [5, 50, 5, 5, 5, 5, 400, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 30, 30, 30, 30]
    text = "".join("---\n" + "a" * (size - 5) + "\n" for size in sizes)
    cuts = Cuts(40)
    cuts.feed(text.encode(), final=True)
    pieces = [text[start:end] for start, end, _ in cuts.pieces()]
    assert "".join(pieces) == text and pieces[0] == "---\n\n"
    assert all(len(piece) <= 40 or piece.count("---") == 1 for piece in pieces), pieces
    assert len(pieces) < 2 * len(text) / 40 + 2


def test_validate_streams_one_large_file_given_by_its_path(tmp_path: Path, pieces, monkeypatch) -> None:
    """mpigen.validate: a file from STREAM_FROM bytes alone in the run is read in pieces, and
    says what its bytes say; beside another file, or below the size, it is read whole."""
    import mpigen.validation
    from mpigen.api import validate

    text = _text()
    path = tmp_path / "big.yaml"
    path.write_text(text)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "small.yaml").write_text(GOOD)
    monkeypatch.setattr(mpigen.validation, "STREAM_FROM", path.stat().st_size)
    whole = validate((str(path), text.encode()))
    streamed = validate(str(path))
    assert streamed == whole and not whole.ok and len(pieces) > 8
    count = len(pieces)
    together = validate([str(path), str(tmp_path / "other")])
    assert together.diagnostics == whole.diagnostics and len(pieces) == count
    monkeypatch.setattr(mpigen.validation, "STREAM_FROM", path.stat().st_size + 1)
    assert validate(str(path)) == whole and len(pieces) == count


def test_a_block_of_closing_brackets_alone_lowers_the_depth() -> None:
    """4,000 brackets opened on one line and closed on the next, then 4,000 more: never past the
    parser's 5,000 levels, in blocks of one line as in the whole text."""
    from mpigen.load.scan import Cuts

    text = "---\na: " + "[" * 4000 + "\n" + "]" * 4000 + "\n---\nb: " + "[" * 4000 + "]" * 4000 + "\n"
    cuts = Cuts(100)
    for line in text.splitlines(keepends=True):
        cuts.feed(line.encode())
    assert nesting_beyond_parser(text) is None and cuts.refused is None
