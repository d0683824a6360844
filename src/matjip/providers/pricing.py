"""Token prices of known models, for the cost column of the trace.

USD per one million tokens (input, output), list prices of the providers' standard tiers as
published in 2025 (``data/models.toml``). Matching is by the longest known prefix of the model name, so dated
snapshots ("gpt-4o-mini-2024-07-18") and suffixes ("gemini-2.5-flash-lite-preview") resolve.
Unknown models (local servers, new releases) cost ``None``: the trace shows tokens only.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Final

MODELS_FILE = Path(__file__).resolve().parents[1] / "data" / "models.toml"


def _load_prices() -> dict[str, tuple[float, float]]:
    with MODELS_FILE.open("rb") as f:
        table = tomllib.load(f)["prices"]
    return {str(name): (float(p[0]), float(p[1])) for name, p in table.items()}


PRICES_PER_MTOK: Final = _load_prices()  # model name (prefix) → (input, output) USD per million tokens


def price_of(model: str) -> tuple[float, float] | None:
    """(input, output) USD per million tokens for ``model``, or ``None`` when unknown."""
    name = model.lower().rsplit("/", 1)[-1]  # "models/gemini-2.5-flash" → "gemini-2.5-flash"
    best: str | None = None
    for known in PRICES_PER_MTOK:
        if name.startswith(known) and (best is None or len(known) > len(best)):
            best = known
    return PRICES_PER_MTOK[best] if best else None


def cost_usd(model: str, input_tokens: int | None, output_tokens: int | None) -> float | None:
    """The cost of one call, or ``None`` when the model's price or the token counts are unknown."""
    price = price_of(model)
    if price is None or input_tokens is None or output_tokens is None:
        return None
    return round((input_tokens * price[0] + output_tokens * price[1]) / 1_000_000, 8)
