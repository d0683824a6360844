"""Offline query understanding (docs/design.md): intent, entities and slots without an LLM.

One :class:`OfflineNLU` per process; everything is compiled in the constructor and
:meth:`OfflineNLU.parse` is pure and fast (well under a millisecond after Kiwi's warm-up).

How a query is read
    1. Normalise (:func:`~matjip.nlu.normalize.normalize_query`, full-width ASCII, noise runs)
       and cut at :data:`~matjip.nlu.normalize.MAX_QUERY_CHARS` characters (noted).
    2. Kiwi morphemes (the shared, cached instance) give word and morpheme boundaries.
    3. Candidate spans come from the gazetteer (places), the vocabulary (titles, menus) and the
       query lexicons (category, convenience, atmosphere, occasion). Overlaps are resolved by
       longest match, then by source priority: lexicon > place > curated menu > title > mined
       menu > weak title.
    4. Slots (price, time, count, party, ordinal, lines) and cues (compare, search, ask, order,
       pronoun, follow-up place, user location, smalltalk, injection) are regexes.
    5. Intent: ``compare`` with two titles, or a compare cue with one title / two ordinals /
       two menus or cuisines; ``information`` with a title (unless the query searches for
       something else) or a reference ("거기", "두 번째") or a bare question about a place
       ("몇 시까지 해?"); otherwise ``search``.
    6. Confidence from the clarity of the cues and the share of content words understood;
       content words nobody understood are returned as ``unknown_terms``.

Location mode
    A near marker after the place ("근처", "주변", "앞", "쪽", "가까운" …) → ``near``; an
    in-region marker ("에 있는", "안에서", "내", "에서") after a si/gun/gu or sido (or "에 있는"
    after a dong) → ``in``. Without a marker: stations and hot places → near, si/gun/gu and sido
    → in, dongs → near.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal, cast

from matjip.nlu import terms as L
from matjip.nlu._regex import FastRegex
from matjip.nlu.models import (
    ENTITY_TYPES,
    Ask,
    Entities,
    LocationMode,
    NLUResult,
    Order,
    PartySpec,
    PriceSpec,
    Smalltalk,
    TimeSpec,
)
from matjip.nlu.normalize import MAX_QUERY_CHARS, normalize_query
from matjip.nlu.slots import (
    Counted,
    Span,
    parse_count,
    parse_lines,
    parse_ordinals,
    parse_party,
    parse_price,
    parse_time,
)
from matjip.nlu.strategy import detect_strategy
from matjip.nlu.strategy import rules as strategy_rules
from matjip.nlu.vocabulary import VocabMatch, Vocabulary, lower_same_length
from matjip.text.kiwi import Morph, tokenize
from matjip.words import word_set, words

if TYPE_CHECKING:
    from matjip.geo.gazetteer import Gazetteer

log = logging.getLogger(__name__)

_FULLWIDTH = {i: i - 0xFEE0 for i in range(0xFF01, 0xFF5F)}
_HANGUL_SYLLABLE = re.compile(r"[가-힣]")
_HANGUL_ANY = re.compile(r"[가-힣ㄱ-ㅎㅏ-ㅣ]")
_LETTER = re.compile(r"[^\W\d_]")
_STRUCTURED = re.compile(
    r"[{\[]\s*\"[^\"]{1,40}\"\s*:|</?[a-z]+[^>]*>|\b(?:select|insert|update|delete|drop)\b.+\b(?:from|into|table|set)\b",
    re.I,
)
_JAMO_ONLY = re.compile(r"^[\sㄱ-ㅎㅏ-ㅣ!?.~^]+$")

# priorities for equal-length overlaps
_P_LEXICON, _P_PLACE, _P_MENU, _P_TITLE, _P_DATA_MENU, _P_WEAK_TITLE = 5, 4, 3, 2, 1, 0

_PARTICLES: Final = tuple(sorted(words("query_words", "particles"), key=len, reverse=True))
_FUNCTIONAL_TAG_PREFIXES: Final = words("text_tags", "functional_prefixes")
_NOUNISH_TAGS: Final = word_set("text_tags", "nounish")
_CONTENT_TAGS: Final = word_set("text_tags", "query_content")
_INSIDE_MARKERS: Final = words("gazetteer", "inside_markers")  # "문정동 안에", "롯데월드몰에 있는": in it

_BRANCH_AFTER = re.compile(
    r"^\s?(?P<b>(?P<stem>[0-9A-Za-z가-힣]{1,12}?)(?:본점|직영점|지점|분점|호점|점))"
    r"(?=$|[^0-9A-Za-z가-힣]|은|는|이|가|에|도|의|을|를|까지|에서|이랑|랑|하고|과|와|보다|중|영업|메뉴|주차|전화|위치|몇|어디|예약|가격)"
)
_EXCLUDE_AFTER = re.compile(  # "마라 들어간 데는 빼줘": what a dish has in it, ruled out
    r"^\s*(?:(?:들어간|들어가는|들어있는|들어 있는|넣은)\s*(?:데|곳|거|것|건|집|메뉴)?)?"
    r"\s*(?:은|는|이|가|을|를|도)?\s*(?:말고|말구|빼고|빼구|빼줘|빼 줘|빼주|제외(?:하고)?|싫(?:어|고|은)|별로(?:야|고|인)?|아닌\s*(?:곳|데|거)|아니고"
    r"|못\s*먹(?!\s*어\s*보|어\s*봤|어\s*본|어봤|어본|어보))"
)
_INGREDIENT = re.compile(
    r"(?<![가-힣])(?:"
    + "|".join(sorted(map(re.escape, L.INGREDIENTS), key=len, reverse=True))
    + r")(?=[가-힣]?(?:[^가-힣]|$))"
)
_INGREDIENT_CUE = re.compile(
    r"^\s*(?:은|는|이|가|에|도)?\s*(?:" + "|".join(map(re.escape, L.INGREDIENT_CUES)) + ")"
)
_BARE_NEAR = re.compile(
    r"(?<![가-힣])(?:근처|주변|근방|인근|주위|부근|가까이|가까운\s*(?:곳|데|집|식당|가게)(?!\s*(?:부터|순)))"
)
_NEAR_WORD = re.compile(r"근처|주변|근방|인근|부근|주위|앞(?!으로)|옆|가까이|에서\s*가까운")
_REFERENT_BEFORE = re.compile(r"(?:번\s*째|째|(?<![가-힣])(?:그|저|이|거기|저기|마지막|첫))\s*$")
_TRAILING_PARTICLE = re.compile(r"(?:에서|에|의|쪽)$")
_HANGUL_OR_LATIN = re.compile(r"[가-힣A-Za-z]")
_PERSONAL_PLACES: Final = word_set("query_words", "personal_places")
# a word ending like a predicate ("배고파", "출출한데", "심심해서") is no landmark
_PREDICATE_END: Final[re.Pattern[str]] = re.compile(
    r"(?:고파|고픈데|고프다|한데|는데|인데|해서|어서|아서|니까|싶어|싶다|했어|해요|하다|네요|거든|잖아)$"
)

_NOT_LANDMARKS: Final = word_set("query_words", "not_landmarks") - _PERSONAL_PLACES
_AREA_SUFFIXES: Final = words("query_words", "area_suffixes")
_LOOKUP_TYPES: Final[frozenset[str]] = frozenset({"legal_dong", "admin_dong", "subway_station"})
_EXPLICIT_ASKS: Final = word_set("dialogue_cues", "explicit_asks")
_GENERIC_RATING = re.compile(r"어때|괜찮(?:아|나|니|냐|아요|나요|을까|은가)")
_RUNS = re.compile(r"([^\d])\1{3,}")
_MENU_HEAD_FOLLOWERS: Final = (*words("query_words", "menu_head_followers"), *_PARTICLES)
_BEFORE_SINGLE: Final = frozenset(words("query_words", "before_single"))
_BEFORE_ENDINGS: Final = tuple(words("query_words", "before_endings"))
_BEFORE_EVENTS: Final = frozenset(words("query_words", "before_events"))


@dataclass(slots=True)
class _Cand:
    start: int
    end: int
    kind: str  # location / title / menu / category / convenience / atmosphere / occasion
    values: tuple[str, ...]
    priority: int
    weak: str | None = None
    extended: bool = False


@dataclass(slots=True)
class _Scan:
    """One message as the passes of :meth:`OfflineNLU._parse` read it: the text and its boundaries,
    then what each pass finds. Passes add the spans they understand to ``consumed`` (what is left
    are the unknown terms) and their observations to ``notes``."""

    text: str
    notes: list[str]
    has_hangul: bool = False
    lang: Literal["ko", "other"] = "ko"
    injection: list[Span] = field(default_factory=list)
    structured: bool = False
    # words (_read_words)
    lower: str = ""
    morphs: list[Morph] = field(default_factory=list)
    word_starts: set[int] = field(default_factory=set)
    word_ends: set[int] = field(default_factory=set)
    morph_at: dict[int, Morph] = field(default_factory=dict)
    morph_ends: set[int] = field(default_factory=set)
    starts_ok: set[int] = field(default_factory=set)
    consumed: list[Span] = field(default_factory=list)
    # cues (_read_cues)
    compare_spans: list[Span] = field(default_factory=list)
    search_spans: list[Span] = field(default_factory=list)
    asks_raw: list[tuple[str, int, int]] = field(default_factory=list)
    # entities (_accept, _read_entities)
    personal_place: bool = False
    entities: Entities = field(default_factory=Entities)
    exclude: Entities = field(default_factory=Entities)
    # slots (_read_slots)
    price: PriceSpec | None = None
    time: TimeSpec | None = None
    counted: Counted = field(default_factory=Counted)
    party: PartySpec = field(default_factory=PartySpec)
    ordinals: list[int] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    order: Order | None = None
    # references, smalltalk, location, intent
    followup_spans: list[Span] = field(default_factory=list)
    pronoun_spans: list[Span] = field(default_factory=list)
    user_spans: list[Span] = field(default_factory=list)
    smalltalk: Smalltalk | None = None
    user_location: bool = False
    location_mode: LocationMode | Literal["none"] = "none"
    intent: str = "search"
    asks: list[Ask] = field(default_factory=list)
    asked: list[Ask] = field(default_factory=list)


def _normalize(text: str) -> str:
    """:func:`normalize_query`, then full-width ASCII folded and noise runs dropped."""
    t = normalize_query(text).translate(_FULLWIDTH)
    t = _RUNS.sub(" ", t)  # "ㅋㅋㅋㅋㅋ", "!!!!!!", "가가가가…": noise, dropped
    return " ".join(t.split())


def _alternation(patterns: Iterable[str]) -> str:
    ordered = sorted(set(patterns), key=lambda p: (-len(re.sub(r"\\.|[()?:*+|\[\]{}]", "", p)), p))
    return "|".join(f"(?:{p})" for p in ordered)


class _Lexicon:
    """One kind of lexicon compiled into a single regex with a group per canonical value."""

    def __init__(self, table: dict[str, tuple[str, ...]], flags: int = re.IGNORECASE) -> None:
        self.names: dict[str, str] = {}
        parts: list[tuple[int, str]] = []
        for i, (canonical, patterns) in enumerate(table.items()):
            if not patterns:
                continue
            group = f"g{i}"
            self.names[group] = canonical
            for p in patterns:
                weight = len(re.sub(r"\\.|[()?:*+|\[\]{}]", "", p))
                parts.append((weight, f"(?P<{group}_{len(parts)}>{p})"))
        parts.sort(key=lambda x: -x[0])
        self.regex = FastRegex("|".join(p for _, p in parts), flags)

    def finditer(self, text: str) -> Iterable[tuple[str, int, int]]:
        for m in self.regex.finditer(text):
            if m.lastgroup is None or m.end() == m.start():
                continue
            group = m.lastgroup.rsplit("_", 1)[0]
            yield self.names[group], m.start(), m.end()


class OfflineNLU:
    """Rule- and statistics-based NLU over Kiwi, the gazetteer, the index vocabulary and lexicons."""

    def __init__(self, vocabulary: Vocabulary, gazetteer: Gazetteer | None = None) -> None:
        self.vocabulary = vocabulary
        self.gazetteer = gazetteer
        if gazetteer is not None:
            vocabulary.ensure_place_names(_gazetteer_names(gazetteer))
        self._entity_lexicons: dict[str, _Lexicon] = {
            "category": _Lexicon(L.CATEGORY),
            "convenience": _Lexicon(L.CONVENIENCE),
            "atmosphere": _Lexicon(L.ATMOSPHERE),
            "occasion": _Lexicon(L.OCCASION),
        }
        self._ask = _Lexicon(L.ASK)
        self._order = _Lexicon(L.ORDER)
        self._smalltalk = _Lexicon(L.SMALLTALK)
        self._compare = FastRegex(_alternation(L.COMPARE_CUES), re.IGNORECASE)
        self._search = FastRegex(_alternation(L.SEARCH_CUES), re.IGNORECASE)
        self._pronoun = FastRegex(r"(?<![가-힣])(?:" + _alternation(L.PRONOUN) + ")")
        self._followup = FastRegex(r"(?<![가-힣])(?:" + _alternation(L.FOLLOWUP_PLACE) + ")")
        self._user_loc = FastRegex(r"(?<![가-힣])(?:" + _alternation(L.USER_LOCATION) + ")", re.IGNORECASE)
        self._injection = FastRegex(_alternation(L.INJECTION), re.IGNORECASE)
        self._near_after = re.compile(
            r"^\s*(?:역)?\s*(?:에서|에|의)?\s*(?:" + _alternation(L.NEAR_MARKERS) + ")"
        )
        self._in_after = re.compile(r"^\s*(?:" + _alternation(L.IN_MARKERS) + ")")
        self._function_words = L.FUNCTION_WORDS | L.not_condition_words()

    # --- public --------------------------------------------------------------------------------

    def parse(self, text: str) -> NLUResult:
        """Understand one user message. Never raises; hostile input yields low confidence."""
        try:
            raw = text if isinstance(text, str) else str(text)
            result = self._parse(raw)
            spec = detect_strategy(_normalize(raw[:MAX_QUERY_CHARS]))
            if any(loc in strategy_rules().not_places for loc in result.entities.location):
                # "3시에서 5시 사이", "A랑 B 사이": "사이" is no place (사이동)
                places = [loc for loc in result.entities.location if loc not in strategy_rules().not_places]
                result.entities = result.entities.model_copy(update={"location": places})
                if not places and result.location_mode != "none":
                    result.location_mode = "none"
            if spec.strategy == "route" and result.entities.title:
                # "잠실 가는 길목에 카페": a word of the route is no restaurant's name ("길목")
                said = set(strategy_rules().route.words)
                titles = [t for t in result.entities.title if t.replace(" ", "") not in said]
                result.entities = result.entities.model_copy(update={"title": titles})
                if not titles and result.intent == "information":
                    result.intent = "search"  # it was about the restaurant the word named
            named = bool(result.entities.location) and not spec.overseas and spec.strategy != "route"
            if named and (spec.origin is None or spec.strategy == "course"):
                # "건대입구역 도보 7분", "성수 점심-카페-저녁 코스": the place named is where it starts
                place = result.entities.location[0]
                first = place.split()[0]
                if first != place and self.gazetteer is not None and self.gazetteer.best(first) is not None:
                    place = first  # "여의도 더현대 구경하고": the area is 여의도
                spec = spec.model_copy(update={"origin": place})
            result.strategy = spec
            return result
        except Exception as exc:  # a bug must not take the turn down
            log.exception("offline NLU failed")
            return NLUResult(confidence=0.0, notes=[f"nlu_error:{type(exc).__name__}"])

    # --- internals -----------------------------------------------------------------------------

    def _parse(self, raw: str) -> NLUResult:
        scan = self._scan(raw)
        early = self._early_result(scan)
        if early is not None:
            return early
        self._read_words(scan)
        self._read_cues(scan)
        accepted = self._accept(scan, self._candidates(scan))
        self._read_entities(scan, accepted)
        self._read_ingredients(scan, accepted)
        self._read_slots(scan)
        self._read_references(scan)
        scan.smalltalk = self._smalltalk_of(scan.text, scan.consumed)
        self._read_location(scan, accepted)
        self._read_intent(scan)
        return self._result(scan)

    # --- the passes of _parse, in order -------------------------------------------------------

    def _scan(self, raw: str) -> _Scan:
        """Normalised, cut text and what shows at a glance (language, injection, structured input)."""
        notes: list[str] = []
        text = _normalize(raw[: MAX_QUERY_CHARS * 4])
        if len(text) > MAX_QUERY_CHARS or len(raw) > MAX_QUERY_CHARS * 4:
            notes.append(f"truncated:{len(raw)}→{MAX_QUERY_CHARS}")
            text = text[:MAX_QUERY_CHARS].rstrip()
        scan = _Scan(text=text, notes=notes)
        if not text:
            return scan
        scan.has_hangul = bool(_HANGUL_SYLLABLE.search(text))
        scan.lang = "ko" if _HANGUL_ANY.search(text) or not _LETTER.search(text) else "other"
        scan.injection = [m.span() for m in self._injection.finditer(text)]
        if scan.injection:
            notes.append("possible_prompt_injection")
        scan.structured = bool(_STRUCTURED.search(text))
        if scan.structured:
            notes.append("structured_input")
        return scan

    def _early_result(self, scan: _Scan) -> NLUResult | None:
        """The result of an empty message or one of jamo only ("ㅋㅋ", "ㄳ"); None for the rest."""
        text, notes = scan.text, scan.notes
        if not text:
            return NLUResult(confidence=0.0, lang="ko", notes=[*notes, "empty"])
        if scan.has_hangul or not _JAMO_ONLY.match(text):
            return None
        small = self._smalltalk_of(text)
        if small is not None:
            return NLUResult(smalltalk=small, confidence=0.7, lang="ko", notes=notes)
        return NLUResult(confidence=0.1, lang="ko", unknown_terms=[text[:20]], notes=[*notes, "jamo_only"])

    def _read_words(self, scan: _Scan) -> None:
        """Kiwi morphemes and the word and morpheme boundaries of the text."""
        text = scan.text
        scan.lower = lower_same_length(text)
        scan.morphs = tokenize(text) if scan.has_hangul or scan.lang == "other" else []
        scan.word_starts, scan.word_ends = _word_bounds(text)
        for m in scan.morphs:
            scan.morph_at.setdefault(m.start, m)
            scan.morph_ends.add(m.end)
        scan.starts_ok = scan.word_starts | set(scan.morph_at)
        scan.consumed = list(scan.injection)

    def _read_cues(self, scan: _Scan) -> None:
        """Compare, search and question cues (first: weak titles depend on them)."""
        scan.compare_spans = [m.span() for m in self._compare.finditer(scan.lower)]
        scan.search_spans = [m.span() for m in self._search.finditer(scan.text)]
        scan.asks_raw = list(self._ask.finditer(scan.text))
        scan.consumed += scan.compare_spans + scan.search_spans + [(s, e) for _, s, e in scan.asks_raw]

    def _candidates(self, scan: _Scan) -> list[_Cand]:
        """Candidate spans: places, lexicon entities, then the vocabulary's menus and titles."""
        text = scan.text
        cands: list[_Cand] = []
        if self.gazetteer is not None:
            for surface, s, e in self.gazetteer.find_in_text(text):
                if e > s:
                    cands.append(_Cand(s, e, "location", (surface,), _P_PLACE))
        # "술 먹은 다음날 속풀이": the day before is told, no occasion of the place (dialogue_cues [context])
        told = [m.span() for p in L.CONTEXT["day_after"] for m in p.finditer(text)]
        for kind, lex in self._entity_lexicons.items():
            for canonical, s, e in lex.finditer(text):
                if s not in scan.starts_ok and not (e - s >= 3):
                    continue
                if kind != "category" and any(a <= s and e <= b for a, b in told):
                    continue
                cands.append(_Cand(s, e, kind, (canonical,), _P_LEXICON))
        place_ends = {c.end for c in cands if c.kind == "location"}
        info_like = bool(scan.asks_raw or scan.compare_spans)
        for vm in self.vocabulary.scan(scan.lower):
            head = scan.morph_at.get(vm.start)
            if head is not None and head.tag.startswith(_FUNCTIONAL_TAG_PREFIXES):
                continue
            if vm.kind == "menu":
                cand = self._menu_candidate(
                    vm.values,
                    vm.source,
                    vm.start,
                    vm.end,
                    text,
                    head,
                    scan.starts_ok,
                    scan.word_starts | place_ends,
                    scan.word_ends,
                    scan.morph_ends,
                    scan.morphs,
                )
            else:
                cand = self._title_candidate(scan, vm, place_ends, info_like)
            if cand is not None:
                cands.append(cand)
        return cands

    def _title_candidate(
        self, scan: _Scan, vm: VocabMatch, place_ends: set[int], info_like: bool
    ) -> _Cand | None:
        """A title the vocabulary found, extended by a branch after it ("진대감 잠실점"), or None."""
        text, s, e = scan.text, vm.start, vm.end
        chain = vm.n_titles >= 2 and e - s >= 3 and vm.weak is None
        if s not in scan.starts_ok and s not in place_ends and not chain:
            return None
        if s not in scan.word_starts and s not in place_ends and not chain:
            return None  # a single shop's name inside a word ("황금올리브" ≠ 올리브)
        value = vm.values[0]
        extended_end = e
        extended = False
        if vm.source != "title":
            bm = _BRANCH_AFTER.match(text[e:])
            if bm and (
                len(bm.group("stem")) >= 2
                or bm.group("b") in ("본점", "직영점")
                or bm.group("stem").isdigit()
            ):
                branch = bm.group("b")
                full = f"{value} {branch}"
                info = self.vocabulary.title_info(full)
                value = info.display if info is not None and info.source == "title" else full
                extended_end = e + bm.end()
                extended = True
        if not extended and not _right_ok(text, e, scan.word_ends, scan.morph_ends):
            return None
        if (
            vm.weak is not None
            and not extended
            and not self._weak_title_ok(vm.weak, scan.lower[s:e], info_like)
        ):
            return None
        prio = _P_WEAK_TITLE if vm.weak and not extended else _P_TITLE
        return _Cand(s, extended_end, "title", (value,), prio, vm.weak, extended)

    def _accept(self, scan: _Scan, cands: list[_Cand]) -> list[_Cand]:
        """Overlaps resolved, places found by lookup or glued to titles, else a landmark; in text order."""
        text, notes = scan.text, scan.notes
        accepted = _resolve(cands)
        accepted.extend(
            self._places_by_lookup(text, scan.morphs, accepted, scan.word_starts, scan.word_ends, notes)
        )
        accepted.extend(self._places_glued_to_titles(text, accepted, scan.word_starts))
        if not any(c.kind == "location" for c in accepted):
            landmark, scan.personal_place = self._landmark(text, accepted, notes)
            if landmark is not None:
                accepted.append(landmark)
        accepted.sort(key=lambda c: c.start)
        return accepted

    def _read_entities(self, scan: _Scan, accepted: list[_Cand]) -> None:
        """Accepted spans as entities, or as exclusions when "말고", "빼고" … follows."""
        for c in accepted:
            scan.consumed.append((c.start, c.end))
            after = scan.text[c.end : c.end + 12]
            ex = _EXCLUDE_AFTER.match(after)
            target = scan.exclude if ex else scan.entities
            if ex:
                scan.consumed.append((c.end, c.end + ex.end()))
            bucket = target.get(c.kind)
            for v in c.values:
                if v not in bucket:
                    bucket.append(v)

    def _read_ingredients(self, scan: _Scan, accepted: list[_Cand]) -> None:
        """What goes into a dish, ruled out ("고수 빼고", "오이 들어간 거 싫어요", "땅콩 알러지 있어서"): a menu
        term excluded, even one the index never mined (and never a menu word the vocabulary took it
        for: "오이" is no 오리); said both ways, it is only ruled out."""
        text = scan.text
        for m in _INGREDIENT.finditer(text):
            s, e = m.span()
            word = m.group(0)
            over = [c for c in accepted if _overlap((s, e), (c.start, c.end))]
            if any(c.kind != "menu" for c in over):
                continue  # part of a place's or restaurant's name
            after = text[e : e + 14]
            ex = _EXCLUDE_AFTER.match(after) or _INGREDIENT_CUE.match(after)
            if ex is None or text[e + ex.end() : e + ex.end() + 1] == "하":
                continue  # "고수 싫어하는데 괜찮은 데": a taste told, no dish ruled out (dialogue_test18 em067)
            for c in over:  # the word as the vocabulary read it, when another
                for v in c.values:
                    for bucket in (scan.entities.menu, scan.exclude.menu):
                        if v != word and v in bucket:
                            bucket.remove(v)
            scan.consumed += [(s, e), (e, e + ex.end())]
            if word not in scan.exclude.menu:
                scan.exclude.menu.append(word)
        for word in scan.exclude.menu:
            while word in scan.entities.menu:
                scan.entities.menu.remove(word)

    def _read_slots(self, scan: _Scan) -> None:
        """Price, time, count, party, ordinals, lines and the order asked for."""
        text = scan.text
        scan.price, price_spans = parse_price(text)
        scan.time, time_spans = parse_time(text)
        scan.counted = parse_count(text)
        scan.party, party_spans = parse_party(text, price_spans)
        scan.ordinals, ordinal_spans = parse_ordinals(text)
        scan.lines, line_spans = parse_lines(text)
        scan.consumed += (
            price_spans + time_spans + scan.counted.spans + party_spans + ordinal_spans + line_spans
        )
        if scan.counted.clamped:
            scan.notes.append("count_clamped:20")
        for name, s, e in self._order.finditer(text):
            scan.order = cast(Order, name)
            scan.consumed.append((s, e))
            break

    def _read_references(self, scan: _Scan) -> None:
        """Follow-up places ("그 근처"), pronouns ("거기") and the user's own location ("내 근처")."""
        text = scan.text
        scan.followup_spans = [m.span() for m in self._followup.finditer(text)]
        scan.pronoun_spans = [
            m.span()
            for m in self._pronoun.finditer(text)
            if not any(_overlap(m.span(), f) for f in scan.followup_spans)
        ]
        excluded_ref = False
        for s, e in list(scan.pronoun_spans):
            if _EXCLUDE_AFTER.match(text[e : e + 10]):
                scan.pronoun_spans.remove((s, e))
                excluded_ref = True
        if excluded_ref:
            scan.notes.append("exclude_referent")
        scan.user_spans = [m.span() for m in self._user_loc.finditer(text)]
        scan.consumed += scan.followup_spans + scan.pronoun_spans + scan.user_spans

    def _read_location(self, scan: _Scan, accepted: list[_Cand]) -> None:
        """Location mode: near the user, near or in the place named, or near the place before."""
        text, notes = scan.text, scan.notes
        scan.user_location = bool(scan.user_spans)
        followup_place = bool(scan.followup_spans)
        place_types: dict[tuple[int, int], str] = {}
        locs = [c for c in accepted if c.kind == "location" and c.values[0] in scan.entities.location]
        if locs:
            place_types[(locs[0].start, locs[0].end)] = self._place_type(locs[0].values[0])
        bare_near = self._bare_near(scan, accepted)
        if scan.personal_place:
            scan.user_location = True
        if bare_near and not locs and not followup_place and not scan.user_location:
            scan.user_location = True
            notes.append("bare_near_as_user_location")
        scan.consumed += bare_near
        if scan.user_location:
            scan.location_mode = "near"
            if locs:
                notes.append("place_and_user_location")
        elif locs:
            scan.location_mode = self._location_mode(
                text, locs[0], place_types.get((locs[0].start, locs[0].end), ""), scan.consumed
            )
        elif followup_place:
            scan.location_mode = "near"
        # markers after places count as understood
        for c in locs:
            nm = self._near_after.match(text[c.end :]) or self._in_after.match(text[c.end :])
            if nm:
                scan.consumed.append((c.end, c.end + nm.end()))

    def _bare_near(self, scan: _Scan, accepted: list[_Cand]) -> list[Span]:
        """ "근처", "주변" … standing alone: not after a place or title, a reference or a follow-up."""
        anchors = [c for c in accepted if c.kind in ("location", "title")]
        return [
            m.span()
            for m in _BARE_NEAR.finditer(scan.text)
            if not any(0 <= m.start() - a.end <= 4 for a in anchors)
            and not any(_overlap(m.span(), f) for f in scan.followup_spans + scan.user_spans)
            and not any(m.start() - p[1] in range(0, 3) for p in scan.pronoun_spans)
        ]

    def _read_intent(self, scan: _Scan) -> None:
        """Intent (compare, information or search) and what is asked."""
        entities, ordinals = scan.entities, scan.ordinals
        titles = entities.title
        has_ref = bool(scan.pronoun_spans or ordinals)
        compare_cue = bool(scan.compare_spans)
        search_cue = bool(scan.search_spans)
        followup_place = bool(scan.followup_spans)
        asks = self._asks(scan.text, scan.asks_raw, entities)
        search_targets = bool(entities.menu or entities.category or entities.atmosphere or entities.occasion)
        if len(titles) >= 2 or (
            compare_cue
            and (
                titles
                or len(ordinals) >= 2
                or (has_ref and len(ordinals) != 1)
                or len(entities.menu) >= 2
                or len(entities.category) >= 2
            )
        ):
            intent = "compare"
        elif titles:
            explicit = [a for a in asks if a in _EXPLICIT_ASKS]
            if search_cue and not explicit:
                intent = "search"  # "엽떡 배달 되는 곳", "진대감 같은 고깃집 추천"
                scan.notes.append("title_in_search")
            else:
                intent = "information"
        elif has_ref and (asks or not search_cue) and not followup_place:
            intent = "information"
        elif asks and not (
            search_targets
            or entities.location
            or search_cue
            or followup_place
            or scan.user_location
            or scan.price
            or scan.time
            or scan.counted.value
            or scan.party.size
        ):
            intent = "information"
            scan.notes.append("implicit_reference")
        else:
            intent = "search"
        scan.asked = list(asks)  # kept for follow-ups about a restaurant in focus
        scan.asks = [] if intent == "search" else asks
        if intent == "compare" and len(ordinals) >= 2:
            scan.notes.append("compare_ordinals")
        scan.intent = intent

    def _confidence_of(self, scan: _Scan, unknown: list[str]) -> float:
        """Confidence from the clarity of the cues and the share of content words understood."""
        entities, intent = scan.entities, scan.intent
        has_ref = bool(scan.pronoun_spans or scan.ordinals)
        entity_types = sum(1 for k in ENTITY_TYPES if entities.get(k))
        signal = bool(
            entity_types
            or scan.price
            or scan.time
            or scan.counted.value
            or scan.order
            or scan.party.size
            or scan.party.with_children
            or has_ref
            or scan.followup_spans
            or scan.user_location
            or scan.asks
            or scan.lines
            or scan.smalltalk
        )
        clear_cue = bool(
            scan.search_spans
            or (scan.compare_spans and intent == "compare")
            or (intent == "information" and (scan.asks or entities.title))
            or intent == "compare"
            or entity_types >= 2
            or (entity_types >= 1 and (scan.location_mode != "none" or scan.price or scan.time))
        )
        confidence = _confidence(
            signal, clear_cue, entity_types, len(unknown), scan.smalltalk is not None, scan.has_hangul
        )
        if scan.injection:
            confidence = min(confidence, 0.2)
        if scan.structured:
            confidence = min(confidence, 0.3)
        if scan.notes and scan.notes[0].startswith("truncated"):
            confidence = min(confidence, 0.5)
        return confidence

    def _result(self, scan: _Scan) -> NLUResult:
        unknown = self._unknown_terms(scan.text, scan.morphs, scan.consumed)
        confidence = self._confidence_of(scan, unknown)
        return NLUResult(
            intent=cast(Any, scan.intent),
            entities=scan.entities,
            exclude=scan.exclude,
            price=scan.price,
            time=scan.time,
            count=scan.counted.value,
            order=scan.order,
            party=scan.party,
            location_mode=scan.location_mode,
            user_location=scan.user_location,
            ordinal=scan.ordinals[0] if scan.ordinals else None,
            ordinals=scan.ordinals,
            pronoun_ref=bool(scan.pronoun_spans),
            followup_place=bool(scan.followup_spans),
            smalltalk=scan.smalltalk,
            ask=scan.asks,
            asked=scan.asked,
            lines=scan.lines,
            confidence=round(confidence, 3),
            unknown_terms=unknown,
            lang=scan.lang,
            notes=scan.notes,
        )

    def _menu_candidate(
        self,
        values: tuple[str, ...],
        source: str,
        s: int,
        e: int,
        text: str,
        head: Morph | None,
        starts_ok: set[int],
        word_starts: set[int],
        word_ends: set[int],
        morph_ends: set[int],
        morphs: Sequence[Morph],
    ) -> _Cand | None:
        length = e - s
        if length == 1:
            if not any(m.start == s and m.end == e and m.tag in ("NNG", "NNP") for m in morphs):
                return None
            if _means_before(text, s, e):
                return None
            return _Cand(s, e, "menu", values, _P_MENU)
        rest = text[e:]
        head_like = e in word_ends or rest.startswith(_MENU_HEAD_FOLLOWERS)
        if source == "data":
            if s not in word_starts or (head is not None and head.tag not in _NOUNISH_TAGS):
                return None
            if not (head_like or e in morph_ends):
                return None
            return _Cand(s, e, "menu", values, _P_DATA_MENU)
        if s in starts_ok:
            if head is not None and head.tag in ("VV", "VA") and not (head_like or e in morph_ends):
                return None
            return _Cand(s, e, "menu", values, _P_MENU)
        if head_like:  # a compound's head: "돈코츠라멘" → 라멘
            return _Cand(s, e, "menu", values, _P_MENU)
        return None

    def _weak_title_ok(self, weak: str, key: str, info_like: bool) -> bool:
        """A weak title counts only in an information/compare question, and a generic one only
        when it is a composite name ("중앙해장") rather than one menu or cuisine word."""
        if not info_like or key in self._function_words:
            return False
        if weak == "short":
            return True
        return len(key) >= 4 and not self.vocabulary.is_menu(key) and not self.vocabulary.is_common_word(key)

    def _landmark(self, text: str, accepted: list[_Cand], notes: list[str]) -> tuple[_Cand | None, bool]:
        """The word right before a near marker when nothing else names a place: a landmark the
        gazetteer does not know ("석촌호수 근처", "헬리오시티 근처") — reported so the agent can say it
        does not know it — or a personal place ("회사 근처", "집 앞") that means the user's position."""
        for m in _NEAR_WORD.finditer(text):
            prefix = text[: m.start()].rstrip()
            if not prefix:
                continue
            word = prefix.rsplit(" ", 1)[-1]
            start = len(prefix) - len(word)
            word = _TRAILING_PARTICLE.sub("", word)
            end = start + len(word)
            if any(c.start < end and start < c.end for c in accepted):
                continue
            if _REFERENT_BEFORE.search(text[:start]):
                continue  # "두 번째 집 근처", "그 집 앞": a result's place, not the user's
            if word in _PERSONAL_PLACES:
                notes.append(f"personal_place:{word}")
                return None, True
            if len(word) < 2 or not _HANGUL_OR_LATIN.search(word) or any(ch.isdigit() for ch in word):
                continue
            if word in self._function_words or word in _NOT_LANDMARKS or _PREDICATE_END.search(word):
                continue  # "배고파 근처에": a feeling, not a place
            notes.append(f"unresolved_place:{word}")
            return _Cand(start, end, "location", (word,), _P_PLACE), False
        return None, False

    def _places_glued_to_titles(self, text: str, accepted: list[_Cand], word_starts: set[int]) -> list[_Cand]:
        """ "마포진대감": a chain title inside a word; the rest of the word before it may be a place."""
        if self.gazetteer is None:
            return []
        out: list[_Cand] = []
        for c in accepted:
            if c.kind != "title" or c.start in word_starts:
                continue
            ws = max((w for w in word_starts if w < c.start), default=0)
            prefix = text[ws : c.start]
            if len(prefix) < 2 or any(o.start < c.start and ws < o.end for o in accepted if o is not c):
                continue
            if self.gazetteer.lookup(prefix):
                out.append(_Cand(ws, c.start, "location", (prefix,), _P_PLACE))
        return out

    def _places_by_lookup(
        self,
        text: str,
        morphs: Sequence[Morph],
        accepted: list[_Cand],
        word_starts: set[int],
        word_ends: set[int],
        notes: list[str],
    ) -> list[_Cand]:
        """Area names the free-text matcher leaves out because they are only short forms
        ("위례" for 위례동, "둔촌" for 둔촌동역): a whole word that the gazetteer resolves to a dong or
        station of that name."""
        if self.gazetteer is None:
            return []
        out: list[_Cand] = []
        for m in morphs:
            if m.tag not in ("NNP", "NNG") or len(m.form) < 2 or m.start not in word_starts:
                continue
            if m.form in self._function_words or self.vocabulary.is_menu(m.form):
                continue
            if any(c.start < m.end and m.start < c.end for c in (*accepted, *out)):
                continue
            rest = text[m.end :]
            if not (m.end in word_ends or rest.startswith(_PARTICLES) or rest.startswith(_AREA_SUFFIXES)):
                continue
            places = self.gazetteer.lookup(m.form)
            if not places:
                continue
            best = places[0]
            if str(best.type) not in _LOOKUP_TYPES or not best.name.startswith(m.form):
                continue
            suffix = next((x for x in _AREA_SUFFIXES if rest.startswith(x)), "")
            out.append(_Cand(m.start, m.end + len(suffix), "location", (m.form,), _P_PLACE))
            notes.append(f"place_by_lookup:{m.form}")
        return out

    def _place_type(self, surface: str) -> str:
        if self.gazetteer is None:
            return ""
        place = self.gazetteer.best(surface)
        return str(place.type) if place is not None else ""

    def _location_mode(self, text: str, loc: _Cand, place_type: str, consumed: list[Span]) -> LocationMode:
        after = text[loc.end :]
        if self._near_after.match(after):
            return "near"
        m = self._in_after.match(after)
        region = place_type in ("sigungu", "sido")
        if m:
            marker = m.group(0).strip()
            if region:
                return "in"
            if place_type in ("legal_dong", "admin_dong", "landmark") and marker.startswith(_INSIDE_MARKERS):
                return "in"  # "롯데월드몰 안에": inside the building (a landmark's address: gazetteer.toml)
        if region or place_type in ("legal_dong", "admin_dong"):
            # "문정동 국밥": in the dong (searched around its centre when it has no outline)
            return "in"
        return "near"

    def _asks(self, text: str, asks_raw: list[tuple[str, int, int]], entities: Entities) -> list[Ask]:
        out: list[str] = []
        generic_rating = False
        for name, s, e in asks_raw:
            if name == "rating" and _GENERIC_RATING.fullmatch(text[s:e]):
                generic_rating = True
                continue
            if name not in out:
                out.append(name)
        for conv in entities.convenience:
            name = {"주차": "parking", "발렛": "parking", "예약": "reservation", "24시": "hours"}.get(
                conv, "convenience"
            )
            if name not in out:
                out.append(name)
        if generic_rating and not out:
            out.append("rating")  # "어때?" asks for an opinion only when nothing else is asked
        return cast(list[Ask], out)

    def _smalltalk_of(self, text: str, consumed: list[Span] | None = None) -> Smalltalk | None:
        for name, s, e in self._smalltalk.finditer(text):
            if consumed is not None:
                consumed.append((s, e))
            return cast(Smalltalk, name)
        return None

    def _unknown_terms(self, text: str, morphs: Sequence[Morph], consumed: list[Span]) -> list[str]:
        covered = bytearray(len(text) + 1)
        for s, e in consumed:
            for i in range(max(0, s), min(len(text), e)):
                covered[i] = 1
        out: list[str] = []
        for m in morphs:
            if m.tag not in _CONTENT_TAGS or m.tag == "VV":  # a verb ("들르", "걸어가") is no condition
                continue
            s, e = m.start, min(m.end, len(text))
            if e <= s or any(covered[i] for i in range(s, e)):
                continue
            form = m.form.lower() if m.tag == "SL" else m.form
            if form in self._function_words or (len(form) < 2 and m.tag != "SL"):
                continue
            surface = text[s:e] if m.tag in ("NNG", "NNP", "SL", "SH", "XR") else form
            if surface not in out:
                out.append(surface)
            if len(out) >= 12:
                break
        return out


