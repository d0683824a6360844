"""The conversational agent (docs/design.md): a graph wired in :mod:`matjip.agent.graph`, run by
LangGraph or, for a one-question process, in sequence.

Public entry point: :class:`matjip.agent.service.Agent`.
"""
