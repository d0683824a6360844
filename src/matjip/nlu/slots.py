"""Structured slots of a query: price, time, count, party size, ordinals, subway lines.

Each extractor takes the normalised query and returns its value plus the character spans it
consumed (so the parser does not report those words as unknown). Everything is precompiled.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Final

from matjip.nlu.models import PartySpec, PriceSpec, TimeSpec
from matjip.words import word_map, words


def _minute(hhmm: str) -> int:
    """ "08:30" → 510 (minutes after midnight; "24:00" is 1440)."""
    hours, minutes = hhmm.split(":")
    return int(hours) * 60 + int(minutes)


Span = tuple[int, int]


def _numbers(table: str) -> dict[str, int]:
    """A table of ``data/words/numbers.toml`` as word → value, in the file's order."""
    return {word: int(value) for value, said in word_map("numbers", table).items() for word in said}


NATIVE_NUMBERS: Final = _numbers("native")
SINO_DIGITS: Final = _numbers("sino_digits")
_NATIVE_ALT = "|".join(sorted(NATIVE_NUMBERS, key=len, reverse=True))


def native_or_digit(token: str) -> int | None:
    token = token.strip()
    if token.isdigit():
        return int(token)
    return NATIVE_NUMBERS.get(token)


def sino_number(token: str) -> float | None:
    """ "3", "1.5", "삼", "십", "이십", "십오" → number; "" → 1 (as in "만원")."""
    token = token.strip().replace(",", "")
    if not token:
        return 1.0
    try:
        return float(token)
    except ValueError:
        pass
    total = 0
    if "십" in token:
        head, _, tail = token.partition("십")
        tens = SINO_DIGITS.get(head, 1) if head else 1
        if head and head not in SINO_DIGITS:
            return None
        total = tens * 10
        if tail:
            if tail not in SINO_DIGITS:
                return None
            total += SINO_DIGITS[tail]
        return float(total)
    if token in SINO_DIGITS:
        return float(SINO_DIGITS[token])
    return None


# --- price ----------------------------------------------------------------------------------

_SINO = r"(?:[일이삼사오육칠팔구]?십[일이삼사오육칠팔구]?|[일이삼사오육칠팔구])"
_NUM = r"(?:\d+(?:\.\d+)?)"
# 2만, 만, 1.5만, 이만, 2만 5천, 만오천, 5천, 15,000, 15000 (+ optional 원)
_AMOUNT = (
    rf"(?:(?P<man>{_NUM}|{_SINO})?\s*만(?:\s*(?P<cheon1>\d|{_SINO})\s*천)?"
    rf"|(?P<cheon2>\d|{_SINO})\s*천"
    r"|(?P<plain>\d{1,3}(?:,\d{3})+|\d{4,7}))"
)
_AMOUNT_RE = re.compile(rf"(?<![\d.가-힣])(?:{_AMOUNT})\s*(?P<won>원)?")
_PER_PERSON_BEFORE = re.compile(
    r"(?:1\s*인|인당|1\s*인당|한\s*사람\s*(?:당|에)?|1\s*명\s*당|한\s*명\s*당|1\s*인\s*기준|1\s*인분)\s*$"
)
_MAX_AFTER = re.compile(
    r"^\s*(?:이하|이내|아래|밑으로|밑|미만|까지|안쪽|안으로|안에서|선에서|선|내로|내외로|넘지\s*않|안\s*넘|"
    r"넘(?:으면|어가면|어서면|으믄|기면)\s*(?:안|곤란|싫|부담|노|ㄴㄴ)|넘기지\s*않)"
)
_MIN_AFTER = re.compile(r"^\s*(?:이상|넘는|넘게|넘어|초과|부터|위로|넘)")
_BAND_AFTER = re.compile(r"^\s*대(?![가-힣])|^\s*대(?=의|에|로|면|인|가|이|까지|이하|이내|안쪽|밑|미만)")
_AROUND_AFTER = re.compile(r"^\s*(?:정도|쯤|내외|안팎|전후|언저리|가량)")
_RANGE_JOIN = re.compile(r"^\s*(?:~|-|–|에서|부터)\s*")
_PRICE_CONTEXT = re.compile(r"(?:예산|가격|가격대|비용|금액|1인|인당|짜리|객단가)")
_CHEAP = re.compile(
    r"저렴|(?<![가-힣])싼\s*(?:곳|데|집|편|가격|거)|싸고|싸게|가성비|착한\s*가격|비싸지\s*않|부담\s*(?:없는|안\s*되는)\s*가격"
)
_PRICEY = re.compile(r"비싸도|가격\s*상관\s*없|돈\s*상관\s*없")


