"""What rules a fetched place out, and the typical price a budget is checked against."""

from __future__ import annotations

import re
import statistics
from typing import Final

from matjip.agent.cardinfo import is_qualified, plate_sharers, set_within
from matjip.agent.configuration import Resources
from matjip.agent.models import SearchPlan
from matjip.documents import Restaurant
from matjip.index.request import SearchHit
from matjip.kinds import kinds
from matjip.nlu.kinds import chain_rules
from matjip.nlu.vocabulary import category_leaf, compact
from matjip.wording import say
from matjip.words import words

NO_BREAK: Final = re.compile("|".join(words("search", "no_break")))  # "브레이크타임 없는"


def chain_names(res: Resources) -> list[str]:
    """Brand names with three or more branches in the data, and the franchise brands of
    ``data/chains.toml`` (excluded by "체인점 말고")."""
    in_data = [b for b, titles in res.nlu.vocabulary.brands().items() if len(titles) >= 3 and len(b) >= 2]
    listed = [b for b in chain_rules().brands if len(b) >= 3]
    return list(dict.fromkeys([*in_data, *listed]))


def _branches(res: Resources, head: str) -> int:
    """How many places of the data carry the brand of ``head`` (a name without its branch word)."""
    vocabulary = res.nlu.vocabulary
    info = vocabulary.title_info(head)
    brand = info.brand if info is not None and info.brand else head
    return len(vocabulary.brands().get(brand, []))


def is_chain_branch(title: str, res: Resources) -> bool:
    """A listed franchise brand or a branch ("○○ 잠실점"; a "본점" only of a name with branches)."""
    return chain_rules().is_chain(title, lambda head: _branches(res, head))


def names_a_chain(p: SearchPlan, res: Resources) -> bool:
    """Brands ruled out by name ("도미노 피자헛 빼고", "김밥천국 말고") while chains as such are not."""
    if p.exclude_chains or p.avoid_tastes:
        return False
    rules, known = chain_rules(), res.nlu.vocabulary.brands()
    return any(rules.brand_of(t) is not None or len(known.get(t, [])) >= 2 for t in p.exclude_titles)


def not_ruled_out_by_category(hits: list[SearchHit], p: SearchPlan, res: Resources) -> list[SearchHit]:
    """Hits whose category path does not say a brand ruled out: "체인 말고" rules out a franchise
    Kakao files under its brand ("치킨>본스치킨", one branch in the data), "뚜레쥬르 말고" a place filed
    under 뚜레쥬르 whatever its name."""
    franchises = res.nlu.vocabulary.franchise_leaves if p.exclude_chains else frozenset()
    brands = [compact(t) for t in p.exclude_titles if len(compact(t)) >= 2]
    if not franchises and not brands and not p.exclude_chains:
        return hits
    rules = chain_rules()

    def ruled_out(h: SearchHit) -> bool:
        category = h.document.category
        leaf = category_leaf(category)
        if p.exclude_chains and rules.is_chain(h.document.title, lambda head: _branches(res, head)):
            return True  # "○○ 잠실점", a listed franchise brand
        return (leaf is not None and leaf in franchises) or any(b in compact(category) for b in brands)

    return [h for h in hits if not ruled_out(h)]


def all_kinds_if_qualified(h: SearchHit, p: SearchPlan) -> bool:
    """A kind that qualifies another ("비건 디저트"): the place must be both; otherwise any kind does."""
    table = kinds()
    if len(p.kinds) < 2 or not any(table.by_name[k].conjunctive for k in p.kinds if k in table.by_name):
        return True
    return all(k in h.document.kinds for k in p.kinds)


def kept(hits: list[SearchHit], p: SearchPlan, res: Resources) -> list[SearchHit]:
    """The hits neither ruled out by category nor missing a qualified kind; with a food qualifying the
    kind ("한우 오마카세"), a house of another kind only when a menu line names both."""
    return [
        h
        for h in not_ruled_out_by_category(hits, p, res)
        if all_kinds_if_qualified(h, p)
        and (not p.qualifier or any(k in h.document.kinds for k in p.kinds) or is_qualified(h.document, p))
    ]


def broader(names: list[str]) -> list[str]:
    """The parents of ``names`` when every one has a parent, else ``[]``."""
    table = kinds()
    parents = [table.by_name[k].parent if k in table.by_name else None for k in names]
    return [x for x in dict.fromkeys(parents) if x] if all(parents) else []


def break_on(doc: Restaurant, weekday: int) -> bool:
    """The parsed hours state a break that day."""
    hours = doc.hours
    day = hours.days.get(weekday) if hours is not None and hours.parsed else None
    return day is not None and bool(day.breaks)


def typical_price(doc: Restaurant, wanted: list[str]) -> int | None:
    """The median of the priced menu lines — of the wanted kinds' dishes when there are any."""
    menus = doc.priced_menus()
    dishes = [w for k in wanted for w in kinds().dish_words(k)]
    own = [m.price for m in menus if m.price is not None and any(w in m.name for w in dishes)]
    prices = own or [m.price for m in menus if m.price is not None]
    return round(statistics.median(prices)) if prices else None  # even count: the middle two's mean


