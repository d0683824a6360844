"""The grading stage: the LLM judges relevance in the middle band; the offline grader is the fallback."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from matjip.agent.models import DocumentScore, Grade, SearchPlan, Shown
from matjip.agent.stages.core import PROMPTS, StageCore
from matjip.agent.stages.schemas import GradeOut
from matjip.errors import ValidationFailure


class GradeStage(StageCore):
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
            if loc.by_radius and loc.radius_m:
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
