"""The HTTP API and the web page (``matjip serve``)."""

from matjip.api.app import create_app

__all__ = ["create_app"]
