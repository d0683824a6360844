"""Restaurant kinds named in a message ("잠실 치킨집", "홍대 일식인데 스시 말고", "korean bbq").

The words come from :mod:`matjip.kinds` (``data/kinds.toml``). A word counts when it stands as
a word of the message (with the usual endings: 집, 맛집, particles), or, for words of two or
more syllables, anywhere inside a word ("수제맥주집", "koreanbbq"). A kind word followed by an
exclusion ("말고", "빼고", "아닌", "제외", "싫어") is an exclusion, not a wish.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from pydantic import BaseModel

from matjip.kinds import KindTable, Theme, kinds, norm
from matjip.words import words

_EXCLUDE = re.compile(  # "마라 들어간 데는 빼줘": what a dish has in it, ruled out
    r"^\s*(?:(?:들어간|들어가는|들어있는|들어 있는|넣은)\s*(?:데|곳|거|것|건|집|메뉴)?\s*)?(?:집|맛집)?\s*(?:은|는|이|가|을|를|도|류|종류|같은\s*거|이런\s*거|그런\s*거|이런\s*건|쪽은|계열은?)?\s*"
    r"(?:말고|말구|빼고|빼구|뺴고|빼줘|빼 줘|빼주|제외|아닌|아니고|싫|ㄴㄴ|노노"
    # "순대 못 먹어서": cannot eat it (never "못 먹어 봤는데": not tried yet)
    r"|못\s*먹(?!\s*어\s*보|어\s*봤|어\s*본|\s*어봤|어봤|어본|어보))"
)
_ENDINGS = words("query_kinds", "endings")
_CHAIN_WORDS = words("query_kinds", "chain_words")
_OR_AFTER = "(?:" + "|".join(words("query_kinds", "or_after")) + ")"
_PLACE_ENDS = words("query_kinds", "place_ends")
_QUALIFIED_HEADS = frozenset(words("query_kinds", "qualified_heads"))
_QUALIFIER_KINDS = frozenset(words("query_kinds", "qualifier_kinds"))
_VARIANT_BEFORE = tuple(sorted(words("query_kinds", "variant_before"), key=len, reverse=True))
_HOUSE_AFTER_KIND = re.compile(
    r"(?<!\S)([^\s,.!?~]+)\s+("
    + "|".join(sorted(map(re.escape, words("query_kinds", "house_after_kind")), key=len, reverse=True))
    + r")(?=\s|$|[,.!?~]|은|는|이|가|을|를|도|으로|로|추천|좀)"
)
SET_MEAL_KIND, SET_MEAL_PLAIN = words("query_kinds", "set_meal")
_SERVED_AT = re.compile(
    r"([가-힣]+?)(?:이|가|도|만)?\s*(?:"
    + "|".join(sorted(map(re.escape, words("query_kinds", "served_at")), key=len, reverse=True))
    + r")\s+([가-힣]+)"
)
# "마라탕집인데 꿔바로우도 되는 곳": the house first, then the dish served there
_SERVED_AFTER = re.compile(
    r"([가-힣]+?)(?:인데|이고|이면서|면서|중에|중)\s+([가-힣]+?)(?:이|가|도|만)?\s*(?:"
    + "|".join(sorted(map(re.escape, words("query_kinds", "served_at")), key=len, reverse=True))
    + r")\s*(?:곳|데|집|가게)"
)


@cache
def brand_aliases() -> dict[str, str]:
    """What people call chains → the brand name in the data (``data/brand_aliases.tsv``)."""
    path = Path(__file__).resolve().parents[1] / "data" / "brand_aliases.tsv"
    out: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#") and "\t" in line:
            alias, brand = line.split("\t", 1)
            out[alias.strip()] = brand.strip()
    return out


class ChainRules(BaseModel):
    """What makes a place a chain's (``data/chains.toml`` documents each rule)."""

    local: list[str]
    branch: list[str]
    not_branch: list[str]
    not_branch_words: list[str] = []
    own_shop: list[str]
    brands: list[str]
    like: str = ""
    brand_kinds: dict[str, list[str]] = {}  # a kind → brands whose name holds no kind word

    def said_like(self, text: str) -> bool:
        """ "김밥천국 같은 데 말고": a listed brand (or what people call one) said as an example of what is
        ruled out."""
        names = [*self.brands, *brand_aliases()]
        for name in (n.lower() for n in names):
            pos = text.find(name)
            if pos >= 0 and self.like and re.search(self.like, text[pos + len(name) :]):
                return True
        return False

    def brand_of(self, title: str) -> str | None:
        """The listed franchise brand a name starts with ("교촌치킨 잠실점" → 교촌치킨)."""
        name = norm(title)
        return next((b for b in self.brands if name.startswith(norm(b))), None)

    def is_chain(self, title: str, branches: Callable[[str], int]) -> bool:
        """A listed brand, or a name ending in a branch word ("석촌점", "2호점"); a "본점" only when
        ``branches(brand)`` (other branches of the name before it in the data) says it has some."""
        if self.brand_of(title) is not None:
            return True
        words = title.split()
        if len(words) < 2:
            return False
        last = words[-1]
        if (
            not last.endswith(tuple(self.branch))
            or last.endswith(tuple(self.not_branch))
            or last in self.not_branch_words
        ):
            return False
        if last.endswith(tuple(self.own_shop)):  # "방이본점": the shop itself unless it has branches
            return branches(" ".join(words[:-1])) >= 2
        return True


