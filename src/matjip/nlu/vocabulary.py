"""The index's own vocabulary for query understanding: restaurant names and menu terms.

Built once from the documents (at index time) and saved as JSON next to the index, so the
agent loads it in milliseconds. It answers one question fast: which known titles and menu
terms occur in a query, and where.

Titles
    "진대감 마포점" is brand "진대감" + branch "마포점". A brand is registered when a title ends in
    a branch token (``…점``), or when its first word starts two or more titles ("스타벅스
    아크플레이스"). Full titles, brands and popular shortenings ("교촌", "스벅", "엽떡") are keys.
    Latin is case-insensitive. A title key is *weak* when it could be an ordinary word:
    ``short`` (a two-syllable single shop) or ``generic`` (made only of menu, cuisine, place and
    generic words: "족발맛집", "바지락칼국수", "마포집"). The parser uses weak titles only with
    a branch suffix ("메이 잠실점") or, for ``short``, in an information/compare question.

Menus
    A curated lexicon with synonyms (:data:`matjip.nlu.terms.MENU_SYNONYMS`), the dish list
    of the enrichment lexicon when present, and terms mined from the documents' menu names:
    words of menu names (character rules: parentheses, sizes and prices dropped, split on
    spaces and punctuation) found in at least two restaurants.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from matjip.nlu.terms import (
    FUNCTION_WORDS,
    GENERIC_TITLE_WORDS,
    MENU_COMBOS,
    MENU_STOPWORDS,
    MENU_SYNONYMS,
    SHOP_NOUNS,
    SINGLE_CHAR_MENUS,
    TITLE_ALIASES,
)
from matjip.words import word_set

if TYPE_CHECKING:
    from matjip.documents import Restaurant

VOCAB_VERSION = 2
MIN_MENU_DF = 2
MIN_SHORT_MENU_DF = 3  # two-syllable mined terms are noisier ("나는", "시간")
MAX_MENU_TERM_CHARS = 12

WeakReason = Literal["short", "generic"]
MatchKind = Literal["title", "menu"]
MatchSource = Literal["title", "brand", "alias", "curated", "combo", "data"]

_PAREN = re.compile(r"\s*[\(\[（【<].*?(?:[\)\]）】>]|$)")
_SPACES = re.compile(r"\s+")
_BRANCH = re.compile(r"^[0-9A-Za-z가-힣&·.\-]{1,20}(?:본점|직영점|지점|분점|호점|점)$")


def _branch_word(word: str) -> bool:
    """A title's last word naming a branch ("잠실점", "본점"), not the kind of shop ("과자점": SHOP_NOUNS)."""
    return bool(_BRANCH.match(word)) and word not in SHOP_NOUNS


_MENU_SPLIT = re.compile(r"[\s+/,&·|~\-_=:;!?*#'\"`]+")
_MENU_NOISE = re.compile(
    r"[0-9０-９.]+\s*(?:g|kg|ml|l|cm|인분|인|개|pcs|p|피스|마리|조각|호|oz|잔|병|장)?", re.I
)
_HANGUL_ONLY = re.compile(r"^[가-힣]+$")
_LATIN_WORD = re.compile(r"^[a-z][a-z0-9&'.\-]*$")
_HAS_HANGUL_OR_LATIN = re.compile(r"[가-힣A-Za-z]")

# Cuisine and venue words used to decide that a title is generic (plain strings).
_ADNOMINAL_ENDINGS = frozenset("한운은는된쁜찬센큰")
_CUISINE_WORDS = word_set("menu", "cuisine_words")


def lower_same_length(text: str) -> str:
    """Lower-case Latin without changing the length of the string (offsets stay valid)."""
    lo = text.lower()
    if len(lo) == len(text):
        return lo
    out = []
    for ch in text:
        lo = ch.lower()
        out.append(lo if len(lo) == 1 else ch)
    return "".join(out)


def clean_title(title: str) -> str:
    """NFKC, parenthesised remarks dropped ("(2021년…휴업)"), spaces collapsed."""
    t = unicodedata.normalize("NFKC", title or "")
    t = _PAREN.sub(" ", t)
    return _SPACES.sub(" ", t).strip()


def compact(text: str) -> str:
    return lower_same_length(_SPACES.sub("", text))


