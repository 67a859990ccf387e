"""The README and docs/: every relative link reaches a file and, with a #fragment, a heading of it
(as GitHub names heading anchors); every page of docs/ is reachable from the README; the README
stays a first day's page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~)")


def _prose(text: str) -> list[str]:
    """The lines outside fenced code blocks, with inline code spans removed."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append(re.sub(r"`[^`]*`", "", line))
    return lines


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives a Markdown page's headings: lower case, every character but letters,
    digits, spaces, hyphens and underscores dropped, spaces made hyphens; a repeated one gets -1, -2..."""
    seen: dict[str, int] = {}
    found = set()
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        heading = re.match(r"#{1,6} (.*)", line)
        if fenced or not heading:
            continue
        slug = re.sub(r"[^\w\- ]", "", heading[1].strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def links(page: Path) -> list[str]:
    return [target for line in _prose(page.read_text("utf-8")) for target in LINK.findall(line)
            if not re.match(r"[a-z]+:", target)]


def test_the_pages_have_links_to_check() -> None:
    assert len(PAGES) >= 12 and sum(len(links(page)) for page in PAGES) >= 50


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for target in links(page):
        path, _, fragment = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif fragment and file.suffix == ".md" and fragment not in anchors(file.read_text("utf-8")):
            broken.append(f"{target}: no such heading")
    assert broken == []


def test_anchors_are_githubs() -> None:
    text = "# T\n## The cluster (`--cluster`) and the operator version (`--operator-version`)\n" \
           "## A TrainJob's roles\n```\n# not a heading\n```\n## A TrainJob's roles\n"
    assert anchors(text) == {"t", "the-cluster---cluster-and-the-operator-version---operator-version",
                             "a-trainjobs-roles", "a-trainjobs-roles-1"}


def test_every_page_of_docs_is_linked_from_the_readme() -> None:
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in links(ROOT / "README.md")}
    assert [page.name for page in PAGES[1:] if page.resolve() not in linked] == []


def test_the_readme_is_a_first_days_page() -> None:
    """The reference lives in docs/: the README stays short enough to read on the first day."""
    assert len((ROOT / "README.md").read_text("utf-8").splitlines()) <= 400
