"""The rule catalogue: ``docs/rules.md``, generated from the rule modules' docstrings.

Regenerate it with ``python -m mpigen.lint.catalogue > docs/rules.md``; a test checks that the
file matches the rules.
"""

from __future__ import annotations

import re
from typing import Iterable

from ..config import CONFIG_FILE, DISABLE_ANNOTATION
from .base import Rule, load_rules


_LITERAL = re.compile(r"``(.+?)``")
_EMPHASIS = re.compile(r"(?<![\w*`])\*([A-Za-z][^*\n]*?)\*(?![\w*])")


def plain(text: str) -> str:
    """A rule's docstring text without its reStructuredText markup (``literal``, *emphasis*), for
    a terminal: the words as they are."""
    return _EMPHASIS.sub(r"\1", _LITERAL.sub(r"\1", text))


def render_text(rules: Iterable[Rule]) -> str:
    """``mpigen rules``: per rule its code, severity, kinds and title, then what goes wrong and the fix."""
    out = []
    for rule in rules:
        out += [f"{rule.code} ({rule.severity.value}; {', '.join(rule.kinds)}): {plain(rule.title)}",
                f"    {plain(rule.explanation)}",
                f"    Fix: {plain(rule.fix)}", ""]
    return "\n".join(out) + "\n"


def render_markdown(rules: Iterable[Rule]) -> str:
    """The catalogue: an index, then per rule its code, severity, kinds, title, explanation, fix,
    and the annotation and configuration that switch it off."""
    rules = list(rules)
    out = [
        "# Lint rules",
        "",
        "<!-- Generated from mpigen/lint/rules/*.py: run `python -m mpigen.lint.catalogue > docs/rules.md`. -->",
        "",
        "`mpigen validate` runs these rules on MPIJob (`kubeflow.org/v2beta1`), PyTorchJob and TFJob",
        "(`kubeflow.org/v1`) manifests; the `pod-*` rules, the API server's Pod validation, also on the",
        "pod template of an `apps/v1` Deployment; the `trainjob-*` and `trainer-*` rules on Kubeflow",
        "Trainer's TrainJob, TrainingRuntime and ClusterTrainingRuntime (`trainer.kubeflow.org/v1alpha1`).",
        "Each finding names its code; an error fails the run, a warning does not (unless `--strict`).",
        "",
        f"Switch a rule off for one object with the annotation `{DISABLE_ANNOTATION}` on its metadata",
        "(several codes separated by commas, or `all` for every rule), or for every run with `disable`",
        f"in `{CONFIG_FILE}` (or `[tool.mpigen]` in `pyproject.toml`).",
        "",
        "| Code | Severity | Kinds | Title |",
        "| --- | --- | --- | --- |",
    ]
    for rule in rules:
        out.append(f"| [`{rule.code}`](#{rule.code}) | {rule.severity.value} | {', '.join(rule.kinds)} "
                   f"| {rule.title.replace('|', '/')} |")
    for rule in rules:
        out += [
            "",
            f"## `{rule.code}`",
            "",
            f"**{rule.title}**",
            "",
            f"- Severity: {rule.severity.value}",
            f"- Kinds: {', '.join(rule.kinds)}",
            "",
            rule.explanation,
            "",
            f"**Fix:** {rule.fix}",
            "",
            "**Disable:** on one object, annotate its metadata",
            "",
            "```yaml",
            "metadata:",
            "  annotations:",
            f'    {DISABLE_ANNOTATION}: "{rule.code}"',
            "```",
            "",
            f"or for every run, in `{CONFIG_FILE}`:",
            "",
            "```yaml",
            f"disable: [{rule.code}]",
            "```",
        ]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(render_markdown(load_rules()), end="")
