"""Offline query understanding (docs/design.md): intent, entities and slots without an LLM."""

from matjip.nlu.models import Entities, NLUResult, PartySpec, PriceSpec, TimeSpec
from matjip.nlu.parser import OfflineNLU
from matjip.nlu.vocabulary import Vocabulary

__all__ = ["Entities", "NLUResult", "OfflineNLU", "PartySpec", "PriceSpec", "TimeSpec", "Vocabulary"]
