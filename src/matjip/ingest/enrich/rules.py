"""The review-reading rules of ``data/review_rules.toml`` (issue 12), loaded once.

* ``[polarity]``: morpheme forms (Kiwi stems) of absence, difficulty, sticky negatives, strong
  positives, uncertainty, wish predicates, and the clause endings by kind (contrast, cause,
  conditional, continuing), the endings that close a sentence whatever Kiwi tags them (a polite
  "-요") and the symbols that do ("~"); :mod:`.offline` decides a mention's polarity over its clause
  and the clauses it continues into with them.
* ``[frames]``: text patterns that turn a judgement (purpose "하기엔", expectation "줄 알았는데",
  hearsay "좋다던데", "다기보단", wishes, "…하던 곳인데": no longer so; a list judged as a whole:
  "분위기. 맛. 모두 좋은 곳").
* ``[[sense]]``: a value's mention is dropped when the text before / after it matches (taste, not
  place: "깔끔한 맛"; cooking time, not hours: "24시간 우려낸"; rooms that are not private rooms), unless
  the text before it matches ``keep`` (the place named: "내부도 깔끔하고 시원해서"); a rule with
  ``surfaces`` applies to mentions by those surfaces only.
* ``[[subject]]``: values dropped when the owner is the subject of the clause.
* ``[facts]``: values only absence negates (a small room is still a room).
* ``[conflicts]``: pairs of values resolved by majority of supporting reviews.
* ``[weak]``: surfaces that count for their value only beside a clear positive word.
* ``[quality]``: surfaces that name a quality of what the value needs (a side dish's range, a drink's taste): judged
  poor they say nothing against the value.
* ``[support]``: the fields whose values are facts (one first-hand review suffices, see
  :class:`matjip.ingest.enrich.offline.Support`), and the services a first-hand past use keeps whatever the same
  review says against them (``use_outweighs``).
* ``[takeaway]``: a review that tells only a takeaway, a delivery or a parcel gives no visit with company
  (``needs_visit``).

Targets are written ``"field:value"``; :func:`check_rules` lists those that name no lexicon value.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, field_validator

from matjip.documents import EnrichField

RULES_FILE = Path(__file__).resolve().parents[2] / "data" / "review_rules.toml"

Target = tuple[EnrichField, str]


def parse_target(text: str) -> Target:
    field, _, value = text.partition(":")
    if field not in ("convenience", "atmosphere", "occasion", "features") or not value:
        raise ValueError(f"not a field:value target: {text!r}")
    return (field, value)  # type: ignore[return-value]


# compatibility jamo → the final-consonant jamo Kiwi writes in endings
_KIWI_JAMO = str.maketrans("ㄱㄴㄹㅁㅂㅅㅆㅇ", "ᆨᆫᆯᆷᆸᆺᆻᆼ")


class Polarity(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    absence: frozenset[str]
    absence_adverbs: frozenset[str]
    difficulty: frozenset[str]
    difficulty_text: tuple[str, ...]
    sticky: frozenset[str]
    only_before_absence: frozenset[str]
    strong_positive: frozenset[str]
    evaluative: frozenset[str] = frozenset()
    wish_predicates: frozenset[str]
    uncertain: frozenset[str]
    question_endings: frozenset[str]
    intention_endings: frozenset[str] = frozenset()
    contrast_endings: frozenset[str]
    cause_endings: frozenset[str]
    conditional_endings: frozenset[str]
    continuing_endings: frozenset[str]
    final_ending_suffixes: tuple[str, ...]
    boundary_symbols: frozenset[str]
    nominal_final_endings: frozenset[str]
    # values whose mention is itself a complaint ("소음이 견디기 힘든 정도"): a difficulty word confirms it
    complaint_values: tuple[str, ...] = ()
    # values whose negative surface, itself negated, votes for the value ("시끄럽지도 않고" → 조용한)
    negation_turns: tuple[str, ...] = ()
    # ... when this matches right after the surface (the denial told as a merit)
    denied_as_merit: str = "(?!)"
    # nouns whose own absence an absence word right after them tells ("예약후 대기 없이": the wait is absent)
    absent_nouns: frozenset[str] = frozenset()
    denial_cause_stems: frozenset[str] = frozenset()
    denial_cause_endings: frozenset[str] = frozenset()
    # "아님" that Kiwi reads as the conjunction "or" (MAJ) when a word follows unpunctuated; after a topic or an adverb it
    # is the predicate "is not"
    absence_misread: frozenset[str] = frozenset()

    @field_validator(
        "question_endings",
        "contrast_endings",
        "cause_endings",
        "conditional_endings",
        "continuing_endings",
        "nominal_final_endings",
        mode="after",
    )
    @classmethod
    def _as_kiwi_writes_them(cls, forms: frozenset[str]) -> frozenset[str]:
        """Endings written with a compatibility jamo ("ㄴ데", "ㄹ까") also in Kiwi's spelling, a final
        consonant jamo ("ᆫ데", "ᆯ까"): the file is easier to type, Kiwi's forms are what is read."""
        return forms | {f.translate(_KIWI_JAMO) for f in forms}


