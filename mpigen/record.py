"""Small value classes without :mod:`dataclasses`.

``import dataclasses`` brings in :mod:`inspect` (and with it ``ast``, ``dis`` and ``tokenize``),
and every ``@dataclass`` writes and compiles its methods when its module is imported: together a
tenth of a cold ``mpigen build``. The types on that path derive from :class:`Record` instead: their
``__slots__`` name the fields, in order, and equality, ordering, hashing and ``repr`` follow them
as a dataclass's would (``eq=True``, ``order=True``; hashable only when declared ``frozen``).
"""

from __future__ import annotations


class Record:
    """Fields are ``__slots__``; a subclass writes its own ``__init__``, which takes them in that
    order (pickling and ``copy`` rebuild a record by calling it with its fields)."""

    __slots__ = ()

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def _ordered(self, other: object) -> tuple | None:
        return other._values() if other.__class__ is self.__class__ else None  # type: ignore[attr-defined]

    def __lt__(self, other: object) -> bool:
        theirs = self._ordered(other)
        return NotImplemented if theirs is None else self._values() < theirs

    def __le__(self, other: object) -> bool:
        theirs = self._ordered(other)
        return NotImplemented if theirs is None else self._values() <= theirs

    def __gt__(self, other: object) -> bool:
        theirs = self._ordered(other)
        return NotImplemented if theirs is None else self._values() > theirs

    def __ge__(self, other: object) -> bool:
        theirs = self._ordered(other)
        return NotImplemented if theirs is None else self._values() >= theirs

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple:
        return self.__class__, self._values()

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{self.__class__.__qualname__}({fields})"


class FrozenRecord(Record):
    """A :class:`Record` whose fields cannot be assigned after ``__init__`` (which sets them
    with ``object.__setattr__``), and which is hashable by its fields."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a frozen {self.__class__.__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a frozen {self.__class__.__name__}")

    def __hash__(self) -> int:
        return hash(self._values())
