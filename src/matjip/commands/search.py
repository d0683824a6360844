"""``matjip search`` and ``matjip stats``: the search core from the command line."""

from __future__ import annotations

import json
import re
import sys
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from rich.console import Console
from rich.table import Table

from matjip.errors import ConfigurationError, PlaceNotFoundError
from matjip.index.request import GeoFilter, OpenAt, PriceRange, RegionFilter, SearchRequest
from matjip.settings import Settings
from matjip.wording import say, text
from matjip.wording import table as wording_table

_DAYS = "월화수목금토일"


def parse_radius(text: str) -> int:
    """``"1km"``, ``"1.5 km"``, ``"800m"``, ``"800"`` → metres."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(km|m)?\s*", text.lower())
    if not m:
        raise ConfigurationError(say("cli.search.bad_radius", value=repr(text)))
    value = float(m.group(1))
    return int(value * 1000) if m.group(2) == "km" else int(value)


def parse_open_at(text: str, tz: str) -> datetime:
    """``"지금"``, ``"토 20:00"``, ``"20:00"`` (today), or an ISO time → a datetime in ``tz``
    (``settings.timezone``; an ISO time with an offset keeps it)."""
    now = datetime.now(ZoneInfo(tz))
    t = text.strip()
    if t in ("지금", "now"):
        return now
    m = re.fullmatch(r"(?:([월화수목금토일])(?:요일)?\s*)?(\d{1,2}):(\d{2})", t)
    if m:
        day = now
        if m.group(1):
            day = now + timedelta(days=(_DAYS.index(m.group(1)) - now.weekday()) % 7)
        return day.replace(hour=int(m.group(2)) % 24, minute=int(m.group(3)), second=0, microsecond=0)
    try:
        dt = datetime.fromisoformat(t)
    except ValueError as exc:
        raise ConfigurationError(say("cli.search.bad_time", value=repr(text))) from exc
    return dt if dt.tzinfo else dt.replace(tzinfo=ZoneInfo(tz))


def build_request(
    text: str,
    near: str | None,
    region: str | None,
    radius: str | None,
    cuisine: tuple[str, ...],
    convenience: tuple[str, ...],
    menu: tuple[str, ...],
    title: str | None,
    min_price: int | None,
    max_price: int | None,
    open_at: str | None,
    k: int,
    sort: str,
    *,
    timezone: str,
) -> tuple[SearchRequest, str | None]:
    from matjip.geo.gazetteer import Gazetteer

    geo = None
    origin = None
    reg = None
    if near:
        gaz = Gazetteer.load()
        candidates = gaz.lookup(near)
        if not candidates:
            raise PlaceNotFoundError(say("cli.search.near_not_found", near=near))
        if gaz.is_ambiguous(near) and len(candidates) > 1:
            names = ", ".join(c.display_name for c in candidates[:5])
            raise PlaceNotFoundError(say("cli.search.near_ambiguous", near=near, names=names))
        place = candidates[0]
        geo = GeoFilter(
            lat=place.lat, lon=place.lon, radius_m=parse_radius(radius) if radius else place.default_radius_m
        )
        origin = place.display_name
    if region:
        reg = RegionFilter(name=region, terms=[region])
    price = (
        PriceRange(min_won=min_price, max_won=max_price)
        if min_price is not None or max_price is not None
        else None
    )
    req = SearchRequest(
        text=text,
        geo=geo,
        region=reg,
        cuisine=list(cuisine),
        convenience=list(convenience),
        menu=list(menu),
        title=title,
        price=price,
        open_at=OpenAt(when=parse_open_at(open_at, timezone)) if open_at else None,
        k=k,
        sort="distance" if sort == "distance" and geo is not None else "relevance",
    )
    return req, origin


def run_search(settings: Settings, req: SearchRequest, origin: str | None, as_json: bool) -> None:
    from matjip.commands.ingest import ensure_index

    index = ensure_index(settings)
    resp = index.search(req)
    if as_json:
        sys.stdout.write(json.dumps(resp.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n")
        return
    console = Console()
    title = say(
        "cli.search.title",
        hits=len(resp.hits),
        candidates=f"{resp.total_candidates:,}",
        ms=f"{resp.took_ms:.1f}",
    )
    if origin:
        title = say("cli.search.title_from", origin=origin, title=title)
    table = Table(title=title, show_lines=True)
    cols = wording_table("cli.search.columns")
    for col, just in (
        ("#", "right"),
        (cols["name"], "left"),
        (cols["kind"], "left"),
        (cols["distance"], "right"),
        (cols["matched"], "left"),
        (cols["menus"], "left"),
        (cols["score"], "right"),
    ):
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for i, h in enumerate(resp.hits, start=1):
        d = h.document
        menus = [
            say("cli.search.menu", name=m.name, price=f"{m.price:,}")
            for m in d.priced_menus()[:3]
            if m.price is not None
        ] or [m.name for m in d.menus[:3]]
        dist = (
            ""
            if h.distance_m is None
            else (f"{h.distance_m:.0f}m" if h.distance_m < 1000 else f"{h.distance_m / 1000:.1f}km")
        )
        table.add_row(
            str(i), d.title, d.cuisine, dist, ", ".join(h.matched), "\n".join(menus), f"{h.score:.2f}"
        )
    console.print(table)
    if not resp.hits:
        console.print(text("cli.search.none"))


def run_stats(settings: Settings, as_json: bool) -> None:
    from matjip.index import open_index
    from matjip.ingest.store import DocumentStore

    index = open_index(settings)
    stats = index.stats()
    with DocumentStore(settings.store_path) as store:
        docs = list(store.iter_documents())
    n = max(1, len(docs))
    coverage = {
        "coordinates": sum(d.lat is not None for d in docs) / n,
        "address": sum(bool(d.display_address) for d in docs) / n,
        "menus": sum(bool(d.menus) for d in docs) / n,
        "menu prices": sum(bool(d.priced_menus()) for d in docs) / n,
        "hours (parsed)": sum(bool(d.hours and d.hours.parsed and d.hours.days) for d in docs) / n,
        "convenience": sum(bool(d.convenience) for d in docs) / n,
        "atmosphere": sum(bool(d.atmosphere) for d in docs) / n,
        "occasion": sum(bool(d.occasion) for d in docs) / n,
        "features": sum(bool(d.features) for d in docs) / n,
        "review_food": sum(bool(d.review_food) for d in docs) / n,
    }
    from matjip.agent.retention import session_stats
    from matjip.geo.coverage import CoveredArea

    sessions = session_stats(settings.sessions_path)
    area = CoveredArea.from_addresses(d.display_address for d in docs)
    covered = area.line(len(docs))
    if as_json:
        sys.stdout.write(
            json.dumps(
                {
                    "index": stats,
                    "store_documents": len(docs),
                    "coverage": coverage,
                    "regions": [
                        {"sido": sd, "sigungu": sg, "restaurants": n} for sd, sg, n in area.districts()
                    ],
                    "covered": covered,
                    "sessions": sessions,
                },
                ensure_ascii=False,
                indent=2,
            )
            + "\n"
        )
        return
    console = Console()
    t = Table(title="matjip stats")
    t.add_column(text("cli.search.stats_item"))
    t.add_column(text("cli.search.stats_value"), justify="right")
    t.add_row("documents (store / index)", f"{len(docs):,} / {stats['documents']:,}")
    t.add_row("embedder", f"{stats['embedder']['name']} ({stats['embedder']['dim']}d)")
    t.add_row("fusion", str(stats["fusion"]))
    t.add_row("index size", f"{stats['disk_bytes'] / 1e6:,.1f} MB")
    t.add_row("index load", f"{stats.get('load_seconds') or 0:.3f} s")
    t.add_row("built", f"{stats.get('built_at')} ({stats.get('build_seconds')} s)")
    t.add_row(
        "sessions",
        f"{sessions['sessions']:,} ({sessions['checkpoints']:,} checkpoints, {sessions['bytes'] / 1e6:,.1f} MB; "
        f"keep {settings.session_max_turns} turns, {settings.session_max_age_days:g} days)",
    )
    for k, v in coverage.items():
        t.add_row(f"coverage: {k}", f"{v:.1%}")
    t.add_row(
        "cuisines", ", ".join(f"{c} {n:,}" for c, n in sorted(stats["cuisines"].items(), key=lambda x: -x[1]))
    )
    console.print(t)
    console.print(say("cli.search.covered", covered=covered))
