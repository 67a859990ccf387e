"""Does a gang fit the nodes? The all-or-nothing question Volcano's gang plugin and
scheduler-plugins' Coscheduling ask: minMember pods of the PodGroup bound at once, or none.

The pods come in roles (launcher, worker, master...): a count and one pod's shape
(:class:`~mpigen.scheduler.nodes.PodShape`), since the pods of a role differ only by index.
Nothing here loops over replicas: how many pods of a role a node can hold is computed
arithmetically, the minimum over the requested resources (and ``pods``) of
``floor(free / request)``, so a role of 10,000 pods costs what one of 2 does.

Three outcomes:

* **cannot fit**, only with a proof the user can check from the Nodes: a role for which no node
  passes the filters (a nodeSelector nothing matches, a taint nobody tolerates, cordoned nodes);
  the room the nodes have for each role, added up, below what the gang needs ("5 workers need
  8 nvidia.com/gpu each; each of the 4 nodes can hold at most 1 (8 nvidia.com/gpu allocatable):
  room for 4 of 5"); or a resource the gang asks more of than the nodes have in all.
* **fits**, with a placement found by first-fit, largest pods first (a witness, not the
  scheduler's own choice).
* **may not fit**: no bound proves it impossible, but first-fit found no placement; or the
  pods carry constraints not evaluated here (pod affinity, topology spread, DRA claims).

When minMember is below the job's pod count, any minMember pods make the gang: the bounds hold for
every choice of pods, and the placement is tried for the smallest pods.

The nodes are taken at their ``status.allocatable``, less the requests of the Pods the cluster
file binds to them (when it holds Pods): what other workloads use is otherwise unknown. The words
name where the Nodes were read (:class:`Origin`): the cluster file, or a live cluster's context.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from ..diagnostics import Diagnostic, Severity
from .nodes import PODS, Node, PodShape, Rejection, amount, counted, ports_conflict, rejection, shown

FITS, CANNOT_FIT, MAY_NOT_FIT = "fits", "cannot fit", "may not fit"
SHOWN_GROUPS = 5  # node groups named in one sentence; the rest are counted


@dataclass(frozen=True)
class Role:
    """``count`` pods of one shape (one replica type of the job)."""

    name: str  # launcher, worker, master, ps, chief, evaluator
    count: int
    shape: PodShape


@dataclass(frozen=True)
class Origin:
    """Where the Nodes (and Pods) of a verdict were read, as its words say it."""

    context: str | None = None  # a live cluster's kubeconfig context; None: the cluster file
    pods_listed: bool = False  # live: the Pods could be listed (none bound then means none)

    @property
    def name(self) -> str:
        return "the cluster file" if self.context is None else f"the cluster of context {self.context}"

    def nodes(self, count: int) -> str:
        nodes = f"{count} node{'s' if count != 1 else ''}"
        return f"the cluster file's {nodes}" if self.context is None else f"the {nodes} of context {self.context}"

    @property
    def no_pods(self) -> str:
        """What stands for the Pods when none is bound to the nodes."""
        if self.context is None:
            return "the Pods on them are not in the file"
        return "no Pod is bound to them" if self.pods_listed else "the Pods on them could not be listed"


FILE = Origin()


@dataclass(frozen=True)
class Verdict:
    outcome: str  # FITS, CANNOT_FIT, MAY_NOT_FIT
    reasons: tuple[str, ...]  # the proofs; for FITS the placement; for MAY_NOT_FIT why
    members: int  # minMember
    nodes: int
    bound_pods: int  # Pods of the cluster whose requests were taken off the nodes
    origin: Origin = FILE

    @property
    def basis(self) -> str:
        """What the nodes' room was computed from."""
        if self.bound_pods:
            return f"allocatable less the requests of the {self.bound_pods} Pod(s) bound to them"
        return f"allocatable; {self.origin.no_pods}"

    @property
    def where(self) -> str:
        return self.origin.nodes(self.nodes)

    def message(self) -> str:
        """One line, for a diagnostic."""
        return f"the gang {self.outcome} {self.where} ({self.basis}): " + "; and ".join(self.reasons)

    def diagnostic(self, file: str, line: int | None, column: int | None, path: str) -> Diagnostic | None:
        """``gang-cannot-fit`` (an error) or ``gang-may-not-fit`` (a warning); None when it fits."""
        if self.outcome == FITS:
            return None
        cannot = self.outcome == CANNOT_FIT
        return Diagnostic(file, line, column, path, "gang-cannot-fit" if cannot else "gang-may-not-fit",
                          Severity.ERROR if cannot else Severity.WARNING, self.message())


