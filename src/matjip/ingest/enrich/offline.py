"""Offline enrichment: Kiwi morphemes + curated lexicons + conservative rules (docs/design.md).

Sources and how each is read:

* ``reviews[i]`` and ``description`` (free text): tokenized with the shared Kiwi
  (:func:`matjip.text.kiwi.tokenize_iter`, one batch per :meth:`OfflineEnricher.enrich_many`,
  read while Kiwi's workers tokenize the rest),
  then lexicon surfaces are matched at morpheme starts and must end on a morpheme boundary.
  Each match is judged over its clause and the clauses it continues into (see :func:`_judge` and
  ``data/review_rules.toml``). Dishes for
  ``review_food`` are noun runs that match the menu names or the food lexicon.
* ``reviewKeywords`` (visitor tag counts): mapped through ``REVIEW_KEYWORD_TAGS`` with minimum
  counts (see :mod:`.tables`). Tags that are phrases ("주차하기 편해요", Naver style) are read
  like free text.
* ``category``, ``businessHours``, ``menus[i].name``, ``title``: plain regex/dictionary rules,
  never Kiwi (demo records carry no free text, so Kiwi is not even loaded for them).

Every value is decided by votes: a positive mention, tag or rule is a vote for it, a negated
mention (or an explicitly negative surface such as ``노키즈존``) a vote against; the value is
kept when votes for outnumber votes against. Every kept value carries up to
:data:`MAX_EVIDENCE_PER_VALUE` pieces of :class:`~matjip.documents.Evidence`; for free text
``source_text[start:end] == span`` and the span starts with the surface that triggered it.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Final, NamedTuple

from matjip.documents import ENRICH_FIELDS, EnrichField, Evidence
from matjip.ingest.crawl import CrawlDocument
from matjip.ingest.enrich.base import Enrichment
from matjip.ingest.enrich.rules import Target, rules
from matjip.ingest.enrich.tables import (
    CATEGORY_LEAF_ONLY,
    CATEGORY_RULES,
    EXCLUSIONS,
    FOOD_DISHES,
    FOOD_HEADS,
    FOOD_MODIFIERS,
    FOOD_STOPWORDS,
    IMPLIES,
    MENU_RULES,
    NEGATIVE_VARIANTS,
    PARTICLES,
    PATTERN_GATE,
    PATTERN_SURFACES,
    REVIEW_KEYWORD_TAGS,
    TAG_SHARE_FROM_TOTAL,
    TAG_SHARE_MIN,
    TOLD_PATTERNS,
    WORD_PARTS,
    lexicons,
)
from matjip.settings import Settings
from matjip.text.kiwi import Morph
from matjip.text.pairs import tokenize_pairs_iter
from matjip.words import word_set

MAX_EVIDENCE_PER_VALUE = 3
MAX_REVIEW_FOOD = 20
MIN_PHRASE_TAG_COUNT = 2  # phrase-style reviewKeywords need at least this many votes

# A space inside a lexicon surface: optional particle, optional whitespace, optional intensifier
# ("뷰가 정말 좋아요", "양이 진짜 많아요", "공간도 너무좋았어요").
_GAP = (
    r"(?:이랑|하고|에서|으로|까지|에는|이나|이|가|은|는|도|을|를|랑|과|와|에|의|만|로|엔|나)?\s*"
    r"(?:(?:정말|진짜|너무|완전|엄청|되게|매우|아주|무척|참|넘|꽤|좀|더|제일|특히)\s*)?"
)


@dataclass(frozen=True)
class _Matcher:
    surface: str
    pattern: re.Pattern[str]
    targets: tuple[Target, ...]
    negative: bool  # the surface itself speaks against its targets
    head: str = ""  # the surface's first word: a literal prefix of every match (lowercase)
    single: bool = False  # one word: a match is exactly the surface, no regex needed
    rank: int = 0  # its place among the matchers sharing its first character
    pattern_of: bool = False  # a pattern of ``review_moods.toml``, not a surface
    told: bool = (
        False  # a ``[told]`` pattern: the mention tells the value as had, the clause does not judge it
    )


@dataclass(frozen=True)
class _Compiled:
    dispatch: dict[str, tuple[re.Pattern[str], tuple[_Matcher, ...]]]  # first char → (any-of, matchers)
    # first char → ((head length, head → its matchers), …): the matchers whose first word starts
    # at a position are found by looking up the text there, one lookup per head length
    heads: dict[str, tuple[tuple[int, dict[str, tuple[_Matcher, ...]]], ...]]
    any_surface: re.Pattern[str]  # finds whether a text mentions anything at all
    exclusions: re.Pattern[str]  # finds every start of an exclusion (the longest one there)
    word_parts: re.Pattern[str]  # finds every start of a WORD_PARTS word (the longest one there)
    value_order: dict[EnrichField, dict[str, int]]
    menu_rules: tuple[tuple[re.Pattern[str], Target], ...]
    patterns: tuple[_Matcher, ...] = ()  # PATTERN_SURFACES: a regex, not a surface, signals the value
    pattern_gate: re.Pattern[str] = re.compile("(?!)")  # PATTERN_GATE: what every pattern needs


def _surface_regex(surface: str) -> re.Pattern[str]:
    parts = [re.escape(p) for p in surface.split()]
    return re.compile(_GAP.join(parts), re.IGNORECASE)


@lru_cache(maxsize=1)
def _compiled() -> _Compiled:
    positive: dict[str, dict[Target, None]] = {}
    for fld, table in lexicons().items():
        for value, surfaces in table.items():
            for s in surfaces:
                positive.setdefault(s.lower(), {})[(fld, value)] = None
    negative: dict[str, dict[Target, None]] = {}
    for target, surfaces in NEGATIVE_VARIANTS.items():
        for s in surfaces:
            negative.setdefault(s.lower(), {})[target] = None
    matchers: list[_Matcher] = []
    for by_surface, is_negative in ((positive, False), (negative, True)):
        for s, targets in by_surface.items():
            head = s.split()[0]
            matchers.append(_Matcher(s, _surface_regex(s), tuple(targets), is_negative, head, head == s))
    by_char: dict[str, list[_Matcher]] = {}
    for m in matchers:
        by_char.setdefault(m.surface[0], []).append(m)
    dispatch: dict[str, tuple[re.Pattern[str], tuple[_Matcher, ...]]] = {}
    heads: dict[str, tuple[tuple[int, dict[str, tuple[_Matcher, ...]]], ...]] = {}
    for ch, ms in by_char.items():
        ordered = tuple(
            replace(m, rank=i) for i, m in enumerate(sorted(ms, key=lambda m: (-len(m.surface), m.surface)))
        )
        any_of = re.compile("|".join(f"(?:{m.pattern.pattern})" for m in ordered), re.IGNORECASE)
        dispatch[ch] = (any_of, ordered)
        by_len: dict[int, dict[str, list[_Matcher]]] = {}
        for m in ordered:
            by_len.setdefault(len(m.head), {}).setdefault(m.head, []).append(m)
        heads[ch] = tuple(
            (n, {h: tuple(group) for h, group in table.items()}) for n, table in sorted(by_len.items())
        )
    order: dict[EnrichField, dict[str, int]] = {
        f: {v: i for i, v in enumerate(lexicons().get(f, {}))} for f in ENRICH_FIELDS
    }
    menu_rules = tuple((re.compile(rx, re.IGNORECASE), t) for rx, t in MENU_RULES)
    any_surface = re.compile("|".join(p.pattern for p, _ in dispatch.values()), re.IGNORECASE)
    ordered_ex = sorted({e.lower() for e in EXCLUSIONS if e}, key=lambda e: (-len(e), e))
    exclusions = re.compile(
        "(?=(" + "|".join(re.escape(e) for e in ordered_ex) + "))" if ordered_ex else "(?!)"
    )
    ordered_parts = sorted({w.lower() for w in WORD_PARTS if w}, key=lambda w: (-len(w), w))
    word_parts = re.compile(
        "(?=(" + "|".join(re.escape(w) for w in ordered_parts) + "))" if ordered_parts else "(?!)"
    )
    pattern_matchers = tuple(
        _Matcher(f"{t[0]}:{t[1]}#{i}", re.compile(rx, re.IGNORECASE), (t,), False, pattern_of=True)
        for t, regexes in PATTERN_SURFACES.items()
        for i, rx in enumerate(regexes)
    ) + tuple(
        _Matcher(
            f"{t[0]}:{t[1]}#told{i}", re.compile(rx, re.IGNORECASE), (t,), False, pattern_of=True, told=True
        )
        for t, regexes in TOLD_PATTERNS.items()
        for i, rx in enumerate(regexes)
    )
    gate = re.compile(PATTERN_GATE or "(?!)", re.IGNORECASE)
    return _Compiled(
        dispatch, heads, any_surface, exclusions, word_parts, order, menu_rules, pattern_matchers, gate
    )


def check_lexicon_consistency() -> list[str]:
    """Problems in the lexicon tables (targets that are not canonical values); empty when sound."""
    problems: list[str] = []
    known = {(f, v) for f, table in lexicons().items() for v in table}

    def check(t: Target, where: str) -> None:
        if t not in known:
            problems.append(f"{where}: {t} is not a canonical lexicon value")

    for t in NEGATIVE_VARIANTS:
        check(t, "NEGATIVE_VARIANTS")
    for src, implied in IMPLIES.items():
        check(src, "IMPLIES")
        for t in implied:
            check(t, "IMPLIES")
    for fld, value, _ in REVIEW_KEYWORD_TAGS.values():
        check((fld, value), "REVIEW_KEYWORD_TAGS")
    for _, targets in CATEGORY_RULES:
        for t in targets:
            check(t, "CATEGORY_RULES")
    for _, t in MENU_RULES:
        check(t, "MENU_RULES")
    for t in (("convenience", "24시"), ("features", "심야영업")):
        check(t, "hours rules")
    return problems


# --- votes ------------------------------------------------------------------------------------
class _Ev(NamedTuple):
    """Evidence before it is attached to a (field, value)."""

    source: str
    span: str
    start: int | None = None
    end: int | None = None
    tag_count: int | None = None

    def to_evidence(self, fld: EnrichField, value: str) -> Evidence:
        return Evidence(
            field=fld,
            value=value,
            source=self.source,
            span=self.span,
            start=self.start,
            end=self.end,
            count=self.tag_count,
        )


@dataclass
class _Tally:
    pos: int = 0  # weighted votes of sources other than reviews (tags, category, menus, description)
    neg: int = 0
    evidence: list[_Ev] = field(default_factory=list)
    reviews_for: set[int] = field(default_factory=set)  # indices of reviews that support the value
    reviews_against: set[int] = field(default_factory=set)
    against: list[_Ev] = field(default_factory=list)  # evidence of reviews against the value
    # reviews that support the value through another one that implies it ("대리 주차" → 주차): their own
    # complaint about the value ("주차할 곳 없어서 …") does not count against it
    implied_by: set[int] = field(default_factory=set)
    # reviews that tell a first-hand use of the value in the past ("예약했어요"): for a ``use_outweighs`` value
    # their own complaints about it ("예약 변경은 안 된대요") do not count against it
    used_by: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class Support:
    """How many reviews a value needs (settings ``enrich_min_reviews``, ``enrich_min_share``,
    ``enrich_support_from``; ``enrich_fact_min_reviews`` for the fields ``review_rules.toml`` calls
    facts: a convenience holds from one first-hand review when no more reviews speak against it,
    while a mood or an occasion needs the share)."""

    min_reviews: int = 2
    min_share: float = 0.03
    support_from: int = 10
    fact_min_reviews: int = 1
    fact_fields: tuple[str, ...] | None = None  # None: ``[support] fact_fields`` of the rules file

    def needed(self, n_reviews: int, fld: str = "") -> int:
        facts = self.fact_fields if self.fact_fields is not None else rules().fact_fields
        if fld in facts:
            return self.fact_min_reviews
        if n_reviews < self.support_from:
            return 1
        return max(self.min_reviews, math.ceil(self.min_share * n_reviews))


@dataclass
class _Votes:
    tallies: dict[Target, _Tally] = field(default_factory=dict)
    food: dict[str, _Tally] = field(default_factory=dict)
    food_first: dict[str, int] = field(default_factory=dict)

    def _tally(self, t: Target) -> _Tally:
        tally = self.tallies.get(t)
        if tally is None:
            tally = self.tallies[t] = _Tally()
        return tally

    def vote(
        self,
        t: Target,
        ev: _Ev | None,
        weight: int = 1,
        *,
        against: bool = False,
        review: int | None = None,
        implied: bool = False,
        used: bool = False,
    ) -> None:
        tally = self._tally(t)
        if implied and review is not None:
            tally.implied_by.add(review)
        if used and review is not None:
            tally.used_by.add(review)
        if against:
            if review is None:
                tally.neg += weight
            else:
                tally.reviews_against.add(review)
                if ev is not None and len(tally.against) < MAX_EVIDENCE_PER_VALUE and ev not in tally.against:
                    tally.against.append(ev)
            return
        if review is None:
            tally.pos += weight
        else:
            tally.reviews_for.add(review)
        if ev is not None and len(tally.evidence) < MAX_EVIDENCE_PER_VALUE and ev not in tally.evidence:
            tally.evidence.append(ev)
        for other in IMPLIES.get(t, ()):
            self.vote(other, ev, weight, review=review, implied=True)

    def food_mention(self, name: str, ev: _Ev) -> None:
        tally = self.food.get(name)
        if tally is None:
            tally = self.food[name] = _Tally()
            self.food_first[name] = len(self.food_first)
        tally.pos += 1
        if len(tally.evidence) < MAX_EVIDENCE_PER_VALUE:
            tally.evidence.append(ev)

    def result(self, n_reviews: int = 0, support: Support = Support()) -> Enrichment:
        """Kept values: a value read from reviews needs :meth:`Support.needed` supporting reviews (per
        field: facts one, moods and occasions the share) and more reviews for than against; other sources count their weighted votes. Of two conflicting
        values (``review_rules.toml``) the one with more support stays, both when the split is real."""
        order = _compiled().value_order
        r = rules()
        needed = {f: support.needed(n_reviews, f) for f in ENRICH_FIELDS}
        strength: dict[Target, int] = {}
        for t, tally in self.tallies.items():
            opposed = tally.reviews_against - tally.implied_by
            if t in r.use_outweighs:
                opposed -= tally.used_by
            n_for, n_against = len(tally.reviews_for), len(opposed)
            review_ok = n_for >= needed[t[0]] and n_for > n_against
            score = tally.pos - tally.neg + (n_for if review_ok else 0) - n_against
            if tally.evidence and score > 0 and (tally.pos > tally.neg or review_ok):
                strength[t] = tally.pos + n_for
        r = rules()
        for a, b in r.conflicts:
            if a in strength and b in strength:
                lo, hi = sorted((a, b), key=lambda t: strength[t])
                if (
                    strength[lo] < r.keep_both_share * (strength[lo] + strength[hi])
                    or strength[lo] == strength[hi]
                ):
                    del strength[lo]
        kept: dict[EnrichField, list[tuple[int, str, _Tally]]] = {f: [] for f in ENRICH_FIELDS}
        for (fld, value), tally in self.tallies.items():
            if (fld, value) in strength:
                kept[fld].append((order[fld].get(value, 10_000), value, tally))
        foods = sorted(self.food.items(), key=lambda kv: (-kv[1].pos, self.food_first[kv[0]]))
        foods = foods[:MAX_REVIEW_FOOD]
        values: dict[EnrichField, list[str]] = {"review_food": [name for name, _ in foods]}
        evidence: list[Evidence] = [
            ev.to_evidence("review_food", name) for name, tally in foods for ev in tally.evidence
        ]
        for fld in ENRICH_FIELDS:
            if fld == "review_food":
                continue
            items = sorted(kept[fld], key=lambda x: (x[0], x[1]))
            values[fld] = [v for _, v, _ in items]
            for _, v, tally in items:
                for ev in tally.evidence:
                    e = ev.to_evidence(fld, v)
                    if tally.reviews_for and n_reviews:
                        e.support, e.reviews = len(tally.reviews_for), n_reviews
                    evidence.append(e)
        against: list[Evidence] = []
        for (fld, value), tally in self.tallies.items():
            if fld in ("convenience", "atmosphere", "occasion") and tally.against and n_reviews:
                for ev in tally.against:
                    e = ev.to_evidence(fld, value)
                    e.support, e.reviews = len(tally.reviews_against), n_reviews
                    against.append(e)
        return Enrichment(
            against=against,
            review_food=values["review_food"],
            convenience=values["convenience"],
            atmosphere=values["atmosphere"],
            occasion=values["occasion"],
            features=values["features"],
            evidence=evidence,
        )


# --- free text ----------------------------------------------------------------------------------
class _Hit(NamedTuple):
    start: int
    end: int
    matcher: _Matcher


def _rank(m: _Matcher) -> int:
    return m.rank


def _find_hits(text: str, morphs: Sequence[Morph]) -> list[_Hit]:
    compiled = _compiled()
    dispatch, heads = compiled.dispatch, compiled.heads
    n = len(text)
    bounds: set[int] | None = None
    hits: list[_Hit] = []
    last = -1
    low = text.lower()
    literal = len(low) == n  # lowercasing kept every offset (it does except for a few letters)
    for morph in morphs:
        pos = morph.start
        if pos == last or pos >= n:
            continue
        last = pos
        if literal:
            by_len = heads.get(low[pos])
            if by_len is None:
                continue
            found: list[_Matcher] = []
            for size, table in by_len:
                group = table.get(low[pos : pos + size])
                if group is not None:
                    found.extend(group)
            if not found:
                continue
            if len(found) > 1:
                found.sort(key=_rank)
            candidates: Sequence[_Matcher] = found
        else:
            entry = dispatch.get(text[pos].lower())
            if entry is None or entry[0].match(text, pos) is None:
                continue
            candidates = entry[1]
        for matcher in candidates:
            if literal and matcher.single:
                e = pos + len(matcher.head)
            else:
                mm = matcher.pattern.match(text, pos)
                if mm is None:
                    continue
                e = mm.end()
            if bounds is None:
                bounds = {m.start for m in morphs} | {m.end for m in morphs} | {n}
            ends_word = e in bounds or (text[e : e + 1] == "하" and e + 1 in bounds)  # "깨끗" in 깨끗하/VA
            if ends_word or _glued_particle(text, morph, e):
                hits.append(_Hit(pos, e, matcher))
    if compiled.patterns and compiled.pattern_gate.search(text) is not None:
        hits.extend(_pattern_hits(text, morphs, compiled.patterns))
    if not hits:
        return hits
    # an exclusion found at a start covers every shorter one starting there
    excluded = [(m.start(), m.end(1)) for m in compiled.exclusions.finditer(low)]
    negative_spans = [(h.start, h.end, set(h.matcher.targets)) for h in hits if h.matcher.negative]
    parts = [(m.start(), m.end(1)) for m in compiled.word_parts.finditer(low)]
    if not excluded and not negative_spans and not parts:
        return hits
    parts_cover = _Cover(parts)
    # "is h inside one of these spans?" for every hit, in linear time: the spans that start at or
    # before h.start contain h exactly when the furthest end among them reaches h.end
    excluded_cover = _Cover(excluded)
    negative_cover: dict[Target, _Cover] = {}
    by_target: dict[Target, list[tuple[int, int]]] = {}
    for s, e, targets in negative_spans:
        for t in targets:
            by_target.setdefault(t, []).append((s, e))
    for t, spans in by_target.items():
        negative_cover[t] = _Cover(spans)
    kept: list[_Hit] = []
    for h in hits:
        if not h.matcher.negative:
            if excluded_cover.contains(h.start, h.end) or parts_cover.contains(h.start, h.start + 1):
                continue  # inside a homograph, or starting inside another word ("술찜 국물 너무 맛있어요")
            if any(
                t in negative_cover and negative_cover[t].contains(h.start, h.end) for t in h.matcher.targets
            ):
                continue
        kept.append(h)
    return kept


def _pattern_hits(text: str, morphs: Sequence[Morph], matchers: Sequence[_Matcher]) -> list[_Hit]:
    """Mentions found by the patterns of ``review_moods.toml`` (a clock time, drinks by the bottle): each
    match that starts where a morpheme starts."""
    starts = {m.start for m in morphs}
    return [
        _Hit(mm.start(), mm.end(), matcher)
        for matcher in matchers
        for mm in matcher.pattern.finditer(text)
        if mm.start() in starts
    ]


_GLUED: Final = word_set("review_cues", "glued_particles")


def _glued_particle(text: str, morph: Morph, end: int) -> bool:
    """Whether a match ending at ``end`` inside the noun ``morph`` leaves just a particle Kiwi glued to it
    ("딜리버리서": the surface 딜리버리, then 서)."""
    return morph.tag in _NOUN_TAGS and morph.start < end < morph.end and text[end : morph.end] in _GLUED


class _Cover:
    """Spans, answering "does one of them contain [start, end)?" with a binary search."""

    def __init__(self, spans: Sequence[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self.starts = [s for s, _ in ordered]
        self.reach: list[int] = []  # the furthest end among the spans up to each position
        furthest = -1
        for _, e in ordered:
            furthest = max(furthest, e)
            self.reach.append(furthest)

    def contains(self, start: int, end: int) -> bool:
        i = bisect_right(self.starts, start)
        return i > 0 and self.reach[i - 1] >= end


# a line break, sentence punctuation, or two spaces (a crawl that flattened a review's line breaks:
# "포장만 하고 싶은  수플레치즈케이크 : …  지하에다 매장 분위기가")
_BOUNDARY_GAP = re.compile(r"[\n.!?;~]| {2}")
_SYMBOL_TAGS: Final = word_set("review_tags", "symbol_tags")
_PRED_TAGS: Final = word_set("review_tags", "predicate_tags")


def _is_boundary_gap(gap: str) -> bool:
    return bool(gap) and _BOUNDARY_GAP.search(gap) is not None


class _Clause(NamedTuple):
    first: int  # morph index
    last: int  # morph index, inclusive
    start: int  # character offsets
    end: int
    kind: str  # final | question | contrast | cause | cond | and
    sentence: int  # index of the sentence the clause belongs to


_NO_MARKS: Final[frozenset[int]] = frozenset()


def _heading_marks(text: str) -> tuple[frozenset[int], frozenset[int]]:
    """Where the headings of a structured review start and where their colons stand ("가야는이유 :
    고소한 라떼 … 안가는이유 : 언덕길", "장점: 주차"; ``[frames] heading`` of ``review_rules.toml``)."""
    starts: set[int] = set()
    colons: set[int] = set()
    for m in rules().heading.finditer(text):
        starts.add(m.start())
        colons.add(m.end() - 1)
    return frozenset(starts), frozenset(colons)


def _clauses(text: str, morphs: Sequence[Morph]) -> list[_Clause]:
    """Clauses of a text: a clause ends at a final ending, sentence punctuation, a line break or a
    clause-ending connective (kinds from ``review_rules.toml``: contrast, cause, conditional)."""
    r = rules()
    questions = r.p.question_endings
    ec_kind = r.ec_kind
    final_suffixes, boundary_symbols = r.p.final_ending_suffixes, r.p.boundary_symbols
    nominal_finals = r.p.nominal_final_endings
    denial_cause_stems, denial_cause_endings = r.p.denial_cause_stems, r.p.denial_cause_endings
    heads, colons = _heading_marks(text) if ":" in text else (_NO_MARKS, _NO_MARKS)
    out: list[_Clause] = []
    first = 0
    sentence = 0
    n = len(morphs)
    for i, m in enumerate(morphs):
        nxt = morphs[i + 1] if i + 1 < n else None
        kind = ""
        tag = m.tag
        if colons and (m.start in colons or (nxt is not None and nxt.start in heads)):
            kind = "final"  # "… 인상적인 | 안가는이유 : | 언덕길": a heading is a clause of its own
        elif tag == "SF":
            kind = "question" if "?" in m.form else "final"
        elif tag == "EF":
            if nxt is not None and nxt.tag == "SF":
                continue
            kind = "question" if m.form in questions else "final"
        elif tag == "EC":
            if nxt is not None and nxt.tag.startswith("VX"):
                continue  # "-고 싶", "-어 주": an auxiliary continues the clause
            ec = ec_kind.get(m.form)
            kind = ("final" if m.form.endswith(final_suffixes) else "") if ec is None else ec
            if (
                not kind
                and m.form in denial_cause_endings
                and i > 0
                and morphs[i - 1].tag.startswith("VX")
                and morphs[i - 1].form in denial_cause_stems
                and nxt is not None
                and nxt.start > m.end
            ):
                kind = "cause"  # "매장이 넓지않아 | 예약없이는 방문이 힘들것같고": 않아 said for 않아서
        elif m.form in boundary_symbols and (nxt is None or nxt.start > m.end):
            kind = "final"  # "왔어요~ 주차가"
        elif (
            tag == "ETN"
            and m.form in nominal_finals
            and (nxt is None or nxt.start > m.end or nxt.tag in _SYMBOL_TAGS)
        ):
            kind = "final"  # "인테리어 넘 이쁨ㅠㅠ 감성 미쳤다": a review's "-음" ends its sentence
        elif (
            tag == "NNB"
            and m.form == "데"
            and i > 0
            and morphs[i - 1].tag == "ETM"
            and nxt is not None
            and not nxt.tag.startswith("J")
        ):
            kind = "contrast"  # "좋은데" read as 좋/VA 은/ETM 데/NNB (but "여기만한 데가 없어요": a place)
        elif tag in ("JC", "JX") and _concessive_na(morphs, i):
            kind = (
                "contrast"  # "2차하기 좋은 안주이나 | 맛은 아쉽네요": 이나 read as a particle, said as "but"
            )
        if not kind and (
            nxt is None
            or (
                nxt.start > m.end
                and _is_boundary_gap(text[m.end : nxt.start])
                and not _negation_follows(morphs, i)
                and not _predicate_pending(m)
            )
        ):
            kind = "final"
        if not kind:
            continue
        out.append(_Clause(first, i, morphs[first].start, m.end, kind, sentence))
        if kind in ("final", "question"):
            sentence += 1
        first = i + 1
    if first < n:
        out.append(_Clause(first, n - 1, morphs[first].start, morphs[-1].end, "final", sentence))
    return out


_PENDING_TOPICS: Final = word_set("review_cues", "pending_topics")
_PENDING_NOMINALS: Final = word_set("review_cues", "pending_nominals")


def _predicate_pending(m: Morph) -> bool:
    """Whether morpheme ``m`` is a subject, object or topic particle, whose predicate is still to come however
    wide the gap after it is written ("주차하기가  너무 불편해요"; session 9, rev29) — not the polite 요 that
    closes a connective ("되고요  맛은"), nor 마다 ("모임할때마다  요리 …"); or a bare "-기" whose judgement
    follows ("모임하기  좋을거 같아요", "주차하기  편해요"; session 12, rev36)."""
    return (
        m.tag in ("JKS", "JKO")
        or (m.tag == "JX" and m.form in _PENDING_TOPICS)
        or (m.tag == "ETN" and m.form in _PENDING_NOMINALS)
    )


def _negation_follows(morphs: Sequence[Morph], i: int) -> bool:
    """Whether morpheme ``i`` is the -지 of a long negation (or a particle on it: "하진", "하지는") and the
    negation comes next ("청결 하지  못해", "깨끗 하진  않아요"): one clause however wide the gap is written."""
    m = morphs[i]
    if m.tag.startswith("J") and i > 0:
        m = morphs[i - 1]
    if m.tag != "EC" or m.form != "지" or i + 1 >= len(morphs):
        return False
    nxt = morphs[i + 1]
    return nxt.tag.startswith("VX") or (nxt.tag == "MAG" and nxt.form in rules().p.absence_adverbs)


def _concessive_na(morphs: Sequence[Morph], i: int) -> bool:
    """Whether the particle 이나/나 at ``i`` ends a judged noun phrase and the next word is a new topic ("좋은
    안주이나 맛은 아쉽네요", "가기 좋은 곳이나 안주는 별로"): Kiwi's "or" read as the connective "but"."""
    if morphs[i].form not in ("이나", "나") or i < 2 or i + 2 >= len(morphs):
        return False
    nxt, after = morphs[i + 1], morphs[i + 2]
    return (
        morphs[i - 2].tag == "ETM"
        and nxt.start > morphs[i].end
        and nxt.tag in _NOUN_TAGS
        and after.tag == "JX"
        and after.form in ("은", "는")
    )


@dataclass
class _Text:
    """One free text with its morphemes and clauses (built once per text with a mention)."""

    text: str
    morphs: Sequence[Morph]
    starts: list[int]
    clauses: list[_Clause]
    hit_starts: list[int]
    sentences: dict[int, tuple[int, int]] = field(default_factory=dict)
    clause_ends: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        for c in self.clauses:
            s, _ = self.sentences.get(c.sentence, (c.start, c.end))
            self.sentences[c.sentence] = (s, c.end)
        self.clause_ends = [c.end for c in self.clauses]

    def clause_at(self, pos: int) -> int:
        return min(bisect_left(self.clause_ends, pos + 1), len(self.clauses) - 1)

    def sentence_span(self, k: int) -> tuple[int, int]:
        return self.sentences[self.clauses[k].sentence]


def _has_pred(ctx: _Text, c: _Clause, after: int) -> bool:
    """Whether clause ``c`` has a predicate ending after ``after`` (the mention's own morphemes count)."""
    p = rules().p
    absence, difficulty = p.absence, p.difficulty
    for m in ctx.morphs[c.first : c.last + 1]:
        if m.end <= after:
            continue
        tag = m.tag
        base = tag if "-" not in tag else tag.split("-")[0]  # "VA-I" → "VA"
        if base in _PRED_TAGS or m.form in absence or m.form in difficulty:
            return True
    return False


_ABSENCE_TAGS: Final = word_set("review_tags", "absence_tags")
_SURPRISE: Final = re.compile(r"줄\s*(?:은|는|도|을)?\s*$")  # "…할 줄(은) 몰랐다": it happened
_DIFFICULTY_TAGS: Final = word_set("review_tags", "difficulty_tags")
_STRONG_TAGS: Final = word_set("review_tags", "strong_tags")


def _words(
    ctx: _Text, c: _Clause, after: int, *, fact: bool, own_subject: bool = False, service: bool = False
) -> tuple[int, int, bool, bool, bool]:
    """(absence, difficulty, sticky, strong positive, uncertain) words of clause ``c`` after ``after``.

    ``own_subject``: stop at another subject ("점심시간에 직원분이 손을 안 씻고": what is said of
    직원분 is not said of 점심); a subject marker right after ``after`` is the mention's own, and one
    after an adnominal form heads what the mention's words describe ("단체가 들어갈 자리가 없어요")."""
    r = rules()
    p = r.p
    absence_forms, absence_adverbs, only_before_absence = p.absence, p.absence_adverbs, p.only_before_absence
    sticky_forms, difficulty_forms, strong_forms, uncertain_forms = (
        p.sticky,
        p.difficulty,
        p.strong_positive,
        p.uncertain,
    )
    absence = difficulty = 0
    sticky = strong = uncertain = False
    negated_state = False  # an absence predicate came first: a regret after it is about the absence
    prev: Morph | None = None
    morphs = list(ctx.morphs[c.first : c.last + 1])
    last = len(morphs) - 1
    for j, m in enumerate(morphs):
        if m.start < after:
            prev = m
            continue
        if own_subject and m.tag == "ETM":
            own_subject = False  # "단체가 들어갈 자리가 없어요": the subject the mention's words modify
        if own_subject and m.tag == "JKS" and (prev is None or prev.end < after or m.start > after):
            break
        tag = m.tag
        base = tag if "-" not in tag else tag.split("-")[0]  # "VA-I" → "VA"
        form = m.form
        if len(form) > 2 and form.endswith("하") and base in ("VA", "VV"):
            form = form[:-1]  # "협소하" → "협소"
        if (
            base == "MAJ"
            and form in p.absence_misread
            and prev is not None
            and prev.tag in ("JX", "MAG", "JKS")
        ):
            absence += 1  # "데이트 분위기는 확실히 아님 테이블 배치를": "is not", read by Kiwi as "or"
            negated_state = True
        elif (base == "MAG" and form in absence_adverbs) or (form in absence_forms and base in _ABSENCE_TAGS):
            if fact and _judges_quality(morphs, j, last):
                pass  # "광어회배달 너무 안 좋았어요": what was used was poor, it was there
            elif (form.startswith("없") or form == "불가") and r.superlative.search(
                ctx.text, max(0, m.start - 12), m.end
            ):
                strong = True  # "여기만한 곳이 없어요": none is as good
            elif form.startswith("없") and r.unavoidable.search(ctx.text, max(0, m.start - 8), m.end):
                pass  # "시끄러움은 어쩔수 없음": unavoidable, the complaint stands
            elif r.irresistible.match(ctx.text, m.start):
                strong = True  # "소주는 못참어": cannot resist, a strong liking
            elif r.one_of_few.match(ctx.text, m.start):
                pass  # "몇 안되는 장소": one of few, the mention stands
            elif form.startswith("아니") and r.not_only.search(ctx.text, max(0, m.start - 6), m.start):
                pass  # "댕댕이들 뿐 아니라 견주도": not only, the mention stands
            elif (
                form.startswith("없")
                and prev is not None
                and prev.start >= after
                and prev.form in p.absent_nouns
            ):
                pass  # "예약후 대기 없이 바로입장": the wait is what is absent
            elif not (form.startswith("없") and prev is not None and prev.form in only_before_absence):
                absence += 1
                # a predicate ("않은", "없는"), or an adverb of one ("-지 못한": 못/MAG 하/VV)
                negated_state = negated_state or base != "MAG" or (j < last and morphs[j + 1].form == "하")
        elif base == "XPN" and form == "불":
            # "발렛부터 직원 서비스는 불친절": for a fact, 불 before a judgement of quality says it was poor;
            # "예약안된다고 하는 불친절함": unkindness is the staff's manner, it negates no service
            nxt_form = morphs[j + 1].form if j < last else ""
            if not (fact and nxt_form in r.p.evaluative) and not (service and nxt_form == "친절"):
                absence += 1
        elif form in sticky_forms:
            sticky = True
            if not fact:
                difficulty += 1
        elif not fact and form in difficulty_forms and base in _DIFFICULTY_TAGS:
            # "넓지 않은 게 흠", "쾌적하지 못한 게 아쉽네요": the regret keeps the negation (while
            # "안 멀어요", "불편하지 않아요" turn the difficulty back)
            difficulty += 0 if negated_state else 1
        elif form in strong_forms and base in _STRONG_TAGS:
            strong = True
        if form in uncertain_forms and not _SURPRISE.search(ctx.text, max(0, m.start - 6), m.start):
            uncertain = True  # not "소주 3개 비울 줄 몰랐다": a surprise, it happened
        prev = m
    if not fact and r.difficulty_text.search(ctx.text, max(after, c.start), c.end):
        difficulty += 1
    if r.no_longer.search(ctx.text, max(after, c.start), c.end):
        difficulty += 1
    return absence, difficulty, sticky, strong, uncertain


def _judges_quality(morphs: Sequence[Morph], j: int, last: int) -> bool:
    """Whether the absence word at ``j`` negates a judgement of quality (``evaluative``: "안 좋았어요",
    "좋지 않았어요"), not the thing itself: for a fact, what was used but poor was there."""
    evaluative = rules().p.evaluative
    m = morphs[j]
    if m.tag == "MAG":
        return j < last and morphs[j + 1].form in evaluative
    return j >= 2 and morphs[j - 1].form == "지" and morphs[j - 2].form in evaluative


# (absence words, difficulty words, sticky negative, strong positive, uncertain) of the clauses read
_Counts = tuple[int, int, bool, bool, bool]


def _judge(ctx: _Text, hit: _Hit, target: Target) -> tuple[bool | None, int, int]:
    """The polarity of one mention for one target: True (for), False (against), None (says nothing);
    and the evidence span (the mention's whole clause and the clauses read after it).

    The mention's own clause is read after the match; a clause with no predicate ("주차 자리가.")
    continues into the next clause, and a noun mention whose clause ends in a cause or contrast
    connective without a judgement of its own continues too ("주차는 골목에 해야 해서 힘들어요"),
    until another mention. Absence words toggle; difficulty/regret words judge negatively (absence
    turns them back); frames of ``review_rules.toml`` handle purpose, expectation, hearsay, wishes,
    conditionals and questions. Sense and subject rules drop mentions in another sense.
    """
    r = rules()
    k = ctx.clause_at(hit.start)
    own = ctx.clauses[k]
    s_start, s_end = ctx.sentence_span(k)
    if _other_sense(ctx, hit, target, own.start, s_start, s_end):
        return None, hit.start, hit.end
    if hit.matcher.told:
        return True, own.start, own.end  # "생맥주는 그닥…": the drink was had, whatever is said of it
    fact = target in r.facts
    if (fact or target[0] == "atmosphere") and _holds_anyway(ctx, hit, fact):
        return True, own.start, own.end
    if target[0] == "occasion" and (
        r.experiencer.match(ctx.text, hit.end, own.end) or r.company_visit.match(ctx.text, hit.end, own.end)
    ):
        # "아빠가 힘들어하셨어요": the company felt it at the table; "아이랑 찾아간 …": the company came, whatever follows
        return True, own.start, own.end
    own_subject = target[0] == "occasion"
    absence, difficulty, sticky, strong, uncertain = _words(
        ctx, own, hit.end, fact=fact, own_subject=own_subject, service=target[0] == "convenience"
    )
    absence += _absence_adverb_before(ctx, hit)
    if own.kind == "cond":
        decided = _conditional(ctx, hit, target, own, s_end, absence)
        if decided is not None:
            return decided
    purpose = r.purpose.match(ctx.text[hit.start : own.end]) is not None
    if purpose and own_subject:
        # "술 먹기에는 분위기가 최고네요", "회식하기엔 자리가 좁아요": what the purpose is judged by is the clause's subject
        absence, difficulty, sticky, strong, uncertain = _words(ctx, own, hit.end, fact=fact)
        absence += _absence_adverb_before(ctx, hit)
    turned = _turned(ctx, hit, k, s_end)
    # a fact used in the past tense is a first-hand use: what the next clause says is about something else
    # so is an occasion told as a past visit ("회식으로 다녀왔는데 …", "단체 회식갔는데 … 나쁜 업소")
    first_hand = (fact or own_subject) and _first_hand(ctx, hit, own)
    # a fact said with its own predicate in a cause clause is the cause of what follows ("배달이 많아서 매장
    # 손님은 안 받는다", "구워주셔서 원하는 굽기로 구울 수 없음"): it holds, the next clause is its consequence
    told_cause = (
        fact
        and own.kind == "cause"
        and _has_pred(ctx, own, hit.start)
        and not any(rx.search(ctx.text, hit.end, s_end) for rx in (r.hypothetical, r.counterfactual, r.wish))
    )
    last, counts = _read_on(
        ctx,
        hit,
        own,
        (absence, difficulty, sticky, strong, uncertain),
        steps=0 if turned else 2,
        fact=fact,
        carry_cause=target[0] != "atmosphere" and not first_hand and not told_cause,
        own_subject=own_subject,
    )
    verdict = _verdict(ctx, hit, target, own.start, last, counts, purpose=purpose, turned=turned)
    if verdict[0] is False and target in r.ordered_values and r.ordered.search(ctx.text, s_start, s_end):
        return True, verdict[1], verdict[2]  # "주문시켰는데 … 배달도 안오는데": ordered, so it delivers
    return verdict


def _holds_anyway(ctx: _Text, hit: _Hit, fact: bool) -> bool:
    """Whether the words right after a mood or a fact keep it whatever the clause says next: a concession
    ("넓긴 한데 창이 작아서 답답"), or for a fact something else missing from it ("포장음식에 젓가락도 없더라구요"),
    or for a mood praise told without a plain good word ("분위기 무슨일이죠...?", "분위기 생각하면 꼭 오는 곳")."""
    r = rules()
    if _absence_adverb_before(ctx, hit):
        return False
    return (
        r.concessive.match(ctx.text, hit.end) is not None
        or (fact and r.other_missing.match(ctx.text, hit.end) is not None)
        or (fact and r.fact_compared.match(ctx.text, hit.end) is not None)
        or (not fact and not hit.matcher.negative and r.mood_praise.match(ctx.text, hit.end) is not None)
    )


def _tells_visit(ctx: _Text, hit: _Hit) -> bool:
    """Whether the mention's sentence tells a visit, not a wish, an intention or advice ("저녁에 …
    먹고 배아파서 혼났네요", not "저녁에 가서 또 먹고싶어요")."""
    r = rules()
    s_end = ctx.sentence_span(ctx.clause_at(hit.start))[1]
    return not (
        r.not_visit.search(ctx.text, hit.end, s_end)
        or r.wish.search(ctx.text, hit.end, s_end)
        or r.counterfactual.search(ctx.text, hit.end, s_end)
    )


def _weak_judged(ctx: _Text, hit: _Hit, clause_end: int) -> bool:
    """Whether a weak surface ("분위기", "위생") is judged good: a clear positive word in the clauses read or
    in a bare predicate coordinated after them ("분위기 자체가 독특하고 예뻐요"), and no modifier naming
    another mood ("고급진 분위기"); or it stands in a list judged as a whole ("분위기. 맛. 모두 좋은 곳",
    "분위기 맛, 전부 맛있음")."""
    if rules().list_judged.match(ctx.text, hit.end) is not None or rules().mood_praise.match(
        ctx.text, hit.end
    ):
        return True
    if _judged_next(ctx, hit.end):
        # "몇 없는 분위기 이쁜 카페": the mood judged right after it, whatever modifies the phrase
        return True
    return not _modified(ctx.morphs, hit.start) and _has_strong(
        ctx, hit.end, _coordinated_end(ctx, clause_end)
    )


def _judged_next(ctx: _Text, end: int) -> bool:
    """Whether the word right after ``end`` (a particle skipped) is a clear positive predicate."""
    strong = rules().p.strong_positive
    for m in ctx.morphs[bisect_left(ctx.starts, end) :]:
        if m.tag.startswith("J"):
            continue
        base = m.tag.split("-")[0]
        return (
            m.form in strong
            and base in ("VA", "VV", "XR")
            and not ctx.text[end : m.start].strip(" 도가이은는")
        )
    return False


def _coordinated_end(ctx: _Text, end: int) -> int:
    """``end``, or the end of the next clause when the clause ending at ``end`` is joined by "-고" to a bare
    predicate of the same sentence (no noun of its own before it: "독특하고 | 예뻐요")."""
    k = ctx.clause_at(max(0, end - 1))
    c = ctx.clauses[k]
    if c.kind != "and" or k + 1 >= len(ctx.clauses) or ctx.clauses[k + 1].sentence != c.sentence:
        return end
    nxt = ctx.clauses[k + 1]
    for m in ctx.morphs[nxt.first : nxt.last + 1]:
        base = m.tag.split("-")[0]
        if base == "MAG":
            continue  # "독특하고 너무 예뻐요"
        return nxt.end if base in _PRED_TAGS or base == "XR" else end
    return end


def _visit_told(ctx: _Text, hit: _Hit, target: Target) -> bool:
    """Whether a time of day is told as a visit: a surface of ``[visit] surfaces`` or a pattern (a clock
    time) needs a sentence that tells no wish, intention or advice."""
    if (target, hit.matcher.surface) in rules().visit or (hit.matcher.pattern_of and target[0] == "occasion"):
        return _tells_visit(ctx, hit)
    return True


def _other_sense(ctx: _Text, hit: _Hit, target: Target, clause_start: int, s_start: int, s_end: int) -> bool:
    """Whether a sense or subject rule of ``review_rules.toml`` drops the mention (another sense of
    the word, or the owner as the clause's subject)."""
    r = rules()
    text = ctx.text
    for before, after, window, keep, surfaces in r.sense.get(target, ()):
        if surfaces and hit.matcher.surface not in surfaces:
            continue
        head = text[max(s_start, hit.start - window) : hit.start]
        if keep is not None and keep.search(head):
            continue  # "내부도 깔끔하고 시원해서": the place named, not the soup
        if (before is not None and before.search(head)) or (
            after is not None and after.search(text[hit.end : min(s_end, hit.end + window)])
        ):
            return True
    whos = r.subject.get(target, ())
    if not whos or r.guest_own.search(text, max(clause_start, hit.start - 4), hit.start):
        return False  # "… 여직원 한분은 불친절 응대에 저희 가족 기분도": the guest's own company
    return any(who.search(text, clause_start, hit.start) for who in whos)


def _absence_adverb_before(ctx: _Text, hit: _Hit) -> int:
    """1 when an absence adverb ("안", "못") stands right before the mention, else 0; not before a noun that
    is no predicate's root ("매장 안 분위기도 너무 좋고": 안 is the inside, while "안 친절해요" negates)."""
    i = bisect_left(ctx.starts, hit.start)
    if i > 0:
        prev = ctx.morphs[i - 1]
        if (
            prev.tag == "MAG"
            and prev.form in rules().p.absence_adverbs
            and not ctx.text[prev.end : hit.start].strip()
            and not _bare_noun_at(ctx.morphs, i)
        ):
            return 1
    return 0


def _bare_noun_at(morphs: Sequence[Morph], i: int) -> bool:
    """Whether morpheme ``i`` is a noun no derivational suffix makes a predicate ("분위기도", not "친절해요")."""
    if i >= len(morphs) or morphs[i].tag not in _NOUN_TAGS:
        return False
    return i + 1 >= len(morphs) or morphs[i + 1].tag.split("-")[0] not in ("XSA", "XSV", "VCP")


def _conditional(
    ctx: _Text, hit: _Hit, target: Target, own: _Clause, s_end: int, absence: int
) -> tuple[bool | None, int, int] | None:
    """The judgement of a mention in a conditional clause, or None when the clause reads on."""
    r = rules()
    text = ctx.text
    convenience = target[0] == "convenience"
    if convenience and r.advice_conditional.search(text, hit.end, own.end):
        return None, hit.start, hit.end  # "발렛하실 거면 다른 데 가세요": advice, no wish
    if not absence and target[0] == "occasion" and r.habitual.match(text, own.end):
        return None  # "회식 때 방문하면 항상 …": a habit, no wish
    if not absence and target[0] == "occasion" and r.prohibition.match(text, own.end):
        return False, own.start, s_end  # "혼자 가면 안 되는 식당": the occasion is not welcome
    if (
        target[0] == "occasion"
        and r.return_visit.match(text, own.end, s_end)
        and not _first_hand(ctx, hit, own)
    ):
        # "다음번 기념일 있으면 또 방문하고 싶어요": a promise to come back, no lack (not a visit told in the same run-on
        # clause: "소주에 육회 먹었습니당종로 오면 … 다시 올게요")
        return None, hit.start, hit.end
    if absence:
        if (
            convenience
            and r.needed_condition.search(text, hit.end, own.end)
            and r.needed_consequence.search(text, own.end, s_end)
        ):
            return True, own.start, s_end  # "예약 안 하면 오래 기다려야 해요": the place takes bookings
        if target[0] == "occasion":
            return (
                None,
                hit.start,
                hit.end,
            )  # "회사 점심이 아니라면 안 가겠지만": a supposition, no visit either way
        return None
    if target[0] == "atmosphere" and r.recommended_if.match(text, own.end):
        # "노포가 취향이라면 여기만한 곳이 없어요": the mood the place is recommended for
        return True, own.start, s_end
    forms = {m.form for m in ctx.morphs[own.first : own.last + 1] if m.end > hit.start}
    if (
        convenience
        and r.factual_conditional.search(text, own.start, own.end)
        and not r.wish.search(text, hit.end, s_end)
        and not r.counterfactual.search(text, hit.end, s_end)
    ):
        return True, own.start, own.end  # "예약하면 테라스에서 먹을 수 있어요": how it works
    if forms & r.p.wish_predicates or r.wish.search(text, hit.end, own.end):
        return False, own.start, own.end
    return None


def _turned(ctx: _Text, hit: _Hit, k: int, s_end: int) -> bool:
    """Whether a contradicted expectation or hearsay ("줄 알았는데", "좋다던데") turns the mention's
    own clause ("좋을 거라 기대했는데": Kiwi ends a clause at 거라/이/라, so the expectation is read
    one clause on)."""
    r = rules()
    own = ctx.clauses[k]
    expectation_end = own.end
    if own.kind == "cause" and k + 1 < len(ctx.clauses) and ctx.clauses[k + 1].sentence == own.sentence:
        expectation_end = ctx.clauses[k + 1].end
    if r.expectation.search(ctx.text, hit.end, expectation_end):
        return True
    said = r.hearsay.search(ctx.text, hit.end, min(s_end, hit.end + 40))
    # "자리예약 … 부탁드린다고 했더니": the guest's own request, no hearsay (the request may be the mention
    # itself: "남은 거 싸 달라고 했더니")
    return said is not None and not r.own_request.search(ctx.text, hit.start, said.end())


def _first_hand(ctx: _Text, hit: _Hit, own: _Clause) -> bool:
    """Whether the mention's clause tells a past use ("룸에서 코스 먹었는데, 직원이 불친절했어요");
    a question asked is no use ("포장 되는지 물어봤는데 안 된대요", "의자 있냐고 여쭤봤는데"), nor is an
    intention ("모임도 가려 했으나, … 안간다")."""
    p = rules().p
    clause = ctx.morphs[own.first : own.last + 1]
    own_after = [m for m in clause if m.start >= hit.end]
    # the past tense may lie inside the surface itself ("밤에 갔더니": 가+았)
    past = [m for m in clause if m.end > hit.start and m.start < hit.end] + own_after
    if (
        1 <= len(own_after) <= 3
        and own_after[0].tag == "VCP"
        and own_after[-1].tag == "EC"
        and own_after[-1].form in p.contrast_endings
    ):
        return True  # "다 탔고 포장인데 수저도 안챙겨주냐": the copula states the fact
    return any(m.tag == "EP" and m.form not in ("시", "으시") for m in past) and not any(
        m.tag in ("EC", "EF", "ETM")
        and (m.form in p.question_endings or m.form in p.continuing_endings or m.form in p.intention_endings)
        for m in own_after
    )


_ASKING: Final = word_set("review_cues", "asking_stems")


def _used_first_hand(ctx: _Text, hit: _Hit) -> bool:
    """Whether the mention's clause tells the reviewer's own past use of the service ("룸을 예약했어요"),
    not a question asked about it ("포장 문의드렸는데") nor the place's own past ("배달도 하셨는데")."""
    own = ctx.clauses[ctx.clause_at(hit.start)]
    if not _first_hand(ctx, hit, own):
        return False
    after = [m for m in ctx.morphs[own.first : own.last + 1] if m.start >= hit.start]
    if any(m.form in _ASKING for m in after):
        return False
    # "예전에는 배달도 하셨는데": an honorific past without a favour done for the guest (주다) is the place's own
    # doing, not the guest's use ("포장해 주셨어요" is one)
    honorific = any(m.tag == "EP" and m.form in ("시", "으시") for m in after)
    return not honorific or any(m.form == "주" and m.tag.startswith("V") for m in after)


def _read_on(
    ctx: _Text,
    hit: _Hit,
    own: _Clause,
    counts: _Counts,
    *,
    steps: int,
    fact: bool,
    carry_cause: bool,
    own_subject: bool,
) -> tuple[_Clause, _Counts]:
    """Read on from the mention's clause into up to ``steps`` next clauses of the same judgement: past
    a clause with no predicate, and (``carry_cause``) past a cause or contrast connective when nothing
    judged yet; stop before another mention. Returns the last clause read and the summed counts."""
    absence, difficulty, sticky, strong, uncertain = counts
    last = own
    for _ in range(steps):
        has_pred = _has_pred(ctx, last, hit.start)
        if last.kind in ("final", "question", "cond") and has_pred:
            break
        fragment = not has_pred
        carry = fragment or (
            last.kind in ("cause", "contrast")
            and carry_cause
            and not absence
            and not difficulty
            and not strong
        )
        if not carry or ctx.clause_at(last.start) + 1 >= len(ctx.clauses):
            break
        nxt = ctx.clauses[ctx.clause_at(last.start) + 1]
        if not has_pred and nxt.sentence != last.sentence and not _waits(ctx, last, hit):
            break  # "분위기 최고. 역에서 멀어요": a verbless sentence ends; "주차 자리가. 없어요" reads on
        j = bisect_left(ctx.hit_starts, nxt.start)
        if j < len(ctx.hit_starts) and ctx.hit_starts[j] < nxt.end:
            break  # the next clause is about something else
        a, d, st, sp, u = _words(ctx, nxt, nxt.start, fact=fact, own_subject=own_subject)
        absence, difficulty, sticky, strong, uncertain = (
            absence + a,
            difficulty + d,
            sticky or st,
            strong or sp,
            uncertain or u,
        )
        last = nxt
    return last, (absence, difficulty, sticky, strong, uncertain)


_PARTICLE_FORMS: Final = word_set("review_tags", "stop_particles")


def _waits(ctx: _Text, c: _Clause, hit: _Hit) -> bool:
    """Whether a verbless sentence still waits for its judgement: its last word (symbols aside) ends in
    a particle ("주차 자리가."), or it is the bare one-word mention ("주차. 불가능해요")."""
    words = [m for m in ctx.morphs[c.first : c.last + 1] if not m.tag.startswith("S")]
    if not words:
        return True
    if words[-1].tag.startswith("J") or words[-1].form in _PARTICLE_FORMS:
        return True  # Kiwi may tag a particle after a full stop as a noun ("주차가.": 가/NNG)
    return hit.matcher.single and all(hit.start <= m.start and m.end <= hit.end for m in words)


def _verdict(
    ctx: _Text,
    hit: _Hit,
    target: Target,
    start: int,
    last: _Clause,
    counts: _Counts,
    *,
    purpose: bool,
    turned: bool,
) -> tuple[bool | None, int, int]:
    """The polarity of a mention from the words and frames of the clauses read (``start`` to the end
    of ``last``)."""
    r = rules()
    text = ctx.text
    absence, difficulty, sticky, strong, uncertain = counts
    if target in r.complaints or hit.matcher.negative:
        difficulty = (
            0  # "소음이 견디기 힘든 정도", "시끄러워 불편했어요": the hardship is the complaint itself
        )
    end = last.end
    if target in r.complaints and r.only_flaw.match(text, hit.end):
        return True, start, end  # "소음만 아니었음 더 좋았을텐데": the one flaw, said to be there
    if (
        (target in r.complaints or hit.matcher.negative)
        and absence
        and r.complaint_cause.search(text, hit.end, end)
    ):
        absence = (
            0  # "떠드는 소리 때문에 집중이 안 됨": the consequence's 안 negates nothing of the complaint
        )
    if target in r.facts and absence and r.manner.search(text, max(start, hit.start - 10), end):
        return True, start, end  # "제대로 구워주지도 않음": the service was there, done badly
    if target[0] == "convenience" and (absence or difficulty or sticky) and r.quality_of.match(text, hit.end):
        return (
            True,
            start,
            end,
        )  # "와이파이 속도 느림", "예약 관리가 안 되네요": a quality of the service was judged
    if target in r.complaints and absence and r.no_return.search(text, hit.end, end):
        absence = max(0, absence - len(r.no_return.findall(text, hit.end, end)))  # "떠들고 … 다시는 안갈매장"
    if target[0] == "convenience" and absence and r.booked_without.match(text, hit.start):
        # "예약 안했더니 3-40분 기다렸어요": the guest went without, the place takes it
        return True, start, end
    if uncertain or (last.kind == "question" and not absence and not difficulty):
        return None, start, end
    if r.hypothetical.search(text, hit.end, end) or r.rhetorical.match(text, end):
        return None, start, end  # "집앞이었다면 자주 포장해서 먹었을 것 같다", "깔끔함 뭐해"
    if purpose and not difficulty and not absence:
        return strong, start, end  # "혼밥하기엔 좀 눈치보여요" / "… 딱 좋아요"
    if (
        r.rather_not.search(text, hit.end, end)
        or r.rather_than.match(text, hit.end, end)
        or r.counterfactual.search(text, hit.end, end)
        or (target[0] == "convenience" and r.wish.search(text, hit.end, end))
    ):
        return False, start, end
    negated = (difficulty > 0) != (absence % 2 == 1)
    if sticky and not (difficulty > 1 and absence % 2 == 1):
        negated = True
    positive = not negated
    if turned:
        positive = not positive
    return positive, start, end


def _modified(morphs: Sequence[Morph], start: int) -> bool:
    """Whether the word before ``start`` is an adnominal form ("고급진 분위기", "밝은 분위기")."""
    i = bisect_left([m.start for m in morphs], start)
    return i > 0 and morphs[i - 1].tag == "ETM"


def _has_strong(ctx: _Text, start: int, end: int) -> bool:
    """Whether a clear positive word (``strong_positive``) lies between ``start`` and ``end``."""
    strong = rules().p.strong_positive
    for m in ctx.morphs[bisect_left(ctx.starts, start) :]:
        if m.start >= end:
            break
        base = m.tag if "-" not in m.tag else m.tag.split("-")[0]
        if m.form in strong and base in _STRONG_TAGS:
            return True
    return False


def _span(text: str, start: int, end: int, clause_end: int) -> tuple[int, int]:
    """The evidence span: the whole clause(s), trimmed of surrounding spaces."""
    stop = max(end, clause_end)
    while stop > end and text[stop - 1].isspace():
        stop -= 1
    while start < end and text[start].isspace():
        start += 1
    return start, stop


def _read_free_text(
    votes: _Votes, source: str, text: str, morphs: Sequence[Morph], menu: _MenuVocab, review: int | None
) -> None:
    if not morphs:
        return
    hits = _find_hits(text, morphs)
    if hits:
        _read_hits(votes, source, text, morphs, hits, review)
    _read_food(votes, source, text, morphs, menu)


def _read_hits(
    votes: _Votes,
    source: str,
    text: str,
    morphs: Sequence[Morph],
    hits: list[_Hit],
    review: int | None,
    weight: int = 1,
    tag: bool = False,
) -> None:
    ctx = _Text(
        text, morphs, [m.start for m in morphs], _clauses(text, morphs), sorted({h.start for h in hits})
    )
    # one vote per target per overlapping mention: keep the earliest, longest hit
    hits.sort(key=lambda h: (h.start, -(h.end - h.start)))
    told = [(h.start, h.end, h.matcher.targets) for h in hits if h.matcher.told]
    if told:
        # a told mention stands for every mention of its value it overlaps ("등갈비에 소주한잔 하면 세상을 다 가진 것
        # 같아요": the habit is told, the surface "에 소주" inside it is not judged as a conditional)
        hits = [
            h
            for h in hits
            if h.matcher.told
            or not any(s < h.end and h.start < e and set(ts) & set(h.matcher.targets) for s, e, ts in told)
        ]
    # hits come in start order, so an earlier hit of a target overlaps this one exactly when the
    # furthest end among them lies beyond this start (linear, not quadratic, in the mentions)
    taken: dict[Target, int] = {}
    seen: set[Target] = set()
    pending: list[
        tuple[Target, _Ev, bool, bool]
    ] = []  # (target, evidence, against, used): voted once all are read
    weak = rules().weak
    for h in hits:
        targets = [t for t in h.matcher.targets if taken.get(t, -1) <= h.start]
        if tag:
            targets = [t for t in targets if t not in seen]
        if not targets:
            continue
        for t in targets:
            taken[t] = max(taken.get(t, -1), h.end)
            seen.add(t)
            positive, clause_start, clause_end = _judge(ctx, h, t)
            if positive is None or (not positive and (t, h.matcher.surface) in rules().quality):
                continue  # "안주가 다양하진 않지만": a quality judged poor, nothing against the value
            if positive and weak and (t, h.matcher.surface) in weak and not _weak_judged(ctx, h, clause_end):
                continue  # "그날의 분위기", "고급진 분위기": a weak surface does not judge the value
            if positive and not _visit_told(ctx, h, t):
                continue  # "저녁에 가서 또 먹고싶어요": a time of day, no visit told
            if tag:
                ev = _Ev("reviewKeywords", text, tag_count=weight)
            else:
                start, end = _span(text, min(clause_start, h.start), h.end, clause_end)
                ev = _Ev(source, text[start:end], start, end)
            if h.matcher.negative:
                # a negative surface only ever votes against; negating it ("노키즈존 아님") says
                # nothing about a play room, so it is neutral
                if positive:
                    pending.append((t, ev, True, False))
                elif t in rules().negation_turns and rules().denied_as_merit.match(text[h.end :]):
                    # "시끄럽지도 않고": the complaint denied, for a value whose opposite it names
                    pending.append((t, ev, False, False))
                continue
            used = positive and t in rules().use_outweighs and _used_first_hand(ctx, h)
            pending.append((t, ev, not positive, used))
    at_home = not tag and _takeaway_only(text, pending)
    for t, ev, against, used in pending:
        if at_home and not against and t in rules().needs_visit:
            continue  # "포장해갈 수 있어서 좋아요 … 가족들과 함께 먹기 좋아요": a family fed at home
        votes.vote(t, ev, weight, against=against, review=review, used=used)


def _takeaway_only(text: str, pending: Sequence[tuple[Target, _Ev, bool, bool]]) -> bool:
    """Whether one review tells only a takeaway, a delivery or a parcel: a takeaway value read for it (or a parcel
    or pick-up word) and no meal at the place (``review_rules.toml`` [takeaway])."""
    r = rules()
    if not r.needs_visit or not any(t in r.needs_visit and not against for t, _, against, _ in pending):
        return False
    took = any(t in r.takeaway_values and not against for t, _, against, _ in pending)
    return (took or r.takeaway_cue.search(text) is not None) and r.dine_in.search(text) is None


_NOUN_TAGS = frozenset({"NNG", "NNP"})


def _compact(s: str) -> str:
    return "".join(s.split())


@dataclass(frozen=True)
class _MenuVocab:
    dishes: frozenset[str] = frozenset()
    words: frozenset[str] = frozenset()

    @classmethod
    def of(cls, names: Sequence[str]) -> _MenuVocab:
        return cls(frozenset(menu_dish_names(names)), frozenset(menu_words(names)))


def _is_dish(name: str, forms: Sequence[str], menu: _MenuVocab) -> bool:
    if len(name) < 2 or name in FOOD_STOPWORDS:
        return False
    if name in menu.dishes or name in FOOD_DISHES:
        return True
    if len(forms) >= 2 and forms[-1] in FOOD_HEADS:
        return all(f in FOOD_MODIFIERS or f in FOOD_DISHES or f in menu.words for f in forms[:-1])
    return False


_PARTICLES = PARTICLES  # in order: the first that leaves a known dish is stripped


# _PARTICLES by length, longest first: a form ends with at most one particle of each length, so
# trying its last two characters, then its last one, tries them in _PARTICLES' order
_PARTICLES_BY_LEN = tuple(
    (k, frozenset(p for p in _PARTICLES if len(p) == k))
    for k in sorted({len(p) for p in _PARTICLES}, reverse=True)
)
_PARTICLE_LAST = frozenset(p[-1] for p in _PARTICLES)


def _strip_particle(m: Morph, menu: _MenuVocab) -> Morph | None:
    """``m`` without a trailing particle when that leaves a known dish, else None."""
    form = m.form
    if form[-1:] not in _PARTICLE_LAST:  # no particle can end it (the common case)
        return None
    if m.end - m.start != len(form) or form in menu.dishes or form in FOOD_DISHES:
        return None
    for k, particles in _PARTICLES_BY_LEN:
        if len(form) - k >= 2 and form[-k:] in particles:
            base = form[:-k]
            if base in menu.dishes or base in FOOD_DISHES:
                return Morph(base, m.tag, m.start, m.end - k)
    return None


def _read_food(votes: _Votes, source: str, text: str, morphs: Sequence[Morph], menu: _MenuVocab) -> None:
    runs: list[list[Morph]] = []
    run: list[Morph] = []
    for m in morphs:
        if m.tag in _NOUN_TAGS:
            if run and text[run[-1].end : m.start] not in ("", " "):
                runs.append(run)
                run = []
            stripped = _strip_particle(m, menu)
            if stripped is not None:  # Kiwi glued an unknown dish to its particle: "오리로스구이랑"
                run.append(stripped)
                runs.append(run)
                run = []
                continue
            run.append(m)
        elif run:
            runs.append(run)
            run = []
    if run:
        runs.append(run)
    for r in runs:
        i = 0
        while i < len(r):
            for j in range(min(len(r), i + 5), i, -1):
                start, end = r[i].start, r[j - 1].end
                name = _compact(text[start:end])
                if _is_dish(name, [m.form for m in r[i:j]], menu):
                    votes.food_mention(name, _Ev(source, text[start:end], start, end))
                    i = j
                    break
            else:
                i += 1


_BRACKETS = re.compile(r"\([^)]*\)|\[[^\]]*\]|\{[^}]*\}|<[^>]*>")
_MENU_SPLIT = re.compile(r"[+/,&·]| 와 | 및 ")


def _menu_parts(names: Sequence[str]) -> list[list[str]]:
    """Words of each dish in menu item names ("양념게장정식+된장찌개(1인분)" → [[양념게장정식], [된장찌개]])."""
    parts: list[list[str]] = []
    for raw in names:
        name = raw
        if ")" in name and "(" not in name.split(")", 1)[0]:  # "점심)즉석불고기"
            name = name.split(")", 1)[1]
        name = _BRACKETS.sub(" ", name)
        for part in _MENU_SPLIT.split(name):
            words = [w for w in part.split() if not w.isdigit()]
            if words:
                parts.append(words)
    return parts


def _usable(name: str) -> bool:
    return len(name) >= 2 and not any(c.isdigit() for c in name) and name not in FOOD_STOPWORDS


def menu_dish_names(names: Sequence[str]) -> set[str]:
    """Compact dish names in menu item names: whole dishes and the head word of multi-word ones
    ("양념게장정식+된장찌개(1인분)" → 양념게장정식, 된장찌개; "클래식 까르보나라" → 클래식까르보나라, 까르보나라)."""
    out: set[str] = set()
    for words in _menu_parts(names):
        for cand in ("".join(words), words[-1]):
            if _usable(cand):
                out.add(cand)
    return out


def menu_words(names: Sequence[str]) -> set[str]:
    """Every word of the menu names (used as dish modifiers: "오리" + "구이")."""
    return {w for words in _menu_parts(names) for w in words if _usable(w)}


# --- short fields (no Kiwi) ----------------------------------------------------------------------
_HOURS_RANGE = re.compile(r"(\d{1,2}):(\d{2})\s*~\s*(\d{1,2}):(\d{2})")
_HOURS_24 = re.compile(r"매일\s*00:00\s*~\s*24:00|24시간\s*(?:영업|운영)?")
# every listed day round the clock ("화~일 00:00 ~ 24:00", "월,화,수 00:00 ~ 23:59"): a 24-hour place on the
# days it opens — a local's "24시" (audit r15 F1: such a place was missed, and "없어서" said)
_DAYS_24 = re.compile(
    r"\s*(?:매일|[월화수목금토일])[월화수목금토일~,\s]*00:00\s*~\s*(?:24:00|23:59)\s*(?:\(.*\))?\s*"
)
_TITLE_24 = re.compile(r"(?<!\d)24시(?!\d)")
LATE_CLOSE_MIN = 2 * 60  # closing at or after 02:00 (next day) counts as late-night
LATE_CLOSE_MAX = 8 * 60  # ... up to 08:00; later "closing" times are data errors


def _read_hours(votes: _Votes, hours: str | None, title: str) -> None:
    is_24 = False
    if hours:
        m24 = _HOURS_24.search(hours) or _DAYS_24.fullmatch(hours)
        if m24 is not None:
            is_24 = True
            span = m24.group().rstrip()
            votes.vote(
                ("convenience", "24시"),
                _Ev("businessHours", span, m24.start(), m24.start() + len(span)),
            )
        else:
            for m in _HOURS_RANGE.finditer(hours):
                h1, m1, h2, m2 = (int(g) for g in m.groups())
                open_, close = h1 * 60 + m1, h2 * 60 + m2
                if close > 1440:
                    close -= 1440
                elif close >= open_:
                    continue  # same-day range
                if LATE_CLOSE_MIN <= close <= LATE_CLOSE_MAX:
                    votes.vote(("features", "심야영업"), _Ev("businessHours", m.group(), m.start(), m.end()))
                    break
    if not hours or is_24:
        mt = _TITLE_24.search(title)
        if mt is not None:
            votes.vote(("convenience", "24시"), _Ev("title", mt.group(), mt.start(), mt.end()))


def _category_segments(category: str) -> list[tuple[str, int, int]]:
    segs: list[tuple[str, int, int]] = []
    pos = 0
    for raw in category.split(">"):
        lead = len(raw) - len(raw.lstrip())
        seg = raw.strip()
        if seg:
            segs.append((seg, pos + lead, pos + lead + len(seg)))
        pos += len(raw) + 1
    return segs


def _read_category(votes: _Votes, category: str) -> None:
    segs = _category_segments(category)
    if not segs:
        return
    leaf = segs[-1][0]
    fired: set[Target] = set()
    for names, targets in CATEGORY_RULES:
        for seg, start, end in segs:
            if seg not in names or (seg in CATEGORY_LEAF_ONLY and seg != leaf):
                continue
            for t in targets:
                if t not in fired:
                    fired.add(t)
                    votes.vote(t, _Ev("category", seg, start, end))
            break


def _read_menus(votes: _Votes, names: Sequence[str]) -> None:
    rules = _compiled().menu_rules
    for i, name in enumerate(names):
        for rx, t in rules:
            m = rx.search(name)
            if m is not None:
                votes.vote(t, _Ev(f"menus[{i}].name", m.group(), m.start(), m.end()))


def _read_tags(votes: _Votes, tags: dict[str, int]) -> list[tuple[str, int]]:
    """Map known tags; return phrase-style tags (to be read as free text)."""
    total = sum(n for n in tags.values() if n > 0)
    phrases: list[tuple[str, int]] = []
    for tag, n in tags.items():
        key = tag.strip()
        rule = REVIEW_KEYWORD_TAGS.get(key)
        if rule is None:
            if n >= MIN_PHRASE_TAG_COUNT and key and _compiled().any_surface.search(key):
                phrases.append((tag, n))
            continue
        fld, value, min_count = rule
        if n < min_count:
            continue
        if min_count > 1 and total >= TAG_SHARE_FROM_TOTAL and n / total < TAG_SHARE_MIN:
            continue
        votes.vote((fld, value), _Ev("reviewKeywords", tag, tag_count=n), weight=n)
    return phrases


# --- the enricher ---------------------------------------------------------------------------------
@dataclass
class _Job:
    votes: _Votes
    menu: _MenuVocab
    texts: list[tuple[str, str, int | None]]  # (source, text, review index)
    tag_phrases: list[tuple[str, int]]
    n_reviews: int = 0


class OfflineEnricher:
    """Kiwi + lexicons + rules; deterministic, no network, no model download."""

    name: str = "offline"

    def __init__(self, settings: Settings | None = None) -> None:
        self.support = (
            Support(
                settings.enrich_min_reviews,
                settings.enrich_min_share,
                settings.enrich_support_from,
                settings.enrich_fact_min_reviews,
            )
            if settings is not None
            else Support()
        )

    def enrich(self, doc: CrawlDocument) -> Enrichment:
        return self.enrich_many([doc])[0]

    def enrich_many(self, docs: Sequence[CrawlDocument]) -> list[Enrichment]:
        jobs: list[_Job] = []
        flat: list[str] = []
        for doc in docs:
            votes = _Votes()
            names = [m.name for m in doc.menus]
            phrases = _read_tags(votes, doc.reviewKeywords)
            _read_category(votes, doc.category)
            _read_hours(votes, doc.businessHours, doc.title)
            _read_menus(votes, names)
            texts: list[tuple[str, str, int | None]] = [
                (f"reviews[{i}]", r, i) for i, r in enumerate(doc.reviews) if r.strip()
            ]
            n_reviews = len(texts)
            if doc.description.strip():
                texts.append(("description", doc.description, None))
            job = _Job(votes, _MenuVocab.of(names) if texts else _MenuVocab(), texts, phrases, n_reviews)
            jobs.append(job)
            flat.extend(t for _, t, _ in texts)
            flat.extend(tag for tag, _ in phrases)
        # a stream, in the order of ``flat``: each text is read while Kiwi tokenizes the next ones
        tokens = tokenize_pairs_iter(flat) if flat else iter(())
        for job in jobs:
            for source, text, review in job.texts:
                _read_free_text(job.votes, source, text, next(tokens), job.menu, review)
            for tag, n in job.tag_phrases:
                _read_tag_phrase(job.votes, tag, n, next(tokens))
        return [job.votes.result(job.n_reviews, self.support) for job in jobs]


def _read_tag_phrase(votes: _Votes, tag: str, count: int, morphs: Sequence[Morph]) -> None:
    """A phrase tag ("주차하기 편해요": 12) votes ``count`` times for what it says."""
    if not morphs:
        return
    hits = _find_hits(tag, morphs)
    if hits:
        _read_hits(votes, "reviewKeywords", tag, morphs, hits, None, weight=count, tag=True)
