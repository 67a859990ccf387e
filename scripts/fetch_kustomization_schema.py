#!/usr/bin/env python3
"""Write the schemas of kustomize's own files (``make schemas``): ``kustomization.yaml`` as
``schemas/kustomize.config.k8s.io/kustomization_v1beta1.json`` and, the same type under another
kind, ``component_v1alpha1.json``, so that ``mpigen validate`` (and ``--require-schema``, and
kubeconform with mpigen's schemas) checks the kustomize trees ``mpigen build -o`` writes.

The schema is reflected from the Go type kustomize decodes a kustomization into
(``sigs.k8s.io/kustomize/api/types.Kustomization``) by ``scripts/kustomization_schema`` (``go
run .``), whose go.mod and go.sum pin the modules, downloaded through the Go module proxy into
``.cache/gomod`` like every other upstream source.

Usage::

    python3 scripts/fetch_kustomization_schema.py           # (re)write the two files
    python3 scripts/fetch_kustomization_schema.py --check   # exit 1 if a committed file differs

Exit status: 0 done / up to date, 1 ``--check`` found a difference, 2 error.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
GENERATOR = REPO_ROOT / "scripts" / "kustomization_schema"
OUT = REPO_ROOT / "schemas" / "kustomize.config.k8s.io"
FILES = ("kustomization_v1beta1.json", "component_v1alpha1.json")
TIMEOUT = 900  # seconds: a first run downloads and compiles the modules


def generate() -> bytes:
    env = dict(os.environ, GOMODCACHE=str(REPO_ROOT / ".cache" / "gomod"), GOFLAGS="-mod=readonly -trimpath")
    env.pop("GOWORK", None)
    result = subprocess.run(["go", "run", "."], cwd=GENERATOR, env=env, capture_output=True, timeout=TIMEOUT,
                            check=False)
    if result.returncode != 0:
        raise SystemExit(f"fetch_kustomization_schema: go run failed:\n{result.stderr.decode(errors='replace')}")
    return result.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    args = parser.parse_args(argv)
    schema = generate()
    if args.check:
        stale = [name for name in FILES if not (OUT / name).is_file() or (OUT / name).read_bytes() != schema]
        for name in stale:
            print(f"differs: schemas/kustomize.config.k8s.io/{name}", file=sys.stderr)
        return 1 if stale else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        (OUT / name).write_bytes(schema)
    print(f"wrote {', '.join(FILES)} to {OUT.relative_to(REPO_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
