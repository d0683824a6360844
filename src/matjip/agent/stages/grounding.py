"""Is an LLM answer grounded in its context? Names, prices and numbers must come from the sources.

Checked in every piece of answer text:

* **restaurant names** — every known restaurant name (all index titles and brands, longest
  match at a word start) mentioned in the answer must occur in the sources. A name the index
  knows but the context does not is exactly the hallucination that matters ("스시젠 강남점" when
  only "스시젠 역삼점" was found). Names that are also ordinary words (a menu term, a cuisine,
  a stop word) are ignored, and two-character names must stand alone or take a particle.
* **bold headings** — ``**…**`` at the start of a line (after an optional "1." or "-") names a
  restaurant in the seed's answer style, so it must occur in the sources or contain a
  context title; a bold label ending in ``:`` ("**주차:**") is not a name.
* **prices** — "12,000원", "12000원", "1만2천원", "1.2만원", "3천원", "만원": the amount must be a
  price in the sources ("N만원대" needs a source price within that band).
* **numbers with a unit** — m / km (within 10 % or 10 m of a source distance), 건 (a count in
  the sources), 분 (a minute value: "N분" or ":NN"), 시 (an hour: "N시" or "HH:", a.m./p.m.
  either way).

The sources are the context given to the model (restaurant blocks, web results), the offline
draft answer (computed from the same documents) and the user's own message.

:class:`StreamGuard` applies the same check incrementally to a streamed answer: text is
released one line (or one sentence) at a time, only after that piece passed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from matjip.errors import Ungrounded
from matjip.words import pattern_map, word_set

IssueKind = Literal["name", "bold", "price", "number"]

STOPWORDS: frozenset[str] = word_set("llm_checks", "stopwords")

_PARTICLES = "은는이가을를에의도와과랑로만께서요"


def compact(text: str) -> str:
    """Lower-case without whitespace: the form names are compared in."""
    return "".join(text.split()).lower()


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ("가" <= ch <= "힣")


@dataclass(frozen=True)
class GroundingIssue:
    kind: IssueKind
    text: str
    detail: str

    def __str__(self) -> str:
        return f"{self.kind} '{self.text}': {self.detail}"


@dataclass
class GroundingReport:
    issues: list[GroundingIssue] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.issues

    def reason(self) -> str:
        return "; ".join(str(i) for i in self.issues[:5]) or "grounded"


class NameIndex:
    """Known restaurant names, compacted and bucketed by their first two characters."""

    def __init__(
        self,
        names: Iterable[str],
        *,
        is_common: Callable[[str], bool] | None = None,
        stopwords: Iterable[str] = STOPWORDS,
        min_chars: int = 2,
    ) -> None:
        stop = {compact(s) for s in stopwords}
        buckets: dict[str, set[str]] = {}
        for raw in names:
            key = compact(raw)
            if len(key) < min_chars or key in stop or key.isdigit():
                continue
            if is_common is not None:
                try:
                    if is_common(raw):
                        continue
                except Exception:
                    pass
            buckets.setdefault(key[:2], set()).add(key)
        self._buckets = {k: sorted(v, key=len, reverse=True) for k, v in buckets.items()}
        self.size = sum(len(v) for v in self._buckets.values())

    @staticmethod
    def derived(titles: Iterable[str]) -> list[str]:
        """Titles plus their brand part ("진대감 가락점" → also "진대감")."""
        out: list[str] = []
        for t in titles:
            out.append(t)
            words = t.split()
            if len(words) >= 2 and re.search(r"(점|지점|본점|직영점|분점|호점)$", words[-1]):
                out.append(" ".join(words[:-1]))
        return out

    def find(self, text: str) -> list[str]:
        """Known names mentioned in ``text``: the longest match at each word start."""
        chars: list[str] = []
        starts: list[bool] = []
        ends_ok: list[bool] = []
        prev = ""
        for ch in text:
            if ch.isspace():
                prev = " "
                continue
            chars.append(ch.lower())
            starts.append(not prev or not _is_word_char(prev))
            prev = ch
        c = "".join(chars)
        # whether a match ending before index i ends a word (next char absent, non-word or a particle)
        for i in range(len(c) + 1):
            ends_ok.append(i >= len(c) or starts[i] or c[i] in _PARTICLES)
        found: list[str] = []
        for s in range(len(c)):
            if not starts[s]:
                continue
            for name in self._buckets.get(c[s : s + 2], ()):
                if c.startswith(name, s):
                    if len(name) <= 2 and not ends_ok[s + len(name)]:
                        continue
                    found.append(name)
                    break
        return found


# --- prices -----------------------------------------------------------------------------------

_PRICE_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (p, form) for form, ps in pattern_map("llm_checks", "price").items() for p in ps
)


@dataclass(frozen=True)
class Price:
    won: int
    band: int  # > 0 for "N만원대" (the band width), 0 for an exact amount
    text: str


def find_prices(text: str) -> list[Price]:
    """Every price expression in ``text`` (amounts in won), left to right, non-overlapping."""
    taken: list[tuple[int, int]] = []
    out: list[tuple[int, Price]] = []
    for pattern, kind in _PRICE_PATTERNS:
        for m in pattern.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            try:
                if kind == "man":
                    won = round(float(m.group(1)) * 10_000)
                    won += int(m.group(2) or 0) * 1000 + int(m.group(3) or 0) * 100
                    band = 10_000 if m.group(4) and not m.group(2) else 0
                elif kind == "cheon":
                    won = int(m.group(1)) * 1000 + int(m.group(2) or 0) * 100
                    band = 1000 if m.group(3) else 0
                elif kind == "plain":
                    won = int(m.group(1).replace(",", ""))
                    band = 10 ** (len(str(won)) - 1) if m.group(2) else 0
                else:
                    won, band = 10_000, 10_000 if m.group(1) else 0
            except ValueError:
                continue
            taken.append((m.start(), m.end()))
            out.append((m.start(), Price(won, band, m.group(0))))
    return [p for _, p in sorted(out, key=lambda x: x[0])]


# --- numbers with units ---------------------------------------------------------------------

_KM = re.compile(r"(\d+(?:\.\d+)?)\s*km(?![a-zA-Z])", re.IGNORECASE)
_M = re.compile(r"(?<![\d.])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*m(?![a-zA-Z])")
_COUNT = re.compile(r"(\d{1,3}(?:,\d{3})+|\d+)\s*건")
_MINUTE = re.compile(r"(?<![\d:])(\d{1,3})\s*분(?![기위식])")
_HOUR = re.compile(r"(?<![\d:])(\d{1,2})\s*시(?![간작청장즌세])")
_HOUR_ANY = re.compile(r"(?<![\d:])(\d{1,2})\s*시")
_CLOCK = re.compile(r"(?<!\d)(\d{1,2}):(\d{2})(?!\d)")
_BARE = re.compile(r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+)(?![\d,])")


@dataclass
class _Facts:
    compact_text: str
    prices: set[int]
    distances_m: list[float]
    counts: set[int]
    minutes: set[int]
    hours: set[int]
    numbers: set[int]


def _facts(sources: Sequence[str]) -> _Facts:
    text = "\n".join(sources)
    distances = [float(m.group(1)) * 1000 for m in _KM.finditer(text)]
    distances += [float(m.group(1).replace(",", "")) for m in _M.finditer(text)]
    hours = {int(m.group(1)) for m in _HOUR_ANY.finditer(text)}
    minutes = {int(m.group(1)) for m in _MINUTE.finditer(text)}
    for m in _CLOCK.finditer(text):
        hours.add(int(m.group(1)))
        minutes.add(int(m.group(2)))
    return _Facts(
        compact_text=compact(text),
        prices={p.won for p in find_prices(text)},
        distances_m=distances,
        counts={int(m.group(1).replace(",", "")) for m in _COUNT.finditer(text)},
        minutes=minutes,
        hours=hours,
        numbers={int(m.group(1).replace(",", "")) for m in _BARE.finditer(text)},
    )


_BOLD_HEAD = re.compile(r"^\s*(?:[-*•]\s+|\d+[.)]\s*|#+\s*)?\*\*(.+?)\*\*(.?)")
_NUMBERING = re.compile(r"^\s*(?:\d+[.)]|[-•])\s*")
_PARENS = re.compile(r"\([^)]*\)|\[[^\]]*\]")


class Grounder:
    """Checks answer text against its sources (see the module docstring)."""

    def __init__(
        self,
        sources: Sequence[str],
        *,
        names: NameIndex | None = None,
        context_titles: Sequence[str] = (),
    ) -> None:
        self.facts = _facts(sources)
        self.names = names
        self.context_titles = [compact(t) for t in context_titles if compact(t)]

    def _in_sources(self, text: str) -> bool:
        key = compact(text)
        return bool(key) and key in self.facts.compact_text

    def check(self, text: str, *, line_start: bool = True) -> list[GroundingIssue]:
        issues: list[GroundingIssue] = []
        f = self.facts
        if self.names is not None:
            for name in dict.fromkeys(self.names.find(text)):
                if name not in f.compact_text:
                    issues.append(
                        GroundingIssue("name", name, "a known restaurant that is not in the context")
                    )
        lines = text.split("\n")
        for i, line in enumerate(lines):
            if i == 0 and not line_start:
                continue
            m = _BOLD_HEAD.match(line)
            if not m:
                continue
            inner = m.group(1).strip()
            after = m.group(2)
            if inner.endswith((":", "：")) or after in (":", "："):
                continue
            name = _PARENS.sub("", _NUMBERING.sub("", inner)).strip(" .,!?:·-")
            if not name:
                continue
            key = compact(name)
            if key in f.compact_text or any(t in key for t in self.context_titles):
                continue
            issues.append(GroundingIssue("bold", name, "a bold heading that names nothing in the context"))
        for p in find_prices(text):
            if p.band:
                if not any(p.won <= q < p.won + p.band for q in f.prices) and p.won not in f.prices:
                    issues.append(GroundingIssue("price", p.text, "no price in that band in the context"))
            elif p.won not in f.prices:
                issues.append(GroundingIssue("price", p.text, "price not in the context"))
        masked = _KM.sub(lambda m: " " * len(m.group(0)), text)
        for m in _KM.finditer(text):
            self._distance(float(m.group(1)) * 1000, m.group(0), issues)
        for m in _M.finditer(masked):
            self._distance(float(m.group(1).replace(",", "")), m.group(0), issues)
        for m in _COUNT.finditer(text):
            n = int(m.group(1).replace(",", ""))
            if n not in f.counts and n not in f.numbers:
                issues.append(GroundingIssue("number", m.group(0), "count not in the context"))
        for m in _MINUTE.finditer(text):
            n = int(m.group(1))
            if n not in f.minutes:
                issues.append(GroundingIssue("number", m.group(0), "minutes not in the context"))
        for m in _HOUR.finditer(text):
            h = int(m.group(1))
            if not ({h, (h + 12) % 24, h % 12, h + 12} & f.hours):
                issues.append(GroundingIssue("number", m.group(0), "hour not in the context"))
        return issues

    def _distance(self, meters: float, text: str, issues: list[GroundingIssue]) -> None:
        if not any(abs(meters - d) <= max(10.0, 0.1 * d) for d in self.facts.distances_m):
            issues.append(GroundingIssue("number", text, "distance not in the context"))


def check_grounding(
    answer: str,
    sources: Sequence[str],
    *,
    names: NameIndex | None = None,
    context_titles: Sequence[str] = (),
) -> GroundingReport:
    """Check a whole answer; see the module docstring for the rules."""
    return GroundingReport(Grounder(sources, names=names, context_titles=context_titles).check(answer))


_SENTENCE_END = re.compile(r"(?<=[가-힣)\]\"'!?])[.!?](?=\s)")


class StreamGuard:
    """Buffers a streamed answer and releases it one checked piece at a time.

    A piece ends at a newline, or at a sentence end (". ", "! ", "? " after a Hangul letter or a
    closing bracket) outside bold text. :meth:`feed` returns the pieces that passed and raises
    :class:`~matjip.errors.Ungrounded` at the first piece that did not; nothing of that piece (or after it) is
    released.
    """

    def __init__(self, grounder: Grounder, *, max_buffer: int = 600) -> None:
        self.grounder = grounder
        self.max_buffer = max_buffer
        self._buf = ""
        self._line_start = True
        self.released: list[str] = []

    def _cut(self) -> int:
        """Index just after the first piece boundary in the buffer, or -1."""
        nl = self._buf.find("\n")
        line = self._buf if nl < 0 else self._buf[:nl]
        for m in _SENTENCE_END.finditer(line):
            if line[: m.start()].count("**") % 2 == 0:
                return m.end()
        if nl >= 0:
            return nl + 1
        if len(self._buf) > self.max_buffer:
            space = self._buf.rfind(" ", 0, self.max_buffer)
            return space + 1 if space > 0 else self.max_buffer
        return -1

    def _release(self, piece: str) -> str:
        issues = self.grounder.check(piece, line_start=self._line_start)
        if issues:
            raise Ungrounded(issues)
        self._line_start = piece.endswith("\n")
        self.released.append(piece)
        return piece

    def feed(self, delta: str) -> list[str]:
        self._buf += delta
        out: list[str] = []
        while True:
            cut = self._cut()
            if cut < 0:
                return out
            piece, self._buf = self._buf[:cut], self._buf[cut:]
            out.append(self._release(piece))

    def finish(self) -> list[str]:
        out = self.feed("")
        if self._buf:
            piece, self._buf = self._buf, ""
            out.append(self._release(piece))
        return out

    @property
    def text(self) -> str:
        return "".join(self.released)
