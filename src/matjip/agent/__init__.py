"""The conversational agent (docs/design.md): a LangGraph graph wired in :mod:`matjip.agent.graph`.

Public entry point: :class:`matjip.agent.service.Agent`.
"""
