"""Ingest: crawl documents in, enriched restaurant documents out (docs/design.md)."""