def plural(role: str, count: int) -> str:
    return role if count == 1 or role.endswith("s") else f"{role}s"


def _the(role: Role) -> str:
    return f"the {plural(role.name, role.count)}"


def _possessive(role: Role) -> str:
    words = _the(role)
    return words + ("'" if words.endswith("s") else "'s")


_NUMBERED = re.compile(r"^(.*?)(\d+)$")


def node_list(names: Sequence[str]) -> str:
    """Node names, runs of numbered names shortened (``node-0..node-3``), at most a few shown."""
    items: list[tuple[str, int]] = []  # (text, number of nodes)
    i = 0
    while i < len(names):
        j = i
        match = _NUMBERED.match(names[i])
        while match and j + 1 < len(names):
            nxt = _NUMBERED.match(names[j + 1])
            cur = _NUMBERED.match(names[j])
            if not (nxt and cur and nxt.group(1) == match.group(1) and int(nxt.group(2)) == int(cur.group(2)) + 1
                    and len(nxt.group(2)) == len(cur.group(2))):
                break
            j += 1
        if j - i >= 2:
            items.append((f"{names[i]}..{names[j]}", j - i + 1))
        else:
            items += [(names[k], 1) for k in range(i, j + 1)]
        i = j + 1
    if len(items) > SHOWN_GROUPS + 1:
        rest = sum(n for _, n in items[SHOWN_GROUPS:])
        return ", ".join(text for text, _ in items[:SHOWN_GROUPS]) + f" and {rest} more"
    return ", ".join(text for text, _ in items)


@dataclass
class _Room:
    """How many pods of one role a node could hold, and what limits it."""

    count: int
    why: str  # the limit or the rejection, as said of this node
    resource: str | None = None  # the resource that limits, if one does
    rejected: Rejection | None = None


class _Cluster:
    """The nodes' free amounts, in the scheduler's integers, for the resources the roles ask."""

    def __init__(self, nodes: Sequence[Node], names: set[str]) -> None:
        self.nodes = list(nodes)
        self.free = [{name: amount(name, node.allocatable[name]) if name in node.allocatable else 0 for name in names}
                     for node in nodes]
        for free, node in zip(self.free, nodes):
            for name in names:
                if name in node.requested:
                    free[name] -= amount(name, node.requested[name])
        self.free_pods = [(node.allocatable[PODS].value() if PODS in node.allocatable else 0) - node.pods
                          for node in nodes]

    def room(self, i: int, need: dict[str, int], ports: bool) -> tuple[int, str | None]:
        """(pods of ``need`` node ``i`` can take now, the resource that limits it)."""
        best, limit = None, None
        for name, value in need.items():
            count = max(self.free[i][name], 0) // value
            if best is None or count < best:
                best, limit = count, name
        pods = max(self.free_pods[i], 0)
        if best is None or pods < best:
            best, limit = pods, PODS
        if ports and best > 1:
            best, limit = 1, "hostPort"
        return best, limit

    def take(self, i: int, need: dict[str, int], count: int) -> None:
        for name, value in need.items():
            self.free[i][name] -= value * count
        self.free_pods[i] -= count


