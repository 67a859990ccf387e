"""``make golden``: rewrite every golden output (read the diff before committing it)."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

import yaml

from .cases import GOLDEN, ROOT, SPECS, build_outputs, discover


def main() -> int:
    for spec in sorted(SPECS.glob("*.yaml")):
        rel = spec.relative_to(ROOT).as_posix()
        folder = GOLDEN / spec.stem
        if not (folder / "case.yaml").exists():
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "case.yaml").write_text(yaml.safe_dump({"spec": rel}, sort_keys=False))
            print(f"new case {folder.relative_to(ROOT)}")
    for case in discover():
        with tempfile.TemporaryDirectory() as tmp:
            outputs = build_outputs(case, Path(tmp))
        for old in case.folder.iterdir():
            if old.name != "case.yaml":
                shutil.rmtree(old) if old.is_dir() else old.unlink()
        for rel, content in outputs.items():
            target = case.folder / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content)
        print(f"wrote {case.folder.relative_to(ROOT)} ({len(outputs)} files)")
    print("golden files rewritten: review `git diff golden/` before committing", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
