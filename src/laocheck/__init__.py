"""laocheck: theory verification and property testing for learning with limited attribute observation.

Linear regression where the learner sees only a few of the d attributes of each example
(Cesa-Bianchi, Shalev-Shwartz and Shamir 2011; Hazan and Koren 2012; Kukliansky and Shamir 2015).
"""

from ._version import __version__
from .exceptions import AssumptionWarning, InvalidParameterError, LaocheckError

__all__ = ["__version__", "AssumptionWarning", "InvalidParameterError", "LaocheckError"]
