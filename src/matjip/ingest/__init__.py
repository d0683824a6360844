"""Ingest: crawl documents in, enriched restaurant documents out (seed 000 §2, §5)."""