@dataclass(frozen=True, slots=True)
class TitleInfo:
    display: str  # canonical value reported to the agent (brand or full title)
    source: MatchSource  # "title" (a full title), "brand", "alias"
    brand: str | None  # the brand this key belongs to
    n_titles: int  # titles under the brand (1 for a single shop)
    weak: WeakReason | None

    def __reduce__(
        self,
    ) -> tuple[type[TitleInfo], tuple[str, MatchSource, str | None, int, WeakReason | None]]:
        # pickled by constructor arguments: a cached vocabulary (matjip.agent.cache) holds
        # tens of thousands, and a slotted dataclass's default pickling is three times slower to read
        return TitleInfo, (self.display, self.source, self.brand, self.n_titles, self.weak)


@dataclass(frozen=True, slots=True)
class MenuInfo:
    values: tuple[str, ...]  # canonical menus (two for "치맥")
    source: MatchSource  # "curated", "combo", "data"

    def __reduce__(self) -> tuple[type[MenuInfo], tuple[tuple[str, ...], MatchSource]]:
        return MenuInfo, (self.values, self.source)  # as TitleInfo


@dataclass(frozen=True, slots=True)
class VocabMatch:
    start: int
    end: int
    kind: MatchKind
    values: tuple[str, ...]
    source: MatchSource
    weak: WeakReason | None = None
    brand: str | None = None
    n_titles: int = 0


def _menu_tokens(name: str) -> set[str]:
    """Candidate menu terms in one menu name: its words and the whole name without spaces."""
    t = unicodedata.normalize("NFKC", name)
    t = _PAREN.sub(" ", t)
    t = _MENU_NOISE.sub(" ", t)
    t = lower_same_length(t)
    words = [w for w in _MENU_SPLIT.split(t) if w]
    out: set[str] = set()
    for w in words:
        if 2 <= len(w) <= MAX_MENU_TERM_CHARS and _HANGUL_ONLY.match(w):
            out.add(w)
    whole = "".join(words)
    if 2 <= len(whole) <= MAX_MENU_TERM_CHARS and _HANGUL_ONLY.match(whole):
        out.add(whole)
    return out


def _segmentable(word: str, parts: frozenset[str] | set[str], max_part: int = 8) -> bool:
    """True when ``word`` splits entirely into known parts (digits allowed)."""
    n = len(word)
    ok = [False] * (n + 1)
    ok[0] = True
    for i in range(n):
        if not ok[i]:
            continue
        if word[i].isdigit():
            ok[i + 1] = True
            continue
        for j in range(i + 1, min(n, i + max_part) + 1):
            if not ok[j] and word[i:j] in parts:
                ok[j] = True
    return ok[n]


def category_leaf(category: str) -> str | None:
    """The last level of a category path of two levels or more, compacted ("치킨>본스치킨" → 본스치킨)."""
    parts = [p for p in category.split(">") if p.strip()]
    return compact(parts[-1]) if len(parts) >= 2 else None


class _LeafCount:
    """Which category leaves are franchise brands: Kakao files a franchise's branches under the
    brand as the path's last level ("간식>제과,베이커리>뚜레쥬르", "치킨>본스치킨"). A leaf is a brand
    when (nearly) every restaurant under it has it in its name, it is never a level above another,
    and it is not a food word people ask for ("한식>국수>칼국수" under "…칼국수" names is not one)."""

    SHARE = 0.8

    def __init__(self) -> None:
        self.docs: Counter[str] = Counter()
        self.named: Counter[str] = Counter()
        self.inner: set[str] = set()

    def add(self, title: str, category: str) -> None:
        parts = [compact(p) for p in category.split(">") if p.strip()]
        self.inner.update(parts[:-1])
        leaf = category_leaf(category)
        if leaf:
            self.docs[leaf] += 1
            head = compact(title.split(" ")[0]) if title.strip() else ""
            # the name says the brand, or its first word begins it ("꾸브라꼬 방이점" under
            # "꾸브라꼬숯불두마리치킨")
            if leaf in compact(title) or (len(head) >= 3 and leaf.startswith(head)):
                self.named[leaf] += 1

    def franchises(self) -> list[str]:
        from matjip.kinds import kinds

        words = {compact(w) for k in kinds().kinds for w in (*k.words, *k.dishes)}

        def food_word(leaf: str) -> bool:
            return leaf in words or any(w.startswith(leaf) and len(w) - len(leaf) <= 1 for w in words)

        return sorted(
            leaf
            for leaf, n in self.docs.items()
            if len(leaf) >= 2
            and self.named[leaf] >= self.SHARE * n
            and leaf not in self.inner
            and not food_word(leaf)
        )


