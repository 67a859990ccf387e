"""Coverage-guided fuzzing of the YAML layer: mpigen's loader and the validate engine.

    python tests/fuzz/atheris_yaml.py -max_total_time=60 [CORPUS_DIR...] [libFuzzer options]

Each input is handed, as bytes, to ``mpigen.load.yaml_loader.load_bytes`` and to
``mpigen.validation.engine.validate_bytes`` (every layer: schema, the operator's rules, lint). A
finding is any exception, or a diagnostic that breaks the contract: another file name, a code that
is not kebab-case, an error without a line (other than the file-level codes), data that is not
plain JSON-like data.

With atheris installed (``pip install atheris``: PyPI has x86-64 Linux wheels, 3.0.0 for
CPython 3.11 and 3.1.0 for 3.12 and 3.13, so no clang is needed) this is libFuzzer, coverage-guided over mpigen's modules (and
PyYAML's Python side). Without a corpus folder it uses ``$TMPDIR/mpigen-atheris-corpus``, kept
between runs and seeded with every YAML file of the repository; crash inputs go to
``-artifact_prefix`` (default ``$TMPDIR/mpigen-atheris-artifacts/``).
Without atheris the same target runs under a plain-Python driver: seeded random mutations of the
same seed files plus random bytes, honouring ``-max_total_time=N``, ``-runs=N`` and ``-seed=N``;
it writes a failing input to the artifact folder and exits 1.
"""

from __future__ import annotations

import math
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # run as a script from anywhere: mpigen and tests importable

try:
    if os.environ.get("MPIGEN_FUZZ_NO_ATHERIS"):  # to try the plain driver where atheris is installed
        raise ImportError
    import atheris
except ImportError:  # the plain-Python driver below
    atheris = None


def _import_all_of_mpigen() -> None:
    """Every module of mpigen, so that the ones it imports lazily are instrumented too."""
    import importlib
    import pkgutil

    import mpigen

    for module in pkgutil.walk_packages(mpigen.__path__, "mpigen."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)


if atheris is not None:
    with atheris.instrument_imports(include=["mpigen", "yaml"]):
        _import_all_of_mpigen()
        from mpigen.diagnostics import Severity
        from mpigen.load.yaml_loader import load_bytes
        from mpigen.validation.engine import ValidateOptions, validate_bytes
else:
    from mpigen.diagnostics import Severity
    from mpigen.load.yaml_loader import load_bytes
    from mpigen.validation.engine import ValidateOptions, validate_bytes

NAME = "fuzz.yaml"
FILE_LEVEL = {"no-spec", "no-mpijob", "duplicate-job", "file-too-large"}
CODE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
OPTIONS = ValidateOptions()


