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


PATCH = "podTemplatePatch"
PATCH_PLACES = "$podTemplatePatches"
"""The key of an effective spec (:func:`spec_for`) that lists its pod template patches (:func:`patch_places`)."""

PatchPlace = tuple[Path, dict[str, Any], "str | None"]


def spec_for(spec: dict[str, Any], env: str | None) -> dict[str, Any]:
    """The effective spec of one environment (``None``: the base), without ``environments``.

    Pod template patches do not merge: an environment's ``podTemplatePatch`` (job-wide or a
    role's) applies after the base's, as a patch (merged as data, its ``null`` would delete a key of
    the base's patch rather than the pods' field). The effective spec's ``podTemplatePatch`` fields
    are the base's; every patch is listed, in the order they apply, under :data:`PATCH_PLACES`."""
    base = {k: v for k, v in spec.items() if k != "environments"}
    override = spec.get("environments", {}).get(env) if env is not None else None
    effective = merge(base, _without_patches(override)) if isinstance(override, dict) else base
    places = patch_places(spec, env)
    return {**effective, PATCH_PLACES: places} if places else effective


def patch_places(spec: dict[str, Any], env: str | None = None) -> list[PatchPlace]:
    """Every pod template patch of the spec, with the base's or an environment's: (where in the
    document, the patch, the role it is for: None for every role), in the order they apply: the
    base's job-wide one, then each role's, then the environment's alike (an environment is an
    overlay: its patches apply after the base's)."""
    places = _places(spec, ("spec",))
    override = spec.get("environments", {}).get(env) if env is not None and isinstance(spec.get("environments"),
                                                                                        dict) else None
    if isinstance(override, dict):
        places += _places(override, ("spec", "environments", env))
    return places


def placed_patches(spec: dict[str, Any]) -> list[PatchPlace]:
    """The patches of an effective spec (:func:`spec_for`), or of a spec as written."""
    places = spec.get(PATCH_PLACES)
    return patch_places(spec) if places is None else places


def _places(settings: dict[str, Any], where: Path) -> list[PatchPlace]:
    out: list[PatchPlace] = []
    if isinstance(settings.get(PATCH), dict) and settings[PATCH]:
        out.append((where + (PATCH,), settings[PATCH], None))
    roles = settings.get("roles")
    for role, own in (roles.items() if isinstance(roles, dict) else ()):
        if isinstance(own, dict) and isinstance(own.get(PATCH), dict) and own[PATCH]:
            out.append((where + ("roles", role, PATCH), own[PATCH], role))
    return out


def _without_patches(override: dict[str, Any]) -> dict[str, Any]:
    """An environment's override without its pod template patches (they apply as patches)."""
    out = {k: v for k, v in override.items() if k != PATCH}
    if isinstance(out.get("roles"), dict):
        out["roles"] = {role: {k: v for k, v in own.items() if k != PATCH} if isinstance(own, dict) else own
                        for role, own in out["roles"].items()}
    return out


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
