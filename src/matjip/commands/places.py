"""``matjip places``: look a place name up in the gazetteer (:mod:`matjip.geo`) and show every
candidate, or list the places mentioned in a sentence."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.table import Table

from matjip.errors import PlaceNotFoundError
from matjip.geo.gazetteer import Gazetteer
from matjip.wording import say, text
from matjip.wording import table as wording_table


def run_places(name: tuple[str, ...], as_json: bool, in_text: bool) -> None:
    """Print the candidates for NAME (a table, or JSON); with ``in_text`` the places in a sentence."""
    gazetteer = Gazetteer.load()
    query = " ".join(name).strip()
    console = Console()
    if not console.is_terminal:  # piped or captured: do not squeeze the table into 80 columns
        console = Console(width=160)

    if in_text:
        found = gazetteer.places_in_text(query)
        if as_json:
            rows = [
                {"text": s, "start": a, "end": b, "place": p.model_dump(mode="json")} for s, a, b, p in found
            ]
            click.echo(json.dumps({"query": query, "mentions": rows}, ensure_ascii=False, indent=2))
            return
        if not found:
            console.print(text("cli.places.none_in_text"))
            return
        table = Table(title=say("cli.places.in_text_title", query=query))
        for col in wording_table("cli.places.mention_columns").values():
            table.add_column(col)
        for s, a, b, p in found:
            table.add_row(f"{a}-{b}", s, p.display_name, p.type_label, f"{p.default_radius_m:,} m")
        console.print(table)
        return

    candidates = gazetteer.lookup(query)
    if not candidates:
        raise PlaceNotFoundError(say("cli.places.not_found", query=query))
    ambiguous = gazetteer.is_ambiguous(query)
    note = gazetteer.homonym_note(query)
    if as_json:
        payload = {
            "query": query,
            "ambiguous": ambiguous,
            "note": note,
            "best": candidates[0].key,
            "candidates": [
                {**p.model_dump(mode="json"), "region_terms": gazetteer.region_terms(p)} for p in candidates
            ],
        }
        click.echo(json.dumps(payload, ensure_ascii=False, indent=2))
        return
    table = Table(title=say("cli.places.candidates_title", query=query, n=len(candidates)))
    cols = wording_table("cli.places.candidate_columns")
    for col, justify in (
        (cols["number"], "right"),
        (cols["name"], "left"),
        (cols["kind"], "left"),
        (cols["region"], "left"),
        (cols["lines"], "left"),
        (cols["lat"], "right"),
        (cols["lon"], "right"),
        (cols["radius"], "right"),
    ):
        table.add_column(col, justify=justify, overflow="fold")  # type: ignore[arg-type]
    for i, p in enumerate(candidates, 1):
        table.add_row(
            str(i),
            p.name,
            p.type_label,
            p.region or "-",
            ", ".join(p.lines) or "-",
            f"{p.lat:.5f}",
            f"{p.lon:.5f}",
            f"{p.default_radius_m:,} m",
        )
    console.print(table)
    if ambiguous and len(candidates) > 1:
        example = f"{candidates[0].region} {query}".strip()
        console.print(say("cli.places.ambiguous", query=query, example=example))
    if note:
        console.print(f"[yellow]{note}[/yellow]")