@cache
def chain_rules() -> ChainRules:
    """The chain rules of ``data/chains.toml`` (loaded once)."""
    path = Path(__file__).resolve().parents[1] / "data" / "chains.toml"
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    rules = ChainRules.model_validate(raw)
    rules.brands.sort(key=len, reverse=True)
    return rules


@cache
def _inner_words() -> re.Pattern[str]:
    """Every kind word of two or more characters, longest first, as one pattern; an English word only
    as a whole word ("bar" is not inside "barbecue")."""
    return re.compile("|".join(_whole_latin(w) for w in kinds().words() if len(w) >= 2))


def _whole_latin(word: str) -> str:
    """``word`` escaped, with no Latin letter allowed before a Latin first letter or after a Latin last one
    but a plural's ("burgers")."""
    head = "(?<![a-z])" if word[0].isascii() and word[0].isalpha() else ""
    tail = "(?=(?:e?s)?(?![a-z]))" if word[-1].isascii() and word[-1].isalpha() else ""
    return head + re.escape(word) + tail


@dataclass
class KindFrame:
    """Kinds a message asks for and rules out."""

    kinds: list[str] = field(default_factory=list)
    dishes: list[str] = field(default_factory=list)  # dish words whose menus may stand in for the kind
    served: list[str] = field(default_factory=list)  # "냉면 나오는 고깃집": a dish wanted on the kind's menus
    exclude_kinds: list[str] = field(default_factory=list)
    exclude_words: list[str] = field(default_factory=list)  # the words of excluded kinds, for menus
    exclude_chains: bool = False
    brands: list[str] = field(default_factory=list)  # chains asked for by what people call them ("맘터")
    exclude_brands: list[str] = field(default_factory=list)  # chains ruled out by what people call them
    words: list[str] = field(default_factory=list)  # every word this frame understood
    theme: str | None = None  # the note of a theme that chose the kinds ("속이 편한")
    tastes_avoided: list[str] = field(default_factory=list)  # "매운 거 못 먹어" → ["매운"]
    eat_in: bool = False  # "배달 말고": eating at the place
    # a theme of any kind ("밥 먹을 데", kinds.toml any_kind): its name — its family first, never a kind asked
    any_kind: str | None = None
    corrections: list[tuple[str, str]] = field(default_factory=list)  # ("순두브", "순두부"): a typo taken
    # "해산물 포차": the word of a food kind said right before the one kind asked (a house serving it)
    qualifier: str | None = None


def _strip(token: str) -> str:
    t = token
    for _ in range(2):
        for e in _ENDINGS:
            if t.endswith(e) and len(t) > len(e):
                t = t[: -len(e)]
                break
    return t


@dataclass
class _KindScan:
    """A message read for kinds: the text lower-cased, the spans already used, the frame so far."""

    table: KindTable
    lowered: str
    frame: KindFrame = field(default_factory=KindFrame)
    taken: list[tuple[int, int]] = field(default_factory=list)
    dish_only: set[str] = field(default_factory=set)  # kinds named only by a dish others serve too ("볶음밥")
    in_place_name: set[str] = field(default_factory=set)  # kinds said only inside a place ("쭈꾸미골목")
    # kinds said just before a word ruled out ("분식집 라면 말고"): they say which 라면, not a wish
    qualifiers: set[str] = field(default_factory=set)

    def free(self, a: int, b: int) -> bool:
        return all(b <= x or a >= y for x, y in self.taken)

    def add(self, word: str, start: int, end: int) -> None:
        got = self.table.lookup(word)
        if got is None:
            return
        frame = self.frame
        kind, is_dish = got
        self.taken.append((start, end))
        right = self.table.misspelt.get(norm(word))
        if right is not None and not any(typo == word.strip() for typo, _ in frame.corrections):
            frame.corrections.append(
                (word.strip(), right)
            )  # "떡뽁이": a listed misspelling, said as corrected
        rest = self.lowered[end:]
        variant = next((v for v in _VARIANT_BEFORE if self.lowered[:start].endswith(v)), None)
        if _EXCLUDE.match(rest) and variant is not None and self._word_starts(start - len(variant)):
            frame.exclude_words.append(variant + word)  # "매운족발은 빼주세요": that version, not the kind
        elif _EXCLUDE.match(rest):
            if kind not in frame.exclude_kinds and not is_dish:  # a dish ruled out rules out the dish only
                frame.exclude_kinds.append(kind)
            frame.exclude_words.append(word)
        elif kind not in frame.kinds:
            if self._qualifies_exclusion(rest):
                self.qualifiers.add(kind)
            frame.kinds.append(kind)
            if is_dish:  # the dish itself, never "짬뽕맛집": menus list 짬뽕
                frame.dishes.append(self.table.base_word(word))
                self.dish_only.add(kind)
            if self._in_place_name(start, end):
                self.in_place_name.add(kind)
        else:
            if not is_dish:
                self.dish_only.discard(kind)
            elif self.table.base_word(word) not in frame.dishes:
                frame.dishes.append(self.table.base_word(word))  # "짜장면 탕수육": both dishes of the kind
            if not self._in_place_name(start, end):
                self.in_place_name.discard(kind)
        frame.words.append(word)

    def _word_starts(self, at: int) -> bool:
        """A word of the message starts at ``at``."""
        return at == 0 or (at > 0 and self.lowered[at - 1].isspace())

    def _qualifies_exclusion(self, rest: str) -> bool:
        """The next word, a dish or a kind, is ruled out ("분식집 라면말고", "중국집 짬뽕 빼고")."""
        m = re.match(r"(?:집|맛집)?\s+([가-힣]+)", rest)
        if m is None:
            return False
        token, after = m.group(1), rest[m.end() :]
        return any(_EXCLUDE.match(token[i:] + after) for i in range(len(token), 0, -1))

    def _in_place_name(self, start: int, end: int) -> bool:
        """The word is part of a place's name: its word ends in 골목, 거리 … ("천호 쭈꾸미골목")."""
        m = re.match(r"[^\s,.!?~]*", self.lowered[end:])
        tail = _strip(self.lowered[end : end + (m.end() if m else 0)])
        return tail.endswith(tuple(_PLACE_ENDS))


