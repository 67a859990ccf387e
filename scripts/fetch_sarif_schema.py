#!/usr/bin/env python3
"""Fetch the SARIF 2.1.0 JSON schema that tests/unit/test_sarif.py validates mpigen's SARIF
reports against (``make schemas``).

The schema comes from the npm registry, in Microsoft's ``@microsoft/jest-sarif`` package (the
SARIF validators' own copy: ``lib/schemas/sarif-2.1.0-rtm.5.json``, the schema of the SARIF
2.1.0 release as SchemaStore serves it). The tarball is checked against the registry's
``dist.integrity`` (sha512) before the file is taken out of it; ``tests/schemas/lock.json``
records the package, its integrity and the file's sha256.

Usage::

    python3 scripts/fetch_sarif_schema.py           # (re)write tests/schemas/
    python3 scripts/fetch_sarif_schema.py --check   # exit 1 if the committed file differs

Exit status: 0 done / up to date, 1 ``--check`` found a difference, 2 error.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import sys
import tarfile
import urllib.request
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
OUT = REPO_ROOT / "tests" / "schemas"
REGISTRY = "https://registry.npmjs.org"
PACKAGE, VERSION = "@microsoft/jest-sarif", "1.0.0-beta.0"
MEMBER = "package/lib/schemas/sarif-2.1.0-rtm.5.json"
NAME = "sarif-2.1.0-rtm.5.json"
TIMEOUT = 60  # seconds, per request


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:  # noqa: S310 - a fixed https URL
        return response.read()


def fetch() -> tuple[bytes, dict[str, str]]:
    meta = json.loads(_get(f"{REGISTRY}/{PACKAGE.replace('/', '%2F')}/{VERSION}"))
    dist = meta["dist"]
    tarball = _get(dist["tarball"])
    algorithm, _, digest = dist["integrity"].partition("-")
    if algorithm != "sha512" or hashlib.sha512(tarball).digest() != base64.b64decode(digest):
        raise SystemExit(f"{dist['tarball']}: does not match the registry's integrity {dist['integrity']}")
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
        member = archive.extractfile(MEMBER)
        if member is None:
            raise SystemExit(f"{PACKAGE}@{VERSION} has no {MEMBER}")
        data = member.read()
    json.loads(data)  # a schema, not an error page
    lock = {"package": f"{PACKAGE}@{VERSION}", "integrity": dist["integrity"], "file": MEMBER,
            "sha256": hashlib.sha256(data).hexdigest()}
    return data, lock


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed file, write nothing")
    args = parser.parse_args(argv)
    try:
        data, lock = fetch()
    except (OSError, KeyError, ValueError) as exc:
        print(f"fetch_sarif_schema: {exc}", file=sys.stderr)
        return 2
    lock_text = json.dumps({NAME: lock}, indent=2, sort_keys=True) + "\n"
    files = {OUT / NAME: data, OUT / "lock.json": lock_text.encode("utf-8")}
    if args.check:
        stale = [str(p.relative_to(REPO_ROOT)) for p, content in files.items()
                 if not p.is_file() or p.read_bytes() != content]
        for name in stale:
            print(f"differs: {name}", file=sys.stderr)
        return 1 if stale else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for path, content in files.items():
        path.write_bytes(content)
    print(f"wrote {NAME} from {lock['package']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
