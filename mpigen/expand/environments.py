"""Environments: a spec's ``environments.<name>`` is a partial spec merged over the base.

Merge rules (those of a JSON merge patch, RFC 7386): mappings merge key by key, lists and
scalars replace, and ``null`` removes the key. Nothing is mutated; the base is shared where
the override does not reach.
"""

from __future__ import annotations

from typing import Any

Path = tuple[str | int, ...]


def merge(base: Any, override: Any) -> Any:
    """``override`` applied to ``base`` as a JSON merge patch."""
    if not isinstance(override, dict):
        return override
    result = dict(base) if isinstance(base, dict) else {}
    for key, value in override.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge(result.get(key), value)
    return result


def environment_names(spec: dict[str, Any]) -> list[str]:
    envs = spec.get("environments")
    return sorted(envs) if isinstance(envs, dict) else []


def spec_for(spec: dict[str, Any], env: str | None) -> dict[str, Any]:
    """The effective spec of one environment (``None``: the base), without ``environments``."""
    base = {k: v for k, v in spec.items() if k != "environments"}
    if env is None:
        return base
    override = spec.get("environments", {}).get(env)
    return merge(base, override if isinstance(override, dict) else {})


def origin(path: Path, spec: dict[str, Any], env: str | None) -> Path:
    """Where in the spec document the value at ``path`` of an environment's spec was written.

    ``path`` is relative to ``spec``; the result is too (``environments.<env>...`` when the
    environment set it).
    """
    if env is None:
        return path
    node: Any = spec.get("environments", {}).get(env)
    base: Any = spec
    for i, part in enumerate(path):
        if isinstance(node, dict) and part in node:
            node = node[part]
            base = base.get(part) if isinstance(base, dict) else None
            if not isinstance(node, dict) or not isinstance(base, dict):
                return ("environments", env) + tuple(path)  # the environment wrote this whole value
            continue
        return path
    return path if base is not None else ("environments", env) + tuple(path)