def detect_kinds(text: str) -> KindFrame:
    """The kinds ``text`` names, longest words first, each place in the text used once."""
    scan = _KindScan(kinds(), _singular(text.lower()))
    frame = scan.frame
    compact = norm(text)
    _read_causes(scan, compact)
    _find_kind_words(scan)
    _read_described(scan, compact)
    _read_chains(scan, compact)
    _read_brands(scan)
    # a kind asked for is never also ruled out
    frame.exclude_kinds = [k for k in frame.exclude_kinds if k not in frame.kinds]
    # "쌀국수말고 분짜": a contrast inside the kind asked for, not a menu word to rule places out by
    frame.exclude_words = [
        w for w in frame.exclude_words if (scan.table.lookup(w) or ("", False))[0] not in frame.kinds
    ]
    if frame.exclude_chains:
        frame.words.extend(w for w in _CHAIN_WORDS if w in compact)
    _settle_kinds(scan)
    _read_set_meal(scan, compact)
    _read_served_at(scan)
    # a kind said only to qualify a word ruled out, beside another kind asked ("라멘집, 분식집 라면 말고"):
    # it names what is ruled out, not a second wish (alone, "중식 짬뽕 말고" still asks for 중식)
    asked = [k for k in frame.kinds if k not in scan.qualifiers]
    if asked and scan.qualifiers:
        near = scan.table.related(asked)
        frame.kinds = [k for k in frame.kinds if k not in scan.qualifiers or k in near]
    # a kind said only inside a place's name, beside another kind ("쭈꾸미골목 근처 아구찜"): the other
    if any(k not in scan.in_place_name for k in frame.kinds):
        frame.kinds = [k for k in frame.kinds if k not in scan.in_place_name]
    _read_tastes(scan)
    if not frame.kinds:
        _read_theme(scan, compact)
    else:
        _read_theme_beside(scan, compact)
    if not frame.kinds:
        _kind_of_excluded_brands(scan)
    if not frame.kinds and _in_english(scan.lowered):
        _read_latin_words(scan)
    _refine_by_modifiers(scan)
    _read_qualified(scan)
    return frame


def _read_qualified(scan: _KindScan) -> None:
    """ "해산물 포차", "한우 오마카세": a food kind said right before a kind of house (query_kinds.toml
    ``qualified_heads``) asks for that house serving it — the house's kind, the food's word its qualifier."""
    table, frame = scan.table, scan.frame
    if len(frame.kinds) != 2 or frame.exclude_kinds:
        return
    for food, house in (frame.kinds, frame.kinds[::-1]):
        if food not in _QUALIFIER_KINDS or house not in _QUALIFIED_HEADS:
            continue
        said = {
            k: [w for w in frame.words if (table.lookup(w) or ("", False))[0] == k] for k in (food, house)
        }
        for a in said[food]:
            if any(re.search(re.escape(a) + r"\s*" + re.escape(b), scan.lowered) for b in said[house]):
                frame.kinds = [house]
                frame.dishes = [d for d in frame.dishes if (table.lookup(d) or ("", False))[0] == house]
                frame.qualifier = table.base_word(a)
                return


def _read_served_at(scan: _KindScan) -> None:
    """ "된장찌개 나오는 고깃집", "물냉면 하는 고깃집": a dish of another kind said as served at the kind
    after it is a line wanted on that kind's menus — the kind asked is the house, not the dish's."""
    table, frame = scan.table, scan.frame
    pairs = [m.groups() for m in _SERVED_AT.finditer(scan.lowered)]
    pairs += [(m.group(2), m.group(1)) for m in _SERVED_AFTER.finditer(scan.lowered)]
    for said_dish, said_house in pairs:
        dish, house = (table.lookup(w) or table.lookup(_strip(w)) for w in (said_dish, said_house))
        if dish is None or house is None or house[0] not in frame.kinds:
            continue
        if (
            dish[0] == house[0]
            or dish[0] in table.related([house[0]])
            or house[0] in table.related([dish[0]])
        ):
            continue  # "짬뽕 하는 중국집": a dish of the kind itself
        word = said_dish if table.lookup(said_dish) else _strip(said_dish)
        frame.kinds = [k for k in frame.kinds if k != dish[0]] or [house[0]]
        frame.dishes = [d for d in frame.dishes if (table.lookup(d) or ("", False))[0] != dish[0]]
        if house[0] not in frame.kinds:
            frame.kinds.append(house[0])
        frame.served.append(table.base_word(word))


