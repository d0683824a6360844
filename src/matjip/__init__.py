"""matjip: a Korean restaurant search and Q&A agent.

The public API is small on purpose::

    from matjip import Settings, MatjipError
"""

import os

# numpy's multithreaded BLAS is pathologically slow on small machines for the small matrices
# matjip uses (measured: 256x256 eigh 1 s -> 0.017 s); set before numpy is first imported
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from matjip.errors import MatjipError
from matjip.settings import Settings, get_settings

__all__ = ["MatjipError", "Settings", "__version__", "get_settings"]
__version__ = "0.1.0"
