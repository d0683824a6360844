"""Fakes of remote services that speak the real wire protocols (OpenAI chat completions,
Gemini REST, Tavily search), as an ``httpx.MockTransport`` script or a local HTTP server."""
