"""Implementations of CLI commands (rendering with rich); ``matjip.cli`` only parses options."""
