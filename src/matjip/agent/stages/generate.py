"""The generation stage: a streamed, grounding-checked answer; the template answer is the fallback."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from matjip.agent.models import WebSource
from matjip.agent.stages.core import MAX_CONTEXT_DOCS, PROMPTS, GenerationStream, StageCore
from matjip.agent.stages.grounding import Grounder, StreamGuard
from matjip.errors import BudgetExceeded, Ungrounded, ValidationFailure
from matjip.providers.base import Message, error_text, record_of


def web_blocks(sources: Sequence[object], start: int = 1) -> list[str]:
    """The web documents of the answer prompt: ``문서N:\n문서 제목: …\n문서 내용: …`` (the same shape as
    the restaurant documents)."""
    blocks = []
    for i, s in enumerate(sources, start=start):
        src = s if isinstance(s, WebSource) else WebSource.model_validate(s, from_attributes=True)
        blocks.append(f"문서{i}:\n문서 제목: {src.title}\n문서 내용: {src.content}")
    return blocks


def format_web_context(sources: Sequence[object], start: int = 1) -> str:
    """:func:`web_blocks` two blank lines apart."""
    return "\n\n\n".join(web_blocks(sources, start))


class GenerateStage(StageCore):
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
        if web:
            blocks += web_blocks(web, start=len(blocks) + 1)
        context = "\n\n\n".join(blocks)  # what the answer is checked against
        if not context.strip():
            return None
        query = str(state.get("query", ""))
        msgs = PROMPTS.messages(  # each document is quoted as data (providers.prompts.as_data)
            "generate",
            query=query,
            documents=blocks,
            draft=template_text.strip(),
            history=self._history(state),
            has_web=bool(web),
        )
        grounder = Grounder([context, template_text, query], names=self.names(), context_titles=titles)
        return msgs, grounder