def _read_set_meal(scan: _KindScan, compact: str) -> None:
    """ "생선구이 정식", "제육 정식": a set meal of the food before it, not a 한정식 — the food's kind
    (or, for a dish no kind names, a 백반 house); "한정식" or "정식" alone stays 한정식."""
    frame = scan.frame
    if SET_MEAL_KIND not in frame.kinds or norm(SET_MEAL_KIND) in compact:
        return
    before = re.search(r"([가-힣]{2,})\s*정식", scan.lowered)
    if before is None:
        return
    others = [k for k in frame.kinds if k != SET_MEAL_KIND]
    frame.kinds = others or ([SET_MEAL_PLAIN] if SET_MEAL_PLAIN in scan.table.by_name else frame.kinds)


def _find_kind_words(scan: _KindScan) -> None:
    """The kind words of the message, each place in the text used once, in this order."""
    table, lowered, frame = scan.table, scan.lowered, scan.frame
    # 0. words that contain a kind's word but name something else ("스터디카페") are set aside
    for w in table.not_words:
        for m in re.finditer(re.escape(w), lowered):
            scan.taken.append((m.start(), m.end()))
    # 0b. "민물장어 구이집": the house word after a kind's word belongs to that kind
    for m in _HOUSE_AFTER_KIND.finditer(lowered):
        before = table.lookup(_strip(m.group(1))) or table.lookup(m.group(1))
        if before is not None and before[0] != (table.lookup(m.group(2)) or ("",))[0]:
            scan.taken.append(m.span(2))
            frame.words.append(m.group(2))  # understood: never "'구이'는 확인할 수 없어서"
    # 1. two-word phrases first ("디저트 카페" is one kind, not 디저트 + 카페) ("korean bbq", "디저트 카페")
    for m in re.finditer(r"(?<!\S)(?=([^\s]+\s+[^\s]+))", lowered):  # from a word's start ("튀김 밥")
        phrase = m.group(1)
        stripped = _strip(phrase)
        if table.lookup(stripped) is not None and scan.free(m.start(), m.start() + len(stripped)):
            scan.add(stripped, m.start(), m.start() + len(stripped))
    # 2. whole words (with endings stripped): any length, single syllables included
    for m in re.finditer(r"[^\s,.!?~]+", lowered):
        token = m.group(0)
        # an ordinary word is not a kind word with an ending ("바로" is no 바 + 로: kinds.toml typo_never)
        bare: tuple[str, ...] = () if token in table.typo_never else (_strip(token),)
        for cand in (token, *bare):
            if table.lookup(cand) is not None and scan.free(m.start(), m.end()):
                scan.add(cand, m.start(), m.start() + len(cand))
                break
    # 3. a word nobody recognised one jamo away from a kind's word ("순두브", "김치찌게", "떢볶이"),
    # before the words inside words: "순두브찌개" is a 순두부찌개, not any 찌개
    for m in re.finditer(r"[가-힣]+", lowered):
        if not scan.free(m.start(), m.end()):
            continue
        cands: tuple[str, ...] = (m.group(0), _strip(m.group(0)))
        if any(m.group(0).startswith(w) for w in scan.table.typo_never):  # "와이파이도" is no 와인바
            continue
        offset = 0
        glued = _after_glued_place(m.group(0))  # "당산역양꼬지맛집": 양꼬지맛집 read on its own
        if glued:
            offset = len(m.group(0)) - len(glued)
            cands = (*cands, glued, _strip(glued))
        for i, cand in enumerate(cands):
            fix = close_kind_word(cand)
            at = m.start() + (offset if i >= 2 else 0)
            if fix is not None:
                scan.add(fix, at, at + len(cand))
                frame.corrections.append((cand, scan.table.misspelt.get(norm(fix), fix)))
                frame.words.append(cand)
                break
            if _read_compound_typo(scan, cand, at):
                break
    # 4. words inside words, two syllables or more, longest first
    for m in _inner_words().finditer(lowered):
        if scan.free(m.start(), m.end()):
            scan.add(m.group(0), m.start(), m.end())


def _read_compound_typo(scan: _KindScan, word: str, start: int) -> bool:
    """ "곱창전꼴": a kind's word and a typo of another kind's word run together — both kinds, as the
    word spelt right ("곱창전골") would be read, and the correction noted (the dish the menus list)."""
    table = scan.table
    for cut in range(2, len(word) - 1):
        head, tail = word[:cut], word[cut:]
        fix = close_kind_word(tail) if table.lookup(head) is not None else None
        if (
            fix is not None
            and (table.lookup(fix) or ("", False))[0] != (table.lookup(head) or ("", False))[0]
        ):
            scan.add(head, start, start + cut)
            scan.add(fix, start + cut, start + len(word))
            scan.frame.corrections.append((word, head + fix))
            scan.frame.words.append(word)
            return True
    return False


