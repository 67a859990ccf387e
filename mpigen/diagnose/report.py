"""A diagnosis as text for people or as JSON for tools.

Text: the answer on the first line, then the causes (``OBJECT: SEVERITY CODE message``, the
catalogue's diagnostics), the evidence (``OBJECT: what it says``) and what could not be read.
JSON: ``{"job", "phase", "answer", "causes": [{"code", "message"}], "evidence": [{"object",
"message"}], "unread": [message]}``.
"""

from __future__ import annotations

import json
from typing import Any

from ..diagnostics import one_line
from .judge import Diagnosis


def text_report(diagnosis: Diagnosis, unread: list[str]) -> str:
    lines = [one_line(diagnosis.answer), f"job {diagnosis.job}"]
    if diagnosis.causes:
        lines.append("causes:")
        lines += [f"  {cause.format()}" for cause in diagnosis.causes]
    lines.append("evidence:")
    lines += [f"  {one_line(fact.source)}: {one_line(fact.text)}" for fact in diagnosis.evidence]
    if unread:
        lines.append("not read (the answer is made without it):")
        lines += [f"  {one_line(message)}" for message in unread]
    return "\n".join(lines) + "\n"


def json_report(diagnosis: Diagnosis, unread: list[str], kind: str, name: str, namespace: str,
                context: str) -> str:
    data: dict[str, Any] = {
        "job": {"kind": kind, "name": name, "namespace": namespace, "context": context},
        "phase": diagnosis.phase,
        "answer": diagnosis.answer,
        "causes": [{"code": c.code, "message": c.message} for c in diagnosis.causes],
        "evidence": [{"object": f.source, "message": f.text} for f in diagnosis.evidence],
        "unread": unread,
    }
    return json.dumps(data, indent=2) + "\n"
