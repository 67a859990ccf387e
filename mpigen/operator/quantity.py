"""An exact Python port of Kubernetes apimachinery ``resource.Quantity``.

Ported from k8s.io/apimachinery tag v0.33.13, ``pkg/api/resource``
(quantity.go, amount.go, math.go, scale_int.go, suffix.go); the resource
package is unchanged up to v0.36.3 apart from generated code and comments.

A value is kept as an exact ``unscaled * 10**exponent`` pair of Python ints
(never a float), trailing zeros stripped. Go keeps either an ``int64Amount``
or an ``inf.Dec``; where its int64 fast path would overflow it falls back to
``inf.Dec``, whose exact answer is what this port always computes.

Checked against the Go package itself: all strings of up to 4 characters
over ``018.+-eEinumkKMGTPx `` and random inputs give the same error text,
``String()``, ``CanonicalizeBytes``, Format and exact value, as do random
Add/Sub/Mul/Neg/Cmp/UnmarshalJSON calls.

Go behaviour that is reproduced on purpose:

* ``ParseQuantity`` rounds non-zero values away from zero to 1n precision,
  caps **BinarySI only** at 2**63-1 (``"9Ei"``; ``"12E"`` is not capped) and
  turns BinarySI values in (-1, 1) into DecimalSI. No-digit inputs such as
  ``"+"``, ``"."``, ``"k"`` or ``"e5"`` parse as 0 (Go's fast path), except
  where Go takes the ``inf.Dec`` path (``".Pi"``, ``"e-20"``: ErrNumeric).
  ``e``/``E`` exponents are parsed as int64 and truncated to int32 as Go does
  (``"1e4294967296"`` is 1).
* ``String()`` caches the input string when the int64 fast path judges it
  canonical, so ``str()`` of a freshly parsed ``"+1"``, ``"01"``, ``"1.500"``,
  ``"1.001m"``, ``"1E3"``, ``"1e0"`` or ``"1.Ki"`` is that very string. Any
  arithmetic clears the cache; ``canonical()`` is always ``CanonicalizeBytes``.
* A canonical exponent with no suffix loses its suffix: DecimalSI ``"1000E"``
  (1e21) prints ``"1"``, and a BinarySI 2**70 (``1Ei`` * 1024) prints ``"1"``.
* ``add``/``sub`` keep the receiver's format, but a zero receiver takes the
  other operand's format; ``mul``/``neg`` keep the format.

Deliberate differences (all outside what Go computes correctly):

* ``value()``/``milli_value()`` round away from zero, as documented and as
  Go's int64Amount path does. For a negative value Go holds as ``inf.Dec``
  (over 18 digits, finer than 1n, fractional BinarySI, Pi/Ei), Go's
  ``scaledValue`` truncates then adds 1 or wraps: ``"-0.0001Ki"`` gives 1 and
  -101 (here -1 and -103), ``"-769938Gi"`` gives -5350079543. Go also
  overflows int64 silently (``"1000E"`` gives 0) where this port returns the
  exact int, raising OverflowError only past 10**4300 (``"1e5000"``).
* ``mul`` takes any Python int, not just an int64.
* Go's further int32 wrap-around of the scale (exponents within a few digits
  of +-2**31) is not reproduced; such values stay exact here.
* ``parse_json`` rejects Python floats: a JSON number must be passed as text.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = [
    "BINARY_SI", "DECIMAL_EXPONENT", "DECIMAL_SI", "ERR_FORMAT_WRONG", "ERR_NUMERIC",
    "ERR_SUFFIX", "MAX_ALLOWED", "Quantity", "QuantityError",
]

BINARY_SI = "BinarySI"
DECIMAL_SI = "DecimalSI"
DECIMAL_EXPONENT = "DecimalExponent"

_SPLIT_RE_STRING = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$"
ERR_FORMAT_WRONG = f"quantities must match the regular expression '{_SPLIT_RE_STRING}'"
ERR_NUMERIC = "unable to parse numeric part of quantity"
ERR_SUFFIX = "unable to parse quantity's suffix"

MAX_ALLOWED = (1 << 63) - 1  # math.go maxAllowed: the BinarySI parse cap
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1
_NANO = -9
_MAX_SHIFT = 4300  # value()/milli_value() refuse to build 10**shift past this

# parseQuantityString as one pattern: sign, leading zeros, integer digits,
# optional "." and fraction digits, then suffix letters, sign and digits.
_SCAN = re.compile(r"([+-]?)(0*)([0-9]*)(\.[0-9]*)?([eEinumkKMGTP]*[+-]?[0-9]*)")
_EXPONENT = re.compile(r"[+-]?[0-9]+")  # what strconv.ParseInt(s, 10, 64) accepts

# suffix.go: suffix -> (base, exponent) and back.
_DEC_SUFFIXES = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9,
                 "T": 12, "P": 15, "E": 18}
_BIN_SUFFIXES = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_DEC_BY_EXP = {e: s for s, e in _DEC_SUFFIXES.items()}
_BIN_BY_EXP = {e: s for s, e in _BIN_SUFFIXES.items()}

# Go's strings.TrimSpace set (unicode.IsSpace); Python's str.strip() would
# also remove U+001C..U+001F.
_GO_SPACE = ("\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
             "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


class QuantityError(ValueError):
    """A string that ParseQuantity rejects; the message is Go's error text."""


