"""The displayed steps of CB11 proofs, one check each (``CB11.<Label>.proof.step<N>``)."""

from __future__ import annotations

__all__ = []