def _read_described(scan: _KindScan, compact: str) -> None:
    """A dish described by what it is made of ("돼지발 삶아서 썰어주는 거" → 족발, "메밀국수 동치미에
    말아주는 데" → 막국수): its kind, unless a kind is named apart from the description."""
    table, frame = scan.table, scan.frame
    for entry in table.described:
        said = [next((w for w in group if norm(w) in compact), None) for group in entry.all]
        if not all(said) or any(norm(w) in compact for w in entry.unless):
            continue
        kind, is_dish = table.lookup(entry.dish) or ("", False)
        if kind in frame.exclude_kinds:  # "조개구이는 빼고": the dish ruled out is not described
            continue
        matched = [norm(w) for w in said if w]
        related = table.related([kind])
        named_apart = [
            k
            for k in frame.kinds
            if k not in related
            and not any(
                (table.lookup(w) or ("", False))[0] == k
                and any(m in norm(w) or norm(w) in m for m in matched)
                for w in frame.words
            )
        ]
        if named_apart:
            return
        frame.kinds, frame.dishes = [kind], [entry.dish] if is_dish else []
        scan.dish_only = {kind} if is_dish else set()
        tokens = [_strip(t) for t in re.findall(r"[^\s,.!?~]+", scan.lowered) if any(m in t for m in matched)]
        frame.words.extend([*matched, *tokens, *table.described_covers])  # "메밀국수" is the description's
        frame.theme = table.described_note.format(word=entry.dish, ro=_ro(entry.dish)) or None
        return


def _ro(word: str) -> str:
    """로 after a word ending in a vowel or ㄹ, else 으로."""
    code = ord(word[-1]) - 0xAC00 if word else -1
    final = code % 28 if 0 <= code < 11172 else 0
    return "로" if final in (0, 8) else "으로"


def _read_chains(scan: _KindScan, compact: str) -> None:
    """Chains ruled out ("프랜차이즈 말고") or a local shop asked for ("동네 국밥집")."""
    lowered, frame = scan.lowered, scan.frame
    chains_out = re.search(
        r"(?:체인|프랜차이즈|프렌차이즈|프차)\S*\s*(?:은|는|이|가|점)?\s*"
        r"(?:말고|빼고|뺴고|제외|아닌|싫|좀\s*(?:[.…]|$|별로|그래))",
        lowered,
    )
    local = next((found for pat in chain_rules().local if (found := re.search(pat, lowered))), None)
    said = (any(w in compact for w in _CHAIN_WORDS) and bool(chains_out)) or bool(local)
    frame.exclude_chains = said or chain_rules().said_like(lowered)
    if local:
        frame.words.extend(w for w in ("동네", "개인") if w in compact)


def _read_brands(scan: _KindScan) -> None:
    """Brands asked for, or ruled out ("파바 뚜쥬 말고", "맥날 버거킹 이런거말고"): every brand before
    the exclusion word."""
    lowered, frame = scan.lowered, scan.frame
    marker = re.search(r"말고|말구|빼고|제외|아닌\s*(?:곳|데)|싫어", lowered)
    for alias, brand in brand_aliases().items():
        pos = lowered.find(alias.lower())
        if pos < 0:
            continue
        ruled_out = marker is not None and pos < marker.start()
        target = frame.exclude_brands if ruled_out else frame.brands
        if brand not in target:
            target.append(brand)
            if ruled_out:  # a brand asked for stays a name the rest of the plan may use
                frame.words.append(alias)
    if marker is None:
        return
    # "애슐리 말고 뷔페": a listed franchise brand (data/chains.toml) ruled out by its own name is out,
    # whether or not the data holds a branch of it — never a word the data cannot check
    said = lowered[: marker.start()]
    for brand in chain_rules().brands:
        name = brand.lower()
        known = any(name in norm(b).lower() or norm(b).lower() in name for b in frame.exclude_brands)
        if len(name) >= 2 and name in said and not known:
            frame.exclude_brands.append(brand)
            frame.words.append(brand)


def _alternatives(scan: _KindScan) -> set[str]:
    """The kinds of the frame whose word is followed by an "or" ("샐러드나", "초밥 아니면")."""
    out: set[str] = set()
    for k in scan.frame.kinds:
        kind = scan.table.by_name.get(k)
        if kind is None:
            continue
        for w in sorted(kind.words, key=len, reverse=True):
            if re.search(re.escape(w.lower()) + _OR_AFTER, scan.lowered):
                out.add(k)
                break
    return out


def _settle_kinds(scan: _KindScan) -> None:
    """Kinds said together reduced to the ones meant."""
    table, frame = scan.table, scan.frame
    # a dish others serve too, said beside a kind ("닭갈비 볶음밥까지"), belongs to that kind
    if any(k not in scan.dish_only for k in frame.kinds):
        frame.kinds = [k for k in frame.kinds if k not in scan.dish_only]
        frame.dishes = [d for d in frame.dishes if (table.lookup(d) or ("", True))[0] in frame.kinds]
    # a broader kind asked together with one of its own children: keep the child ("고기 삼겹살"),
    # unless they are said as alternatives ("샐러드나 포케": the broader holds both)
    either = _alternatives(scan)
    drop: set[str] = set()
    for child in frame.kinds:
        for parent in frame.kinds:
            if parent in table.ancestors(child):
                drop.add(child if {parent, child} & either else parent)
    frame.kinds = [k for k in frame.kinds if k not in drop]
    # an umbrella said with a kind under it ("술집인데 호프로"), or a kind that only describes
    # another ("생선구이 백반집"): the other kind
    frame.kinds = [k for k in frame.kinds if not _covered_umbrella(k, frame.kinds)]


