"""What looks like a credential written in plain text (shared by the spec checks and the lint rule)."""

from __future__ import annotations

import re

SECRET_NAME = re.compile(r"(^|_)(PASSWORD|PASSWD|SECRET|TOKEN|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)(_|$)")
POINTER = re.compile(r"_(FILE|PATH|DIR|NAME|ID|URL|URI|ENDPOINT|HOST|PORT|REF|MOUNT|LOCATION)$")
REFERENCES = re.compile(r"(\$\([A-Za-z_][A-Za-z0-9_.-]*\)\s*)+")
FILE_PATH = re.compile(r"/[^\s/]+(/[^\s/]+)*/?")
"""An absolute path: ``GOOGLE_APPLICATION_CREDENTIALS: /etc/secrets/user-gcp-sa.json`` names the
mounted file that holds the credential (as a ``*_FILE`` variable does), not the credential."""


def looks_like_credential(name: str, value: object) -> bool:
    """A literal, non-empty value under a name that says it holds a secret (``GIT_SYNC_PASSWORD``),
    not one that points at a secret (a name ``*_FILE``, ``*_PATH``..., or a value that is a file's
    absolute path, such as ``GOOGLE_APPLICATION_CREDENTIALS``'s) nor a ``$(VAR)`` reference."""
    if not isinstance(value, str) or not value.strip():
        return False
    upper = name.upper()
    return (bool(SECRET_NAME.search(upper)) and not POINTER.search(upper) and not REFERENCES.fullmatch(value)
            and not _file_path(value))


def _file_path(value: str) -> bool:
    """An absolute path of at least two parts, or of one with a file extension (``/token`` alone
    could be a secret that starts with a slash)."""
    return bool(FILE_PATH.fullmatch(value)) and (value.count("/") > 1 or "." in value)