def _dint(digits: str) -> int:
    """int() of ASCII digits, even past sys.get_int_max_str_digits()."""
    try:
        return int(digits)
    except ValueError:
        half = len(digits) // 2
        return _dint(digits[:half]) * 10 ** (len(digits) - half) + _dint(digits[half:])


def _dstr(n: int) -> str:
    """str() of an int >= 0, even past sys.get_int_max_str_digits()."""
    try:
        return str(n)
    except ValueError:
        k = n.bit_length() * 3 // 20  # about half the decimal digits
        high, low = divmod(n, 10 ** k)
        return _dstr(high) + _dstr(low).zfill(k)


def _int32(n: int) -> int:
    return (n + (1 << 31)) % (1 << 32) - (1 << 31)


def _ceil_shift(u: int, k: int) -> int:
    """u / 10**k (k > 0) rounded away from zero, without building 10**k when
    it is known to exceed |u| (then the answer is +-1 or 0)."""
    if u == 0:
        return 0
    sign, mag = (1, u) if u > 0 else (-1, -u)
    if k >= mag.bit_length():  # |u| < 2**bits <= 10**k
        return sign
    q, r = divmod(mag, 10 ** k)
    return sign * (q + (r != 0))


def _cmp_pairs(u1: int, e1: int, u2: int, e2: int) -> int:
    """Compare u1*10**e1 with u2*10**e2 exactly, cheaply for far exponents."""
    s1, s2 = (u1 > 0) - (u1 < 0), (u2 > 0) - (u2 < 0)
    if s1 != s2 or s1 == 0:
        return (s1 > s2) - (s1 < s2)
    # |x| >= 10**e when x != 0 and |x| < 2**bits * 10**e <= 10**(bits + e)
    if e1 >= e2 + abs(u2).bit_length():
        return s1
    if e2 >= e1 + abs(u1).bit_length():
        return -s1
    m = min(e1, e2)
    a, b = u1 * 10 ** (e1 - m), u2 * 10 ** (e2 - m)
    return (a > b) - (a < b)


def _interpret(suffix: str) -> tuple[int, int, str]:
    """suffixHandler.interpret: (base, exponent, format) or ErrSuffix."""
    if suffix in _DEC_SUFFIXES:
        return 10, _DEC_SUFFIXES[suffix], DECIMAL_SI
    if suffix in _BIN_SUFFIXES:
        return 2, _BIN_SUFFIXES[suffix], BINARY_SI
    if len(suffix) > 1 and suffix[0] in "eE" and _EXPONENT.fullmatch(suffix[1:]):
        parsed = int(suffix[1:])
        if _INT64_MIN <= parsed <= _INT64_MAX:
            return 10, _int32(parsed), DECIMAL_EXPONENT
    raise QuantityError(ERR_SUFFIX)