def _amount_value(m: re.Match[str]) -> int | None:
    if m.group("plain"):
        return int(m.group("plain").replace(",", ""))
    if m.group("cheon2") is not None:
        v = sino_number(m.group("cheon2"))
        return int(v * 1000) if v is not None else None
    man = sino_number(m.group("man") or "")
    if man is None:
        return None
    value = man * 10000
    if m.group("cheon1"):
        c = sino_number(m.group("cheon1"))
        if c is None:
            return None
        value += c * 1000
    return int(value)


def _band_width(value: int) -> int:
    if value >= 10000 and value % 10000 == 0:
        return 10000
    if value >= 1000 and value % 1000 == 0:
        return 1000
    return max(1, value // 10)


def _fmt_won(v: int) -> str:
    if v % 10000 == 0:
        return f"{v // 10000}만원"
    if v >= 10000 and v % 1000 == 0:
        return f"{v // 10000}만 {v % 10000 // 1000}천원"
    return f"{v:,}원"


_SHARED_UNIT_RANGE = re.compile(
    r"(?<![\d.])(?P<a>\d+(?:\.\d+)?)\s*(?:~|-|–|에서)\s*(?P<b>\d+(?:\.\d+)?)\s*(?P<unit>만|천)\s*원?\s*(?P<band>대)?"
)


def parse_price(text: str) -> tuple[PriceSpec | None, list[Span]]:
    shared = _shared_unit_range(text)
    if shared is not None:
        return shared
    found = _amounts(text)
    if not found:
        cheap = _CHEAP.search(text)
        if cheap:
            return PriceSpec(label="저렴한"), [cheap.span()]
        return None, []
    return _price_of(text, found)


def _shared_unit_range(text: str) -> tuple[PriceSpec, list[Span]] | None:
    """ "2~3만원", "1-2만원대": a range whose ends share one unit."""
    shared = _SHARED_UNIT_RANGE.search(text)
    if not shared:
        return None
    unit = 10000 if shared.group("unit") == "만" else 1000
    lo = int(float(shared.group("a")) * unit)
    hi = int(float(shared.group("b")) * unit)
    lo, hi = min(lo, hi), max(lo, hi)
    if shared.group("band"):
        hi += _band_width(hi) - 1
    before = text[max(0, shared.start() - 12) : shared.start()]
    per_person = bool(_PER_PERSON_BEFORE.search(before))
    return PriceSpec(min_won=lo, max_won=hi, per_person=per_person, label=shared.group(0).strip()), [
        shared.span()
    ]


def _amounts(text: str) -> list[tuple[re.Match[str], int]]:
    """Every amount of money in ``text`` with its value in won, in text order."""
    found: list[tuple[re.Match[str], int]] = []
    for m in _AMOUNT_RE.finditer(text):
        value = _amount_value(m)
        if value is None or value <= 0:
            continue
        after = text[m.end() : m.end() + 12]
        before = text[max(0, m.start() - 12) : m.start()]
        has_won = m.group("won") is not None
        qualified = bool(
            _MAX_AFTER.match(after)
            or _MIN_AFTER.match(after)
            or _BAND_AFTER.match(after)
            or _AROUND_AFTER.match(after)
            or _RANGE_JOIN.match(after)
        )
        # a bare number is a price only with 원/만/천 or a price word nearby
        if not has_won and m.group("plain") and not (_PRICE_CONTEXT.search(before) or qualified):
            continue
        if not has_won and not qualified and not _PRICE_CONTEXT.search(before + after):
            if m.group("man") is None and m.group("cheon1") is None and m.group("cheon2") is None:
                continue
            if "만" in m.group(0) and not m.group("man"):  # bare "만" is the particle, not 10,000
                continue
        found.append((m, value))
    return found


def _price_of(text: str, found: list[tuple[re.Match[str], int]]) -> tuple[PriceSpec, list[Span]]:
    """The budget the first amount says: per person or not, a range, a ceiling, a floor, a band."""
    spans: list[Span] = []
    m, value = found[0]
    spans.append(m.span())
    after = text[m.end() : m.end() + 12]
    before = text[max(0, m.start() - 12) : m.start()]
    per_person = bool(_PER_PERSON_BEFORE.search(before))
    if per_person:
        pm = _PER_PERSON_BEFORE.search(before)
        assert pm is not None
        spans.append((m.start() - len(before) + pm.start(), m.start()))
    # a range: "1만~2만원", "2만원에서 3만원"
    rj = _RANGE_JOIN.match(after)
    if rj and len(found) >= 2 and found[1][0].start() == m.end() + rj.end():
        m2, v2 = found[1]
        spans.append(m2.span())
        lo, hi = sorted((value, v2))
        return PriceSpec(
            min_won=lo, max_won=hi, per_person=per_person, label=f"{_fmt_won(lo)}~{_fmt_won(hi)}"
        ), spans
    return _qualified_price(value, m.end(), after, per_person, spans), spans


def _qualified_price(value: int, end: int, after: str, per_person: bool, spans: list[Span]) -> PriceSpec:
    """One amount with what follows it ("이하", "이상", "대", "정도"; ``after`` starts at ``end``);
    the qualifier's span is added to ``spans``."""
    who = "1인 " if per_person else ""  # "1인당 2만원 정도": the label says it is per person
    q = _MAX_AFTER.match(after)
    if q:
        spans.append((end, end + q.end()))
        hi = value - 1 if "미만" in q.group(0) else value
        said = "이하" if "넘" in q.group(0) else q.group(0).strip()  # "넘으면 안 돼" says "이하"
        return PriceSpec(max_won=hi, per_person=per_person, label=f"{who}{_fmt_won(value)} {said}")
    q = _MIN_AFTER.match(after)
    if q:
        spans.append((end, end + q.end()))
        lo = value + 1 if "초과" in q.group(0) else value
        return PriceSpec(
            min_won=lo, per_person=per_person, label=f"{who}{_fmt_won(value)} {q.group(0).strip()}"
        )
    q = _BAND_AFTER.match(after)
    if q:
        spans.append((end, end + q.end()))
        width = _band_width(value)
        under = _MAX_AFTER.match(after[q.end() :])
        if under:
            # "만원대 안쪽으로", "2만원대 까지": at most the band's top, nothing below ruled out
            spans.append((end + q.end(), end + q.end() + under.end()))
            label = f"{who}{_fmt_won(value)}대 {under.group(0).strip()}"
            return PriceSpec(max_won=value + width - 1, per_person=per_person, label=label)
        return PriceSpec(
            min_won=value, max_won=value + width - 1, per_person=per_person, label=f"{who}{_fmt_won(value)}대"
        )
    q = _AROUND_AFTER.match(after)
    if q and per_person:
        # "1인 2만원 정도", "한 사람당 만오천원 정도": a budget per person is a ceiling, roughly said
        spans.append((end, end + q.end()))
        return PriceSpec(max_won=value, per_person=True, label=f"{who}{_fmt_won(value)} 정도")
    if q:
        spans.append((end, end + q.end()))
        return PriceSpec(
            min_won=int(value * 0.8),
            max_won=int(value * 1.2),
            per_person=per_person,
            label=f"{who}{_fmt_won(value)} 정도",
        )
    return PriceSpec(max_won=value, per_person=per_person, label=who + _fmt_won(value))


# --- time ------------------------------------------------------------------------------------

WEEKDAY_NAMES: Final[str] = "월화수목금토일"
_WEEKDAY_RE = re.compile(r"(?<![가-힣])([월화수목금토일])\s*(?:요일|욜)")
_WEEKEND_RE = re.compile(r"주말|토요일\s*이나\s*일요일")
_DAY_OFFSET_RE = re.compile(r"(?<![가-힣])(오늘|내일|낼|모레|이따가?|今日)")
_NOW_RE = re.compile(
    r"(?:지금|현재|당장|바로|이\s*시간에?)\s*(?:도|이라도|당장)?\s*"
    # "지금 아침 먹을 수 있는", "지금 점심 되는": the meal said with "지금" is now, not its window
    r"(?:(?:아침|점심|저녁|브런치|야식|밥|식사)\s*(?:을|를|으로|로|이|가)?\s*)?"
    r"(?:영업|열|문\s*(?:연|열|여)|하는|여는|갈\s*수|먹을\s*수|운영|오픈|가능한|갈\s*만한|갈만한|문\s*연|되는)"
    r"|영업\s*중(?:인)?|(?:지금|현재)\s*열려\s*있|오픈\s*(?:중|한)(?!\s*시간)"
)
_LATE_RE = re.compile(
    r"늦게까지|늦은\s*(?:시간|밤)|밤\s*늦게|밤늦게|심야|야식|새벽\s*까지|자정\s*(?:넘어|이후|까지)|막차\s*(?:시간|끊기)"
)
_UNTIL_RE = re.compile(r"^\s*까지\s*(?:하는|영업|여는|열|운영|해|하나|문\s*여)")
_PAST_RE = re.compile("|".join(words("numbers", "clock_past")))
_PART_WORDS: Final[dict[str, str]] = {w.replace(" ", ""): w for w in word_map("numbers", "day_parts")}
_PARTS: Final[dict[str, tuple[int, int, int]]] = {
    word.replace(" ", ""): (_minute(rep), _minute(start), _minute(end))
    for word, (rep, start, end) in word_map("numbers", "day_parts").items()
}


def _part_re() -> re.Pattern[str]:
    """The parts of the day of data/words/numbers.toml, the longer first ("늦은 점심" before 점심),
    a space between words optional, each with the followers it is not meant before."""
    guards = word_map("numbers", "day_part_not_before")
    alts = []
    for word in sorted(word_map("numbers", "day_parts"), key=len, reverse=True):
        body = r"\s*".join(re.escape(w) for w in word.split())
        guard = "|".join(guards.get(word, ()))
        alts.append(f"{body}(?!{guard})" if guard else body)
    return re.compile(rf"(?<![가-힣])({'|'.join(alts)})")


_PART_RE = _part_re()
_CLOCK_RE = re.compile(
    rf"(?:(?P<ampm>오전|오후|아침|낮|저녁|밤|새벽)\s*)?(?P<h>\d{{1,2}}|{_NATIVE_ALT})\s*시(?!\s*간|간|청|장|내|민|식|켜)"
    r"(?:\s*(?P<half>반)|\s*(?P<m>\d{1,2})\s*분)?"
)


def _clock_minute(ampm: str | None, hour: int, minute: int) -> int | None:
    if hour > 24 or minute > 59:
        return None
    if ampm in ("오전", "아침", "새벽"):
        h = 0 if hour == 12 else hour
    elif ampm in ("오후", "저녁", "밤", "낮"):
        h = hour + 12 if hour < 12 else hour
        if ampm == "낮" and hour >= 11:
            h = hour
        if ampm == "밤" and hour == 12:
            h = 24
    elif 1 <= hour <= 10:
        h = hour + 12  # a bare "8시" at a restaurant means 20:00
    else:
        h = hour
    total = h * 60 + minute
    return min(total, 1439) if total >= 1440 else total


def _night_minute(ampm: str | None, hour: int, minute: int, value: int) -> int:
    """The time of the night a clock said before "넘어서도" means: a bare 7…12 is the evening, a time
    before 6 a.m. the small hours after midnight (past 24:00, as "새벽까지" is)."""
    if ampm is None and 7 <= hour <= 12:
        return (hour + 12) * 60 + minute
    return value + 1440 if value < 360 else value


def _day_of(text: str, spans: list[Span]) -> tuple[int | None, int | None, list[str]]:
    """(weekday, day offset, labels) the text says ("토요일", "주말", "내일"); their spans added."""
    weekday: int | None = None
    labels: list[str] = []
    m = _WEEKDAY_RE.search(text)
    if m:
        weekday = WEEKDAY_NAMES.index(m.group(1))
        spans.append(m.span())
        labels.append(m.group(0).replace(" ", ""))
    else:
        m = _WEEKEND_RE.search(text)
        if m:
            weekday = 5
            spans.append(m.span())
            labels.append("주말")
    day_offset: int | None = None
    m = _DAY_OFFSET_RE.search(text)
    if m:
        day_offset = {"오늘": 0, "내일": 1, "낼": 1, "모레": 2}.get(m.group(1), 0)
        spans.append(m.span())
        labels.insert(0, m.group(1))
    return weekday, day_offset, labels


def parse_time(text: str) -> tuple[TimeSpec | None, list[Span]]:
    spans: list[Span] = []
    weekday, day_offset, labels = _day_of(text, spans)
    now = _NOW_RE.search(text)
    if now:
        spans.append(now.span())
        return TimeSpec(kind="now", label="지금 영업 중"), spans
    clock = _CLOCK_RE.search(text)
    if clock:
        hour = native_or_digit(clock.group("h"))
        minute = 30 if clock.group("half") else int(clock.group("m") or 0)
        if hour is not None and clock.group("h") != "24":
            value = _clock_minute(clock.group("ampm"), hour, minute)
            if value is not None:
                spans.append(clock.span())
                until = _UNTIL_RE.match(text[clock.end() :])
                past = _PAST_RE.match(text[clock.end() :])
                label = " ".join([*labels, clock.group(0).strip()])
                if past:
                    # "11시 넘어서도 하는 곳": still open a minute after that time of the night
                    spans.append((clock.end(), clock.end() + past.end()))
                    value = _night_minute(clock.group("ampm"), hour, minute, value) + 1
                    night = "밤 " if clock.group("ampm") is None and 7 <= hour <= 12 else ""
                    label = " ".join([*labels, night + clock.group(0).strip()]) + " 넘어서도"
                elif until:
                    # "10시까지 하는 곳": must still be open just before then
                    spans.append((clock.end(), clock.end() + until.end()))
                    value = max(0, value - 1)
                    label += "까지 영업"
                return TimeSpec(
                    kind="at", weekday=weekday, minute=value, day_offset=day_offset, label=label
                ), spans
    late = _LATE_RE.search(text)
    if late:
        spans.append(late.span())
        dawn = "새벽" in late.group(0) or "자정" in late.group(0)
        label = " ".join([*labels, "새벽까지" if dawn else "심야"])
        # "새벽까지 하는 곳" must still be open at 1 a.m. (the next calendar day)
        minute = 1500 if dawn else 1410
        spec = TimeSpec(
            kind="at", weekday=weekday, minute=minute, day_offset=day_offset, label=label, late=True
        )
        return spec, spans
    part = _PART_RE.search(text)
    if part:
        said = _PART_WORDS["".join(part.group(1).split())]  # "늦은점심" is said "늦은 점심"
        rep, start, end = _PARTS[said.replace(" ", "")]
        spans.append(part.span())
        label = " ".join([*labels, said])
        return (
            TimeSpec(
                kind="range",
                weekday=weekday,
                minute=rep,
                start_minute=start,
                end_minute=end,
                day_offset=day_offset,
                label=label,
            ),
            spans,
        )
    if weekday is not None or (day_offset is not None and day_offset > 0):
        return (
            TimeSpec(
                kind="range",
                weekday=weekday,
                day_offset=day_offset,
                start_minute=0,
                end_minute=1440,
                label=" ".join(labels),
            ),
            spans,
        )
    return None, spans


# --- count, party, ordinal, lines ----------------------------------------------------------------

_COUNT_RE = re.compile(
    rf"(?<![\d가-힣])(?P<n>\d{{1,3}}|{_NATIVE_ALT})\s*(?:곳|군데|개|집|가지|개소)(?!\s*째|째|\s*이상\s*메뉴)"
    r"(?:\s*(?:만|정도|쯤|까지|씩))?"
)
_COUNT_WORDS_RE = re.compile(
    r"(?<![가-힣])(?:하나만|한\s*개만|한\s*곳만|딱\s*한\s*곳)|(?:top|탑|베스트)\s*(?P<n>\d{1,2})", re.I
)
_THOSE_SHOWN_RE = re.compile(r"(?:^|\s)(?:그|저|이)\s*$")
_RULED_OUT_RE = re.compile(r"\s*(?:은|는|을|를|도)?\s*(?:말고|빼고|제외)")
_PARTY_RE = re.compile(
    rf"(?<![\d가-힣])(?P<n>\d{{1,3}}|{_NATIVE_ALT})\s*(?:명|인)(?!\s*(?:분|당|기준|분식|석)|분)(?:\s*(?:이서|이|정도|쯤|가(?!능)|이\s*가|예약|모임|이서\s*갈))?"
)
_DIALOGUE_FILE = Path(__file__).resolve().parent.parent / "data" / "dialogue.toml"


@cache
def _party_words() -> tuple[tuple[re.Pattern[str], int], ...]:
    """A party said in words ("우리 여섯이", "넷이서", "두 사람"): ``data/dialogue.toml`` [party]."""
    raw = tomllib.loads(_DIALOGUE_FILE.read_text(encoding="utf-8"))["party"]
    counted = sorted(raw["counted"].items(), key=lambda kv: len(kv[0]), reverse=True)
    out = [(re.compile(rf"(?<![가-힣]){re.escape(w)}{raw['counted_after']}"), int(n)) for w, n in counted]
    for size, patterns in raw["words"].items():
        out += [(re.compile(rf"(?<![가-힣])(?:{p})"), int(size)) for p in patterns]
    return tuple(out)


_CHILDREN_RE = re.compile(
    "(?<![가-힣])(?:"
    + "|".join(tomllib.loads(_DIALOGUE_FILE.read_text(encoding="utf-8"))["party"]["children"])
    + ")"
)  # children in the party: data/dialogue.toml [party] children
_ORDINAL_RE = re.compile(
    rf"(?<![가-힣\d])(?P<n>\d{{1,2}}|첫|{_NATIVE_ALT})\s*(?:번\s*째|번째|번쨰|째|쨰)"
    rf"|(?<![가-힣])(?P<w>첫째|둘째|셋째|넷째|다섯째)"
    rf"|(?<![\d가-힣])(?P<d>\d{{1,2}})\s*번(?!지)(?!\s*(?:째|출구|버스|국도|마을|지번|길|선|방))(?=\s*(?:집|가게|식당|거|꺼|것|곳|은|는|이|가|도|의|,|\?|$|중|이랑|랑|하고|과|와|vs|보다|에)|\s|$)"
    rf"|(?<=[랑과와고,])(?P<d2>\d{{1,2}})\s*번(?!\s*(?:째|출구|버스|국도|마을|지|길|선|방))"
    r"|(?<![가-힣])(?P<first>첫\s*(?:집|가게|식당|곳|거))"
    r"|(?P<last>마지막|맨\s*(?:끝|아래|밑))"
    r"|(?<![가-힣])(?P<top>맨\s*(?:처음|위|앞)|처음\s*(?:꺼|거|것|집|가게|식당))"
)
_ORDINAL_LIST_RE = re.compile(r"(?<![\d가-힣])(\d{1,2}(?:\s*[,/]\s*\d{1,2})+)\s*번(?!\s*(?:째|출구|버스))")
_WORD_ORDINALS: Final = _numbers("word_ordinals")
_LINE_RE = re.compile(
    r"(?<!\d)(\d{1,2})\s*호선"
    r"|(?<![가-힣])(경의\s*중앙|신분당|수인\s*분당|분당|공항\s*철도|경춘|우이\s*신설|신림|김포\s*골드|경강|서해|GTX-?A)\s*(?:선|라인)(?![가-힣])",
    re.I,
)


@dataclass
class Counted:
    value: int | None = None
    spans: list[Span] = field(default_factory=list)
    clamped: bool = False


def parse_count(text: str) -> Counted:
    out = Counted()
    m = _COUNT_WORDS_RE.search(text)
    if m:
        out.spans.append(m.span())
        out.value = int(m.group("n")) if m.group("n") else 1
    else:
        for m in _COUNT_RE.finditer(text):
            before = text[max(0, m.start() - 3) : m.start()]
            if (
                "몇" in before
                or _THOSE_SHOWN_RE.search(text[: m.start()])
                or _RULED_OUT_RE.match(text[m.end() :])
            ):
                continue  # "그 두 곳 말고 다른 데": the places shown, not how many to show
            n = native_or_digit(m.group("n"))
            if n is None or n <= 0:
                continue
            out.value = n
            out.spans.append(m.span())
            break
    if out.value is not None and out.value > 20:
        out.value = 20
        out.clamped = True
    return out


def parse_party(text: str, price_spans: list[Span]) -> tuple[PartySpec, list[Span]]:
    spans: list[Span] = []
    size: int | None = None
    labels: list[str] = []
    for m in _PARTY_RE.finditer(text):
        if any(s <= m.start() < e or m.start() <= s < m.end() for s, e in price_spans):
            continue
        after = text[m.end() : m.end() + 10]
        if re.match(
            r"^\s*(?:\d+(?:\.\d+)?\s*(?:만|천|원)|\d{4,}|[일이삼사오육칠팔구]?\s*만|[일이삼사오육칠팔구]\s*천)",
            after,
        ):
            continue  # "1인 2만원": a per-person price ("10명 1인 3만원" is a party of ten)
        n = native_or_digit(m.group("n"))
        if n is None or n <= 0 or n > 200:
            continue
        size = n
        spans.append(m.span())
        labels.append(m.group(0).strip())
        break
    if size is None:
        for rx, n in _party_words():
            w = rx.search(text)
            if w and not re.search(
                r"(?:아이|애|애들|아이들|아기|자녀)\s*$", text[max(0, w.start() - 4) : w.start()]
            ):
                size = n
                spans.append(w.span())
                labels.append(w.group(0).strip())
                break
    children = _CHILDREN_RE.search(text)
    if children:
        spans.append(children.span())
        labels.append(children.group(0).strip())
    return PartySpec(size=size, with_children=children is not None, label=" ".join(labels)), spans


def _ordinal_value(m: re.Match[str]) -> int | None:
    """The value of one ordinal match: 1.. or -1 ("마지막"); None when it is no ordinal."""
    value: int | None
    if m.group("n"):
        token = m.group("n")
        value = 1 if token == "첫" else native_or_digit(token)
    elif m.group("w"):
        value = _WORD_ORDINALS[m.group("w")]
    elif m.group("d"):
        value = int(m.group("d"))
    elif m.group("d2"):  # "3번이랑5번": the second one follows a particle with no space
        value = int(m.group("d2"))
    elif m.group("first") or m.group("top"):
        value = 1
    elif m.group("last"):
        value = -1
    else:
        value = None
    if value is None or value == 0 or value > 50:
        return None
    return value


def parse_ordinals(text: str) -> tuple[list[int], list[Span]]:
    values: list[int] = []
    spans: list[Span] = []
    for m in _ORDINAL_LIST_RE.finditer(text):  # "1,3번 비교", "1, 2번", "1,2,3번 다"
        for g in re.split(r"\s*[,/]\s*", m.group(1)):
            v = int(g)
            if 0 < v <= 50 and v not in values:
                values.append(v)
        spans.append(m.span())
    for m in _ORDINAL_RE.finditer(text):
        value = _ordinal_value(m)
        if value is None:
            continue
        if value not in values:
            values.append(value)
        spans.append(m.span())
    stripped = text.strip().rstrip(".!?")
    if not values and stripped.isdigit() and 0 < int(stripped) <= 50:
        values.append(int(stripped))
        spans.append((0, len(text)))
    return values, spans


def ordinal_marks(text: str) -> list[tuple[int, Span]]:
    """Each single ordinal of ``text`` with where it stands ("두번째로 간 카페 첫번째 곱창집에서" →
    ``[(2, (0, 3)), (1, (10, 13))]``), in text order; "마지막" is -1."""
    return [(value, m.span()) for m in _ORDINAL_RE.finditer(text) if (value := _ordinal_value(m)) is not None]


def parse_lines(text: str) -> tuple[list[str], list[Span]]:
    out: list[str] = []
    spans: list[Span] = []
    for m in _LINE_RE.finditer(text):
        name = f"{int(m.group(1))}호선" if m.group(1) else re.sub(r"\s+", "", m.group(2)) + "선"
        name = {"분당선": "수인분당선", "수인분당선": "수인분당선", "경의중앙선": "경의중앙선"}.get(
            name, name
        )
        if name not in out:
            out.append(name)
        spans.append(m.span())
    return out, spans
