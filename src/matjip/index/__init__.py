"""Search core: the backend-neutral request, the embedded hybrid index, embeddings."""
