"""The LLM stages of the agent, each optional and each with an offline twin to fall back to.

=============  ==============================================  ===============================
flag           method (called by the agent node)               falls back to
=============  ==============================================  ===============================
understands    :meth:`LLMStages.understand` (understand node)  the offline NLU result
decides        :meth:`LLMStages.decide` (need_search node)     the offline decision
plans          :meth:`LLMStages.write_plan` (plan node)        the offline plan
grades         :meth:`LLMStages.grade` (evaluate, middle band)  the offline grader
generates      :meth:`LLMStages.generate` /                    the template answer
               :meth:`LLMStages.generate_stream` (generate)
=============  ==============================================  ===============================

Every reply is validated twice: its shape by Pydantic (:mod:`matjip.agent.stages.schemas`), its meaning
here (entities must exist in the gazetteer or the index, graded ids must be the shown ids, plans
go through :func:`matjip.agent.plan.validate_plan`, answers through the grounding check). ANY
failure — timeout, HTTP error, bad JSON, schema violation, out-of-range values, an ungrounded
answer, a spent budget — makes the stage return its "no answer" value, and the reason is kept
as a note. Notes and :class:`~matjip.providers.base.CallRecord` s are collected per turn and handed to
the trace by :meth:`LLMStages.drain`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from matjip.agent.models import DocumentScore, Grade, SearchPlan, WebSource
from matjip.agent.stages.budget import Ledgers, TurnLedger
from matjip.agent.stages.grounding import Grounder, NameIndex, StreamGuard, Ungrounded, compact
from matjip.agent.stages.schemas import GradeOut, NeedSearchOut, NLUOut, PlanOut
from matjip.errors import BudgetExceeded, ValidationFailure
from matjip.providers.base import CallRecord, LLMClient, Message, T, error_text, record_of
from matjip.providers.config import LLMOptions
from matjip.providers.prompts import PromptSet

PROMPTS = PromptSet(Path(__file__).parent / "prompts")

if TYPE_CHECKING:
    from matjip.agent.answer import Shown
    from matjip.documents import Restaurant
    from matjip.nlu.models import NLUResult
    from matjip.providers.tavily import TavilyClient

MAX_ENTITY_ITEMS = 5
MAX_ENTITY_CHARS = 40
MAX_CONTEXT_DOCS = 6
HISTORY_MESSAGES = 4
DESCRIPTION_CHARS = 200

# validate_plan repairs that mean "the model wrote something wrong", worth one retry
_PLAN_REJECTS = (
    "using the default plan",
    "not an object",
    "unknown",
    "not a number",
    "not a list",
    "non-text",
    "is not a time",
    "is not text",
    "compare needs two titles",
    "information without a title",
)


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


def _default_cuisines() -> frozenset[str]:
    try:
        from matjip.ingest.category import CUISINES

        return frozenset(CUISINES)
    except ImportError:  # pragma: no cover
        return frozenset()


def _default_conveniences() -> frozenset[str]:
    try:
        from matjip.nlu import lexicon

        values = getattr(lexicon, "CONVENIENCE_VALUES", None) or tuple(getattr(lexicon, "CONVENIENCE", {}))
        return frozenset(values)
    except ImportError:  # pragma: no cover
        return frozenset()


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


class LLMStages:
    """LLM versions of the agent's stages; flags say which are switched on."""

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
        self.timezone = "Asia/Seoul"
        self.cuisines: frozenset[str] = _default_cuisines()
        self.conveniences: frozenset[str] = _default_conveniences()
        self._index: Any = None
        self._place_exists: Callable[[str], bool] | None = None
        self._title_exists: Callable[[str], bool] | None = None
        self._titles: Callable[[], Iterable[str]] | None = None
        self._is_common: Callable[[str], bool] | None = None
        self._names: NameIndex | None = None
        self._names_lock = threading.Lock()

    # --- wiring ------------------------------------------------------------------------------

    def bind(
        self,
        res: Any,
        *,
        titles: Iterable[str] | Callable[[], Iterable[str]] | None = None,
        title_exists: Callable[[str], bool] | None = None,
        place_exists: Callable[[str], bool] | None = None,
        is_common: Callable[[str], bool] | None = None,
    ) -> LLMStages:
        """Attach the agent's resources: the index (documents, titles), the gazetteer (places),
        the NLU vocabulary (titles, brands, menu words) and the allowed cuisines/conveniences.
        Explicit arguments override what is derived from ``res``. Returns ``self``."""
        self._index = getattr(res, "index", None)
        self.timezone = getattr(res, "timezone", self.timezone) or self.timezone
        self.cuisines = frozenset(getattr(res, "cuisines", None) or self.cuisines)
        self.conveniences = frozenset(getattr(res, "conveniences", None) or self.conveniences)
        gazetteer = getattr(res, "gazetteer", None)
        vocab = getattr(getattr(res, "nlu", None), "vocabulary", None)
        if place_exists is None and gazetteer is not None and hasattr(gazetteer, "lookup"):

            def place_exists(name: str) -> bool:
                try:
                    return bool(gazetteer.lookup(name))
                except Exception:
                    return False

        if title_exists is None and vocab is not None and hasattr(vocab, "titles_for"):

            def title_exists(name: str) -> bool:
                try:
                    return bool(vocab.titles_for(name))
                except Exception:
                    return False

        if titles is None and vocab is not None and hasattr(vocab, "title_counts"):

            def titles() -> Iterable[str]:
                brands = vocab.brands() if hasattr(vocab, "brands") else {}
                return [*vocab.title_counts, *brands]

        if titles is None and self._index is not None and hasattr(self._index, "iter_documents"):
            index = self._index

            def titles() -> Iterable[str]:
                return [d.title for d in index.iter_documents()]

        if is_common is None and vocab is not None and hasattr(vocab, "is_menu"):
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

    # --- NLU (seed 000 §4) -------------------------------------------------------------------

    def understand(self, state: Mapping[str, Any], text: str, offline: NLUResult) -> NLUResult:
        """Seed 000 §4 NLU by the LLM, grounded and merged into the offline result."""
        led = self.ledgers.get(state)
        try:
            msgs = PROMPTS.messages(
                "nlu",
                query=text,
                cuisines=", ".join(sorted(self.cuisines)),
                conveniences="|".join(sorted(self.conveniences)),
            )
            out = self._call_json(led, "nlu", msgs, NLUOut)
            return self._merge_nlu(led, text, offline, out)
        except Exception as exc:
            self._fallback(led, "nlu", exc, "kept the offline NLU")
            return offline

    def _merge_nlu(self, led: TurnLedger, text: str, offline: NLUResult, out: NLUOut) -> NLUResult:
        dropped: list[str] = []
        ents = out.entities

        def keep(kind: str, values: list[str], ok: Callable[[str], bool] | None) -> list[str]:
            kept = []
            for v in _clean_terms(values):
                if ok is None or ok(v):
                    kept.append(v)
                else:
                    dropped.append(f"{kind} {v!r}")
            return kept

        title_ok = self._title_exists
        grounded = {
            "location": keep("location", ents.location, self._place_exists or (lambda v: False)),
            "title": keep("title", ents.title, title_ok or (lambda v: False)),
            "category": keep("category", ents.category, lambda v: v in self.cuisines),
            "convenience": keep("convenience", ents.convenience, lambda v: v in self.conveniences),
            "menu": keep("menu", ents.menu, None),
            "atmosphere": keep("atmosphere", ents.atmosphere, None),
            "occasion": keep("occasion", ents.occasion, None),
        }
        base = offline.entities
        merged = base.model_copy(
            update={k: _union(getattr(base, k), v) for k, v in grounded.items()},
        )
        intent = offline.intent
        if out.intent != offline.intent:
            if out.intent == "compare" and len(merged.title) >= 2:
                intent = "compare"
            elif out.intent == "information" and (merged.title or merged.location):
                intent = "information"
            elif out.intent == "search":
                intent = "search"
            else:
                led.note(f"nlu: intent {out.intent!r} ignored (its entities are missing)")
        added = {k: [v for v in merged.get(k) if v not in base.get(k)] for k in grounded}
        added_text = ", ".join(f"{k}+{v}" for k, vs in added.items() for v in vs)
        led.note(
            f"nlu: LLM merged (intent {intent}"
            + (f"; {added_text}" if added_text else "")
            + (f"; dropped ungrounded {', '.join(dropped)}" if dropped else "")
            + ")"
        )
        return offline.model_copy(
            update={"intent": intent, "entities": merged, "notes": [*offline.notes, "llm"]}
        )

    # --- need-search decision (seed 000 §3.2) --------------------------------------------------

    def decide(self, state: Mapping[str, Any], offline_search: bool) -> dict[str, Any] | None:
        """``{"need_search": bool, "reason": str}``, or ``None`` to keep the offline decision."""
        led = self.ledgers.get(state)
        context = state.get("context") or []
        try:
            msgs = PROMPTS.messages(
                "need_search",
                query=state.get("query", ""),
                searches=[s.get("query", "") for s in (state.get("searches") or [])][-5:],
                context_titles=self._context_titles(context),
                history=self._history(state),
                offline_search=offline_search,
            )
            out = self._call_json(led, "need_search", msgs, NeedSearchOut)
            if not out.need_search and not context:
                raise ValidationFailure("answer-from-context chosen but the conversation has no results yet")
            led.note(
                f"need_search: LLM says {'search' if out.need_search else 'context'} ({out.reason[:80]})"
            )
            return {"need_search": out.need_search, "reason": out.reason[:200]}
        except Exception as exc:
            self._fallback(led, "need_search", exc, "kept the offline decision")
            return None

    # --- plan (seed 004) ------------------------------------------------------------------

    def write_plan(
        self, state: Mapping[str, Any], offline_raw: Mapping[str, Any]
    ) -> tuple[dict[str, Any] | None, list[str]]:
        """A raw plan written by the LLM (the node validates it again), or ``(None, notes)``.

        The server keeps what the model cannot know: the resolved location, the time and the
        per-title k come from ``offline_raw``. The LLM's part is checked with
        :func:`~matjip.agent.plan.validate_plan`; a reply that is not JSON, violates the schema or
        needs repairs beyond clamping is sent back once with the errors, then dropped.
        """
        from matjip.agent.plan import validate_plan

        led = self.ledgers.get(state)
        notes: list[str] = []
        query = str(state.get("query", ""))
        server_fields = {
            "location": offline_raw.get("location"),
            "open_at": offline_raw.get("open_at"),
            "open_label": offline_raw.get("open_label"),
            "per_title_k": offline_raw.get("per_title_k"),
        }
        default_view = {k: v for k, v in offline_raw.items() if k in PlanOut.model_fields}
        kw = {
            "cuisines": self.cuisines or None,
            "conveniences": self.conveniences or None,
            "fallback_text": query,
        }
        _, offline_repairs = validate_plan(dict(offline_raw), **kw)  # type: ignore[arg-type]
        msgs: list[Message] = PROMPTS.messages(
            "plan",
            query=query,
            now=state.get("now") or "",
            timezone=self.timezone,
            cuisines=", ".join(sorted(self.cuisines)),
            conveniences=", ".join(sorted(self.conveniences)),
            default_k=offline_raw.get("k", 3),
            schema=json.dumps(PlanOut.model_json_schema().get("properties", {}), ensure_ascii=False),
            default_plan=json.dumps(default_view, ensure_ascii=False, default=str),
        )
        for attempt in (1, 2):
            try:
                out = self._call_json(led, "plan", msgs, PlanOut)
            except ValidationFailure as exc:
                if attempt == 1:
                    msgs = self._retry_messages(msgs, getattr(exc, "raw", None), [str(exc)])
                    notes.append(f"llm plan rejected ({exc}); retrying once")
                    continue
                notes.append(f"llm plan rejected again ({exc}); using the offline plan")
                break
            except Exception as exc:
                notes.append(f"llm plan unavailable ({error_text(exc)}); using the offline plan")
                break
            raw = {**out.model_dump(), **server_fields}
            dropped = self._ground_titles(raw, query)
            _, repairs = validate_plan(raw, **kw)  # type: ignore[arg-type]
            rejects = [r for r in repairs if r not in offline_repairs and any(p in r for p in _PLAN_REJECTS)]
            if not rejects:
                notes.append(
                    "plan written by the LLM" + (f" (dropped unknown titles {dropped})" if dropped else "")
                )
                led.note(notes[-1])
                return raw, notes
            if attempt == 1:
                notes.append(f"llm plan needs fixing ({'; '.join(rejects)}); retrying once")
                msgs = self._retry_messages(msgs, out.model_dump_json(), rejects)
                continue
            notes.append(f"llm plan still invalid ({'; '.join(rejects)}); using the offline plan")
        for n in notes:
            led.note(n)
        return None, notes

    @staticmethod
    def _retry_messages(msgs: list[Message], raw: str | None, errors: list[str]) -> list[Message]:
        feedback: Message = {
            "role": "user",
            "content": PROMPTS.render("plan_retry.user.jinja2", errors=errors),
        }
        reply: list[Message] = [{"role": "assistant", "content": raw[:2000]}] if raw else []
        return [*msgs, *reply, feedback]

    def _ground_titles(self, raw: dict[str, Any], query: str) -> list[str]:
        """Drop titles that are neither in the index nor written in the question."""
        titles = raw.get("titles") or []
        if not isinstance(titles, list):
            return []
        q = compact(query)
        kept: list[Any] = []
        dropped: list[Any] = []
        for t in titles:
            ok = isinstance(t, str) and (
                compact(t) in q or (self._title_exists is not None and self._title_exists(t))
            )
            (kept if ok else dropped).append(t)
        raw["titles"] = kept
        return [str(d) for d in dropped]

    # --- relevance grading (seed 000 §8, seed 001 middle band) ---------------------------

    def grade(self, state: Mapping[str, Any], shown: Sequence[Shown], plan: SearchPlan) -> Grade | None:
        """One batched LLM grade of all shown documents, or ``None`` for the offline grader.

        The LLM's verdicts never override a hard constraint: a document the offline grader finds
        outside the radius, of the wrong cuisine, without a required convenience … stays
        irrelevant. The LLM grades once per turn; the searches of later relaxation steps are
        graded offline (so a middle-band turn costs at most one grading call).
        """
        from matjip.agent.grader import offline_grade

        led = self.ledgers.get(state)
        if not shown:
            return None
        if led.count("grade"):
            led.note("grade: the LLM grades once per turn; the offline grader checks relaxed searches")
            return None
        try:
            docs = [{"id": s.doc.place_id, "text": self._grade_text(s)} for s in shown]
            msgs = PROMPTS.messages(
                "grade", query=state.get("query", ""), conditions=self._conditions(plan), documents=docs
            )
            out = self._call_json(led, "grade", msgs, GradeOut)
            ids = [s.doc.place_id for s in shown]
            alias = {str(i): pid for i, pid in enumerate(ids, start=1)}
            alias.update({f"문서{i}": pid for i, pid in enumerate(ids, start=1)})
            verdicts: dict[str, tuple[str, str]] = {}
            for ds in out.document_scores:
                pid = ds.document_id.strip()
                pid = pid if pid in ids else alias.get(pid, "")
                if not pid:
                    raise ValidationFailure(
                        f"document_id {ds.document_id!r} is not one of the shown documents"
                    )
                verdicts.setdefault(pid, (ds.relevance, ds.reason))
            offline = {d.document_id: d for d in offline_grade(shown, plan).document_scores}
            scores: list[DocumentScore] = []
            missing = []
            for pid in ids:
                hard = offline[pid]
                if pid not in verdicts:
                    missing.append(pid)
                    scores.append(
                        hard.model_copy(update={"reason": "LLM 평가 누락, 오프라인 판단: " + hard.reason})
                    )
                elif hard.relevance == "irrelevant":
                    scores.append(hard.model_copy(update={"reason": f"조건 위반: {hard.reason}"}))
                else:
                    rel, why = verdicts[pid]
                    scores.append(DocumentScore(document_id=pid, relevance=rel, reason=why[:300]))  # type: ignore[arg-type]
            relevant = sum(1 for d in scores if d.relevance == "relevant")
            overall = "relevant" if out.overall_relevance == "relevant" and relevant else "irrelevant"
            if overall == "irrelevant":
                scores = [d.model_copy(update={"relevance": "irrelevant"}) for d in scores]
            led.note(
                f"grade: LLM graded {len(verdicts)}/{len(ids)} documents, {relevant} relevant"
                + (f" ({len(missing)} not graded)" if missing else "")
            )
            return Grade(
                overall_relevance=overall,
                reason=f"LLM: {out.reason[:300]}",
                document_scores=scores,
                tier="grader",
            )
        except Exception as exc:
            self._fallback(led, "grade", exc, "used the offline grader")
            return None

    @staticmethod
    def _conditions(plan: SearchPlan) -> list[str]:
        out: list[str] = []
        loc = plan.location
        if loc is not None:
            if loc.mode == "near" and loc.radius_m:
                out.append(f"지역: {loc.name} 반경 {loc.radius_m}m 이내")
            else:
                out.append(f"지역: {loc.name} 안")
        if plan.titles:
            out.append(f"식당명: {', '.join(plan.titles)}")
        if plan.cuisine:
            out.append(f"음식 종류: {', '.join(plan.cuisine)}")
        if plan.menu:
            out.append(f"메뉴: {', '.join(plan.menu)}")
        if plan.convenience:
            out.append(f"편의: {', '.join(plan.convenience)}")
        wishes = [*plan.atmosphere, *plan.occasion]
        if wishes:
            out.append(f"분위기·상황: {', '.join(wishes)}")
        if plan.price_min is not None or plan.price_max is not None:
            lo = f"{plan.price_min:,}원" if plan.price_min is not None else ""
            hi = f"{plan.price_max:,}원" if plan.price_max is not None else ""
            out.append(f"가격: {lo}~{hi}")
        if plan.open_label:
            out.append(f"영업: {plan.open_label}")
        return out

    def _grade_text(self, s: Shown) -> str:
        from matjip.agent.answer import distance_text

        text = self._summary(s.doc)
        dist = distance_text(s.distance_m)
        if dist:
            text += f"\n거리: {dist}"
        return text

    # --- generation (seed 000 §9) -----------------------------------------------------------

    def generate(self, state: Mapping[str, Any], template_text: str) -> str | None:
        """The grounded LLM answer (not streamed), or ``None`` for the template answer."""
        stream = self.generate_stream(state, template_text)
        for _ in stream:
            pass
        return stream.text

    def generate_stream(self, state: Mapping[str, Any], template_text: str) -> GenerationStream:
        """Stream the answer through the grounding check (see :class:`GenerationStream`)."""
        return GenerationStream(lambda gs: self._generate_events(gs, state, template_text))

    def _generate_events(
        self, gs: GenerationStream, state: Mapping[str, Any], template_text: str
    ) -> Iterator[tuple[str, str]]:
        led = self.ledgers.get(state)
        prepared = self._generation_prompt(state, template_text)
        if prepared is None:
            gs.reason = (
                "no documents to ground an answer on"
                if self._index is not None or state.get("web_sources")
                else "the stages are not bound to the agent's resources (call LLMStages.bind)"
            )
            led.note(f"generate: template answer ({gs.reason})")
            return
        msgs, grounder = prepared
        try:
            led.reserve("generate")
        except BudgetExceeded as exc:
            gs.reason = f"budget: {exc}"
            led.note(f"generate: template answer ({gs.reason})")
            return
        guard = StreamGuard(grounder)
        sent = False
        failure: BaseException | None = None
        stream = None
        try:
            stream = self.client.stream_text(msgs, stage="generate")
            for delta in stream:
                for piece in guard.feed(delta):
                    sent = True
                    yield ("delta", piece)
            for piece in guard.finish():
                sent = True
                yield ("delta", piece)
            if not guard.text.strip():
                raise ValidationFailure("empty answer")
        except Ungrounded as exc:
            failure = exc
        except Exception as exc:
            failure = exc
        finally:
            if stream is not None:
                stream.close()
                if stream.record is not None:
                    led.add(stream.record)
            elif failure is not None:
                rec = record_of(failure)
                if rec is not None:
                    led.add(rec)
        if failure is None:
            gs.text = guard.text.strip()
            return
        if isinstance(failure, Ungrounded):
            gs.reason = f"ungrounded answer: {failure}"
        else:
            gs.reason = f"{type(failure).__name__}: {error_text(failure)}"
        led.note(f"generate: template answer ({gs.reason})")
        if sent:
            yield ("reset", gs.reason)

    def _generation_prompt(
        self, state: Mapping[str, Any], template_text: str
    ) -> tuple[list[Message], Grounder] | None:
        from matjip.agent.answer import distance_text, hours_today

        decision = state.get("decision", "search")
        hits = (state.get("hits") if decision == "search" else state.get("context")) or []
        now = self._now(state)
        blocks: list[str] = []
        titles: list[str] = []
        if self._index is not None:
            for h in hits[:MAX_CONTEXT_DOCS]:
                doc = self._index.get(h["id"])
                if doc is None:
                    continue
                n = len(blocks) + 1
                block = self._context_block(doc, n)
                extra = []
                dist = distance_text(h.get("distance_m"))
                if dist:
                    origin = h.get("origin")
                    extra.append(f"거리: {origin + '에서 ' if origin else ''}{dist}")
                if now is not None:
                    today = hours_today(doc, now)
                    if today:
                        extra.append(f"오늘 영업시간: {today}")
                if doc.rating is not None:
                    extra.append(f"평점: {doc.rating}")
                if doc.review_count:
                    extra.append(f"리뷰 수: {doc.review_count}건")
                if doc.telephone:
                    extra.append(f"전화: {doc.telephone}")
                blocks.append("\n".join([block, *extra]))
                titles.append(doc.title)
        web = list(state.get("web_sources") or []) if decision == "search" else []
        context = "\n\n\n".join(blocks)
        if web:
            web_text = format_web_context(web, start=len(blocks) + 1)
            context = f"{context}\n\n\n{web_text}" if context else web_text
        if not context.strip():
            return None
        query = str(state.get("query", ""))
        msgs = PROMPTS.messages(
            "generate",
            query=query,
            context=context,
            draft=template_text.strip(),
            history=self._history(state),
            has_web=bool(web),
        )
        grounder = Grounder([context, template_text, query], names=self.names(), context_titles=titles)
        return msgs, grounder

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
            out.append({"role": str(m.get("role", "user")), "content": content[:500]})
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


def format_web_context(sources: Sequence[object], start: int = 1) -> str:
    """The web documents of the answer prompt: ``문서N:\n문서 제목: …\n문서 내용: …`` blocks, two blank
    lines apart (the same shape as the restaurant documents)."""
    blocks = []
    for i, s in enumerate(sources, start=start):
        src = s if isinstance(s, WebSource) else WebSource.model_validate(s, from_attributes=True)
        blocks.append(f"문서{i}:\n문서 제목: {src.title}\n문서 내용: {src.content}")
    return "\n\n\n".join(blocks)


def build_stages(settings: Any, *, client: LLMClient | None = None) -> LLMStages:
    """The configured stages (``settings.llm_provider`` must not be ``none``).

    Call :meth:`LLMStages.bind` with the agent's resources once they exist.
    """
    from matjip.agent.stages.fakes import default_reply
    from matjip.providers.client import make_client

    options = LLMOptions.from_settings(settings)
    return LLMStages(client or make_client(options, fake_replies=default_reply), options)


def build_web(settings: Any) -> TavilyClient | None:
    """The Tavily client when a key is configured (settings or ``TAVILY_API_KEY``), else ``None``."""
    from matjip.providers.tavily import TavilyClient

    return TavilyClient.from_settings(settings)
