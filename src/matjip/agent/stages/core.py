"""What every LLM stage shares: the client, the switches, the per-turn budget and ledger, the
bound resources, and the fallback rule (see :mod:`matjip.agent.stages`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, Self

from matjip.agent.stages.budget import Ledgers, TurnLedger
from matjip.agent.stages.grounding import NameIndex, compact
from matjip.errors import BudgetExceeded
from matjip.nlu.normalize import MAX_QUERY_CHARS
from matjip.providers.base import CallRecord, LLMClient, Message, T, error_text, record_of
from matjip.providers.config import LLMOptions
from matjip.providers.prompts import PromptSet
from matjip.settings import DEFAULT_TIMEZONE
from matjip.vocab import vocab
from matjip.words import words

PROMPTS = PromptSet(Path(__file__).parent / "prompts")

if TYPE_CHECKING:
    from matjip.documents import Restaurant
    from matjip.geo.gazetteer import Gazetteer
    from matjip.index.backend import SearchBackend
    from matjip.nlu.parser import OfflineNLU


class Bindable(Protocol):
    """What :meth:`LLMStages.bind` reads of the agent's resources
    (:class:`matjip.agent.configuration.Resources` is one)."""

    @property
    def index(self) -> SearchBackend: ...
    @property
    def gazetteer(self) -> Gazetteer: ...
    @property
    def nlu(self) -> OfflineNLU: ...
    @property
    def timezone(self) -> str: ...
    @property
    def cuisines(self) -> frozenset[str]: ...
    @property
    def conveniences(self) -> frozenset[str]: ...


MAX_ENTITY_ITEMS = 5
MAX_ENTITY_CHARS = 40
MAX_CONTEXT_DOCS = 6
HISTORY_MESSAGES = 4
DESCRIPTION_CHARS = 200

# validate_plan repairs that mean "the model wrote something wrong", worth one retry
_PLAN_REJECTS: tuple[str, ...] = words("llm_checks", "plan_rejects")


def _clean_terms(values: Iterable[str]) -> list[str]:
    out: list[str] = []
    for v in values:
        term = " ".join(str(v).split())[:MAX_ENTITY_CHARS]
        if term and term not in out:
            out.append(term)
    return out[:MAX_ENTITY_ITEMS]


def _union(first: Sequence[str], second: Sequence[str]) -> list[str]:
    seen = {compact(x) for x in first}
    out = list(first)
    for x in second:
        if compact(x) not in seen:
            seen.add(compact(x))
            out.append(x)
    return out[: max(MAX_ENTITY_ITEMS, len(first))]


class GenerationStream(Iterator[tuple[str, str]]):
    """Events of a streamed, grounding-checked answer: ``("delta", text)`` pieces that passed the
    check, and at most one ``("reset", reason)`` when an answer that already started streaming
    was abandoned (the client must clear what it showed; the template answer follows).

    After exhaustion :attr:`text` is the grounded LLM answer, or ``None`` when the caller must use
    the template answer (then :attr:`reason` says why).
    """

    def __init__(self, run: Callable[[GenerationStream], Iterator[tuple[str, str]]]) -> None:
        self.text: str | None = None
        self.reason: str | None = None
        self._it = run(self)

    def __iter__(self) -> GenerationStream:
        return self

    def __next__(self) -> tuple[str, str]:
        return next(self._it)

    def close(self) -> None:
        close = getattr(self._it, "close", None)
        if close is not None:
            close()


class StageCore:
    """What every LLM stage shares: the client, the switches, the budget, the bound resources."""

    def __init__(
        self,
        client: LLMClient,
        options: LLMOptions | None = None,
        *,
        stages: Iterable[str] | None = None,
        budget: int | None = None,
    ) -> None:
        opts = options or LLMOptions()
        enabled = frozenset(stages) if stages is not None else opts.stages
        self.client = client
        self.options = opts
        self.understands = "understand" in enabled
        self.decides = "decide" in enabled
        self.plans = "plan" in enabled
        self.grades = "grade" in enabled
        self.generates = "generate" in enabled
        self.ledgers = Ledgers(budget if budget is not None else opts.turn_budget_calls)
        self.timezone = DEFAULT_TIMEZONE  # until bind() sets the resources' (settings.timezone)
        self.cuisines: frozenset[str] = frozenset(vocab().cuisines)
        self.conveniences: frozenset[str] = frozenset(vocab().conveniences)
        self._index: SearchBackend | None = None
        self._place_exists: Callable[[str], bool] | None = None
        self._title_exists: Callable[[str], bool] | None = None
        self._titles: Callable[[], Iterable[str]] | None = None
        self._is_common: Callable[[str], bool] | None = None
        self._names: NameIndex | None = None
        self._names_lock = threading.Lock()

    # --- wiring ------------------------------------------------------------------------------

    def bind(
        self,
        res: Bindable,
        *,
        titles: Iterable[str] | Callable[[], Iterable[str]] | None = None,
        title_exists: Callable[[str], bool] | None = None,
        place_exists: Callable[[str], bool] | None = None,
        is_common: Callable[[str], bool] | None = None,
    ) -> Self:
        """Attach the agent's resources: the index (documents, titles), the gazetteer (places),
        the NLU vocabulary (titles, brands, menu words) and the allowed cuisines/conveniences.
        Explicit arguments override what is derived from ``res``. Returns ``self``."""
        self._index = res.index
        self.timezone = res.timezone or self.timezone
        self.cuisines = frozenset(res.cuisines or self.cuisines)
        self.conveniences = frozenset(res.conveniences or self.conveniences)
        gazetteer = res.gazetteer
        vocab = res.nlu.vocabulary
        if place_exists is None:

            def place_exists(name: str) -> bool:
                try:
                    return bool(gazetteer.lookup(name))
                except Exception:
                    return False

        if title_exists is None:

            def title_exists(name: str) -> bool:
                try:
                    return bool(vocab.titles_for(name))
                except Exception:
                    return False

        if titles is None:

            def titles() -> Iterable[str]:
                return [*vocab.title_counts, *vocab.brands()]

        if is_common is None:
            is_common = vocab.is_menu
        self._place_exists = place_exists
        self._title_exists = title_exists
        if titles is not None and not callable(titles):
            fixed = list(titles)
            self._titles = lambda: fixed
        else:
            self._titles = titles
        self._is_common = is_common
        self._names = None
        return self

    def names(self) -> NameIndex | None:
        """All known restaurant names (built once, on first use)."""
        if self._names is None and self._titles is not None:
            with self._names_lock:
                if self._names is None:
                    self._names = NameIndex(NameIndex.derived(self._titles()), is_common=self._is_common)
        return self._names

    # --- bookkeeping ----------------------------------------------------------------------

    def drain(self, state: Mapping[str, Any]) -> dict[str, Any]:
        """Calls and notes of this turn not yet in the trace: ``{"calls": [...], "notes": [...]}``."""
        return self.ledgers.drain(state)

    def records(self, state: Mapping[str, Any]) -> list[CallRecord]:
        """Every LLM call of the turn ``state`` belongs to."""
        return self.ledgers.records(state)

    def _call_json(self, led: TurnLedger, stage: str, messages: Sequence[Message], schema: type[T]) -> T:
        led.reserve(stage, keep=1 if self.generates else 0)
        try:
            value, record = self.client.complete_json(messages, schema, stage=stage)
        except Exception as exc:
            led.add(
                record_of(exc)
                or CallRecord(
                    stage=stage,
                    provider=self.client.provider,
                    model=self.client.model,
                    ok=False,
                    error=error_text(exc),
                )
            )
            raise
        led.add(record)
        return value

    @staticmethod
    def _fallback(led: TurnLedger, stage: str, exc: BaseException, what: str) -> None:
        kind = "budget" if isinstance(exc, BudgetExceeded) else type(exc).__name__
        led.note(f"{stage}: {what} ({kind}: {error_text(exc)})")

    # --- helpers ----------------------------------------------------------------------------

    @staticmethod
    def _summary(doc: Restaurant) -> str:
        try:
            from matjip.ingest.summary import build_summary

            return doc.summary.strip() or build_summary(doc)
        except ImportError:  # pragma: no cover - the summary module is part of ingest
            return doc.summary.strip() or f"식당 이름: {doc.title}"

    def _context_block(self, doc: Restaurant, n: int) -> str:
        try:
            from matjip.ingest.summary import build_context_block

            return build_context_block(doc, n, description_chars=DESCRIPTION_CHARS)
        except ImportError:  # pragma: no cover
            return f"문서{n}:\n{self._summary(doc)}"

    def _context_titles(self, context: Sequence[Mapping[str, Any]]) -> list[str]:
        out: list[str] = []
        if self._index is None:
            return out
        for h in context[:MAX_CONTEXT_DOCS]:
            doc = self._index.get(h["id"])
            if doc is not None:
                out.append(doc.title)
        return out

    @staticmethod
    def _history(state: Mapping[str, Any]) -> list[dict[str, str]]:
        msgs = [m for m in state.get("messages") or [] if isinstance(m, Mapping)]
        if msgs and msgs[-1].get("role") == "user":
            msgs = msgs[:-1]  # the current message is the query itself
        out = []
        for m in msgs[-HISTORY_MESSAGES:]:
            content = " ".join(str(m.get("content", "")).split())
            out.append({"role": str(m.get("role", "user")), "content": content[:MAX_QUERY_CHARS]})
        return out

    @staticmethod
    def _now(state: Mapping[str, Any]) -> datetime | None:
        raw = state.get("now")
        if not raw:
            return None
        try:
            return datetime.fromisoformat(str(raw))
        except ValueError:
            return None
