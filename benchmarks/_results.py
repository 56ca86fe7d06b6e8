"""The ``--json PATH`` output the benchmarks share: ``{"meta": {...}, "rows": [...]}``.

``meta`` says where and when the numbers were measured (date, laocheck's version and commit,
the machine, its load average), so that the documentation's benchmark tables, generated from
the JSON files committed in ``benchmarks/results/``, carry them."""
import datetime
import json
import os
import platform
import sys

import numpy as np

from laocheck import __version__
from laocheck._provenance import git_commit


def meta(**extra):
    """The provenance of a benchmark run, JSON-ready; ``extra`` items are added as they are."""
    out = {
        "benchmark": os.path.basename(sys.argv[0]),
        "command": " ".join(["python", *sys.argv]),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "laocheck": __version__,
        "commit": git_commit(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "load_average_at_end": round(os.getloadavg()[0], 2),
    }
    out.update(extra)
    return out


def write(path, rows, **extra):
    """Write ``{"meta": meta(**extra), "rows": rows}`` to ``path`` (nothing when path is None)."""
    if path is None:
        return
    with open(path, "w", encoding="utf-8") as fh:
        json.dump({"meta": meta(**extra), "rows": rows}, fh, indent=2)
        fh.write("\n")
