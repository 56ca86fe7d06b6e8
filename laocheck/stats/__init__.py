"""Rigorous Monte Carlo statistics and the exact-enumeration oracle (filled in by the stats issue)."""
