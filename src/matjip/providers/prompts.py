"""Prompt templates (Jinja2 files in a directory) and their rendering.

A stage's prompt is a pair of files, ``<name>.system.jinja2`` and ``<name>.user.jinja2``; either
may be absent. Templates are rendered with :class:`jinja2.StrictUndefined`, so a missing
variable is an error at render time rather than an empty hole in a prompt. Each user of this
module keeps its templates beside its own code: ``PromptSet(Path(__file__).parent / "prompts")``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import jinja2

from matjip.providers.base import Message

# JSON's own \uXXXX escapes for the characters that could forge a delimiter or a line (U+2028/9 are
# line breaks to some readers; JSON leaves them raw)
_DATA_ESCAPES = str.maketrans(
    {c: f"\\u{ord(c):04x}" for c in ("<", ">", "&", "`", "\u2028", "\u2029", "\u0085")}
)


def as_data(value: Any) -> str:
    """``value`` as one line of JSON for a prompt's data block (see the module docstring).

    ``json.loads`` of the result gives ``value`` back unchanged; no character of the result is a
    line break, ``"`` inside a string, ``<``, ``>``, ``&`` or a backtick.
    """
    return json.dumps(value, ensure_ascii=False, default=str).translate(_DATA_ESCAPES)


class PromptSet:
    """The templates of one directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(directory)),
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            keep_trailing_newline=False,
            trim_blocks=False,
            lstrip_blocks=False,
        )
        self._env.filters["data"] = as_data

    def exists(self, name: str) -> bool:
        return (self.directory / name).is_file()

    def render(self, template: str, **variables: Any) -> str:
        """Render one template file (``"grade.user.jinja2"``)."""
        return self._env.get_template(template).render(**variables).strip()

    def messages(self, name: str, **variables: Any) -> list[Message]:
        """The system and user messages of prompt ``name``."""
        out: list[Message] = []
        if self.exists(f"{name}.system.jinja2"):
            out.append({"role": "system", "content": self.render(f"{name}.system.jinja2", **variables)})
        if self.exists(f"{name}.user.jinja2"):
            out.append({"role": "user", "content": self.render(f"{name}.user.jinja2", **variables)})
        return out

    def version(self, name: str) -> str:
        """A short hash of the template sources of prompt ``name`` (for caches keyed by prompt)."""
        h = hashlib.sha256()
        for part in ("system", "user"):
            path = self.directory / f"{name}.{part}.jinja2"
            if path.is_file():
                h.update(path.read_bytes())
        return h.hexdigest()[:12]
