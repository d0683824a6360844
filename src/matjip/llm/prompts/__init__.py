"""Prompt templates (Jinja2 files next to this module) and their rendering.

A stage's prompt is a pair of files, ``<name>.system.jinja2`` and ``<name>.user.jinja2``; either
may be absent. Templates are rendered with :class:`jinja2.StrictUndefined`, so a missing
variable is an error at render time rather than an empty hole in a prompt.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from matjip.llm.base import Message

PROMPT_DIR = Path(__file__).parent


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(PROMPT_DIR)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=False,
        trim_blocks=False,
        lstrip_blocks=False,
    )


def exists(name: str) -> bool:
    return (PROMPT_DIR / name).is_file()


def render(template: str, **variables: Any) -> str:
    """Render one template file (``"grade.user.jinja2"``)."""
    return _env().get_template(template).render(**variables).strip()


def messages(name: str, **variables: Any) -> list[Message]:
    """The system and user messages of prompt ``name``."""
    out: list[Message] = []
    if exists(f"{name}.system.jinja2"):
        out.append({"role": "system", "content": render(f"{name}.system.jinja2", **variables)})
    if exists(f"{name}.user.jinja2"):
        out.append({"role": "user", "content": render(f"{name}.user.jinja2", **variables)})
    return out


def version(name: str) -> str:
    """A short hash of the template sources of prompt ``name`` (for caches keyed by prompt)."""
    h = hashlib.sha256()
    for part in ("system", "user"):
        path = PROMPT_DIR / f"{name}.{part}.jinja2"
        if path.is_file():
            h.update(path.read_bytes())
    return h.hexdigest()[:12]
