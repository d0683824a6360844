"""matjip: a Korean restaurant search and Q&A agent.

The public API is small on purpose::

    from matjip import Settings, MatjipError
"""

from matjip.errors import MatjipError
from matjip.settings import Settings, get_settings

__all__ = ["MatjipError", "Settings", "__version__", "get_settings"]
__version__ = "0.1.0"
