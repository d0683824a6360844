"""The word files under data/words are sound, and the checker can find each kind of problem."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from matjip import words


def test_every_word_file_is_sound() -> None:
    assert words.problems() == []


def _write(tmp_path: Path, text: str) -> Path:
    (tmp_path / "w.toml").write_text(text, encoding="utf-8")
    return tmp_path


def test_checker_finds_a_word_twice_a_bad_regex_and_a_word_under_two_keys(tmp_path: Path) -> None:
    found = words.problems(
        _write(
            tmp_path,
            'regex = ["pats"]\npats = ["(unclosed"]\nlist = ["a", "b", "a"]\n[m]\nx = ["밥"]\ny = ["밥"]\n',
        )
    )
    assert any("does not compile" in p for p in found)
    assert any("'a' twice" in p for p in found)
    assert any("under both 'x' and 'y'" in p for p in found)


def test_overlap_allows_a_word_under_two_keys(tmp_path: Path) -> None:
    assert words.problems(_write(tmp_path, 'overlap = ["m"]\n[m]\nx = ["밥"]\ny = ["밥"]\n')) == []


def test_missing_file_and_table_are_clear_errors() -> None:
    with pytest.raises(words.WordsError, match="no word file"):
        words.words("no_such_file", "x")


def test_every_table_the_source_reads_exists() -> None:
    src = Path(words.__file__).parent
    call = re.compile(r"\b(?:words|word_set|word_map|patterns|pattern_map)\(\s*\"(\w+)\",\s*\"(\w+)\"")
    used = {m.groups() for p in src.rglob("*.py") for m in call.finditer(p.read_text(encoding="utf-8"))}
    for name, table in sorted(used):
        words._table(name, table)  # raises WordsError when missing


def test_the_readme_lists_every_word_file() -> None:
    readme = (words.WORDS_DIR / "README.md").read_text(encoding="utf-8")
    files = [p.name for p in words.WORDS_DIR.iterdir() if p.suffix in (".toml", ".txt")]
    assert [f for f in files if f"`{f}`" not in readme] == []
