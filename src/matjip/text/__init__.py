"""Korean text analysis shared by ingest, index and NLU."""
