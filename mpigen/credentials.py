"""What looks like a credential written in plain text (shared by the spec checks and the lint rule)."""

from __future__ import annotations

import re

SECRET_NAME = re.compile(r"(^|_)(PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)(_|$)")
POINTER = re.compile(r"_(FILE|PATH|DIR|NAME|ID|URL|URI|ENDPOINT|HOST|PORT|REF|MOUNT|LOCATION)$")
REFERENCES = re.compile(r"(\$\([A-Za-z_][A-Za-z0-9_.-]*\)\s*)+")


def looks_like_credential(name: str, value: object) -> bool:
    """A literal, non-empty value under a name that says it holds a secret (``GIT_SYNC_PASSWORD``),
    not one that points at a secret (``*_FILE``, ``*_PATH``...) nor a ``$(VAR)`` reference."""
    if not isinstance(value, str) or not value.strip():
        return False
    upper = name.upper()
    return bool(SECRET_NAME.search(upper)) and not POINTER.search(upper) and not REFERENCES.fullmatch(value)