def _read_tastes(scan: _KindScan) -> None:
    """A taste ruled out ("매운 거 못 먹어", "안 매운 떡볶이"): said, and applied by the planner; eating in."""
    table, lowered, frame = scan.table, scan.lowered, scan.frame
    for taste in table.tastes:
        if any(re.search(pat, lowered) for pat in taste.avoid):
            frame.tastes_avoided.append(taste.name)
            frame.words.extend(taste.covers)
    if any(re.search(pat, lowered) for pat in table.eat_in.phrases):
        frame.eat_in = True
        frame.words.extend(table.eat_in.covers)


def _read_theme(scan: _KindScan, compact: str) -> None:
    """A wish that names a family of kinds ("속이 편한 음식"), when no kind is named."""
    frame = scan.frame
    for theme in scan.table.themes:
        if _theme_said(theme, scan.lowered, compact) and theme.name not in frame.tastes_avoided:
            family = [k for k in theme.kinds if k not in frame.exclude_kinds]
            if theme.any_kind:  # "밥 먹을 데": a meal at any restaurant, the family's first
                frame.any_kind = theme.name
            else:
                frame.kinds = family
            frame.theme = theme.note
            frame.words.extend([*theme.words, *theme.covers])
            break


def _read_theme_beside(scan: _KindScan, compact: str) -> None:
    """ "디저트 달달한거": a wish said beside one kind of its own family, when the theme asks for its family
    so (``beside``, data/kinds.toml), is read as said alone — the family, the named kind first, its note."""
    frame = scan.frame
    for theme in scan.table.themes:
        if (
            theme.beside
            and len(frame.kinds) == 1
            and frame.kinds[0] in theme.kinds
            and theme.name not in frame.tastes_avoided
            and _theme_said(theme, scan.lowered, compact)
        ):
            family = [k for k in theme.kinds if k not in frame.exclude_kinds]
            frame.kinds = [frame.kinds[0], *(k for k in family if k != frame.kinds[0])]
            frame.theme = theme.note
            frame.words.extend([*theme.words, *theme.covers])
            return


def _theme_said(theme: Theme, lowered: str, compact: str) -> bool:
    """One of the theme's words is said and none of the words that cancel it."""
    tokens = [norm(t) for t in lowered.split()]
    return any(_theme_word_said(w, tokens, compact) for w in theme.words) and not any(
        norm(w) in compact for w in theme.unless
    )


CAUSE_REACH = 12  # characters after a cause word within which its verb is said ("소주 너무 마셔서")


def _read_causes(scan: _KindScan, compact: str) -> None:
    """ "어제 소주 너무 마셔서 속 쓰림.. 해장할 곳": a drink said before a verb of drinking, in a message
    with the wish it brought on (a theme's ``causes`` and ``cause_verbs``, data/kinds.toml), is the
    story — no kind ("맥주" → 호프) and no menu asked (understood: never "'소주'는 확인할 수 없어서")."""
    lowered = scan.lowered
    for theme in scan.table.themes:
        if not theme.causes or not _theme_said(theme, lowered, compact):
            continue
        for word in theme.causes:
            for m in re.finditer(re.escape(word), lowered):
                after = lowered[m.end() : m.end() + CAUSE_REACH]
                if any(v in after for v in theme.cause_verbs) and scan.free(m.start(), m.end()):
                    scan.taken.append(m.span())
                    scan.frame.words.append(word)


def _theme_word_said(word: str, tokens: list[str], compact: str) -> bool:
    """A theme's word in the message: a word of one piece inside one word of it ("유명한 식당" says
    no 한식 across its space), a phrase anywhere, spaces ignored."""
    w = norm(word)
    return w in compact if " " in word.strip() else any(w in t for t in tokens)


def _kind_of_excluded_brands(scan: _KindScan) -> None:
    """Brands ruled out with no kind said ("맥날 롯데리아 말고 수제로"): the kind those brands are is
    the kind asked (a child's modifier said with it then names the child, 수제버거)."""
    frame = scan.frame
    listed = {norm(b): kind for kind, brands in chain_rules().brand_kinds.items() for b in brands}
    found = {
        k for b in frame.exclude_brands if (k := listed.get(norm(b)) or scan.table.brand_kind(b)) is not None
    }
    if len(found) == 1:
        frame.kinds = [found.pop()]


def _in_english(lowered: str) -> bool:
    """Said in English: two Latin words or more, and no fewer than its Hangul words (the place names
    the understand step writes in Korean, "best bbq near 방이역")."""
    latin = len(re.findall(r"[a-z]+", lowered))
    return latin >= 2 and latin >= len(re.findall(r"[가-힣]+", lowered))


def _read_latin_words(scan: _KindScan) -> None:
    """A message said in English, naming no kind: its words that name a kind only in English ("best
    bbq near bangi station" → 고깃집; in a Korean message "bbq" is the chicken chain)."""
    frame = scan.frame
    for word, kind in scan.table.latin_words.items():
        if re.search(rf"(?<![a-z]){re.escape(word)}(?![a-z])", scan.lowered):
            frame.kinds = [kind]
            frame.words.append(word)
            return


def _refine_by_modifiers(scan: _KindScan) -> None:
    """A parent kind with a child's modifier said apart ("버거 수제로"): the child."""
    table, frame = scan.table, scan.frame
    words = [w for w in re.findall(r"[^\s,.!?~]+", scan.lowered) if table.lookup(_strip(w)) is None]
    for i, name in enumerate(frame.kinds):
        for child in table.descendants(name):
            mods = table.by_name[child].modifiers
            if any(w.startswith(m) for w in words for m in mods) and child not in frame.kinds:
                frame.kinds[i] = child
                frame.words.extend(w for w in words if any(w.startswith(m) for m in mods))
                break


