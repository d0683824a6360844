"""Restaurant kinds: what a restaurant *is* ("고깃집", "치킨집", "빵집"), read from ``data/kinds.toml``.

The data file documents its own format. This module loads it once and answers two questions:

* :meth:`KindTable.lookup` — which kind does a word people type mean ("고기집", "돈가스", "sushi")?
* :meth:`KindTable.classify` — which kinds is a restaurant, by its category path, its name and the
  share of its menu that names the kind's dishes, with the evidence for each?

A menu substring alone never makes a restaurant a kind: one "오징어불고기" line does not make a
squid restaurant a 고깃집, because the menu evidence needs a share of the menu, and a neighbouring
category (``not_category``) rules the kind out whatever the name or the menu say.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from pydantic import BaseModel, Field

KINDS_FILE = Path(__file__).parent / "data" / "kinds.toml"
_SUFFIXES = ("맛집", "전문점", "가게", "집")
BRANCH_WORD = "점"  # a name's last word ending in it is its branch ("잠실점", "2호점")
UNBACKED_LINES = 4  # a name is checked against its menu only when this many named lines are known
# a venue word (``Kind.venue``) is checked against the menu only when this many lines are known
VENUE_LINES = 3


def norm(text: str) -> str:
    """Lower case, no spaces: the form words, names and categories are compared in."""
    return "".join(text.lower().split())


def _category_is(cat: str, pattern: str) -> bool:
    """``pattern`` is in the (normalised) category path; ``"=X"`` means the whole path is X."""
    if pattern.startswith("="):
        return cat == norm(pattern[1:])
    return norm(pattern) in cat


class Kind(BaseModel):
    name: str
    parent: str | None = None
    words: list[str] = Field(default_factory=list)
    dishes: list[str] = Field(default_factory=list)
    sub_dishes: list[str] = Field(default_factory=list)  # only some of its places serve them
    yields_to: list[str] = Field(default_factory=list)  # kinds whose category takes the name's word
    category: list[str] = Field(default_factory=list)
    not_category: list[str] = Field(default_factory=list)
    title_over: list[str] = Field(default_factory=list)  # not_category words a name saying the kind beats
    title: list[str] = Field(default_factory=list)
    menu: list[str] = Field(default_factory=list)
    menu_not: list[str] = Field(default_factory=list)
    menu_with: list[str] = Field(default_factory=list)
    title_not: list[str] = Field(default_factory=list)
    category_unless_title: list[str] = Field(default_factory=list)
    weak_category: list[str] = Field(default_factory=list)
    weak_title: list[str] = Field(default_factory=list)
    weak_kinds: list[str] = Field(default_factory=list)  # a place that is one of them is a weaker member
    thin_category: list[str] = Field(default_factory=list)  # a bare path that needs the name or menu
    broad: bool = False  # an umbrella ("술집"): its category match says nothing against a narrower kind
    share: float = 0.5
    min_lines: int = 2
    cuisine: str = "기타"
    modifiers: list[str] = Field(default_factory=list)
    gives_way: bool = False  # said beside another kind of its cuisine, it only describes it
    conjunctive: bool = False  # said beside another kind, it qualifies it: both must hold
    neighbours: list[str] = Field(default_factory=list)  # follow when too few, if their menu says so
    # category words and name parts that say where people eat, not what ("기사식당"): they make a place
    # this kind only when its known menu names one of its ``menu`` or ``venue_menu`` dishes
    venue: list[str] = Field(default_factory=list)
    venue_menu: list[str] = Field(default_factory=list)
    shared: int = Field(default=0, ge=0)  # people one plate feeds: a budget per person divides by it


class KindEvidence(BaseModel):
    """Why a restaurant is of a kind: the source field and the text in it."""

    kind: str
    source: str  # "category" | "title" | "menus" | "kind:<child>"
    span: str


class Theme(BaseModel):
    """A wish that names no kind but a family of them ("속이 편한 음식"), said in the answer."""

    name: str
    words: list[str]  # what people type (matched ignoring spaces and case)
    covers: list[str] = Field(default_factory=list)  # word stems the theme accounts for ("편하")
    unless: list[str] = Field(default_factory=list)  # words that cancel it ("매운거 못먹어")
    # what brought the wish on, said before a verb of ``cause_verbs`` ("소주 너무 마셔서 … 해장"): no wish
    causes: list[str] = Field(default_factory=list)
    cause_verbs: list[str] = Field(default_factory=list)
    # said beside one kind of its own family ("디저트 달달한거"), the wish asks for the whole family
    beside: bool = False
    kinds: list[str]
    after: list[str] = Field(default_factory=list)  # members shown after the others ("복어" for 해장)
    # name parts of a member's places shown after the others (a 막국수 house filed under 칼국수 for a
    # rainy day: a cold-noodle place first)
    after_titles: list[str] = Field(default_factory=list)
    today: bool = False  # the wish is about today ("비 오는 날": it rains now): a day off goes after
    any_kind: bool = False  # the kinds come first, any other may follow ("밥 먹을 데": no kind asked)
    out: list[str] = Field(default_factory=list)  # kinds the wish leaves out (a café is no meal place)
    note: str


class Described(BaseModel):
    """A dish described by what it is made of ("돼지발 삶아서 썰어주는 거" → 족발): data/kinds.toml."""

    dish: str  # a dish or kind word of the file
    all: list[list[str]]  # groups of words, one of each group said
    unless: list[str] = Field(default_factory=list)  # words that cancel it


class Taste(BaseModel):
    """A taste ruled out ("매운 거 못 먹어", "안 매운 떡볶이"): data/kinds.toml documents the fields."""

    name: str
    avoid: list[str]
    covers: list[str] = Field(default_factory=list)
    kinds: list[str] = Field(default_factory=list)
    menu: list[str] = Field(default_factory=list)
    title: list[str] = Field(default_factory=list)
    mild: list[str] = Field(default_factory=list)
    note_out: str
    note_mild: str
    note_mild_dish: str = ""
    note_mild_none: str = ""
    note_out_mild: str = ""
    mild_of: dict[str, list[str]] = Field(default_factory=dict)

    def mild_for(self, asked: Sequence[str], said: str) -> tuple[str, list[str]] | None:
        """The first dish or kind of ``asked`` the message ``said`` names with mild versions of its
        own ("안 매운 짬뽕" → 짬뽕: 백짬뽕, 하얀짬뽕 …), with them; None when none has."""
        table = {norm(k): v for k, v in self.mild_of.items()}
        text = norm(said)
        for a in asked:
            for word in (a, *a.split("·")):
                if norm(word) in table and norm(word) in text:
                    return " ".join(word.split()), table[norm(word)]
        return None


class EatIn(BaseModel):
    """ "배달 말고": eating at the place (data/kinds.toml ``[eat_in]``)."""

    phrases: list[str] = Field(default_factory=list)
    covers: list[str] = Field(default_factory=list)
    title: list[str] = Field(default_factory=list)
    category: list[str] = Field(default_factory=list)
    note: str = ""


class KindTable:
    """All kinds, with a word index for queries and a classifier for documents."""

    def __init__(
        self,
        kinds: Sequence[Kind],
        version: str = "",
        not_words: Sequence[str] = (),
        category_cuisine: dict[str, str] | None = None,
        themes: Sequence[Theme] = (),
        typo_note: str = "'{typo}'{eun} '{word}'{ro} 알아듣고 찾았어요.",
        tastes: Sequence[Taste] = (),
        eat_in: EatIn | None = None,
        typo_slips: Sequence[str] = (),
        typo_never: Sequence[str] = (),
        typo_groups: Sequence[str] = (),
        title_masks: Sequence[str] = (),
        branch_keep: Sequence[str] = (),
        described: Sequence[Described] = (),
        described_note: str = "",
        described_covers: Sequence[str] = (),
        typo_keys: Sequence[str] = (),
        latin_words: dict[str, str] | None = None,
        typo_endings: Sequence[str] = (),
        misspelt: dict[str, str] | None = None,
        title_heads: Sequence[str] = (),
        title_ingredients: Sequence[str] = (),
    ) -> None:
        self.kinds = list(kinds)
        self.title_heads = tuple(norm(w) for w in title_heads)  # dishes an ingredient before them qualifies
        self.title_ingredients = frozenset(norm(w) for w in title_ingredients)
        self.described = list(described)
        self.described_note = described_note
        self.described_covers = list(described_covers)
        self.title_masks = [norm(w) for w in title_masks]  # longer words holding a kind's name part
        self.branch_keep = tuple(branch_keep)  # last words ending in 점 that are part of the name
        self.typo_slips = list(typo_slips)  # syllable pairs: the letter a two-syllable typo may swap
        self.typo_groups = list(typo_groups)  # syllables whose differing letters sound alike
        self.typo_keys = list(typo_keys)  # the keyboard's rows of letters: a key next to the right one
        self.latin_words = {w.lower(): k for w, k in (latin_words or {}).items()}  # kinds in English only
        self.typo_never = {norm(w) for w in typo_never}  # ordinary words, never a kind word's typo
        self.misspelt = {norm(w): r for w, r in (misspelt or {}).items()}  # listed misspelling → right one
        self.typo_endings = frozenset(typo_endings)  # ending syllables of verbs and nouns ("타기", "사게")
        self.tastes = list(tastes)
        self.eat_in = eat_in or EatIn()
        self.typo_note = typo_note
        self.themes = list(themes)
        self.category_cuisine = dict(category_cuisine or {})  # top category → cuisine ("일식" → 일식)
        self.cuisines = set(self.category_cuisine.values())
        self.not_words = [norm(w) for w in not_words]  # contain a kind's word, name something else
        self.version = version  # a hash of the data file: documents are re-classified when it changes
        self.by_name = {k.name: k for k in self.kinds}
        self._descendants: dict[str, list[str]] = {}
        for k in self.kinds:
            if k.parent is not None and k.parent not in self.by_name:
                raise ValueError(f"kind {k.name!r}: unknown parent {k.parent!r}")
        for t in self.themes:
            for name in [*t.kinds, *t.out]:
                if name not in self.by_name:
                    raise ValueError(f"theme {t.name!r}: unknown kind {name!r}")
        for taste in self.tastes:
            for name in taste.kinds:
                if name not in self.by_name:
                    raise ValueError(f"taste {taste.name!r}: unknown kind {name!r}")
        self._words: dict[str, tuple[str, bool]] = {}  # word → (kind, is a dish word)
        for k in self.kinds:
            for w in (norm(k.name), *(norm(x) for x in k.words)):
                self._words.setdefault(w, (k.name, False))
            for w in [*k.dishes, *k.sub_dishes]:
                self._words.setdefault(norm(w), (k.name, True))
        self._sub_dishes = {norm(w) for k in self.kinds for w in k.sub_dishes}
        self._norm = {
            k.name: (
                [norm(c) for c in k.category],
                [norm(c) for c in k.not_category],
                [norm(t) for t in k.title],
                [norm(m) for m in k.menu],
            )
            for k in self.kinds
        }
        # the other word lists classify() compares, normalised once: (title_not,
        # category_unless_title, menu_not, menu_with)
        self._norm_more = {
            k.name: (
                [norm(x) for x in k.title_not],
                [norm(x) for x in k.category_unless_title],
                [norm(x) for x in k.menu_not],
                [norm(c) for c in k.menu_with],
            )
            for k in self.kinds
        }

        self._venue = self._venue_index()

        for dish in self.described:
            if self.lookup(dish.dish) is None:
                raise ValueError(f"described {dish.dish!r}: not a kind or dish word")

    @property
    def names(self) -> list[str]:
        return [k.name for k in self.kinds]

    def words(self) -> list[str]:
        """Every query word of every kind (normalised), longest first."""
        return sorted(self._words, key=len, reverse=True)

    def lookup(self, word: str) -> tuple[str, bool] | None:
        """``(kind, is_dish)`` for a word people type, or ``None``. ``is_dish`` is true for dishes
        that non-specialists also serve ("짜장면"), where menus may stand in for the kind."""
        w = norm(word)
        if not w:
            return None
        got = self._words.get(w)
        if got is not None:
            return got
        for suffix in _SUFFIXES:
            if w.endswith(suffix) and len(w) > len(suffix):
                got = self._words.get(w[: -len(suffix)])
                if got is not None:
                    return got
        return None

    def base_word(self, word: str) -> str:
        """The vocabulary's own word a typed word was taken as, without the suffix it carried
        ("짬뽕맛집" → 짬뽕, "짜장면집" → 짜장면); the word itself when it is one or none."""
        w = norm(word)
        if w in self._words:
            return word
        for suffix in _SUFFIXES:
            if w.endswith(suffix) and len(w) > len(suffix) and w[: -len(suffix)] in self._words:
                return w[: -len(suffix)]
        return word

    def brand_kind(self, brand: str) -> str | None:
        """The kind a chain's places are ("맥도날드" → 버거, "교촌치킨" → 치킨집): the broadest kind whose
        category paths name the brand, else a kind word inside the brand's name; None when neither."""
        b = norm(brand)
        if not b:
            return None
        filed = [k.name for k in self.kinds if any(norm(c) == b for c in k.category)]
        if filed:
            return min(filed, key=lambda n: len(self.ancestors(n)))
        for size in range(len(b), 1, -1):
            for i in range(len(b) - size + 1):
                got = self._words.get(b[i : i + size])
                if got is not None and not got[1]:
                    return got[0]
        return None

    def is_sub_dish(self, word: str) -> bool:
        """A dish only some places of its kind serve ("마라샹궈"): it must be on the menu."""
        return norm(word) in self._sub_dishes

    def dish_words(self, name: str) -> list[str]:
        """The menu words of a kind (as written in the data file)."""
        k = self.by_name.get(name)
        return [*k.menu, *k.dishes] if k is not None else []

    def ancestors(self, name: str) -> list[str]:
        out: list[str] = []
        k = self.by_name.get(name)
        while k is not None and k.parent is not None and k.parent not in out:
            out.append(k.parent)
            k = self.by_name.get(k.parent)
        return out

    def descendants(self, name: str) -> list[str]:
        got = self._descendants.get(name)
        if got is None:  # computed once per kind: ranking asks for it per hit
            got = self._descendants[name] = [k.name for k in self.kinds if name in self.ancestors(k.name)]
        return list(got)

    def stands_in(
        self, wanted: Sequence[str], kinds_of_doc: Sequence[str], menu_names: Sequence[str]
    ) -> str | None:
        """The menu word by which a restaurant of a neighbouring kind stands in for one of ``wanted``
        (a bakery whose menu says "아메리카노" for "카페"), else None."""
        for name in wanted:
            k = self.by_name.get(name)
            if k is None or not set(k.neighbours) & set(kinds_of_doc):
                continue
            word = next((w for m in menu_names for w in k.menu if w in m), None)
            if word is not None:
                return word
        return None

    def theme_kinds(self, wish: str) -> frozenset[str]:
        """The kinds of the described food a wish names ("해장" → 해장국, 국밥·순대국, 감자탕, 복어):
        a place of one of them is evidence for the wish; empty when the wish is no such family."""
        said = norm(wish)
        return frozenset(
            k for t in self.themes if said in {norm(t.name), *(norm(w) for w in t.words)} for k in t.kinds
        )

    def any_kind_theme(self, name: object) -> Theme | None:
        """The theme of any kind called ``name`` ("밥집": a meal at any restaurant), else None."""
        return next((t for t in self.themes if t.any_kind and t.name == name), None)

    def _venue_index(self) -> dict[str, tuple[list[str], list[str]]]:
        """Per kind with venue words: those words and the dishes that back them (the kind's and its
        narrower kinds' ``menu`` and ``venue_menu``), normalised."""
        return {
            k.name: (
                [norm(v) for v in k.venue],
                [
                    norm(m)
                    for f in (k, *(self.by_name[d] for d in self.descendants(k.name)))
                    for m in [*f.menu, *f.venue_menu]
                ],
            )
            for k in self.kinds
            if k.venue
        }

    def first_kinds(self, asked: Sequence[str], any_kind: str | None) -> list[str]:
        """The kinds a search puts first: the kinds ``asked``, else the family of the theme of any kind
        ``any_kind`` ("밥집": 백반, 국밥·순대국, 찌개·전골, 쌈밥, 한정식 — fetched on their own across the
        radius, ranked ahead of other restaurants and taken in turn as two kinds asked are), else none."""
        if asked:
            return list(asked)
        theme = self.any_kind_theme(any_kind)
        return list(theme.kinds) if theme is not None else []

    def kinds_out(self, name: str | None) -> list[str]:
        """The kinds the theme of any kind ``name`` leaves out (a café is no place for a meal)."""
        theme = self.any_kind_theme(name)
        return list(theme.out) if theme is not None else []

    def late_members(self, wanted: Sequence[str]) -> set[str]:
        """The kinds of a described food's family that follow its other members ("해장": a 복어
        house after the 해장국 and 국밥 places), when ``wanted`` is such a family (two kinds or more)."""
        got = set(wanted)
        if len(got) < 2:
            return set()
        return {a for t in self.themes if got <= set(t.kinds) for a in t.after if a in got}

    def late_titles(self, wanted: Sequence[str]) -> list[str]:
        """Name parts whose places follow the family's others (``Theme.after_titles``), when ``wanted``
        is such a family (two kinds or more)."""
        got = set(wanted)
        if len(got) < 2:
            return []
        return [norm(w) for t in self.themes if got <= set(t.kinds) for w in t.after_titles]

    def about_today(self, wanted: Sequence[str]) -> bool:
        """``wanted`` is a family whose wish is about today (``Theme.today``: "비 오는데 뭐 먹지")."""
        got = set(wanted)
        return len(got) >= 2 and any(t.today and got <= set(t.kinds) for t in self.themes)

    def is_mild_line(self, name: str, prefer: Sequence[str]) -> bool:
        """A menu line naming a mild version asked for ("로제 떡볶이") and no spicy word of a taste
        ("매운 짜장 떡볶이" names 짜장 but is no mild line)."""
        return any(norm(w) in norm(name) for w in prefer) and not self.is_spicy_line(name)

    def is_spicy_line(self, name: str) -> bool:
        """A menu line naming a spicy word of a taste ("매운쭈꾸미", "마라샹궈")."""
        line = norm(name)
        return any(norm(w) in line for t in self.tastes for w in t.menu)

    def mild_lines(self, menus: Sequence[str], prefer: Sequence[str]) -> list[str]:
        """The lines of ``menus`` that are mild lines for ``prefer``, in order."""
        return [m for m in menus if self.is_mild_line(m, prefer)]

    def taste_titles(self, tastes: Sequence[str], asked: Sequence[str]) -> list[str]:
        """Name parts of places whose speciality is one of ``tastes`` ("매운갈비찜", "○○짬뽕"), less
        the kinds and dishes ``asked``, their words and the parts of them ("안 매운 짬뽕" keeps the
        짬뽕 places, "안 매운 마라탕" the 마라 ones)."""
        own = {norm(a) for a in asked} | {
            norm(w) for a in asked if (kd := self.by_name.get(a)) is not None for w in kd.words
        }
        # a name part inside a word asked is that word ("안 매운 마라탕": a "마라○○" place is a 마라탕 one)
        return [
            t
            for taste in self.tastes
            if taste.name in tastes
            for t in taste.title
            if norm(t) not in own and not any(norm(t) in norm(a) for a in asked)
        ]

    def related(self, names: Sequence[str]) -> set[str]:
        """``names`` with their ancestors and descendants: kinds that do not contradict them."""
        out = set(names)
        for n in names:
            out.update(self.ancestors(n))
            out.update(self.descendants(n))
        return out

    def weakly(self, category: str, name: str, title: str = "", doc_kinds: Sequence[str] = ()) -> bool:
        """The category path (a 곱창 place asked as a 고깃집), the restaurant's name (a 샤브칼국수
        house asked as a 칼국수 place) or another kind the place is (a 곱창 or lamb house filed under
        a bare 육류 path, asked as a 고깃집: ``weak_kinds``, unless it is one of the kind's other
        sub-kinds too, a 한우 grill serving 육회비빔밥) makes it only a weaker member of kind ``name``."""
        k = self.by_name.get(name)
        cat = norm(category)
        return k is not None and (
            any(norm(w) in cat for w in k.weak_category)
            or any(norm(w) in norm(title) for w in k.weak_title)
            or (
                any(w in doc_kinds for w in k.weak_kinds)  # unless it is also one of the kind's own
                and not any(d in doc_kinds for d in self.descendants(name) if d not in k.weak_kinds)
            )
        )

    def own_name(self, title: str) -> str:
        """The (normalised) name without its branch word: "뚜레쥬르 카페센티움점" is no café, "용용선생
        선릉점" no 생선 house, "○○ 성남복정점" no 복어 house ("아이스크림 할인점" keeps its last word)."""
        words = title.split()
        if len(words) > 1 and words[-1].endswith(BRANCH_WORD) and not words[-1].endswith(self.branch_keep):
            words = words[:-1]
        return norm(" ".join(words))

    def named(self, name: str, word: str) -> bool:
        """The (normalised) restaurant name holds the kind's name part ``word`` as itself, not as a
        piece of a longer word that means something else ("요멘야고에몬" holds 멘야, "베이커리"
        커리, "○○스토리" 토리: ``title_masks``)."""
        if word not in name:
            return False
        for mask in self.title_masks:
            if word in mask and word != mask and mask in name:
                name = name.replace(mask, "\x00")
        return any(not self.qualifies(name, word, i) for i in _places(name, word))

    def qualifies(self, name: str, word: str, at: int) -> bool:
        """The part ``word`` at ``at`` of a name is the first half of a compound dish whose head follows
        it (``title_heads``): "○○소고기해장국" is a 해장국 house, "한우국밥" a 국밥 house, not a 소고기 one."""
        rest = name[at + len(word) :]
        return word in self.title_ingredients and any(rest.startswith(h) for h in self.title_heads)

    def thinly(self, category: str, name: str, title: str, menus: Sequence[str]) -> bool:
        """The category path ends in a bare umbrella of kind ``name`` ("한식>육류,고기" with no cut
        named: a 닭도리탕 or 곰탕 house is filed there too) and neither the name nor the menu says the
        kind or one of its sub-kinds: the place is only a weaker member (after the proven ones). With
        no menu known the category stands."""
        k = self.by_name.get(name)
        if k is None or norm(category.split(">")[-1]) not in {norm(c) for c in k.thin_category}:
            return False
        family = [k, *(self.by_name[d] for d in self.descendants(name))]
        own = self.own_name(title)
        if any(self.named(own, norm(t)) for f in family for t in f.title):
            return False
        dishes = {norm(d) for f in family for d in f.menu}
        nots = [norm(x) for x in k.menu_not]
        lines = [norm(m) for m in menus if m.strip()]
        hits = sum(any(d in line for d in dishes) and not any(x in line for x in nots) for line in lines)
        return bool(lines) and hits == 0

    def _venue_only(self, kind: str, said: Sequence[str], words: Sequence[str], lines: Sequence[str]) -> bool:
        """The kind is said (by the category path or the name: ``words`` found in ``said``) only by a
        venue word ("기사식당") and the known menu (at least :data:`VENUE_LINES` lines) names none of the
        kind's dishes: a 기사식당 selling 우동, 짜장면 and 라면 is a noodle counter, no 백반집 (audit r13 Q14)."""
        venue = self._venue.get(kind)
        if venue is None or len(lines) < VENUE_LINES:
            return False
        venues, backing = venue
        hit = [w for w in words if w in said]
        if not hit or any(w not in venues for w in hit):
            return False
        return not any(d in line for line in lines for d in backing)

    def unbacked(self, name: str, title: str, menus: Sequence[str]) -> bool:
        """The restaurant's name says kind ``name`` (a piece of it: "우리집밥상" holds 집밥, "○○정육식당"
        정육) but its known menu speaks against it: at least :data:`UNBACKED_LINES` named lines, at
        most one naming a dish of the kind or its family ("한우육회비빔밥" at a lunch 식당), and most of
        them naming other kinds' dishes (된장찌개, 제육볶음, 닭갈비, 오겹살). Such a place is only a
        weaker member, after the proven ones (audit r12 Q3, Q14). A name ending in the kind's word
        ("복돈이가마솥순대국", "가로수포차") says what the place is, whatever else it serves."""
        k = self.by_name.get(name)
        lines = [norm(m) for m in menus if m.strip()]
        if k is None or len(lines) < UNBACKED_LINES:
            return False
        own_name = self.own_name(title)
        said = [*self._norm[name][2], *self._norm[name][3], norm(k.name), *(norm(w) for w in k.words)]
        if any(own_name.endswith(t) for t in said):
            return False
        family = {name, *self.descendants(name), *self.ancestors(name)}
        nots = self._norm_more[name][2]
        own_words = [d for f in family for d in self._norm[f][3]]
        own = [
            line for line in lines if any(d in line for d in own_words) and not any(x in line for x in nots)
        ]
        other_words = [d for kind in self.kinds if kind.name not in family for d in self._norm[kind.name][3]]
        other = [line for line in lines if line not in own and any(d in line for d in other_words)]
        return len(own) <= 1 and 2 * len(other) > len(lines)

    def contradicts(self, category: str, name: str) -> bool:
        """The category path's top level names a cuisine other than the kind's ("일식" for a taco
        place named "타코몽"): a name or menu match is then weak evidence."""
        k = self.by_name.get(name)
        top = category.split(">")[0].strip()
        cuisine = self.category_cuisine.get(top)
        return k is not None and cuisine is not None and k.cuisine in self.cuisines and k.cuisine != cuisine

    def is_kind_line(self, kind: str, menu: str) -> bool:
        """The menu line names one of ``kind``'s dishes (its ``menu`` words, not a ``menu_not`` line)."""
        if kind not in self._norm:
            return False
        line, dishes, nots = norm(menu), self._norm[kind][3], self._norm_more[kind][2]
        return any(d in line for d in dishes) and not any(x in line for x in nots)

    def menu_share(self, kind: str, menus: Sequence[str]) -> float:
        """The share of the named menu lines that name one of ``kind``'s dishes (its ``menu``
        words, the ``menu_not`` lines left out); 0 for an unknown kind or no menu."""
        lines = [norm(m) for m in menus if m.strip()]
        if kind not in self._norm or not lines:
            return 0.0
        dishes, nots = self._norm[kind][3], self._norm_more[kind][2]
        hits = sum(any(d in line for d in dishes) and not any(x in line for x in nots) for line in lines)
        return hits / len(lines)

    def _ruled_out_by_category(self, k: Kind, cat: str, name: str, nots: list[str]) -> bool:
        """A neighbouring category rules the kind out, unless every such word is an umbrella the kind
        lists in ``title_over`` and the name says the kind ("철인7호치킨" filed under 패스트푸드)."""
        blocked = [n for n in nots if n in cat]
        if not blocked:
            return False
        over = {norm(x) for x in k.title_over}
        titles = self._norm[k.name][2]
        return not (all(n in over for n in blocked) and any(self.named(name, t) for t in titles))

    def classify(self, category: str, title: str, menus: Sequence[str]) -> list[KindEvidence]:
        """The kinds a restaurant is, each once, with the first evidence found.

        The category path is the strongest evidence, then the name. The menu counts only for a
        restaurant whose category names no kind at all ("한식", "술집", "음식점") or one the kind
        lists in ``menu_with``: an Indian restaurant with "탄두리치킨" on its menu is not a 치킨집.
        """
        cat = norm(category)
        name = self.own_name(title)
        lines = [norm(m) for m in menus if m.strip()]
        found: dict[str, KindEvidence] = {}
        ruled_out: set[str] = set()
        for k in self.kinds:
            cats, nots, titles, dishes = self._norm[k.name]
            title_not, others, _, _ = self._norm_more[k.name]
            if self._ruled_out_by_category(k, cat, name, nots) or any(x in name for x in title_not):
                ruled_out.add(k.name)
            elif cat and any(c in cat for c in cats):
                own_name = any(self.named(name, t) for t in titles)
                named_other = any(x in name for x in others)
                # a mixed category's other dish filling the menu ("일식>돈까스,우동" with only
                # 우동 lines) takes the category's word away too
                own_menu = sum(any(d in line for d in dishes) for line in lines)
                menu_other = (
                    bool(others)
                    and own_menu == 0
                    and sum(any(x in line for x in others) for line in lines) >= 2
                )
                venue_only = self._venue_only(k.name, cat, [c for c in cats if c in cat], lines) and not any(
                    self.named(name, t) for t in titles if t not in self._venue[k.name][0]
                )
                if (own_name or not (named_other or menu_other)) and not venue_only:
                    found.setdefault(k.name, KindEvidence(kind=k.name, source="category", span=category))
        for name in [n for n in found if any(o in found for o in self.by_name[n].yields_to)]:
            del found[name]  # "샤브샤브>등촌샤브칼국수": a 샤브 place, its 칼국수 a dish of it
            ruled_out.add(name)
        by_category = bool(found)
        for k in self.kinds:
            _, _, titles, dishes = self._norm[k.name]
            if k.name in found or k.name in ruled_out:
                continue
            said = bool(name) and any(self.named(name, t) for t in titles)
            if said and self._venue_only(k.name, name, [t for t in titles if self.named(name, t)], lines):
                said = False  # "맛있는집기사식당" selling 우동·짜장면·라면: the name says where, not what
            if said and any(found[o].source == "category" for o in k.yields_to if o in found):
                continue  # "등촌샤브칼국수" filed under 샤브샤브 is a 샤브 place, not a 국수집
            if said:
                title_not = self._norm_more[k.name][0]
                others_on_menu = [line for line in lines if any(x in line for x in title_not)]
                own_on_menu = [
                    line for line in lines if any(d in line for d in dishes) and line not in others_on_menu
                ]
                if not (others_on_menu and not own_on_menu):  # "타코몽" selling 타코야끼 is no taco place
                    found[k.name] = KindEvidence(kind=k.name, source="title", span=title)
            elif (
                dishes
                and lines
                and (not by_category or any(_category_is(cat, c) for c in self._norm_more[k.name][3]))
            ):
                nots = self._norm_more[k.name][2]
                hits = [
                    m
                    for m, line in zip(menus, lines, strict=False)
                    if any(d in line for d in dishes) and not any(x in line for x in nots)
                ]
                if len(hits) >= k.min_lines and len(hits) / len(lines) >= k.share:
                    found[k.name] = KindEvidence(kind=k.name, source="menus", span=", ".join(hits[:3]))
        for child in list(found):
            for parent in self.ancestors(child):
                if parent not in ruled_out:
                    found.setdefault(parent, KindEvidence(kind=parent, source=f"kind:{child}", span=child))
        return list(found.values())