def _limit_text(node: Node, resource: str, shape: PodShape) -> str:
    if resource == "hostPort":
        ports = ", ".join(str(p) for p in sorted({port for _, _, port in shape.host_ports}))
        return f"one per node: host port {ports}"
    if resource not in node.allocatable:
        return f"no {resource} allocatable"
    text = f"{node.allocatable[resource]} {resource} allocatable"
    if resource == PODS:
        return text + (f", {node.pods} Pod(s) bound" if node.pods else "")
    requested = node.requested.get(resource)
    if requested is not None and amount(resource, requested):
        text += f", {requested} requested by its Pods"
    return text


def _rooms(role: Role, cluster: _Cluster) -> list[_Room]:
    need = role.shape.amounts()
    out = []
    for i, node in enumerate(cluster.nodes):
        refused = rejection(role.shape, node)
        if refused is not None:
            out.append(_Room(0, refused.text, rejected=refused))
            continue
        count, limit = cluster.room(i, need, bool(role.shape.host_ports))
        out.append(_Room(count, _limit_text(node, limit, role.shape), resource=limit))
    return out


def _no_node(role: Role, rooms: list[_Room], nodes: Sequence[Node], origin: Origin) -> str | None:
    """The sentence for a role every node refuses for the same reason, else None."""
    first = rooms[0].rejected
    if first is None or any(r.rejected != first for r in rooms):
        return None
    shape = role.shape
    if first.kind == "nodeSelector":
        selector = ", ".join(f"{k}={v}" for k, v in shape.node_selector.items())
        return f"no node matches {_possessive(role)} nodeSelector {selector}"
    if first.kind == "nodeAffinity":
        return f"no node matches {_possessive(role)} required nodeAffinity"
    if first.kind == "taint":
        taint = first.text.removeprefix("taint ").removesuffix(" not tolerated")
        who = "every node has" if len(nodes) > 1 else f"the only node, {nodes[0].name}, has"
        return f"{who} the taint {taint}, which {_the(role)} do{'es' if role.count == 1 else ''} not tolerate"
    if first.kind == "unschedulable":
        return ("every node is" if len(nodes) > 1 else f"the only node, {nodes[0].name}, is") + \
            " unschedulable (spec.unschedulable: cordoned)"
    return f"{_possessive(role)} spec.nodeName {shape.node_name} is not a node of {origin.name}"


def _short_of_room(role: Role, rooms: list[_Room], nodes: Sequence[Node], origin: Origin) -> str:
    """Why the nodes have room for fewer pods of ``role`` than it has."""
    room = sum(r.count for r in rooms)
    if room == 0 and (sentence := _no_node(role, rooms, nodes, origin)) is not None:
        return sentence
    groups: dict[tuple[int, str], list[int]] = {}
    for i, r in enumerate(rooms):
        groups.setdefault((r.count, r.why), []).append(i)
    limits = []
    for r in rooms:
        if r.resource and counted(r.resource) and r.resource not in limits:
            limits.append(r.resource)
    requests = role.shape.requests
    need = " and ".join(f"{requests[name]} {name}" for name in limits)
    many = role.count > 1
    head = f"{role.count} {plural(role.name, role.count)}"
    if need:
        head += f" need{'' if many else 's'} {need}{' each' if many else ''}"
    if len(groups) == 1:
        (count, why), = groups
        if count == 0:
            where = f"no node can hold one ({why})" if len(nodes) > 1 else f"the only node, {nodes[0].name}, " \
                                                                          f"cannot hold one ({why})"
        elif len(nodes) > 1:
            where = f"each of the {len(nodes)} nodes can hold at most {count} ({why})"
        else:
            where = f"the only node, {nodes[0].name}, can hold at most {count} ({why})"
    else:
        parts = []
        for (count, why), members in list(groups.items())[:SHOWN_GROUPS]:
            names = node_list([nodes[i].name for i in members])
            if count == 0:
                parts.append(f"{names}: none ({why})")
            else:
                parts.append(f"{names}: at most {count}{' each' if len(members) > 1 else ''} ({why})")
        if len(groups) > SHOWN_GROUPS:
            rest = [i for members in list(groups.values())[SHOWN_GROUPS:] for i in members]
            parts.append(f"{len(rest)} more node(s): at most {sum(rooms[i].count for i in rest)} in all")
        where = ", ".join(parts)
    return f"{head}; {where}: room for {room} of {role.count}"