class Quantity:
    """An immutable, exact Kubernetes quantity: ``unscaled * 10**exponent``.

    ``Quantity(unscaled, exponent, format)`` builds one directly, like Go's
    ``NewDecimalQuantity`` (no rounding, no cap); ``Quantity.parse`` is
    ``ParseQuantity``. Equality, ordering and hashing are by value only.
    """

    __slots__ = ("_u", "_e", "format", "_s")

    def __init__(self, unscaled: int = 0, exponent: int = 0, format: str = DECIMAL_SI):
        if isinstance(unscaled, bool) or not isinstance(unscaled, int) \
                or isinstance(exponent, bool) or not isinstance(exponent, int):
            raise TypeError("Quantity(unscaled, exponent) takes two ints")
        if not isinstance(format, str):
            raise TypeError("format must be a str")
        if unscaled == 0:
            exponent = 0
        elif unscaled % 10 == 0:  # strip trailing zeros, in C, not a loop per zero
            digits = _dstr(abs(unscaled))
            kept = digits.rstrip("0")
            exponent += len(digits) - len(kept)
            unscaled = _dint(kept) if unscaled > 0 else -_dint(kept)
        set_ = object.__setattr__
        set_(self, "_u", unscaled)
        set_(self, "_e", exponent)
        set_(self, "format", format)
        set_(self, "_s", None)  # Go's cached String() value

    def __setattr__(self, name, value):
        raise AttributeError("Quantity is immutable")

    def __delattr__(self, name):
        raise AttributeError("Quantity is immutable")

    def __reduce__(self):
        return (_restore, (self._u, self._e, self.format, self._s))

    @classmethod
    def _cached(cls, u: int, e: int, fmt: str, s: str | None) -> Quantity:
        q = cls(u, e, fmt)
        object.__setattr__(q, "_s", s)
        return q

    # ------------------------------------------------------------ parsing

    @classmethod
    def parse(cls, value: str | int) -> Quantity:
        """``resource.ParseQuantity``; an int is parsed as ``str(value)``.

        Surrounding whitespace is an error, as in Go (see ``parse_json``). Quantities are
        immutable, so the same text parses once (manifests repeat the same few quantities).
        """
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise QuantityError(
                f"quantity must be a string or an integer, not {type(value).__name__}")
        return _parse_text(value if isinstance(value, str) else str(value))

    @classmethod
    def _parse(cls, text: str) -> Quantity:
        if not text:
            raise QuantityError(ERR_FORMAT_WRONG)
        if text == "0":
            return cls._cached(0, 0, DECIMAL_SI, "0")
        m = _SCAN.fullmatch(text)
        if m is None:
            raise QuantityError(ERR_FORMAT_WRONG)
        sign, zeros, num, dot, suffix = m.groups()
        denom = dot[1:] if dot else ""
        has_digits = bool(zeros or num or denom)
        num = num or "0"
        base, exponent, fmt = _interpret(suffix)
        shifted = num + denom

        # Go's int64 fast path: taking it decides whether the input string is
        # kept as the String() value; the value itself is the same either way.
        fast, canonical = _fast_path(num, denom, shifted, exponent, fmt)
        if not fast and not has_digits:
            raise QuantityError(ERR_NUMERIC)  # inf.Dec.SetString("", "+", ".", ...)

        mag = _dint(shifted)
        scale = (exponent if base == 10 else 0) - len(denom)
        if base == 2:
            mag <<= exponent
        if mag and scale < _NANO:  # round up to nano precision (away from zero)
            mag, scale = _ceil_shift(mag, _NANO - scale), _NANO
        if fmt == BINARY_SI:
            if _cmp_pairs(mag, scale, MAX_ALLOWED, 0) > 0:
                mag, scale = MAX_ALLOWED, 0
            if mag and _cmp_pairs(mag, scale, 1, 0) < 0:
                fmt = DECIMAL_SI
        u = mag if sign != "-" else -mag
        return cls._cached(u, scale, fmt, text if fast and canonical else None)

    @classmethod
    def parse_json(cls, value: str | bytes | int | None) -> Quantity:
        """``Quantity.UnmarshalJSON`` on the raw JSON text of a value.

        JSON whitespace around the token is ignored, as ``encoding/json``
        does; ``null`` (or None) gives a zero Quantity with an empty format;
        one pair of surrounding double quotes is removed, then Go's
        ``strings.TrimSpace``, then ``parse``. JSON numbers are accepted as
        their text (or as a Python int); Python floats are rejected.
        """
        if isinstance(value, bytes):
            value = value.decode("utf-8", "surrogateescape")
        if isinstance(value, str):
            value = value.strip(" \t\n\r")  # insignificant JSON whitespace
        if value is None or value == "null":
            return cls(0, 0, "")
        if isinstance(value, str):
            if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
                value = value[1:-1]
            value = value.strip(_GO_SPACE)
        return cls.parse(value)

    # ------------------------------------------------------------ arithmetic

    def _combine(self, other: Quantity, negate: bool) -> Quantity:
        if not isinstance(other, Quantity):
            raise TypeError(f"expected a Quantity, got {type(other).__name__}")
        fmt = other.format if self._u == 0 else self.format
        m = min(self._e, other._e)
        theirs = other._u * 10 ** (other._e - m)
        return Quantity(self._u * 10 ** (self._e - m) + (-theirs if negate else theirs), m, fmt)

    def add(self, other: Quantity) -> Quantity:
        """``q.Add(y)`` on a copy: a zero receiver takes ``other``'s format."""
        return self._combine(other, False)

    def sub(self, other: Quantity) -> Quantity:
        """``q.Sub(y)`` on a copy: a zero receiver takes ``other``'s format."""
        return self._combine(other, True)

    def mul(self, n: int) -> Quantity:
        """``q.Mul(n)`` on a copy; the format is kept. One big-int product."""
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"Quantity.mul takes an int, got {type(n).__name__}")
        return Quantity(self._u * n, self._e, self.format)

    def neg(self) -> Quantity:
        """``q.Neg()`` on a copy; the format is kept."""
        return Quantity(-self._u, self._e, self.format)

    # ------------------------------------------------------------ comparison

    def cmp(self, other: Quantity) -> int:
        """``q.Cmp(y)``: -1, 0 or 1 by value."""
        if not isinstance(other, Quantity):
            raise TypeError(f"expected a Quantity, got {type(other).__name__}")
        return _cmp_pairs(self._u, self._e, other._u, other._e)

    def is_zero(self) -> bool:
        return self._u == 0

    def sign(self) -> int:
        return (self._u > 0) - (self._u < 0)

    def __eq__(self, other):
        if not isinstance(other, Quantity):
            return NotImplemented
        return self._u == other._u and self._e == other._e  # both normalized

    def __lt__(self, other):
        return self.cmp(other) < 0 if isinstance(other, Quantity) else NotImplemented

    def __le__(self, other):
        return self.cmp(other) <= 0 if isinstance(other, Quantity) else NotImplemented

    def __gt__(self, other):
        return self.cmp(other) > 0 if isinstance(other, Quantity) else NotImplemented

    def __ge__(self, other):
        return self.cmp(other) >= 0 if isinstance(other, Quantity) else NotImplemented

    def __hash__(self):
        return hash((self._u, self._e))

    # ------------------------------------------------------------ conversions

    def as_fraction(self) -> Fraction:
        """The exact value."""
        from fractions import Fraction  # imported here only: it is slow to import

        if self._e >= 0:
            return Fraction(self._u * 10 ** self._e)
        return Fraction(self._u, 10 ** -self._e)

    def _scaled_value(self, scale: int) -> int:
        """``ScaledValue``: ceil(|q| / 10**scale) with q's sign, exact."""
        shift = self._e - scale
        if shift > _MAX_SHIFT:  # e.g. "1e2147483647": Go overflows, we refuse
            raise OverflowError(f"quantity {self} is too large for an integer value")
        if shift >= 0:
            return self._u * 10 ** shift
        return _ceil_shift(self._u, -shift)

    def value(self) -> int:
        """``Value()``: the value rounded away from zero to an integer."""
        return self._scaled_value(0)

    def milli_value(self) -> int:
        """``MilliValue()``: the value in thousandths, rounded away from zero."""
        return self._scaled_value(-3)

    # ------------------------------------------------------------ formatting

    def canonical(self) -> str:
        """``CanonicalizeBytes``: the canonical form, ignoring any cached string."""
        if self._u == 0:
            return "0"
        fmt = self.format
        if fmt == BINARY_SI:
            if _cmp_pairs(abs(self._u), self._e, 1024, 0) < 0 or self._e < 0:
                fmt = DECIMAL_SI  # |q| < 1024, or not an integer (AsScale(0) inexact)
        elif fmt != DECIMAL_SI:
            fmt = DECIMAL_EXPONENT  # Go's default for an unknown format
        sign = "-" if self._u < 0 else ""
        mag = abs(self._u)
        if fmt == BINARY_SI:  # an integer: strip factors of 1024 from its bits
            whole = mag * 10 ** self._e
            times = ((whole & -whole).bit_length() - 1) // 10
            return f"{sign}{_dstr(whole >> (10 * times))}{_BIN_BY_EXP.get(10 * times, '')}"
        exponent = self._e
        pad = exponent % 3  # lower the exponent to a multiple of 3
        digits, exponent = _dstr(mag) + "0" * pad, exponent - pad
        if fmt == DECIMAL_SI:
            suffix = _DEC_BY_EXP.get(exponent, "")  # Go's missing suffix is ""
        else:
            suffix = f"e{exponent}" if exponent else ""
        return f"{sign}{digits}{suffix}"

    def __str__(self) -> str:
        """``q.String()``: the cached parse input if any, else ``canonical()``."""
        return self._s if self._s is not None else self.canonical()

    def __repr__(self) -> str:
        return f"Quantity({self._u}, {self._e}, {self.format!r})"


