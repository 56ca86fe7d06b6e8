"""The displayed steps of KS15 proofs, one check each (``KS15.<Label>.proof.step<N>``)."""

from __future__ import annotations

__all__ = []