def _cheapest(roles: Sequence[Role], key: str, members: int) -> int:
    """The least amount of ``key`` any ``members`` of the roles' pods ask."""
    total, left = 0, members
    for value, count in sorted((r.shape.amounts().get(key, 0) if key != PODS else 1, r.count) for r in roles):
        take = min(count, left)
        total += take * value
        left -= take
        if not left:
            break
    return total


def _totals(roles: Sequence[Role], members: int, everyone: int, cluster: _Cluster,
            usable: list[int]) -> list[str]:
    """A resource the gang asks more of than the nodes its pods may use have in all."""
    out = []
    names = [n for r in roles for n in r.shape.amounts()]
    at_least = "at least " if members < everyone else ""
    nodes = f"the {len(usable)} schedulable node{'s' if len(usable) != 1 else ''}"
    for name in [*dict.fromkeys(names), PODS]:
        asked = _cheapest(roles, name, members)
        if name == PODS:
            have = sum(max(cluster.free_pods[i], 0) for i in usable)
            if asked > have:
                out.append(f"the gang has {members} pods, {nodes} allow {have} more in all (pods allocatable"
                           + (", less the Pods bound to them)" if any(cluster.nodes[i].pods for i in usable) else ")"))
            continue
        have = sum(max(cluster.free[i][name], 0) for i in usable)
        if asked > have:
            like = next(r.shape.requests[name] for r in roles if name in r.shape.requests)
            node_like = next((cluster.nodes[i].allocatable[name] for i in usable
                              if name in cluster.nodes[i].allocatable), None)
            free = " free" if any(name in cluster.nodes[i].requested for i in usable) else ""
            out.append(f"the gang's {members} pods ask {at_least}{shown(name, asked, like)} {name}, {nodes} have "
                       f"{shown(name, have, node_like)}{free} in all")
    return out


def _size(role: Role, cluster: _Cluster) -> Fraction:
    """The largest share of the roomiest node one pod of ``role`` takes, over its resources."""
    shares = [Fraction(1, max(max(cluster.free_pods), 1))]
    for name, value in role.shape.amounts().items():
        shares.append(Fraction(value, max(max(free[name] for free in cluster.free), 1)))
    return max(shares)


def describe(roles: Sequence[Role], placed: dict[int, dict[int, int]], nodes: Sequence[Node]) -> str:
    """``node-0..node-3: 1 worker each; launcher on node-0``."""
    parts = []
    for r, role in enumerate(roles):
        where = placed.get(r) or {}
        if not where:
            continue
        by_count: dict[int, list[int]] = {}
        for i, count in where.items():
            by_count.setdefault(count, []).append(i)
        total = sum(where.values())
        partial = f" ({total} of {role.count})" if total < role.count else ""
        if len(where) == 1:
            (i, count), = where.items()
            parts.append((f"{role.name} on {nodes[i].name}" if count == 1
                          else f"{count} {plural(role.name, count)} on {nodes[i].name}") + partial)
            continue
        groups = []
        for count, members in list(by_count.items())[:SHOWN_GROUPS]:
            names = node_list([nodes[i].name for i in sorted(members)])
            groups.append(f"{names}: {count} {plural(role.name, count)}{' each' if len(members) > 1 else ''}")
        if len(by_count) > SHOWN_GROUPS:
            rest = [i for members in list(by_count.values())[SHOWN_GROUPS:] for i in members]
            groups.append(f"{len(rest)} more node(s): {sum(where[i] for i in rest)} {plural(role.name, 2)}")
        parts.append(", ".join(groups) + partial)
    return "; ".join(parts)