def _plain(value: Any, depth: int = 0) -> None:
    if depth > 210:
        raise AssertionError("nesting beyond the loader's limit")
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise AssertionError(f"non-string key {key!r}")
            _plain(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _plain(item, depth + 1)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise AssertionError(f"non-finite number {value!r}")
    elif not (value is None or isinstance(value, (str, int, bool))):
        raise AssertionError(f"not plain data: {type(value).__name__}")


def _check(diagnostics: list[Any]) -> None:
    for d in diagnostics:
        if d.file != NAME:
            raise AssertionError(f"diagnostic for another file: {d}")
        if not CODE.fullmatch(d.code):
            raise AssertionError(f"bad code: {d}")
        if d.severity is Severity.ERROR and d.line is None and d.code not in FILE_LEVEL:
            raise AssertionError(f"error without a line: {d.format()}")
        if d.line is not None and (d.line < 1 or (d.column or 1) < 1):
            raise AssertionError(f"bad position: {d.format()}")


def test_one_input(data: bytes) -> None:
    """The fuzz target: any exception or broken contract is a finding."""
    loaded = load_bytes(data, NAME)
    _check(loaded.diagnostics)
    for doc in loaded.documents:
        _plain(doc.data)
    found, _ = validate_bytes(data, NAME, OPTIONS)
    _check(found)


def seeds() -> list[bytes]:
    """Every YAML file of the repository's examples, goldens and test cases."""
    paths = sorted(set((ROOT / "specs").rglob("*.yaml")) | set((ROOT / "golden").rglob("*.yaml"))
                   | set((ROOT / "tests" / "cases").rglob("*.yaml")))
    return [p.read_bytes() for p in paths if p.stat().st_size <= 64 * 1024]


def _option(argv: list[str], name: str, default: str | None = None) -> str | None:
    for arg in argv:
        if arg.startswith(f"-{name}="):
            return arg.split("=", 1)[1]
    return default


# ------------------------------------------------------------------- plain-Python driver

TOKENS = [b"\t", b"\r", b"\r\n", b"\n", b"\xef\xbb\xbf", b"\x00", b"\xff", b"\xc2\x85", b"\xe2\x80\xa8",
          b"\xed\xa0\x80", b"\xf0\x9f\x92\xa5", b"---\n", b"...\n", b"%YAML 1.1\n", b"&a ", b"*a", b"*b",
          b"<<: *a\n", b"!!python/object/apply:os.system ['true'] ", b"!!int ", b"!!float ", b"!!binary ",
          b"!!set ", b"!custom ", b"? ", b"{", b"}", b"[", b"]", b"[" * 250, b"- " * 250, b": ", b"#", b"'",
          b'"', b"|", b">", b"9" * 300, b".inf", b"on", b"y", b"12:30", b"1.10", b"0o17", b"2001-12-14",
          b"key: a\nkey: b\n", b"\"\\x\"", b"\"\\U00110000\"", b"apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\n"]


def _mutate(rng: random.Random, data: bytes, corpus: list[bytes]) -> bytes:
    for _ in range(rng.randint(1, 6)):
        pos = rng.randint(0, len(data))
        choice = rng.random()
        if choice < 0.25 and data:
            at = min(pos, len(data) - 1)
            data = data[:at] + bytes([data[at] ^ rng.randint(1, 255)]) + data[at + 1:]
        elif choice < 0.5:
            data = data[:pos] + rng.choice(TOKENS) + data[pos:]
        elif choice < 0.6:
            data = data[:pos]
        elif choice < 0.7:
            data = data[:pos] + data[min(len(data), pos + rng.randint(1, 40)):]
        elif choice < 0.8:
            other = rng.choice(corpus)
            start = rng.randint(0, len(other))
            data = data[:pos] + other[start:start + rng.randint(1, 300)] + data[pos:]
        elif choice < 0.9:
            lines = data.split(b"\n")
            i = rng.randrange(len(lines))
            lines.insert(rng.randrange(len(lines) + 1), lines[i])
            data = b"\n".join(lines)
        else:
            data = data[:pos] + bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 16))) + data[pos:]
    return data


def plain_driver(argv: list[str]) -> int:
    max_time = float(_option(argv, "max_total_time", "60") or 60)
    runs = int(_option(argv, "runs", "-1") or -1)
    seed = int(_option(argv, "seed", "0") or 0) or int(time.time())
    artifacts = Path(_option(argv, "artifact_prefix", None) or Path(tempfile.gettempdir()) / "mpigen-fuzz-artifacts")
    rng = random.Random(seed)
    corpus = seeds()
    for folder in (a for a in argv[1:] if not a.startswith("-")):
        corpus += [p.read_bytes() for p in Path(folder).iterdir() if p.is_file()]
    deadline = time.monotonic() + max_time
    done = 0
    print(f"plain-Python fuzz driver (atheris not installed): seed {seed}, {len(corpus)} seed inputs, "
          f"{max_time:g} s", flush=True)
    while time.monotonic() < deadline and (runs < 0 or done < runs):
        if done < len(corpus):
            data = corpus[done]
        elif rng.random() < 0.05:
            data = bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 256)))
        else:
            data = _mutate(rng, rng.choice(corpus), corpus)
        try:
            test_one_input(data)
        except Exception as exc:  # a finding
            artifacts.mkdir(parents=True, exist_ok=True)
            path = artifacts / f"crash-{seed}-{done}.yaml"
            path.write_bytes(data)
            print(f"FINDING after {done} inputs: {type(exc).__name__}: {exc}\ninput saved to {path}", flush=True)
            raise
        done += 1
    print(f"done: {done} inputs, no finding", flush=True)
    return 0


def main(argv: list[str]) -> int:
    if atheris is None:
        return plain_driver(argv)
    args = list(argv)
    if not any(a.startswith("-artifact_prefix=") for a in args):
        artifacts = Path(tempfile.gettempdir()) / "mpigen-atheris-artifacts"
        artifacts.mkdir(parents=True, exist_ok=True)
        args.append(f"-artifact_prefix={artifacts}/")
    if not any(a.startswith("-timeout=") for a in args):
        args.append("-timeout=20")
    corpus_dirs = [a for a in args[1:] if not a.startswith("-")]
    if not corpus_dirs:  # a corpus kept between runs, seeded with the repository's YAML files
        corpus = Path(tempfile.gettempdir()) / "mpigen-atheris-corpus"
        corpus.mkdir(exist_ok=True)
        for i, data in enumerate(seeds()):
            Path(corpus, f"seed-{i:04d}.yaml").write_bytes(data)
        args.append(str(corpus))
    atheris.Setup(args, test_one_input)
    atheris.Fuzz()  # exits the process when the run ends
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
