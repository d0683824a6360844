"""matjip: a Korean restaurant search and Q&A agent.

The public API is small on purpose::

    from matjip import Settings, MatjipError
"""

# matjip.settings limits numpy's BLAS threads; imported first, before anything imports numpy
from matjip.settings import Settings, get_settings  # isort: skip
from matjip.errors import MatjipError

__all__ = ["MatjipError", "Settings", "__version__", "get_settings"]
__version__ = "0.1.0"