def _restore(u: int, e: int, fmt: str, s: str | None) -> Quantity:
    return Quantity._cached(u, e, fmt, s)


@functools.lru_cache(maxsize=4096)
def _parse_text(text: str) -> Quantity:
    return Quantity._parse(text)


def _fast_path(num: str, denom: str, shifted: str, exponent: int, fmt: str) -> tuple[bool, bool]:
    """Whether ParseQuantity takes its int64 path, and whether it then keeps the input as String()."""
    if fmt == BINARY_SI:
        if not denom and 15 - len(num) - exponent * 3 // 10 - 1 >= 0:
            return _dint(shifted) << exponent <= _INT64_MAX, _dint(shifted) & 7 != 0  # exponent % 10 == 0
        return False, False
    if 18 - len(shifted) >= 0 and exponent - len(denom) >= _NANO:
        canonical = (exponent - len(denom)) % 3 == 0 and not shifted.endswith("000") and shifted[0] != "0"
        return True, canonical
    return False, False


def go_stores_as_decimal(text: str) -> bool:
    """Whether Go's ParseQuantity keeps ``text`` in an arbitrary-precision inf.Dec (not an int64):
    ``1.5Gi``, ``0.5Ki``, more than 18 digits, finer than 1n. Such a Quantity's copies share it,
    which matters to code that mutates a copy (see the ``decimal-quantity-multiplied`` lint)."""
    m = _SCAN.fullmatch(text)
    if m is None or text == "0":
        return False
    sign, zeros, num, dot, suffix = m.groups()
    denom = dot[1:] if dot else ""
    try:
        _, exponent, fmt = _interpret(suffix)
    except QuantityError:
        return False
    num = num or "0"
    return not _fast_path(num, denom, num + denom, exponent, fmt)[0]
