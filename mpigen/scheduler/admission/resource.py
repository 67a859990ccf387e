"""Volcano's resource arithmetic, ported from Volcano v1.15.1 ``pkg/scheduler/api/resource_info.go``
(``Resource``, ``NewResource``, ``LessEqualWithDimensionAndResourcesName``, ``MinDimensionResource``,
``Diff``, ``ExceededPart``) and ``pkg/scheduler/api/helpers/helpers.go`` (``Max``, ``Share``).

Volcano holds amounts as float64: cpu in millicores, memory in bytes, ``pods`` as a count, and
every other scalar resource (``nvidia.com/gpu``, ``ephemeral-storage``, hugepages...) in
thousandths (``MilliValue``). Python's floats are the same IEEE doubles, and the operations are
done in the same order, so the comparisons (and the ``overcommit-factor`` multiplication) come out
as Volcano's. A :class:`Resource` is mutable and its methods change it in place and return it, as
the Go methods on ``*Resource`` do.
"""

from __future__ import annotations

import sys
from typing import Iterable, Mapping

from ...operator.quantity import Quantity
from ..nodes import bytes_shown

CPU, MEMORY, PODS, EPHEMERAL_STORAGE = "cpu", "memory", "pods", "ephemeral-storage"
MIN_RESOURCE = 0.1  # minResource: amounts below it count as none
MAX_FLOAT = sys.float_info.max  # math.MaxFloat64: "not limited" in a capability
UNLIMITED_SCALAR = float(2**63 - 1)  # math.MaxInt64: a scalar of the capacity plugin's unlimited root queue

ZERO, INFINITY = 0, -1  # DimensionDefaultValue: a dimension one side lacks counts as 0, or as unlimited


def is_scalar_resource_name(name: str) -> bool:
    """``v1helper.IsScalarResourceName``: an extended resource (a name with a domain), a hugepages
    or attachable-volumes resource, or one prefixed ``kubernetes.io/``."""
    return "/" in name or name.startswith(("hugepages-", "attachable-volumes-"))


class Resource:
    """``api.Resource``: cpu, memory and the scalar resources (None until one is set, as Go's nil map)."""

    __slots__ = ("milli_cpu", "memory", "scalars")

    def __init__(self, milli_cpu: float = 0.0, memory: float = 0.0, scalars: dict[str, float] | None = None):
        self.milli_cpu = float(milli_cpu)
        self.memory = float(memory)
        self.scalars = scalars

    @classmethod
    def of(cls, resources: Mapping[str, Quantity] | None) -> Resource:
        """``NewResource`` of a resource list (quotas ``count/*`` and names that are no resource of
        the scheduler's are left out)."""
        r = cls()
        for name, quantity in (resources or {}).items():
            if name == CPU:
                r.milli_cpu += quantity.milli_value()
            elif name == MEMORY:
                r.memory += quantity.value()
            elif name == PODS:
                r.add_scalar(name, quantity.value())
            elif name == EPHEMERAL_STORAGE:
                r.add_scalar(name, quantity.milli_value())
            elif not name.startswith("count/") and is_scalar_resource_name(name):
                r.add_scalar(name, quantity.milli_value())
        return r

    def clone(self) -> Resource:
        return Resource(self.milli_cpu, self.memory, None if self.scalars is None else dict(self.scalars))

    def get(self, name: str) -> float:
        if name == CPU:
            return self.milli_cpu
        if name == MEMORY:
            return self.memory
        return (self.scalars or {}).get(name, 0.0)

    def add_scalar(self, name: str, value: float) -> None:
        if self.scalars is None:
            self.scalars = {}
        self.scalars[name] = self.scalars.get(name, 0.0) + value

    def names(self) -> list[str]:
        """``ResourceNames``: the resources of at least :data:`MIN_RESOURCE`."""
        out = [CPU] * (self.milli_cpu >= MIN_RESOURCE) + [MEMORY] * (self.memory >= MIN_RESOURCE)
        return out + [name for name, value in (self.scalars or {}).items() if value >= MIN_RESOURCE]

    def is_empty(self) -> bool:
        """``IsEmpty``: nothing of at least :data:`MIN_RESOURCE` but ``pods``."""
        if not (self.milli_cpu < MIN_RESOURCE and self.memory < MIN_RESOURCE):
            return False
        return all(value < MIN_RESOURCE for name, value in (self.scalars or {}).items() if name != PODS)

    def add(self, other: Resource) -> Resource:
        self.milli_cpu += other.milli_cpu
        self.memory += other.memory
        for name, value in (other.scalars or {}).items():
            self.add_scalar(name, value)
        return self

    def sub(self, other: Resource) -> Resource:
        """``sub`` (``Sub`` without its assertion): a scalar only this side has is not created."""
        self.milli_cpu -= other.milli_cpu
        self.memory -= other.memory
        if self.scalars is None:
            return self
        for name, value in (other.scalars or {}).items():
            self.scalars[name] = self.scalars.get(name, 0.0) - value
        return self

    def multi(self, ratio: float) -> Resource:
        self.milli_cpu *= ratio
        self.memory *= ratio
        if self.scalars is not None:
            for name in self.scalars:
                self.scalars[name] *= ratio
        return self

    def less_equal(self, other: Resource, default: int) -> bool:
        """``LessEqual``: every dimension at most ``other``'s (within :data:`MIN_RESOURCE`)."""
        def le(left: float, right: float) -> bool:
            return left < right or abs(left - right) < MIN_RESOURCE

        if not le(self.milli_cpu, other.milli_cpu) or not le(self.memory, other.memory):
            return False
        mine, theirs = self.scalars or {}, other.scalars or {}
        if default == INFINITY and any(name not in mine for name in theirs):
            return False
        for name, left in mine.items():
            if name not in theirs and default == INFINITY:
                continue
            if not le(left, theirs.get(name, 0.0)):
                return False
        return True

    def fits_in(self, limit: Resource | None, req: Resource | None) -> tuple[bool, list[str]]:
        """``LessEqualWithDimensionAndResourcesName``: only the resources ``req`` asks for (more
        than 0; ``pods`` never) are compared; returns the ones over ``limit``."""
        if limit is None:
            return False, self.names()
        if req is None:
            raise ValueError("fits_in needs the request whose dimensions are compared")
        over = [CPU] * (req.milli_cpu > 0 and self.milli_cpu > limit.milli_cpu)
        over += [MEMORY] * (req.memory > 0 and self.memory > limit.memory)
        if self.scalars is None:
            return not over, over
        for name, value in (req.scalars or {}).items():
            if name != PODS and value > 0 and self.scalars.get(name, 0.0) > (limit.scalars or {}).get(name, 0.0):
                over.append(name)
        return not over, over

    def min_dimension(self, other: Resource, default: int) -> Resource:
        """``MinDimensionResource``: each dimension lowered to ``other``'s; a scalar ``other``
        lacks is kept (``INFINITY``) or set to 0 (``ZERO``)."""
        self.milli_cpu = min(self.milli_cpu, other.milli_cpu)
        self.memory = min(self.memory, other.memory)
        if self.scalars is None:
            return self
        for name, value in self.scalars.items():
            if other.scalars is not None and name in other.scalars:
                self.scalars[name] = min(value, other.scalars[name])
            elif default == ZERO:
                self.scalars[name] = 0.0
        return self

    def diff(self, other: Resource, default: int) -> tuple[Resource, Resource]:
        """``Diff``: (what this has more of, what ``other`` has more of), dimension by dimension."""
        left, right = self.clone(), other.clone()
        left.scalars, right.scalars = left.scalars or {}, right.scalars or {}
        for name in list(left.scalars):
            right.scalars.setdefault(name, float(default))
        for name in list(right.scalars):
            left.scalars.setdefault(name, float(default))
        increased, decreased = Resource(scalars={}), Resource(scalars={})
        if left.milli_cpu > right.milli_cpu:
            increased.milli_cpu = left.milli_cpu - right.milli_cpu
        else:
            decreased.milli_cpu = right.milli_cpu - left.milli_cpu
        if left.memory > right.memory:
            increased.memory = left.memory - right.memory
        else:
            decreased.memory = right.memory - left.memory
        for name, lvalue in left.scalars.items():
            rvalue = right.scalars.get(name, 0.0)
            if lvalue == INFINITY:
                increased.scalars[name] = lvalue
            elif rvalue == INFINITY:
                decreased.scalars[name] = rvalue
            elif lvalue > rvalue:
                increased.scalars[name] = lvalue - rvalue
            else:
                decreased.scalars[name] = rvalue - lvalue
        return increased, decreased

    def same(self, other: Resource) -> bool:
        """``equality.Semantic.DeepEqual`` of two resources (which takes a nil map for an empty one)."""
        return (self.milli_cpu, self.memory, self.scalars or {}) == (other.milli_cpu, other.memory, other.scalars or {})

    def __repr__(self) -> str:
        return f"Resource(cpu={self.milli_cpu}, memory={self.memory}, scalars={self.scalars})"


