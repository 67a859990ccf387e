"""Stage 1, load: the loader's result types - a document's data with the position of every key
and value, and a file's documents with the problems found reading it.

Kept apart from the YAML reader (:mod:`mpigen.load.yaml_loader`) so that the stages that only
read positions do not depend on the reader.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..diagnostics import Diagnostic

Path = tuple[str | int, ...]
Position = tuple[int, int]  # 1-based line and column


class Document:
    """One YAML document of a file, with where each of its values and keys stands.

    ``plain`` holds the text of every unquoted scalar that YAML read as a boolean, number or
    null: ``on``, ``no``, ``1.10`` or ``12:30`` where a string is meant. A YAML 1.1 reader
    (PyYAML, and Kubernetes' own) turns them into true, false, 1.1 and 750; messages quote the
    original. It also holds an unquoted ``y``, ``Y``, ``n`` or ``N``, which PyYAML keeps as a
    string and kubectl's reader (go-yaml v2) takes for a boolean (``kubectl_reads``). (Not a dataclass: its positions are computed from the YAML nodes when first
    asked for, see ``locator``; it compares, prints and pickles with them as a dataclass would.)

    A document read as JSON (:mod:`mpigen.load.json_reader`) computes ``plain`` when first asked
    too (``plain_of``), and finds the position of one path in its text (``finder``) without
    computing every position.
    """

    __slots__ = ("data", "index", "line", "_positions", "_key_positions", "_plain", "has_nulls", "_locator",
                 "_plain_of", "_finder")
    _FIELDS = ("data", "index", "line", "positions", "key_positions", "plain", "has_nulls")

    def __init__(self, data: Any, index: int, line: int, positions: dict[Path, Position] | None = None,
                 key_positions: dict[Path, Position] | None = None, plain: dict[Path, str] | None = None,
                 has_nulls: bool = True, locator: Callable[[], tuple[dict, dict]] | None = None,
                 plain_of: Callable[[], dict[Path, str]] | None = None,
                 finder: Callable[[Path, bool], Position] | None = None):
        self.data = data
        self.index = index
        self.line = line
        self._positions = {} if positions is None and locator is None else positions
        self._key_positions = {} if key_positions is None and locator is None else key_positions
        self._plain = {} if plain is None and plain_of is None else plain
        self._plain_of = plain_of
        self.has_nulls = has_nulls
        """False when no value of ``data`` is null (the loader knows; True when not known)."""
        self._locator = locator
        """Computes (positions, key_positions) when first asked: most documents never are, and
        recording every position while reading was a tenth of validating a clean file."""
        self._finder = finder
        """Where one path stands (:meth:`locate`), without computing the others."""

    def settle(self) -> None:
        """Compute the positions now, letting the nodes they come from go: for a document kept
        for long, whose nodes would otherwise take more memory than its data. (A document read as
        JSON has no nodes: it finds its positions in its text when asked.)"""
        if self._locator is not None and self._finder is None:
            self._located()

    @property
    def plain(self) -> dict[Path, str]:
        """The text of each unquoted scalar read as a boolean, number or null (see above)."""
        if self._plain is None:
            self._plain = self._plain_of()  # type: ignore[misc]
            self._plain_of = None
        return self._plain

    def _located(self) -> None:
        self._positions, self._key_positions = self._locator()  # type: ignore[misc]
        self._locator = None

    @property
    def positions(self) -> dict[Path, Position]:
        """Where each value stands, by JSON path."""
        if self._positions is None:
            self._located()
        return self._positions  # type: ignore[return-value]

    @property
    def key_positions(self) -> dict[Path, Position]:
        """Where each mapping key stands, by the JSON path of its value."""
        if self._key_positions is None:
            self._located()
        return self._key_positions  # type: ignore[return-value]

    def __reduce__(self) -> tuple:  # pickled (by validation workers) with its positions, not its nodes
        return Document, self._fields()

    def _fields(self) -> tuple:
        return (self.data, self.index, self.line, self.positions, self.key_positions, self.plain, self.has_nulls)

    def __eq__(self, other: object) -> bool:
        return other.__class__ is self.__class__ and self._fields() == other._fields()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return ("Document(" + ", ".join(f"{name}={value!r}" for name, value in zip(self._FIELDS, self._fields()))
                + ")")

    def locate(self, path: Path, key: bool = False) -> Position:
        """Where ``path`` stands; the nearest existing ancestor when it does not exist."""
        path = tuple(path)
        if self._finder is not None and self._positions is None:
            return self._finder(path, key)
        while True:
            if key and path in self.key_positions:
                return self.key_positions[path]
            if path in self.positions:
                return self.positions[path]
            if not path:
                return (self.line, 1)
            path = path[:-1]


@dataclass(slots=True)
class LoadResult:
    """The documents of a file and the problems found reading it."""

    documents: list[Document]
    diagnostics: list[Diagnostic]



def is_list(data: Any) -> bool:
    """A list of objects: ``kind: List`` (what ``kubectl get -o yaml`` prints) or a typed list
    (``MPIJobList``...), with its ``items``."""
    return isinstance(data, dict) and isinstance(data.get("kind"), str) and data["kind"].endswith("List") \
        and isinstance(data.get("items"), list)


def objects(data: Any) -> list[tuple[Path, Any]]:
    """The objects of one YAML document, each with its path in the document: the ``items`` of a
    list (:func:`is_list`), else the document itself. The one way every command (validate,
    explain, podgroup, migrate) finds the jobs of a file."""
    if is_list(data):
        return [(("items", i), item) for i, item in enumerate(data["items"])]
    return [((), data)]
