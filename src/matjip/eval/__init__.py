"""Development evaluation sets and their runners (``matjip eval search|agent``)."""
