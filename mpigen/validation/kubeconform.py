"""``mpigen validate --kubeconform``: run the external kubeconform with mpigen's schemas and merge
its findings, each placed at its line through the document it names (kind and name).
"""

from __future__ import annotations

import json
import re
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from ..diagnostics import Diagnostic, Severity, format_path
from ..load.document import Document
from ..spec.schema import schemas_folder

TEMPLATE = "{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json"
_NULL = re.compile(r"^got null, want ")
_EXTRA = re.compile(r"^additional propert(?:y|ies) '([^']+)'")


class KubeconformMissing(Exception):
    pass


class KubeconformFailed(Exception):
    pass


def find_binary() -> str:
    """kubeconform on PATH, else the project-local one `make tools` installs (./bin)."""
    found = shutil.which("kubeconform") or next(
        (str(p) for p in (Path.cwd() / "bin" / "kubeconform",) if p.is_file() and os.access(p, os.X_OK)), None)
    if not found:
        raise KubeconformMissing(
            "kubeconform is not installed: install it with `go install "
            "github.com/yannh/kubeconform/cmd/kubeconform@v0.7.0` (or `make tools` in mpigen's repository) "
            "and put it on PATH")
    return found


def run(files: dict[str, bytes], binary: str) -> list[dict[str, Any]]:
    """kubeconform's invalid resources for the files (display name -> content)."""
    import tempfile

    schemas = str(schemas_folder())
    with tempfile.TemporaryDirectory(prefix="mpigen-kubeconform-") as tmp:
        names: dict[str, str] = {}
        for i, (name, content) in enumerate(files.items()):
            path = os.path.join(tmp, f"{i}.yaml")
            Path(path).write_bytes(content)
            names[path] = name
        cmd = [binary, "-strict", "-output", "json", "-ignore-missing-schemas",
               "-n", str(os.cpu_count() or 2), "-schema-location", os.path.join(schemas, TEMPLATE), *names]
        result = subprocess.run(cmd, capture_output=True, text=True, check=False)
        try:
            report = json.loads(result.stdout or "{}")
        except ValueError:
            raise KubeconformFailed(f"kubeconform failed: {result.stderr.strip() or result.stdout.strip()}") from None
        if result.returncode not in (0, 1):
            raise KubeconformFailed(f"kubeconform failed: {result.stderr.strip()}")
    out = []
    for resource in report.get("resources") or []:
        resource = dict(resource, filename=names.get(resource.get("filename", ""), resource.get("filename")))
        out.append(resource)
    return out


def _path(data: Any, pointer: str) -> tuple[str | int, ...]:
    parts: list[str | int] = []
    node = data
    for raw in pointer.split("/")[1:] if pointer else []:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, list) and part.isdigit():
            parts.append(int(part))
            node = node[int(part)] if int(part) < len(node) else None
        else:
            parts.append(part)
            node = node.get(part) if isinstance(node, dict) else None
    return tuple(parts)


def diagnostics(resources_: list[dict[str, Any]], documents: dict[str, list[Document]]) -> list[Diagnostic]:
    """kubeconform's findings as Diagnostics, located through the documents of each file."""
    out: list[Diagnostic] = []
    for resource in resources_:
        if resource.get("status") not in ("statusInvalid", "statusError"):
            continue
        filename = resource["filename"]
        doc, prefix = _find(documents.get(filename, []), resource.get("kind"), resource.get("name"))
        errors = resource.get("validationErrors") or [{"path": "", "msg": resource.get("msg", "")}]
        for error in errors:
            message = error.get("msg", "")
            if _NULL.match(message):
                continue  # the API server drops nulls; kubeconform does not
            path: tuple[str | int, ...] = ()
            line = col = None
            if doc is not None:
                target = doc.data
                for part in prefix:
                    target = target[part]
                path = prefix + _path(target, error.get("path", ""))
                extra = _EXTRA.match(message)
                if extra:  # point at the unknown key itself, where mpigen's own finding stands
                    path += (extra[1],)
                line, col = doc.locate(path, key=bool(extra))
            out.append(Diagnostic(filename, line, col, format_path(path), "kubeconform", Severity.ERROR,
                                  f"kubeconform: {message.strip()}"))
    return out


def _find(documents: list[Document], kind: Any, name: Any) -> tuple[Document | None, tuple]:
    for doc in documents:
        data = doc.data
        candidates = [((), data)]
        if isinstance(data, dict) and isinstance(data.get("items"), list):
            candidates += [(("items", i), item) for i, item in enumerate(data["items"])]
        for prefix, obj in candidates:
            meta = obj.get("metadata") if isinstance(obj, dict) else None
            if isinstance(obj, dict) and obj.get("kind") == kind and isinstance(meta, dict) and meta.get("name") == name:
                return doc, prefix
    return None, ()