class Vocabulary:
    """Titles, brands and menu terms of the index, with a fast longest-match scanner."""

    def __init__(
        self,
        titles: dict[str, int],
        menu_df: dict[str, int],
        place_names: Iterable[str] = (),
        franchise_leaves: Iterable[str] = (),
    ) -> None:
        """``titles``: cleaned title → number of documents with it; ``menu_df``: mined menu term →
        number of restaurants. Use :meth:`build` or :meth:`load` rather than this directly."""
        self.title_counts: dict[str, int] = dict(titles)
        self.menu_df: dict[str, int] = dict(menu_df)
        self.place_names: frozenset[str] = frozenset(compact(p) for p in place_names if p)
        # category leaves that are franchise brands ("치킨>본스치킨"): see :func:`franchise_leaves`
        self.franchise_leaves: frozenset[str] = frozenset(franchise_leaves)
        self._menus: dict[str, MenuInfo] = {}
        self._generic_parts: frozenset[str] = frozenset()
        self._titles: dict[str, TitleInfo] = {}
        self._brand_titles: dict[str, list[str]] = {}
        self._prefixes: set[str] = set()
        self._max_key = 1
        self._build_menus()
        self._build_titles()
        self._index_keys()

    def _index_keys(self) -> None:
        prefixes: set[str] = set()
        longest = 1
        for key in (*self._menus, *self._titles):
            for i in range(1, len(key) + 1):
                prefixes.add(key[:i])
            longest = max(longest, len(key))
        self._prefixes = prefixes
        self._max_key = longest

    def ensure_place_names(self, names: Iterable[str]) -> None:
        """Add place names (from the gazetteer) used to tell generic titles ("마포갈비") apart;
        recomputes title weakness only when something new arrives."""
        new = frozenset(compact(n) for n in names if n)
        if new <= self.place_names:
            return
        self.place_names = self.place_names | new
        self._generic_parts = self._generic_parts | frozenset(p for p in new if len(p) >= 2)
        self._build_titles()
        self._index_keys()

    # --- construction ------------------------------------------------------------------------

    @classmethod
    def build(
        cls, records: Iterable[tuple[str, Sequence[str], str]], place_names: Iterable[str] = ()
    ) -> Vocabulary:
        """From ``(title, menu names, category)`` tuples."""
        titles: Counter[str] = Counter()
        df: Counter[str] = Counter()
        leaves = _LeafCount()
        for title, menus, category in records:
            leaves.add(title, category)
            t = clean_title(title)
            if t:
                titles[t] += 1
            terms: set[str] = set()
            for m in menus:
                if m:
                    terms |= _menu_tokens(m)
            df.update(terms)
        menu_df = {t: n for t, n in df.items() if n >= MIN_MENU_DF}
        return cls(dict(titles), menu_df, place_names, leaves.franchises())

    @classmethod
    def from_restaurants(cls, docs: Iterable[Restaurant], place_names: Iterable[str] = ()) -> Vocabulary:
        return cls.build(((d.title, [m.name for m in d.menus], d.category) for d in docs), place_names)

    from_store_docs = from_restaurants

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": VOCAB_VERSION,
            "titles": self.title_counts,
            "menu_df": self.menu_df,
            "place_names": sorted(self.place_names),
            "franchise_leaves": sorted(self.franchise_leaves),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Vocabulary:
        if data.get("version") != VOCAB_VERSION:
            raise ValueError(f"vocabulary version {data.get('version')} != {VOCAB_VERSION}")
        return cls(
            {str(k): int(v) for k, v in data["titles"].items()},
            {str(k): int(v) for k, v in data["menu_df"].items()},
            [str(p) for p in data.get("place_names", [])],
            [str(p) for p in data.get("franchise_leaves", [])],
        )

    def save(self, path: str | Path) -> None:
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(p.suffix + ".tmp")
        tmp.write_text(json.dumps(self.to_dict(), ensure_ascii=False), encoding="utf-8")
        tmp.replace(p)

    @classmethod
    def load(cls, path: str | Path) -> Vocabulary:
        return cls.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))

    def _build_menus(self) -> None:
        surface_to_canon: dict[str, str] = {}
        for canon, surfaces in MENU_SYNONYMS.items():
            surface_to_canon[compact(canon)] = canon
            for s in surfaces:
                surface_to_canon[lower_same_length(s)] = canon
        self._surface_to_canon = surface_to_canon
        self._canon_surfaces: dict[str, set[str]] = defaultdict(set)
        # mined terms first, curated last (curated wins on the same key)
        never = MENU_STOPWORDS | FUNCTION_WORDS | GENERIC_TITLE_WORDS | _CUISINE_WORDS
        for term, df in self.menu_df.items():
            if len(term) < 2 or term in never or (len(term) == 2 and df < MIN_SHORT_MENU_DF):
                continue
            if term[-1] in _ADNOMINAL_ENDINGS:
                continue  # "얼큰한", "매운", "맑은": a description, not a dish
            canon = surface_to_canon.get(term, term)
            self._menus[term] = MenuInfo((canon,), "data")
            self._canon_surfaces[canon].add(term)
        from matjip.words import word_set  # the review reader's dishes (data/words/review_food.toml)

        for dish in word_set("review_food", "dishes"):
            d = lower_same_length(dish)
            if (len(d) < 2 and d not in SINGLE_CHAR_MENUS) or d in MENU_STOPWORDS:
                continue
            canon = surface_to_canon.get(d, d)
            self._menus[d] = MenuInfo((canon,), "curated")
            self._canon_surfaces[canon].add(d)
        for surface, canon in surface_to_canon.items():
            self._menus[surface] = MenuInfo((canon,), "curated")
            self._canon_surfaces[canon].add(surface)
        for surface, canons in MENU_COMBOS.items():
            self._menus[surface] = MenuInfo(tuple(canons), "combo")
        curated = {k for k, v in self._menus.items() if v.source != "data"}
        self._menu_words: frozenset[str] = frozenset(curated) | MENU_STOPWORDS
        self._generic_parts = (
            frozenset(w for w in self._menu_words | _CUISINE_WORDS | FUNCTION_WORDS if len(w) >= 2)
            | GENERIC_TITLE_WORDS
            | SINGLE_CHAR_MENUS
            | frozenset(p for p in self.place_names if len(p) >= 2)
        )

    def _title_weakness(self, key: str, n_titles: int) -> WeakReason | None:
        parts = self._generic_parts
        if key in parts:
            return "generic"
        latin = bool(_LATIN_WORD.match(key))
        if latin:
            return "short" if len(key) <= 2 else None
        if n_titles >= 3:
            return None
        if _segmentable(key, parts):
            return "generic"
        if len(key) <= 2:
            return "short"
        return None

    def _build_titles(self) -> None:
        first_word: Counter[str] = Counter()
        brand_titles: dict[str, set[str]] = defaultdict(set)
        for title in self.title_counts:
            words = title.split(" ")
            if len(words) >= 2:
                first_word[words[0]] += 1
                if _branch_word(words[-1]):
                    brand_titles[" ".join(words[:-1])].add(title)
        for title in self.title_counts:
            words = title.split(" ")
            if len(words) >= 2 and first_word[words[0]] >= 2:
                brand_titles[words[0]].add(title)
        # one display per case-insensitive brand (the spelling with most titles)
        by_key: dict[str, list[str]] = defaultdict(list)
        for b in brand_titles:
            by_key[compact(b)].append(b)
        brands: dict[str, tuple[str, set[str]]] = {}
        for key, spellings in by_key.items():
            best = max(spellings, key=lambda b: (len(brand_titles[b]), b))
            merged: set[str] = set()
            for b in spellings:
                merged |= brand_titles[b]
            brands[key] = (best, merged)
        self._brand_titles = {display: sorted(ts) for display, ts in brands.values()}

        titles: dict[str, TitleInfo] = {}

        def put(key: str, info: TitleInfo) -> None:
            if len(key) < 2 or not _HAS_HANGUL_OR_LATIN.search(key):
                return
            old = titles.get(key)
            rank = {"brand": 3, "alias": 2, "title": 1}
            if old is None or rank.get(info.source, 0) > rank.get(old.source, 0):
                titles[key] = info

        for title in self.title_counts:
            key_spaced = lower_same_length(title)
            key_compact = compact(title)
            words = title.split(" ")
            brand: str | None = None
            if len(words) >= 2:
                head = " ".join(words[:-1])
                if compact(head) in brands and _branch_word(words[-1]):
                    brand = brands[compact(head)][0]
                elif compact(words[0]) in brands:
                    brand = brands[compact(words[0])][0]
            n = len(self._brand_titles.get(brand, [])) if brand else 1
            weak = None if brand else self._title_weakness(key_compact, 1)
            if brand and len(words) >= 2 and not _branch_word(words[-1]):
                weak = None
            info = TitleInfo(title, "title", brand, n, weak)
            put(key_spaced, info)
            put(key_compact, info)
        for key, (display, ts) in brands.items():
            info = TitleInfo(display, "brand", display, len(ts), self._title_weakness(key, len(ts)))
            for spelling in by_key[key]:  # "칠프로 칠백식당" and "칠프로칠백식당"
                put(lower_same_length(spelling), info)
            put(key, info)
        for canon, aliases in TITLE_ALIASES.items():
            target = brands.get(compact(canon))
            if target is None:
                single = self._single_title(canon)
                if single is None:
                    continue
                display, n = single, 1
            else:
                display, n = target[0], len(target[1])
            for alias in aliases:
                put(compact(alias), TitleInfo(display, "alias", display, n, None))
                put(lower_same_length(alias), TitleInfo(display, "alias", display, n, None))
        self._titles = titles
        # a mined "menu" that is really a chain's name ("스타벅스 라떼" → 스타벅스) is a title
        for key, info in titles.items():
            menu = self._menus.get(key)
            if menu is not None and menu.source == "data" and info.weak is None:
                del self._menus[key]

    def _single_title(self, name: str) -> str | None:
        key = compact(name)
        for t in self.title_counts:
            if compact(t) == key:
                return t
        return None

    # --- queries -----------------------------------------------------------------------------

    def scan(self, text: str) -> list[VocabMatch]:
        """Every title and menu key occurring in ``text`` (already lower-cased with
        :func:`lower_same_length`), all lengths, overlapping; the parser resolves conflicts."""
        out: list[VocabMatch] = []
        n = len(text)
        prefixes = self._prefixes
        menus = self._menus
        titles = self._titles
        for i in range(n):
            ch = text[i]
            if ch == " " or ch not in prefixes:
                continue
            limit = min(n, i + self._max_key)
            j = i + 1
            while j <= limit:
                piece = text[i:j]
                if piece not in prefixes:
                    break
                if piece[-1] != " ":
                    m = menus.get(piece)
                    if m is not None:
                        out.append(VocabMatch(i, j, "menu", m.values, m.source))
                    t = titles.get(piece)
                    if t is not None:
                        out.append(
                            VocabMatch(i, j, "title", (t.display,), t.source, t.weak, t.brand, t.n_titles)
                        )
                j += 1
        return out

    def is_common_word(self, word: str) -> bool:
        """A menu, cuisine, place or generic word (what makes a title "generic")."""
        return compact(word) in self._generic_parts

    def is_menu(self, word: str) -> bool:
        return lower_same_length(word) in self._menus

    def menu_canonical(self, word: str) -> str | None:
        info = self._menus.get(lower_same_length(word))
        return info.values[0] if info and len(info.values) == 1 else None

    def menu_variants(self, canonical: str) -> list[str]:
        """Surfaces to search for a canonical menu ("돈가스" → 돈가스, 돈까스, 돈카츠 …)."""
        return sorted(self._canon_surfaces.get(canonical, {canonical}) | {canonical})

    def title_info(self, name: str) -> TitleInfo | None:
        return self._titles.get(lower_same_length(name)) or self._titles.get(compact(name))

    def brands(self) -> dict[str, list[str]]:
        return dict(self._brand_titles)

    def titles_for(self, name: str) -> list[str]:
        """Full titles a user's name refers to: an exact title, every title of a brand, or the
        titles of a brand whose branch contains the given branch stem ("BBQ 잠실점" → BBQ 잠실…점)."""
        cleaned = clean_title(name)
        info = self.title_info(cleaned)
        if info is not None:
            if info.source == "title" and compact(info.display) == compact(cleaned):
                return [info.display]
            if info.brand and info.brand in self._brand_titles:
                return list(self._brand_titles[info.brand])
            return [info.display]
        words = cleaned.split(" ")
        if len(words) >= 2:
            head = self.title_info(" ".join(words[:-1]))
            if head is not None and head.brand in self._brand_titles:
                stem = compact(re.sub(r"(?:본점|직영점|지점|분점|호점|점)$", "", words[-1]))
                found = [
                    t for t in self._brand_titles[head.brand] if stem and stem in compact(t.split(" ")[-1])
                ]
                return found or list(self._brand_titles[head.brand])
        return []

    def stats(self) -> dict[str, int]:
        return {
            "titles": len(self.title_counts),
            "brands": len(self._brand_titles),
            "title_keys": len(self._titles),
            "weak_title_keys": sum(1 for t in self._titles.values() if t.weak),
            "menu_keys": len(self._menus),
            "mined_menu_terms": len(self.menu_df),
        }
