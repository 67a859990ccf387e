"""The project's mpigen configuration: ``.mpigen.yaml``, or ``[tool.mpigen]`` in pyproject.toml.

Looked up from the working directory upwards (stopping at the repository root). Keys:

```yaml
disable: [clean-pod-policy-none]   # lint codes switched off for every run
exclude: ["charts/*/templates"]    # what `mpigen validate` leaves out of the folders it reads (globs)
specs: ["specs/*.yaml"]            # what `mpigen check` rebuilds when given no SPEC
output: deploy/training            # where `mpigen build -o` / `mpigen check` keep the trees
gang: volcano                      # the operator's --gang-scheduling (else inferred per manifest)
schedulerName: scheduler-plugins-scheduler
operatorVersion: v0.8.2
cluster: cluster/priorityclasses.yaml
apply: server-side                 # how the manifests reach the cluster: server-side or client-side
```

``apply: server-side`` says the repository is applied server-side (``kubectl apply --server-side``,
a GitOps tool's server-side apply): what only client-side ``kubectl apply`` forgives (an unknown
field whose value is null) is then an error, not a warning.

One object can switch rules off for itself with the annotation
``mpigen.dev/disable: "code-a,code-b"`` (or ``all``) on its metadata.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pathlib only where a file is looked for
    from pathlib import Path

CONFIG_FILE = ".mpigen.yaml"
DISABLE_ANNOTATION = "mpigen.dev/disable"
_KEYS = {"disable", "exclude", "specs", "output", "gang", "schedulerName", "operatorVersion", "cluster", "apply"}
APPLY_MODES = ("server-side", "client-side")


class ConfigError(Exception):
    """The configuration file cannot be used (a usage error, exit 2)."""


@dataclass(frozen=True, slots=True)
class Config:
    path: Path | None = None  # the file it came from
    disable: frozenset[str] = frozenset()
    specs: tuple[str, ...] = ()
    output: str | None = None
    gang: str | None = None
    scheduler_name: str | None = None
    operator_version: str | None = None
    cluster: str | None = None
    apply: str | None = None  # server-side, client-side; None: not said
    exclude: tuple[str, ...] = ()  # globs of files validate leaves out

    @property
    def server_side(self) -> bool:
        """The repository is applied server-side (``apply: server-side``)."""
        return self.apply == "server-side"

    @property
    def root(self) -> Path:
        """Relative paths in the configuration are relative to its folder."""
        from pathlib import Path

        return self.path.parent if self.path else Path.cwd()


def _from_mapping(data: Any, path: Path) -> Config:
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of settings")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ConfigError(f"{path}: unknown setting(s) {', '.join(unknown)}; known: {', '.join(sorted(_KEYS))}")

    def strings(key: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{path}: {key} must be a list of strings")
        return tuple(value)

    def string(key: str) -> str | None:
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise ConfigError(f"{path}: {key} must be a string")
        return value

    gang = string("gang")
    if gang not in (None, "volcano", "scheduler-plugins", "none"):
        raise ConfigError(f"{path}: gang must be volcano, scheduler-plugins or none")
    apply = string("apply")
    if apply not in (None, *APPLY_MODES):
        raise ConfigError(f"{path}: apply must be server-side or client-side (how the manifests reach the cluster)")
    return Config(path, frozenset(strings("disable")), strings("specs"), string("output"), gang,
                  string("schedulerName"), string("operatorVersion"), string("cluster"), apply, strings("exclude"))


def find_config(start: Path | None = None) -> Path | None:
    """The nearest .mpigen.yaml, or pyproject.toml with [tool.mpigen], from ``start`` upwards.

    Walked with :mod:`os.path`: ``mpigen build`` reads the configuration too, and pathlib (which
    imports urllib) is imported only when a configuration is found."""
    import os

    here = os.path.realpath(start if start is not None else os.getcwd())
    while True:
        found = os.path.join(here, CONFIG_FILE)
        if not os.path.isfile(found):
            found = os.path.join(here, "pyproject.toml")
            if not os.path.isfile(found) or "[tool.mpigen]" not in _text(found):
                found = ""
        if found:
            from pathlib import Path

            return Path(found)
        parent = os.path.dirname(here)
        if os.path.exists(os.path.join(here, ".git")) or parent == here:
            return None
        here = parent


def _text(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as file:
        return file.read()


def load_config(path: Path | None = None, start: Path | None = None) -> Config:
    """The configuration in ``path``, or the one :func:`find_config` finds, or the defaults."""
    path = path or find_config(start)
    if path is None:
        return Config()
    try:
        text = path.read_text("utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if path.name == "pyproject.toml":
        import tomllib

        try:
            data = tomllib.loads(text).get("tool", {}).get("mpigen", {})
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: {exc}") from None
        return _from_mapping(data, path)
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    return _from_mapping(data, path)


def disabled_by_annotation(obj: Any) -> frozenset[str]:
    """Codes an object switches off for itself (``mpigen.dev/disable: "a,b"``; ``all`` for every rule)."""
    meta = obj.get("metadata") if isinstance(obj, dict) else None
    annotations = meta.get("annotations") if isinstance(meta, dict) else None
    value = annotations.get(DISABLE_ANNOTATION) if isinstance(annotations, dict) else None
    if not isinstance(value, str):
        return frozenset()
    return frozenset(code.strip() for code in value.split(",") if code.strip())