def kind_price(doc: Restaurant, wanted: list[str]) -> int | None:
    """The median price of the wanted kinds' dishes (theirs or their narrower kinds') on the menu
    ("더 싼 치킨집": of its chicken, not of its dried squid); of every priced line when the kinds name
    no dish; ``None`` when they name dishes and none of them is priced (how cheap the place is for
    that food is unknown)."""
    table = kinds()
    dishes = [w for k in wanted for member in (k, *table.descendants(k)) for w in table.dish_words(member)]
    if not dishes:
        return typical_price(doc, [])
    own = [m.price for m in doc.priced_menus() if m.price is not None and any(w in m.name for w in dishes)]
    return round(statistics.median(own)) if own else None


def typical_price_ok(h: SearchHit, p: SearchPlan, cheaper: bool = False) -> bool:
    """The typical price (:func:`typical_price`; of the whole menu when ``cheaper``, "더 싼 데", and then
    only for a place whose dishes of the food asked carry a price, :func:`kind_price`: a chicken
    house is no cheaper chicken house by its dried squid) is within the plan's price range — or, for a
    bound per person, a course or set is (:func:`set_within`)."""
    if cheaper and kind_price(h.document, p.kinds) is None:
        return False
    if not cheaper and set_within(h.document, p) is not None:
        return True
    if not cheaper and named_only(h.document, p.kinds) and kind_price(h.document, p.kinds) is None:
        return False  # "○○족발" selling 쌀국수: its prices are no 족발's (audit r16 F2)
    mid = typical_price(h.document, [] if cheaper else p.kinds)
    if mid is None:
        return False
    mid = per_head(mid, h.document, p)
    return (p.price_max is None or mid <= p.price_max) and (p.price_min is None or mid >= p.price_min)


def per_head(price: int, doc: Restaurant, p: SearchPlan) -> int:
    """A price of the kind asked, per person under a budget per person: a plate the table shares split
    by the people it feeds (:func:`cardinfo.plate_sharers`: "6명 1인 2만원 족발": a 36,000원 plate is
    12,000원 a head); else the price."""
    people = plate_sharers(p)
    return round(price / people) if people > 1 and kind_price(doc, p.kinds) is not None else price


def named_only(doc: Restaurant, wanted: list[str]) -> bool:
    """The place is of the kinds asked by its name alone: no category path, no menu lines say it."""
    table = kinds()
    family = {m for k in wanted for m in (k, *table.descendants(k))}
    said = [ev.source for ev in doc.evidence if ev.field == "kind" and ev.value in family]
    return bool(said) and all(s == "title" or s.startswith("kind:") for s in said)


def within_budget(hits: list[SearchHit], p: SearchPlan, cheaper: bool) -> list[SearchHit]:
    """ "만원 이하": the place's typical price, not one cheap side dish, must be within budget
    ("더 싼 데", ``cheaper``: of the whole menu, the food asked priced)."""
    if p.price_max is None:
        return hits
    return [h for h in hits if typical_price_ok(h, p, cheaper=cheaper)]


def cheaper_fill(
    hits: list[SearchHit], p: SearchPlan, cheaper: bool
) -> tuple[list[SearchHit], list[SearchHit]]:
    """ "더 싼 데": the places within budget (:func:`within_budget`) and, when they are fewer than the list
    asked (``p.k``), the others below the shown list's dearest place (``p.price_max_wider``) to follow them —
    still cheaper than what was shown, said (wording ``search.relax.cheaper_fill``)."""
    within = within_budget(hits, p, cheaper)
    wider = p.price_max_wider
    if not cheaper or wider is None or p.price_max is None or wider <= p.price_max or len(within) >= p.k:
        return within, []
    looser = p.model_copy(update={"price_max": wider})
    kept = {id(h) for h in within}
    return within, [h for h in hits if id(h) not in kept and typical_price_ok(h, looser, cheaper=True)]


def cheaper_fill_note(p: SearchPlan, within: list[SearchHit]) -> str:
    """What :func:`cheaper_fill` did, said."""
    assert p.price_max is not None and p.price_max_wider is not None
    return say(
        "search.relax.cheaper_fill", typical=p.price_max + 1, count=len(within), bound=p.price_max_wider + 1
    )


def filed_as_other(h: SearchHit, wanted: list[str], sources: tuple[str, ...] = ("category",)) -> bool:
    """The place's category (or another of ``sources``, such as its name) says a kind unrelated to
    ``wanted`` (an umbrella such as 술집 aside)."""
    table = kinds()
    related = table.related(wanted)
    return any(
        ev.field == "kind"
        and ev.source in sources
        and ev.value not in related
        and not (ev.value in table.by_name and table.by_name[ev.value].broad)
        for ev in h.document.evidence
    )
