"""The conversational agent (seed 000 §3–§9): a LangGraph graph wired in :mod:`matjip.agent.graph`.

Public entry point: :class:`matjip.agent.service.Agent`.
"""
