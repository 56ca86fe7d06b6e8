"""Step sizes, constants and rates stated in the running text of CB11, HK12 and KS15."""

from __future__ import annotations

__all__ = []
