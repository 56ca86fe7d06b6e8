"""Exception hierarchy of laocheck.

Errors inherit from both :class:`LaocheckError` and the matching builtin, in the manner of
hypothesis' ``InvalidArgument(HypothesisException, TypeError)``, so that callers may catch
either ``laocheck.exceptions.InvalidParameterError`` or a plain ``ValueError``.
"""

__all__ = ["LaocheckError", "InvalidParameterError", "AssumptionWarning"]


class LaocheckError(Exception):
    """Base class of every error raised deliberately by laocheck."""


class InvalidParameterError(LaocheckError, ValueError):
    """A parameter breaks the assumption stated in the message (name, value, rule)."""


class AssumptionWarning(UserWarning):
    """An input breaks a paper's assumption (e.g. a norm bound) but the computation is defined."""
