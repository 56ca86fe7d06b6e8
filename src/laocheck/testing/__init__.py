"""The user-facing testing API: exact instances (and, later, checks, plugin and strategies)."""
from . import instances

__all__ = ["instances"]
