"""Issue 25's shape of the source: short functions, vocabulary and wording in data files."""

from __future__ import annotations

from pathlib import Path

from support.codeshape import SRC, literal_tables, long_functions

MAX_FUNCTION_LINES = 120
MAX_LITERAL_TABLES = 20  # code constants (SQL whitelist, schema and protocol names), never vocabulary


def test_no_function_is_longer_than_the_limit() -> None:
    assert long_functions(limit=MAX_FUNCTION_LINES) == []


def test_few_literal_tables_are_left_in_code() -> None:
    tables = literal_tables()
    assert len(tables) <= MAX_LITERAL_TABLES, tables


def test_the_lexicons_are_data_not_modules() -> None:
    assert not (SRC / "nlu" / "lexicon.py").exists()
    assert not (SRC / "ingest" / "enrich" / "lexicon.py").exists()


def test_the_counters_see_a_long_function_and_a_table(tmp_path: Path) -> None:
    pkg = tmp_path / "matjip"
    pkg.mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(130))
    (pkg / "m.py").write_text(
        f'WORDS = ("가", "나", "다", "라", "마")\n__all__ = ["a", "b", "c", "d", "e"]\n\ndef f() -> None:\n{body}\n',
        encoding="utf-8",
    )
    assert [where for _, where in long_functions(pkg, limit=120)] == ["matjip/m.py:f"]
    assert [where for _, where in literal_tables(pkg)] == ["matjip/m.py:WORDS"]
