"""Retrieval policy: how a validated plan becomes the places shown (docs/design.md).

The search nodes (``agent/nodes/search.py``) decide *which* search a turn makes; this package
decides *how* the index is asked and what is done with what it returns, one module per step:

- :mod:`.fetch` — the first requests: a page deep enough to re-rank, each kind on its own;
- :mod:`.filters` — what rules a fetched place out (a brand, a chain, a qualified kind, a
  stated break, a typical price over budget);
- :mod:`.topup` — too few places: the dish's broader kind, the kind without the dish, the
  kind's neighbours whose menu stands in;
- :mod:`.widen` — a wider circle for a short list, and relaxation's one step at a time;
- :mod:`.rank` — the order of the places: :class:`~.rank.RankKey`, one branch per chain;
- :mod:`.gaps` — what the search could not see (unknown hours, no coordinates, no coverage).

Every Korean note these steps add is a template of ``data/wording/search.toml``.
"""
