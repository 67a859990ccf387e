"""The one YAML emitter: deterministic, safely quoted, byte-identical on every run and machine.

Objects are built as plain dicts whose insertion order is the order we want to read them in
(the builders put ``apiVersion``, ``kind``, ``metadata``, ``spec`` first and sort user maps), so the
emitter keeps insertion order. A string is quoted whenever a YAML 1.1 *or* YAML 1.2 reader could
take it for something else (``no``, ``on``, ``1.10``, ``0o17``, ``1e3``, ``~``...), so the text means
the same to PyYAML, Go's yaml readers and kubectl alike.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

import yaml

try:
    _Dumper = yaml.CSafeDumper
except AttributeError:  # pragma: no cover
    _Dumper = yaml.SafeDumper

# Plain scalars that a YAML 1.2 core-schema or 1.1 reader would not read as a string.
_AMBIGUOUS = re.compile(
    r"""^(?:
        ~|null|Null|NULL|
        [yY]|yes|Yes|YES|[nN]|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|
        [-+]?(?:0|[1-9][0-9_]*)|[-+]?0[0-9_]+|[-+]?0[oO][0-7_]+|[-+]?0[xX][0-9a-fA-F_]+|[-+]?0[bB][01_]+|
        [-+]?(?:[0-9][0-9_]*)?\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+|
        [-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|
        [-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?|
        [0-9]{4}-[0-9]{1,2}-[0-9]{1,2}.*|
        <<|=
    )$""",
    re.VERBOSE,
)


class _Emitter(_Dumper):  # type: ignore[misc, valid-type]
    def ignore_aliases(self, data: Any) -> bool:  # never emit anchors: every value is written out
        return True


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = None
    if "\n" in value and "\r" not in value and not value.endswith((" ", "\t")):
        style = "|"
    elif value == "" or _AMBIGUOUS.match(value):
        style = '"'
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Emitter.add_representer(str, _represent_str)


def dump(obj: Any) -> str:
    """One object as YAML text."""
    return yaml.dump(obj, Dumper=_Emitter, sort_keys=False, default_flow_style=False,
                     allow_unicode=True, width=1_000_000, indent=2, explicit_start=False)


def dump_all(objs: Iterable[Any]) -> str:
    """Several objects as a multi-document stream, each document introduced by ``---``."""
    return yaml.dump_all(list(objs), Dumper=_Emitter, sort_keys=False, default_flow_style=False,
                         allow_unicode=True, width=1_000_000, indent=2, explicit_start=True)