# --- helpers -----------------------------------------------------------------------------------


def _gazetteer_names(gazetteer: Any) -> list[str]:
    names: list[str] = []
    for p in getattr(gazetteer, "places", []) or []:
        name = getattr(p, "name", "")
        if name:
            names.append(name)
            if len(name) >= 3 and name[-1] in "역동구시군":
                names.append(name[:-1])
        names.extend(a for a in getattr(p, "aliases", []) or [] if a)
    return names


def _means_before(text: str, s: int, e: int) -> bool:
    """ "출근 전에", "영화 보기 전에", "7시 전에": the syllable is "before", no dish (query_words)."""
    if text[s:e] not in _BEFORE_SINGLE:
        return False
    words_before = text[:s].split()
    prev = words_before[-1] if words_before else ""
    return bool(prev) and (prev in _BEFORE_EVENTS or prev.endswith(_BEFORE_ENDINGS))


def _word_bounds(text: str) -> tuple[set[int], set[int]]:
    starts = {0}
    ends = {len(text)}
    prev_word = False
    for i, ch in enumerate(text):
        word = ch.isalnum()
        if word and not prev_word:
            starts.add(i)
        if not word and prev_word:
            ends.add(i)
        prev_word = word
    return starts, ends


def _right_ok(text: str, end: int, word_ends: set[int], morph_ends: set[int]) -> bool:
    if end >= len(text) or end in word_ends or end in morph_ends:
        return True
    return text[end:].startswith(_PARTICLES)


def _overlap(a: Span, b: Span) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _resolve(cands: list[_Cand]) -> list[_Cand]:
    """Greedy longest match; equal lengths by priority, then leftmost."""
    cands.sort(key=lambda c: (-(c.end - c.start), -c.priority, c.start))
    taken: list[_Cand] = []
    for c in cands:
        if any(c.start < t.end and t.start < c.end for t in taken):
            continue
        taken.append(c)
    return taken


def _confidence(
    signal: bool, clear: bool, entity_types: int, unknown: int, smalltalk: bool, hangul: bool
) -> float:
    if not signal:
        if not hangul:
            return 0.1
        return max(0.05, 0.3 - 0.05 * unknown)
    if smalltalk and entity_types == 0:
        return 0.9 if unknown == 0 else 0.6
    conf = 0.55
    if clear:
        conf += 0.2
    if entity_types:
        conf += 0.05
    if unknown == 0:
        conf += 0.2
    else:
        conf -= min(0.3, 0.08 * unknown)
    if not hangul:
        conf = min(conf, 0.5)
    return max(0.0, min(1.0, conf))