def exceeded_part(left: Resource | None, right: Resource | None) -> Resource:
    """``ExceededPart``: what ``left`` has beyond ``right``."""
    if right is None:
        return left if left is not None else Resource()
    if left is None:
        return Resource()
    return left.diff(right, ZERO)[0]


def maximum(left: Resource, right: Resource) -> Resource:
    """``helpers.Max``: the larger of each dimension (negative scalars left out)."""
    out = Resource(max(left.milli_cpu, right.milli_cpu), max(left.memory, right.memory))
    if left.scalars is None and right.scalars is None:
        return out
    out.scalars = {name: value for name, value in (left.scalars or {}).items() if value >= 0}
    for name, value in (right.scalars or {}).items():
        if value >= 0:
            out.scalars[name] = max(value, out.scalars.get(name, 0.0))
    return out


def share(used: float, deserved: float) -> float:
    """``helpers.Share``."""
    if deserved == 0:
        return 0.0 if used == 0 else 1.0
    return used / deserved


def total(resources: Iterable[Resource]) -> Resource:
    out = Resource()
    for r in resources:
        out.add(r)
    return out


def shown(name: str, value: float) -> str:
    """An amount of a :class:`Resource` as the quantity a user writes (``16``, ``500m``, ``64Gi``);
    a fractional one (a total multiplied by the ``overcommit-factor``) with six significant digits,
    memory as :func:`~mpigen.scheduler.nodes.bytes_shown` writes it."""
    if value >= MAX_FLOAT or value >= UNLIMITED_SCALAR:
        return "unlimited"
    if name == MEMORY:
        return bytes_shown(value)
    if value != int(value):
        return f"{value / (1 if name == PODS else 1000):.6g}"
    units = int(value)
    if name == PODS:
        return str(units)
    if name != CPU and units % 1000:  # a fraction of a device: 46.08 reads better than 46080m
        return f"{units / 1000:g}"
    return str(Quantity(units, -3, "BinarySI" if name == EPHEMERAL_STORAGE and units % (1000 << 20) == 0
                        else "DecimalSI"))