def _jamo(word: str) -> str:
    """A Hangul word as its letters: initial, vowel and final of each syllable ("떡" → ㄸ ㅓ ㄱ)."""
    out: list[str] = []
    for ch in word:
        code = ord(ch) - 0xAC00
        if 0 <= code < 11172:
            out += [chr(0x1100 + code // 588), chr(0x1161 + code % 588 // 28)]
            if code % 28:
                out.append(chr(0x11A7 + code % 28))
        else:
            out.append(ch)
    return "".join(out)


TYPO_MIN_SYLLABLES = 3  # shorter words take only a sound-alike letter (``typo_groups``) or a dropped 받침
_FINALS = range(0x11A8, 0x11C3)  # the final-consonant letters of _jamo


@cache
def _kind_spellings() -> dict[str, list[tuple[str, str]]]:
    """Syllable → (kind word, its letters) for every Hangul kind or dish word of two syllables or
    more holding that syllable: a typo keeps at least one syllable of the word it means."""
    out: dict[str, list[tuple[str, str]]] = {}
    for w in kinds().words():
        if len(w) >= 2 and re.fullmatch(r"[가-힣]+", w):
            for syllable in set(w):
                out.setdefault(syllable, []).append((w, _jamo(w)))
    return out


@cache
def _slips() -> frozenset[frozenset[str]]:
    """The letter pairs a typo may swap as a sound-alike slip (data/kinds.toml ``typo_slips`` and
    ``typo_groups``: plain, tense and aspirated consonants, ㅐ/ㅔ, a vowel and its y-glide, the
    nasal and the stop 받침 that sound alike)."""
    out: set[frozenset[str]] = set()
    table = kinds()
    for group in [*table.typo_slips, *table.typo_groups]:
        letters = [_jamo(ch) for ch in group]
        if len({len(x) for x in letters}) != 1:
            continue
        for pos in range(len(letters[0])):
            column = {x[pos] for x in letters}
            if len(column) > 1:
                out.update(frozenset((a, b)) for a in column for b in column if a != b)
    return frozenset(out)


_INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"  # compatibility letters in the order of _jamo's
_VOWELS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
_FINAL_LETTERS = "ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ"


def _forms(letter: str) -> list[str]:
    """A keyboard letter as _jamo writes it: its initial and final forms, or its vowel."""
    out = [chr(0x1100 + _INITIALS.index(letter))] if letter in _INITIALS else []
    if letter in _FINAL_LETTERS:
        out.append(chr(0x11A8 + _FINAL_LETTERS.index(letter)))
    if letter in _VOWELS:
        out.append(chr(0x1161 + _VOWELS.index(letter)))
    return out


@cache
def _key_slips() -> frozenset[frozenset[str]]:
    """Consonant pairs on neighbouring keys (data/kinds.toml ``typo_keys``): left and right in a row,
    and the two keys below a key (each row stands half a key right of the one above), in the same place
    of a syllable."""
    rows = kinds().typo_keys
    near: set[tuple[str, str]] = set()
    for r, row in enumerate(rows):
        below = rows[r + 1] if r + 1 < len(rows) else ""
        for i, key in enumerate(row):
            near.update((key, other) for other in (row[i + 1 : i + 2] + below[max(0, i - 1) : i + 1]))
    return frozenset(
        frozenset((x, y))
        for a, b in near
        for x in _forms(a)
        for y in _forms(b)
        if _place(x) == _place(y) != 1  # consonants: a vowel key away reads as another word ("대기", "오래")
    )


def _place(letter: str) -> int:
    """Where a letter of _jamo stands in its syllable: 0 initial, 1 vowel, 2 final."""
    code = ord(letter)
    return 2 if code >= 0x11A8 else 1 if code >= 0x1161 else 0


def _slip_cost(a: str, b: str, carried: frozenset[str] = frozenset()) -> int:
    """1 for a sound-alike letter, a neighbouring key or a letter ``carried`` over from elsewhere in the
    typed word, 2 for any other letter (the cost of replacing ``a`` by ``b``)."""
    pair = frozenset((a, b))
    return 1 if pair in _slips() or pair in _key_slips() or a in carried else 2


def _dropped_cost(ch: str) -> int:
    """1 for a 받침 the typed word left out (a final letter), 2 for any other letter left out."""
    return 1 if ord(ch) in _FINALS else 2


def typo_cost(a: str, b: str, limit: int = 2) -> int:
    """The edit cost from typed letters ``a`` to a word's letters ``b``: a sound-alike letter, a key
    next to the right one, a letter typed twice in the word for another (:func:`_slip_cost`) or a 받침
    left out costs 1, any other letter inserted, left out or replaced 2 (more than ``limit`` is
    ``limit + 1``)."""
    carried = frozenset(ch for ch in a if _place(ch) != 1 and a.count(ch) > 1)  # consonants typed twice
    prev = [0]
    for ch in b:
        prev.append(prev[-1] + _dropped_cost(ch))
    for x in a:
        row = [prev[0] + 2]
        for j, y in enumerate(b):
            row.append(
                min(
                    prev[j] + (0 if x == y else _slip_cost(x, y, carried)),
                    prev[j + 1] + 2,
                    row[j] + _dropped_cost(y),
                )
            )
        if min(row) > limit:
            return limit + 1
        prev = row
    return min(prev[-1], limit + 1)


def _ending_slip(word: str, fix: str, endings: frozenset[str]) -> bool:
    """A two-syllable word form ("타기", "사게", "짜도") read as kind word ``fix`` by a consonant of its
    ending syllable: a word of the sentence, not a typo (data/kinds.toml ``typo_endings``). A vowel said
    alike still is one ("찌게" → 찌개)."""
    if len(word) != 2 or len(fix) != 2 or word[0] != fix[0] or word[1] not in endings:
        return False
    vowels = [[_GLIDE.get(ch, ch) for ch in _jamo(s) if _place(ch) == 1] for s in (word[1], fix[1])]
    return vowels[0] == vowels[1]


# a vowel with its y-glide ("죠" for 조) is the same vowel of an ending
_GLIDE = {chr(0x1161 + y): chr(0x1161 + v) for y, v in ((2, 0), (3, 1), (6, 4), (7, 5), (12, 8), (17, 13))}


def _first_consonant_slip(word: str, fix: str) -> bool:
    """A two-syllable word that differs from kind word ``fix`` only in one consonant of its first
    syllable, a sound-alike one (``typo_groups``: "짱뽕" → 짬뽕, the nasal 받침 said before 뽕; "쫄면"
    typed "졸면" is no slip of a vowel). Vowels and keys next to each other never count here: "우리" is
    no 오리, "대기" no 대게."""
    if len(word) != 2 or len(fix) != 2 or word[1] != fix[1]:
        return False
    a, b = _jamo(word[0]), _jamo(fix[0])
    if len(a) != len(b):
        return False
    differ = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    return len(differ) == 1 and _place(differ[0][0]) != 1 and frozenset(differ[0]) in _slips()


_IES = re.compile(r"(?<![a-z])([a-z]{3,}[^aeiou\W\d])ies(?![a-z])")


def _singular(text: str) -> str:
    """English plurals in -ies as their -y word ("bakeries" → "bakery"); "-s"/"-es" are read by
    :func:`_whole_latin`."""
    return _IES.sub(r"\1y", text) if "ies" in text else text


def _after_glued_place(token: str) -> str:
    """The part of a token after a place name's last syllable glued to it ("당산역양꼬지맛집" → "양꼬지맛집"),
    two syllables at least; "" when none."""
    cut = max((token.rfind(end) for end in words("location_cues", "glued_place_ends")), default=-1)
    rest = token[cut + 1 :] if cut > 0 else ""
    return rest if len(rest) >= 2 and rest != token else ""


@cache
def _ingredients() -> frozenset[str]:
    return frozenset(words("menu", "ingredients"))


@cache
def close_kind_word(word: str) -> str | None:
    """The one kind word a typed word is a typo of, else None. A two-syllable word may carry one
    sound-alike letter or a dropped 받침 ("곱참" → 곱창, "보싼" → 보쌈, "라맨" → 라멘, "초빱" → 초밥); a
    longer one any one letter inserted, dropped or replaced, or two sound-alike slips ("순두브" →
    순두부, "김치찌게" → 김치찌개, "떢볶이" → 떡볶이). A word that is itself a kind's, an ordinary word
    (``typo_never``), or one as close to two different kinds is left alone."""
    if len(word) < 2 or not re.fullmatch(r"[가-힣]+", word) or kinds().lookup(word):
        return None
    table = kinds()
    if word in table.typo_never or word in _ingredients():
        return None  # an ordinary word, or what goes into a dish ("오이" is no 오리)
    if len(word) > 2 and word[-1] in table.typo_endings and table.lookup(word[:-1]):
        return None  # a kind word with its particle ("샐러드나 포케" is no 샐러드바)
    letters = _jamo(word)
    limit = 2
    spellings = _kind_spellings()
    seen: dict[str, int] = {}
    for syllable in set(word):
        for w, j in spellings.get(syllable, []):
            if w in seen or abs(len(w) - len(word)) > 1:
                continue
            short = min(len(w), len(word)) < TYPO_MIN_SYLLABLES
            # a short word is mistyped after its first syllable ("곱참"), or in a consonant of the
            # first with the rest as written ("짱뽕" → 짬뽕)
            if short and w[0] != word[0] and not _first_consonant_slip(word, w):
                continue
            most = 1 if short else limit
            cost = typo_cost(letters, j, most)
            seen[w] = cost if cost <= most else limit + 1
    best = min(seen.values(), default=limit + 1)
    close = sorted(w for w, c in seen.items() if c == best and 0 < c <= limit)
    close = [w for w in close if not _ending_slip(word, w, table.typo_endings)]
    named = {(table.lookup(w) or ("", False))[0] for w in close}
    if len(named) != 1:
        return None
    # a listed misspelling ("떡복이") is said as the kind's own name ("떡볶이")
    name = named.pop()
    return name if typo_cost(_jamo(close[0]), _jamo(name), 2) <= 2 else close[0]


def _covered_umbrella(name: str, named: list[str]) -> bool:
    table = kinds()
    kind = table.by_name.get(name)
    if kind is None or not (kind.broad or kind.gives_way):
        return False
    return any(
        (other := table.by_name.get(c)) is not None and c != name and other.cuisine == kind.cuisine
        for c in named
    )
