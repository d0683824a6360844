"""Token prices of known models, for the cost column of the trace.

USD per one million tokens (input, output), list prices of the providers' standard tiers as
published in 2025. Matching is by the longest known prefix of the model name, so dated
snapshots ("gpt-4o-mini-2024-07-18") and suffixes ("gemini-2.5-flash-lite-preview") resolve.
Unknown models (local servers, new releases) cost ``None``: the trace shows tokens only.
"""

from __future__ import annotations

PRICES_PER_MTOK: dict[str, tuple[float, float]] = {
    # OpenAI
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-5-nano": (0.05, 0.40),
    "gpt-5-mini": (0.25, 2.00),
    "gpt-5": (1.25, 10.00),
    "o4-mini": (1.10, 4.40),
    # Google
    "gemini-2.0-flash-lite": (0.075, 0.30),
    "gemini-2.0-flash": (0.10, 0.40),
    "gemini-2.5-flash-lite": (0.10, 0.40),
    "gemini-2.5-flash": (0.30, 2.50),
    "gemini-2.5-pro": (1.25, 10.00),
}


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
