"""docs/errors.md lists every diagnostic code mpigen can print, and only those.

The codes are found in the source, not in a list someone keeps: an AST walk over ``mpigen/``
collects every string constant that reaches a :class:`~mpigen.diagnostics.Diagnostic` as its
``code``:

- calls of ``Diagnostic(...)`` (the dataclass: its ``code`` field) and of any function or class
  of mpigen with a parameter named ``code`` (``_diag``, ``_Problem``, ``emit``, ``report``,
  ``located``...), positionally or as ``code=`` (a constant, or either branch of a conditional
  expression), and such parameters' string defaults;
- finding tuples ``(path, "code", Severity.X, message)`` of the spec rules and the gang stage;
- the ``CODE`` of every lint rule module.

Each code must have a row in docs/errors.md, whose severity column names every severity the
source gives it; each lint rule's row links to its section of docs/rules.md. And docs/errors.md
must not list a code that no longer exists.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "mpigen"
CATALOGUE = ROOT / "docs" / "errors.md"
RULES_DOC = ROOT / "docs" / "rules.md"
SEVERITIES = ("error", "warning", "info")


def _modules() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text("utf-8"), str(path)) for path in sorted(SOURCE.rglob("*.py"))}


def _callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _severity(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Severity":
        return node.attr.lower()
    return None


Signature = tuple[int, int | None, str | None]  # positions of code and severity, severity's default


def _signatures(tree: ast.Module) -> dict[str, Signature | None]:
    """Every function and class a module defines -> where its ``code`` and ``severity`` parameters
    stand (None: it takes no code)."""
    found: dict[str, Signature | None] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            fields = [s.target.id for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
            init = next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
            if init is not None:
                found[node.name] = _function_signature(init, skip_self=True)
            elif "code" in fields:  # a dataclass such as Diagnostic
                found[node.name] = (fields.index("code"), fields.index("severity") if "severity" in fields else None,
                                    None)
            else:
                found.setdefault(node.name, None)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name != "__init__":
            found[node.name] = _function_signature(node)
    return found


def _function_signature(node: ast.FunctionDef | ast.AsyncFunctionDef, skip_self: bool = False) -> Signature | None:
    args = node.args.posonlyargs + node.args.args
    names = [a.arg for a in args][1 if skip_self else 0:]
    if "code" not in names:
        return None
    defaults = dict(zip([a.arg for a in args[len(args) - len(node.args.defaults):]], node.args.defaults))
    return (names.index("code"), names.index("severity") if "severity" in names else None,
            _severity(defaults.get("severity")))


def _imports(path: Path, tree: ast.Module, local: dict[Path, dict[str, Signature | None]]
             ) -> dict[str, Signature | None]:
    """Names a module imports from another module of mpigen -> that module's definition of them
    (two modules may each define a helper of the same name with different parameters)."""
    out: dict[str, Signature | None] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.level == 0:
            continue
        base = path.parent
        for _ in range(node.level - 1):
            base = base.parent
        target = base.joinpath(*(node.module or "").split(".")) if node.module else base
        source = target.with_suffix(".py") if target.with_suffix(".py") in local else target / "__init__.py"
        for alias in node.names:
            if source in local and alias.name in local[source]:
                out[alias.asname or alias.name] = local[source][alias.name]
    return out


def _constant(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _constants(node: ast.AST | None) -> list[str]:
    """The string constants an argument can evaluate to: ``"a"``, ``"a" if x else "b"``, ``x or "a"``."""
    if isinstance(node, ast.IfExp):
        return _constants(node.body) + _constants(node.orelse)
    if isinstance(node, ast.BoolOp):
        return [c for value in node.values for c in _constants(value)]
    constant = _constant(node)
    return [constant] if constant is not None else []


def source_codes() -> dict[str, set[str]]:
    """Every code mpigen can print -> the severities the source gives it (empty when it cannot tell)."""
    modules = _modules()
    local = {path: _signatures(tree) for path, tree in modules.items()}
    shared: dict[str, Signature] = {}  # what other modules import: the definitions that take a code
    for signatures in local.values():
        shared.update({name: sig for name, sig in signatures.items() if sig is not None})
    imported = {path: _imports(path, tree, local) for path, tree in modules.items()}
    codes: dict[str, set[str]] = {}

    def add(code: str | None, severity: str | None) -> None:
        if code is not None:
            codes.setdefault(code, set())
            if severity:
                codes[code].add(severity)

    for path, tree in modules.items():
        for node in ast.walk(tree):
            name = _callee(node) if isinstance(node, ast.Call) else None
            if name in local[path]:
                signature = local[path][name]
            elif name in imported[path]:  # the definition of the module it is imported from
                signature = imported[path][name]
            else:
                signature = shared.get(name)  # type: ignore[arg-type]
            if isinstance(node, ast.Call) and signature is not None:
                at, sev_at, sev_default = signature
                keywords = {k.arg: k.value for k in node.keywords}
                code = keywords.get("code", node.args[at] if len(node.args) > at else None)
                severity = keywords.get("severity", node.args[sev_at] if sev_at is not None and len(node.args) > sev_at
                                        else None)
                for constant in _constants(code):
                    add(constant, _severity(severity) or (sev_default if severity is None else None))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = node.args.args
                defaults = dict(zip([a.arg for a in args[len(args) - len(node.args.defaults):]], node.args.defaults))
                defaults.update({a.arg: d for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults) if d})
                if "code" in defaults:
                    add(_constant(defaults["code"]), _severity(defaults.get("severity")))
            elif isinstance(node, ast.Tuple):
                for first, second in zip(node.elts, node.elts[1:]):
                    if _constant(first) is not None and _severity(second) is not None:
                        add(_constant(first), _severity(second))
        if path.parent.name == "rules" and path.parent.parent.name == "lint":
            assigned = {t.id: s.value for s in tree.body if isinstance(s, ast.Assign)
                        for t in s.targets if isinstance(t, ast.Name)}
            if "CODE" in assigned:
                add(_constant(assigned["CODE"]), _severity(assigned.get("SEVERITY")))
    return codes


def lint_codes() -> dict[str, str]:
    from mpigen.lint.base import load_rules

    return {rule.code: rule.severity.value for rule in load_rules()}


ROW = re.compile(r"^\|\s*(?:\[)?`(?P<code>[a-z0-9]+(?:-[a-z0-9]+)*)`(?:\]\((?P<link>[^)]*)\))?\s*\|(?P<rest>.*)\|\s*$")


def catalogue() -> dict[str, dict[str, str]]:
    """docs/errors.md's rows: code -> {"severity": ..., "link": ..., "row": ...} (first column a code)."""
    rows: dict[str, dict[str, str]] = {}
    for line in CATALOGUE.read_text("utf-8").splitlines():
        match = ROW.match(line)
        if not match:
            continue
        cells = [c.strip() for c in match["rest"].split("|")]
        assert match["code"] not in rows, f"docs/errors.md lists {match['code']} twice"
        rows[match["code"]] = {"severity": cells[0], "link": match["link"] or "", "row": line}
    return rows


