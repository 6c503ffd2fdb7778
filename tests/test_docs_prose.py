"""The README and the docs read as a player reads: short paragraphs, and every guide opens with
what the player does (a line or two on the task, then the command) before any detail.

A paragraph is a run of prose lines between blank lines, list items, headings, tables and fenced
blocks (a list item is a paragraph of its own); words are what ``str.split`` finds.
``python tests/test_docs_prose.py [CHECKOUT]`` prints the longest paragraphs of a checkout.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
LONGEST = 150  # words: about ten lines of the site's text column
OPENING = 80  # words of prose a guide may hold before its first command


class Paragraph(NamedTuple):
    where: str  # path:line
    words: int
    start: str


def pages(root: Path = ROOT) -> list[Path]:
    """The README and every page of the site (the hooks folder holds code, not pages)."""
    return [root / "README.md", *sorted(p for p in (root / "docs").rglob("*.md")
                                        if "hooks" not in p.parts)]


_ITEM = re.compile(r"\s*(?:[-*]|\d+\.)\s")


def paragraphs(page: Path, root: Path = ROOT) -> list[Paragraph]:
    """The prose paragraphs of one page, fenced blocks, tables, headings and comments left out."""
    found: list[Paragraph] = []
    lines: list[str] = []
    first = 0
    fenced = False

    def close() -> None:
        if lines:
            text = " ".join(lines)
            found.append(Paragraph(f"{page.relative_to(root)}:{first}", len(text.split()), text[:60]))
            lines.clear()

    text = re.sub(r"<!--.*?-->", lambda m: "\n" * m[0].count("\n"), page.read_text(encoding="utf-8"),
                  flags=re.DOTALL)
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            close()
            fenced = not fenced
            continue
        if fenced:
            continue
        if not stripped or stripped.startswith(("#", "|", "![")) or _ITEM.match(line):
            close()
            if not _ITEM.match(line):
                continue
        if not lines:
            first = number
        item = _ITEM.match(line)
        lines.append(line[item.end():].strip() if item else stripped)
    close()
    return found


def test_paragraphs_are_short():
    """No paragraph of the README or the docs runs past LONGEST words (issue 35: four pages had
    one of 466-757 words)."""
    long = [p for page in pages() for p in paragraphs(page) if p.words > LONGEST]
    assert not long, "split these paragraphs:\n" + "\n".join(
        f"  {p.where}: {p.words} words ({p.start}...)" for p in long)


def test_counter_sees_paragraphs_lists_and_skips_code(tmp_path):
    """The counter itself, on a page made here: a fenced block, a table and a heading are not
    prose; two list items are two paragraphs; a blank line ends a paragraph."""
    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "page.md"
    page.write_text("# Title\n\none two\nthree\n\n```sh\na b c d e f\n```\n\n| x | y |\n\n"
                    "- four five\n  six\n- seven\n\n    eight nine\n", encoding="utf-8")
    assert [p.words for p in paragraphs(page, tmp_path)] == [3, 3, 1, 2]


def _opening(page: Path) -> tuple[int, bool]:
    """(words of prose before the first fenced block, whether that block comes before the first
    ``##`` section)."""
    text = page.read_text(encoding="utf-8")
    fence = text.find("\n```")
    section = text.find("\n## ")
    head = text[:fence] if fence >= 0 else text
    prose = [line for line in head.splitlines()[1:] if not line.startswith("#")]
    return len(" ".join(prose).split()), fence >= 0 and (section < 0 or fence < section)


def test_every_guide_opens_with_the_command():
    """Each guide says the task in a few lines and shows the command before its first section."""
    for page in sorted((ROOT / "docs" / "guides").glob("*.md")):
        words, command_first = _opening(page)
        assert command_first, f"{page.name}: no command before the first section"
        assert words <= OPENING, f"{page.name}: {words} words before the first command"


FOREIGN = set("ěščřžůťďňĚŠČŘŽŮŤĎŇ")  # letters of the Czech rules summary's quotations


def test_guides_open_without_measurements_or_quotations():
    """A guide's opening (before its first section) holds no benchmark figures, and quotations
    of a rules summary in its own language wait for a "Sources" section at the end (issue 35:
    the page guide opened with start-up timings, the trench guide with Czech quotations)."""
    for page in sorted((ROOT / "docs" / "guides").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        opening = text.split("\n## ")[0]
        assert "benchmarks/" not in opening, f"{page.name}: measurements in its opening"
        before_sources = text.split("\n## Sources\n")[0]
        assert not FOREIGN & set(before_sources), f"{page.name}: a quotation before its sources"


if __name__ == "__main__":
    root = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ROOT
    every = sorted((p for page in pages(root) for p in paragraphs(page, root)),
                   key=lambda p: -p.words)
    over = [p for p in every if p.words > LONGEST]
    print(f"{len(every)} paragraphs; longest {every[0].words} words ({every[0].where}); "
          f"{len(over)} over {LONGEST} words")
    for p in every[:10]:
        print(f"  {p.words:4d}  {p.where}  {p.start}")
