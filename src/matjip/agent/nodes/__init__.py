"""Graph nodes: ordinary functions ``(state, resources) -> partial state``, testable alone."""