class Frames(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    purpose: str
    expectation: str
    hearsay: str
    rather_not: str
    rather_than: str
    wish: str
    counterfactual: str
    no_longer: str
    hypothetical: str = "(?!)"
    rhetorical: str = "(?!)"
    advice_conditional: str = "(?!)"
    factual_conditional: str = "(?!)"
    heading: str = "(?!)"
    guest_own: str = "(?!)"
    own_request: str = "(?!)"
    superlative: str = "(?!)"
    needed_condition: str = "(?!)"
    needed_consequence: str = "(?!)"
    list_judged: str = "(?!)"
    only_flaw: str = "(?!)"
    no_return: str = "(?!)"
    concessive: str = "(?!)"
    habitual: str = "(?!)"
    complaint_cause: str = "(?!)"
    other_missing: str = "(?!)"
    manner: str = "(?!)"
    quality_of: str = "(?!)"
    unavoidable: str = "(?!)"
    not_only: str = "(?!)"
    irresistible: str = "(?!)"
    one_of_few: str = "(?!)"
    booked_without: str = "(?!)"
    mood_praise: str = "(?!)"
    recommended_if: str = "(?!)"
    fact_compared: str = "(?!)"
    prohibition: str = "(?!)"
    return_visit: str = "(?!)"
    experiencer: str = "(?!)"
    company_visit: str = "(?!)"


class SenseRule(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    value: str = ""
    # the same rule for several values (a future visit with company: 가족, 데이트, 모임 …); with ``value``
    values: tuple[str, ...] = ()
    before: str | None = None
    after: str | None = None
    window: int = 16
    keep: str | None = (
        None  # the text before the mention names what the value is said of: the rule does not apply
    )
    surfaces: tuple[str, ...] = ()  # only mentions by these surfaces (all when empty)

    @field_validator("value")
    @classmethod
    def _target(cls, v: str) -> str:
        if v:
            parse_target(v)
        return v

    @field_validator("values")
    @classmethod
    def _targets(cls, vs: tuple[str, ...]) -> tuple[str, ...]:
        for v in vs:
            parse_target(v)
        return vs

    def all_values(self) -> tuple[str, ...]:
        """``value`` and ``values`` together."""
        return ((self.value,) if self.value else ()) + self.values


class SubjectRule(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    who: str
    values: tuple[str, ...]


class Facts(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    values: tuple[str, ...]


class WeakRules(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    surfaces: dict[str, tuple[str, ...]] = {}


class QualityRules(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    surfaces: dict[str, tuple[str, ...]] = {}


class VisitRules(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    surfaces: dict[str, tuple[str, ...]] = {}
    not_visit: str = "(?!)"


class OrderedRules(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    values: tuple[str, ...] = ()
    pattern: str = "(?!)"


class TakeawayRules(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    values: tuple[str, ...] = ()
    cue: str = "(?!)"
    dine_in: str = "(?!)"
    needs_visit: tuple[str, ...] = ()


class SupportRules(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    fact_fields: tuple[str, ...] = ("convenience",)
    use_outweighs: tuple[str, ...] = ()


class Conflicts(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    pairs: tuple[tuple[str, str], ...]
    keep_both_share: float = 0.4


class RulesFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    polarity: Polarity
    frames: Frames
    sense: tuple[SenseRule, ...] = ()
    subject: tuple[SubjectRule, ...] = ()
    facts: Facts
    conflicts: Conflicts
    support: SupportRules = SupportRules()
    weak: WeakRules = WeakRules()
    quality: QualityRules = QualityRules()
    visit: VisitRules = VisitRules()
    ordered: OrderedRules = OrderedRules()
    takeaway: TakeawayRules = TakeawayRules()


# a sense rule compiled: (before, after, window, keep, surfaces)
SenseCheck = tuple[
    re.Pattern[str] | None, re.Pattern[str] | None, int, re.Pattern[str] | None, frozenset[str]
]


class CompiledRules:
    """The rules with their patterns compiled and targets parsed."""

    def __init__(self, raw: RulesFile) -> None:
        self.raw = raw
        self.p = raw.polarity
        f = raw.frames
        self.purpose = re.compile(f.purpose)
        self.expectation = re.compile(f.expectation)
        self.hearsay = re.compile(f.hearsay)
        self.rather_not = re.compile(f.rather_not)
        self.rather_than = re.compile(f.rather_than)
        self.wish = re.compile(f.wish)
        self.counterfactual = re.compile(f.counterfactual)
        self.no_longer = re.compile(f.no_longer)
        self.hypothetical = re.compile(f.hypothetical)
        self.rhetorical = re.compile(f.rhetorical)
        self.advice_conditional = re.compile(f.advice_conditional)
        self.factual_conditional = re.compile(f.factual_conditional)
        self.heading = re.compile(f.heading)
        self.guest_own = re.compile(f.guest_own)
        self.own_request = re.compile(f.own_request)
        self.superlative = re.compile(f.superlative)
        self.needed_condition = re.compile(f.needed_condition)
        self.needed_consequence = re.compile(f.needed_consequence)
        self.list_judged = re.compile(f.list_judged)
        self.only_flaw = re.compile(f.only_flaw)
        self.no_return = re.compile(f.no_return)
        self.concessive = re.compile(f.concessive)
        self.habitual = re.compile(f.habitual)
        self.complaint_cause = re.compile(f.complaint_cause)
        self.other_missing = re.compile(f.other_missing)
        self.manner = re.compile(f.manner)
        self.quality_of = re.compile(f.quality_of)
        self.unavoidable = re.compile(f.unavoidable)
        self.not_only = re.compile(f.not_only)
        self.irresistible = re.compile(f.irresistible)
        self.mood_praise = re.compile(f.mood_praise)
        self.recommended_if = re.compile(f.recommended_if)
        self.fact_compared = re.compile(f.fact_compared)
        self.prohibition = re.compile(f.prohibition)
        self.return_visit = re.compile(f.return_visit)
        self.experiencer = re.compile(f.experiencer)
        self.company_visit = re.compile(f.company_visit)
        self.one_of_few = re.compile(f.one_of_few)
        self.booked_without = re.compile(f.booked_without)
        self.difficulty_text = re.compile("|".join(f"(?:{p})" for p in raw.polarity.difficulty_text))
        self.sense: dict[Target, list[SenseCheck]] = {}
        for s in raw.sense:
            check: SenseCheck = (
                re.compile(s.before) if s.before else None,
                re.compile(s.after) if s.after else None,
                s.window,
                re.compile(s.keep) if s.keep else None,
                frozenset(x.lower() for x in s.surfaces),
            )
            for v in s.all_values():
                self.sense.setdefault(parse_target(v), []).append(check)
        self.subject: dict[Target, list[re.Pattern[str]]] = {}
        for sub in raw.subject:
            who = re.compile(sub.who)
            for v in sub.values:
                self.subject.setdefault(parse_target(v), []).append(who)
        self.facts: frozenset[Target] = frozenset(parse_target(v) for v in raw.facts.values)
        self.conflicts: tuple[tuple[Target, Target], ...] = tuple(
            (parse_target(a), parse_target(b)) for a, b in raw.conflicts.pairs
        )
        self.keep_both_share = raw.conflicts.keep_both_share
        self.fact_fields: tuple[str, ...] = raw.support.fact_fields
        self.use_outweighs: frozenset[Target] = frozenset(parse_target(v) for v in raw.support.use_outweighs)
        self.weak: frozenset[tuple[Target, str]] = frozenset(
            (parse_target(t), surface.lower())
            for t, surfaces in raw.weak.surfaces.items()
            for surface in surfaces
        )
        self.quality: frozenset[tuple[Target, str]] = frozenset(
            (parse_target(t), surface.lower())
            for t, surfaces in raw.quality.surfaces.items()
            for surface in surfaces
        )
        self.visit: frozenset[tuple[Target, str]] = frozenset(
            (parse_target(t), surface.lower())
            for t, surfaces in raw.visit.surfaces.items()
            for surface in surfaces
        )
        self.not_visit = re.compile(raw.visit.not_visit)
        self.complaints: frozenset[Target] = frozenset(parse_target(v) for v in self.p.complaint_values)
        self.negation_turns: frozenset[Target] = frozenset(parse_target(v) for v in self.p.negation_turns)
        self.denied_as_merit = re.compile(self.p.denied_as_merit)
        self.ordered_values: frozenset[Target] = frozenset(parse_target(v) for v in raw.ordered.values)
        self.ordered = re.compile(raw.ordered.pattern)
        self.takeaway_values: frozenset[Target] = frozenset(parse_target(v) for v in raw.takeaway.values)
        self.takeaway_cue = re.compile(raw.takeaway.cue)
        self.dine_in = re.compile(raw.takeaway.dine_in)
        self.needs_visit: frozenset[Target] = frozenset(parse_target(v) for v in raw.takeaway.needs_visit)
        # clause-ending connective → kind ("" = continues the clause)
        self.ec_kind: dict[str, str] = {f: "" for f in self.p.continuing_endings}
        kinds: tuple[tuple[str, frozenset[str]], ...] = (
            ("and", frozenset({"고", "며", "으며", "구"})),
            ("cond", self.p.conditional_endings),
            ("cause", self.p.cause_endings),
            ("contrast", self.p.contrast_endings),
        )
        for name, forms in kinds:
            for form in forms:
                if form not in self.p.continuing_endings:
                    self.ec_kind[form] = name

    def targets(self) -> set[Target]:
        out: set[Target] = set(self.sense) | set(self.subject) | set(self.facts)
        for a, b in self.conflicts:
            out |= {a, b}
        return out


@cache
def rules() -> CompiledRules:
    """The rules of ``data/review_rules.toml`` (loaded once)."""
    with RULES_FILE.open("rb") as fh:
        return CompiledRules(RulesFile.model_validate(tomllib.load(fh)))


def reader_version() -> str:
    """A hash of what the offline review reader reads (this file, its rules and word lists, its code):
    documents are enriched again when it changes (``ingest.pipeline.record_hash``), as they are
    re-classified when the kinds change — a new rule reaches an index already built."""
    here = Path(__file__).resolve().parent
    words = RULES_FILE.parent / "words"
    files = [
        RULES_FILE,
        *sorted(words.glob("review_*.toml")),
        words / "index_tags.toml",
        words / "text_tags.toml",
        *(here / name for name in ("rules.py", "offline.py", "tables.py")),
    ]
    h = hashlib.sha256()
    for f in files:
        if f.exists():
            h.update(f.name.encode() + b"\x00" + f.read_bytes())
    return h.hexdigest()[:12]
