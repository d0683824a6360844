"""Classes of false statements of the eleventh issue-24 audit (docs/audit_issue24_r11.md, on 5a28826), one
test each, failing on that code. Expected facts are read from the raw demo crawl, never from the product.

F1 (class 11/13): "'해장'은 데이터에 없어서 …" above a card filed `한식>해장국` — a described family's note
may say the data cannot tell whether a place suits the wish, never that a word the documents carry is absent.
"""

from __future__ import annotations

import re

from matjip.kinds import kinds
from support.demo import raw_records

_ABSENT = re.compile(r"'([^']+)'(?:은|는) 데이터에 없어서")


def _said_anywhere(word: str) -> bool:
    for rec in raw_records().values():
        menus = " ".join(str(m.get("name", "")) for m in rec.get("menus") or [])
        if word in f"{rec.get('title', '')} {rec.get('category', '')} {menus}":
            return True
    return False


def test_a_family_note_never_calls_a_word_of_the_documents_absent() -> None:
    claimed = [(t.name, m.group(1)) for t in kinds().themes if (m := _ABSENT.search(t.note))]
    assert claimed  # the pattern is still in use ("'단 거'는 데이터에 없어서")
    for name, quoted in claimed:
        stem = quoted.removesuffix(" 맛").removesuffix("한")
        assert not _said_anywhere(stem), f"{name}: '{quoted}' — the documents carry '{stem}'"