@cache
def kinds() -> KindTable:
    """The kind table of ``data/kinds.toml`` (loaded once)."""
    data = KINDS_FILE.read_bytes()
    raw = tomllib.loads(data.decode("utf-8"))
    # the classifier's code is part of the version: documents are re-classified when either changes
    version = hashlib.sha256(data + Path(__file__).read_bytes()).hexdigest()[:12]
    return KindTable(
        [Kind.model_validate(k) for k in raw.get("kind", [])],
        version,
        [str(w) for w in raw.get("not_words", [])],
        {str(k): str(v) for k, v in raw.get("category_cuisine", {}).items()},
        [Theme.model_validate(t) for t in raw.get("theme", [])],
        str(raw.get("typo_note", "")) or "'{typo}'{eun} '{word}'{ro} 알아듣고 찾았어요.",
        [Taste.model_validate(t) for t in raw.get("taste", [])],
        EatIn.model_validate(raw.get("eat_in", {})),
        [str(w) for w in raw.get("typo_slips", [])],
        [str(w) for w in raw.get("typo_never", [])],
        [str(w) for w in raw.get("typo_groups", [])],
        [str(w) for w in raw.get("title_masks", [])],
        [str(w) for w in raw.get("branch_keep", [])],
        [Described.model_validate(d) for d in raw.get("described", [])],
        str(raw.get("described_note", "")),
        [str(w) for w in raw.get("described_covers", [])],
        [str(w) for w in raw.get("typo_keys", [])],
        {str(w): str(k) for w, k in raw.get("latin_words", {}).items()},
        [str(w) for w in raw.get("typo_endings", [])],
        {str(w): str(r) for w, r in raw.get("misspelt", {}).items()},
        [str(w) for w in raw.get("title_heads", [])],
        [str(w) for w in raw.get("title_ingredients", [])],
    )


def _places(text: str, word: str) -> list[int]:
    """Every index at which ``word`` starts in ``text``."""
    out: list[int] = []
    at = text.find(word)
    while at >= 0 and word:
        out.append(at)
        at = text.find(word, at + 1)
    return out


def said_as(typo: str, word: str) -> str:
    """The note for a typo taken as a kind word ("'순두브'는 '순두부'로 알아듣고 찾았어요.")."""

    def final(w: str) -> int:
        code = ord(w[-1]) - 0xAC00 if w else -1
        return code % 28 if 0 <= code < 11172 else 0

    return kinds().typo_note.format(
        typo=typo,
        word=word,
        eun="은" if final(typo) else "는",
        ro="로" if final(word) in (0, 8) else "으로",  # no final consonant, or ㄹ
    )
