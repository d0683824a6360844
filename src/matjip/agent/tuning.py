"""The agent's tuning values: list sizes, sufficiency thresholds, relaxation and widening limits.

Its own module (read by :mod:`matjip.agent.grader` and every node through ``Resources.config``) so
that the grader does not import the resources, which name the LLM stages, which use the grader.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from matjip.agent.answer import CHUNK_CHARS
from matjip.nlu.normalize import MAX_QUERY_CHARS

if TYPE_CHECKING:
    from matjip.settings import Settings


@dataclass(frozen=True)
class AgentConfig:
    default_k: int = 3
    information_k: int = 5
    compare_k: int = 2
    top1_threshold: float = 0.65
    mean_threshold: float = 0.60
    high_threshold: float = 0.75
    any_high_threshold: float = 0.70
    max_relax_steps: int = 4
    widen_factor: float = 3.0
    widen_cap_m: int = 3000  # a "near" search never widens past this
    # a short list in a dong ("연남동 새벽까지 하는 술집": 1 within 1 km) is filled from a circle this much
    # wider, said so — the dong's neighbours, not the next district (audit r15 class 6)
    dong_widen_factor: float = 1.5
    where_min_results: int = 15  # a kind with more restaurants than this, asked with no place: ask where
    party_note_min: int = 4  # a party this large ("4명인데") is told that seats are not in the data
    max_query_chars: int = MAX_QUERY_CHARS
    chunk_chars: int = CHUNK_CHARS
    max_history_turns: int = 20  # turns of ``messages`` a session keeps (settings.session_max_turns)

    @classmethod
    def from_settings(cls, s: Settings) -> AgentConfig:
        return cls(
            max_history_turns=s.session_max_turns,
            default_k=s.default_k,
            top1_threshold=s.sufficiency_top1,
            mean_threshold=s.sufficiency_mean,
            high_threshold=s.sufficiency_high,
        )
