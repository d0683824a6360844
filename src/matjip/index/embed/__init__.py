"""Embedders: turn texts into unit vectors. See :mod:`matjip.index.embed.base`."""

from matjip.index.embed.base import Embedder
from matjip.index.embed.registry import get_embedder

__all__ = ["Embedder", "get_embedder"]
