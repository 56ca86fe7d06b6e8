"""Progress as plain lines, for long runs whose output goes to a log.

One line when the work starts, then at most one every :data:`EVERY` seconds, and one when the
last item is done: ``DESCRIPTION: DONE/TOTAL (PCT%), elapsed H:MM:SS, eta H:MM:SS[, STATE]``.
Shared by the command line (``laocheck verify`` and ``laocheck report`` when stderr is not a
terminal) and the papers' experiments (:mod:`laocheck.experiments.papers`, whose runs report
through a callback). Written here rather than with rich because the lines go through any
``write`` callable, never redrawn, and are rate-limited by time, not by count.
"""

from __future__ import annotations

import time

__all__ = ["EVERY", "clock", "ProgressLines"]

#: seconds between two progress lines (the first and the last are always written)
EVERY = 60.0


def clock(seconds):
    """``H:MM:SS`` of a number of seconds (rounded)."""
    seconds = int(round(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class ProgressLines:
    """Progress of ``total`` items as lines passed to ``write(text)``: one now, then after an
    :meth:`advance` at most every ``every`` seconds (``every=0``: after each), and after the
    last item. ``unit`` follows the counts (e.g. ``" runs"``)."""

    def __init__(self, description, total, write, *, every=EVERY, unit=""):
        self.description, self.total, self.done = description, total, 0
        self.write, self.every, self.unit = write, every, unit
        self.start = self.last = time.monotonic()
        self._line("")

    def _line(self, state):
        elapsed = time.monotonic() - self.start
        text = f"{self.description}: {self.done}/{self.total}{self.unit}"
        if self.total:
            text += f" ({100 * self.done / self.total:.0f}%)"
        text += f", elapsed {clock(elapsed)}"
        if 0 < self.done < self.total:
            text += f", eta {clock(elapsed / self.done * (self.total - self.done))}"
        if state:
            text += f", {state}"
        self.write(text)

    def advance(self, state=""):
        """One more item done; ``state`` (optional) is appended to the line."""
        self.done += 1
        now = time.monotonic()
        if self.done >= self.total or now - self.last >= self.every:
            self.last = now
            self._line(state)
