"""Answer wording as data: every Korean sentence matjip says, as a named template.

Templates live in ``src/matjip/data/wording/<area>.toml`` (``search.toml``, ``answer.toml`` …). A
template's name is the file's stem and its key path: ``[relax] widened = "…"`` in ``search.toml``
is ``"search.relax.widened"``. A template is a ``str.format`` string with named fields only::

    [relax]
    widened = "{old}km 안에는 없어서 {new}km까지 넓혔어요."

Code says a sentence with :func:`say` (``say("search.relax.widened", old=1, new=3)``) and a
fixed phrase with :func:`text`; a template is never built from pieces in code. A list of
alternatives (an array of strings) is read with :func:`variants`, a section of fixed phrases by
key (``[smalltalk] thanks = "…"``) with :func:`table`. :func:`problems` checks every
file (fields are plain names, no positional ``{}``); ``tests/test_wording.py`` asserts it finds none
and that every name the source passes to :func:`say`/:func:`text`/:func:`variants`/:func:`table` exists.
"""

from __future__ import annotations

import string
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from matjip.words import toml_files

WORDING_DIR = Path(__file__).parent / "data" / "wording"


class WordingError(KeyError):
    """A template that does not exist, or a field it needs that was not given."""


def _flatten(prefix: str, data: dict[str, Any], out: dict[str, str | tuple[str, ...]]) -> None:
    for key, value in data.items():
        name = f"{prefix}.{key}"
        if isinstance(value, dict):
            _flatten(name, value, out)
        elif isinstance(value, list):
            out[name] = tuple(str(v) for v in value)
        else:
            out[name] = str(value)


@cache
def templates(directory: Path = WORDING_DIR) -> dict[str, str | tuple[str, ...]]:
    """Every template of every file, by name."""
    out: dict[str, str | tuple[str, ...]] = {}
    for path in sorted(directory.glob("*.toml")):
        with path.open("rb") as f:
            _flatten(path.stem, tomllib.load(f), out)
    return out


def _template(name: str) -> str | tuple[str, ...]:
    try:
        return templates()[name]
    except KeyError as e:
        raise WordingError(f"no template {name!r}") from e


def text(name: str) -> str:
    """A fixed sentence (a template without fields)."""
    value = _template(name)
    if not isinstance(value, str):
        raise WordingError(f"{name!r} is a list of variants")
    return value


def say(name: str, /, **fields: object) -> str:
    """The template ``name`` with its fields filled in."""
    try:
        return text(name).format_map(fields)
    except KeyError as e:
        raise WordingError(f"{name!r} needs the field {e.args[0]!r}") from e


def variants(name: str) -> tuple[str, ...]:
    """A list of alternative phrasings (an array in the file)."""
    value = _template(name)
    if isinstance(value, str):
        return (value,)
    return value


def table(name: str) -> dict[str, str]:
    """The fixed sentences under the section ``name``, by their last key, in file order
    (``table("answer.smalltalk")`` → ``{"thanks": "…", …}``)."""
    prefix = name + "."
    found = {
        k[len(prefix) :]: v
        for k, v in templates().items()
        if k.startswith(prefix) and "." not in k[len(prefix) :] and isinstance(v, str)
    }
    if not found:
        raise WordingError(f"no section {name!r}")
    return found


def fields(template: str) -> list[str]:
    """The field names of a template (``[]`` for a fixed sentence)."""
    return [f for _, f, _, _ in string.Formatter().parse(template) if f is not None]


def problems(directory: Path = WORDING_DIR) -> list[str]:
    """Every malformed template of ``directory`` (empty when all are sound)."""
    read, out = toml_files(directory)
    for stem, data in read:
        flat: dict[str, str | tuple[str, ...]] = {}
        _flatten(stem, data, flat)
        for name, value in flat.items():
            for t in (value,) if isinstance(value, str) else value:
                try:
                    names = fields(t)
                except ValueError as e:
                    out.append(f"{name}: {e}")
                    continue
                for field in names:
                    if not field.isidentifier():
                        out.append(f"{name}: field {{{field}}} is not a plain name")
    return out