def test_the_source_scan_finds_codes_of_every_kind() -> None:
    codes = source_codes()
    # one of each way a code reaches a Diagnostic, so that a broken scan cannot pass vacuously
    for code in ("yaml-syntax", "yaml-duplicate-key",  # _diag(...)
                 "yaml-recursive-alias",  # _Problem(...)
                 "yaml-encoding", "not-a-spec", "kubeconform",  # Diagnostic(...)
                 "unknown-field", "quantity",  # emit(..., code=...)
                 "schema",  # emit's default
                 "hostname", "priority-order",  # finding tuples
                 "mpijob-invalid", "no-schema",  # located(...)
                 "zero-replicas", "istio-sidecar"):  # lint rule CODE
        assert code in codes, code
    assert len(codes) >= 50, sorted(codes)


def test_every_code_is_in_the_catalogue() -> None:
    listed = catalogue()
    missing = sorted(set(source_codes()) - set(listed))
    assert not missing, f"docs/errors.md has no row for {missing}: add what each means and how to fix it"


def test_the_catalogue_lists_no_code_that_does_not_exist() -> None:
    stale = sorted(set(catalogue()) - set(source_codes()))
    assert not stale, f"docs/errors.md lists {stale}, which mpigen no longer prints"


def test_severities_match_the_source() -> None:
    listed = catalogue()
    for code, severities in sorted(source_codes().items()):
        written = set(re.findall(r"\b(error|warning|info)\b", listed[code]["severity"]))
        assert written, f"{code}: no severity in its row"
        assert severities <= written, f"{code}: the source gives it {sorted(severities)}, docs/errors.md {sorted(written)}"


def test_rows_say_what_it_means_how_to_fix_it_and_give_an_example() -> None:
    for code, row in catalogue().items():
        cells = [c.strip() for c in row["row"].strip().strip("|").split("|")]
        assert len(cells) >= 4 and all(cells), f"{code}: a row needs code | severity | meaning and fix | example"
        if code not in lint_codes():
            assert re.search(r"\*\*Fix\*\*|Fix:", row["row"]), f"{code}: say how to fix it"
        assert "`" in cells[-1], f"{code}: the example message goes in backticks in the last column"


def test_lint_rules_link_to_their_section_of_rules_md() -> None:
    listed = catalogue()
    headings = set(re.findall(r"^## `([a-z0-9-]+)`$", RULES_DOC.read_text("utf-8"), re.M))
    for code, severity in lint_codes().items():
        assert listed[code]["link"] == f"rules.md#{code}", f"{code}: link to rules.md#{code}"
        assert code in headings, f"docs/rules.md has no section for {code}"
        assert severity in listed[code]["severity"], f"{code} is a {severity}"


@pytest.mark.parametrize("code", ["yaml-syntax", "unknown-field", "zero-replicas"])
def test_catalogue_rows_are_findable_by_anchor(code: str) -> None:
    text = CATALOGUE.read_text("utf-8")
    assert f"`{code}`" in text
