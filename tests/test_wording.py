"""The answer templates under data/wording are sound, and every name the source says exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from matjip import wording


def test_every_template_file_is_sound() -> None:
    assert wording.problems() == []


def test_checker_finds_a_positional_field(tmp_path: Path) -> None:
    (tmp_path / "x.toml").write_text('a = "{} 곳"\nb = "{n}곳"\n', encoding="utf-8")
    found = wording.problems(tmp_path)
    assert len(found) == 1 and found[0].startswith("x.a")


def test_say_fills_fields_and_names_a_missing_one(tmp_path: Path) -> None:
    (tmp_path / "t.toml").write_text('[g]\nn = "{n}곳이에요"\n', encoding="utf-8")
    table = wording.templates(tmp_path)
    assert table["t.g.n"] == "{n}곳이에요"
    with pytest.raises(wording.WordingError, match="no template"):
        wording.say("t.no_such_template_anywhere")


def test_every_template_the_source_says_exists() -> None:
    src = Path(wording.__file__).parent
    call = re.compile(r"\b(?:say|text|variants)\(\s*\"([\w.]+)\"")
    sections = re.compile(r"\btable\(\s*\"([\w.]+)\"")
    texts = [p.read_text(encoding="utf-8") for p in src.rglob("*.py") if p.name != "wording.py"]
    used = {m.group(1) for t in texts if "wording" in t for m in call.finditer(t)}
    known = wording.templates()
    missing = sorted(n for n in used if "." in n and n not in known)
    assert missing == []
    used_sections = {m.group(1) for t in texts if "wording" in t for m in sections.finditer(t)}
    assert sorted(s for s in used_sections if not any(k.startswith(s + ".") for k in known)) == []


def test_table_reads_a_section_of_fixed_phrases_in_file_order() -> None:
    labels = wording.table("answer.ask_label")
    assert list(labels)[:2] == ["hours", "price"] and labels["hours"] == "영업시간"
    assert "row" not in wording.table("answer.compare")  # a subsection is not a phrase of its parent
    with pytest.raises(wording.WordingError, match="no section"):
        wording.table("answer.no_such_section")


def test_the_readme_lists_every_template_file() -> None:
    readme = (wording.WORDING_DIR / "README.md").read_text(encoding="utf-8")
    files = [p.name for p in wording.WORDING_DIR.glob("*.toml")]
    assert [f for f in files if f"`{f}`" not in readme] == []