def gang_fit(roles: Sequence[Role], min_member: int, nodes: Sequence[Node], bound_pods: int = 0,
             origin: Origin = FILE) -> Verdict:
    """Whether ``min_member`` pods of ``roles`` can be bound to ``nodes`` (read from ``origin``) at once."""
    roles = [r for r in roles if r.count > 0]
    everyone = sum(r.count for r in roles)

    def verdict(outcome: str, *reasons: str) -> Verdict:
        return Verdict(outcome, tuple(reasons), min_member, len(nodes), bound_pods, origin)

    if min_member <= 0:
        return verdict(FITS, "minMember is 0: the gang waits for no pod")
    if min_member > everyone:
        return verdict(CANNOT_FIT, f"the PodGroup waits for {min_member} pods (minMember) and the operator creates "
                                   f"{everyone}")
    if not nodes:
        return verdict(CANNOT_FIT, f"{origin.name} has no Nodes")
    names = {n for r in roles for n in r.shape.amounts()}
    cluster = _Cluster(nodes, names)
    rooms = [_rooms(role, cluster) for role in roles]
    capacity = [sum(r.count for r in rr) for rr in rooms]
    placeable = sum(min(role.count, c) for role, c in zip(roles, capacity))
    if placeable < min_member:
        short = [_short_of_room(role, rr, nodes, origin)
                 for role, rr, c in zip(roles, rooms, capacity) if c < role.count]
        if min_member < everyone:
            short.insert(0, f"the gang needs {min_member} of the job's {everyone} pods (minMember) and at most "
                            f"{placeable} fit")
        return verdict(CANNOT_FIT, *short)
    usable = [i for i in range(len(nodes)) if any(rr[i].rejected is None for rr in rooms)]
    totals = _totals(roles, min_member, everyone, cluster, usable)
    if totals:
        return verdict(CANNOT_FIT, *totals)

    sizes = [_size(role, cluster) for role in roles]
    counts = [role.count for role in roles]
    if min_member < everyone:  # any min_member pods make the gang: the smallest are tried
        counts, left = [0] * len(roles), min_member
        for r in sorted(range(len(roles)), key=lambda r: sizes[r]):
            counts[r] = min(roles[r].count, left)
            left -= counts[r]
    placed: dict[int, dict[int, int]] = {}
    ported: list[list[int]] = [[] for _ in nodes]  # roles with host ports placed on each node
    for r in sorted(range(len(roles)), key=lambda r: -sizes[r]):
        role, need, left = roles[r], roles[r].shape.amounts(), counts[r]
        ports = role.shape.host_ports
        for i in range(len(nodes)):
            if not left:
                break
            if rooms[r][i].rejected is not None:
                continue
            if ports and any(ports_conflict(ports, roles[o].shape.host_ports) for o in ported[i]):
                continue
            take = min(cluster.room(i, need, bool(ports))[0], left)
            if take:
                cluster.take(i, need, take)
                placed.setdefault(r, {})[i] = take
                left -= take
                if ports:
                    ported[i].append(r)
        if left:
            so_far = describe(roles, placed, nodes)
            return verdict(MAY_NOT_FIT, f"placing the largest pods first ({so_far or 'nothing placed'}) leaves "
                                        f"{left} of {counts[r]} {plural(role.name, counts[r])} without a node; no "
                                        "simple bound proves that no placement exists")
    placement = describe(roles, placed, nodes)
    unmodeled = [f"{_possessive(role)} {', '.join(role.shape.unmodeled)}" for r, role in enumerate(roles)
                 if counts[r] and role.shape.unmodeled]
    if unmodeled:
        return verdict(MAY_NOT_FIT, f"mpigen does not evaluate {'; '.join(unmodeled)}; without that: {placement}")
    return verdict(FITS, placement)

