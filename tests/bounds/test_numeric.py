"""laocheck.bounds' numbers without sympy: the generated functions of ``_numeric.py`` against
their sympy source (the expressions of ``_formulas.py``), the file against the generator, and
the learners' start-up (no sympy import when fitting with ``eta="theory"``)."""

import math
import pathlib
import subprocess
import sys

import mpmath
import numpy as np
import pytest
import sympy as sp

from laocheck import bounds
from laocheck.bounds import FORMULAS, SYMBOLS, _generate, _numeric
from laocheck.exceptions import InvalidParameterError

INTEGERS = ("d", "k", "m", "m1", "m2")


def _point(rng, args):
    """Random values of a formula's symbols within its validated domain (k <= d)."""
    vals = {}
    for n in args:
        if n in INTEGERS:
            vals[n] = int(np.exp(rng.uniform(0, np.log(1e6))))
        elif n == "delta":
            vals[n] = float(rng.uniform(1e-6, 1 - 1e-6))
        else:
            vals[n] = float(np.exp(rng.uniform(np.log(1e-3), np.log(1e3))))
    if "k" in vals and "d" in vals and vals["k"] > vals["d"]:
        vals["k"], vals["d"] = vals["d"], vals["k"]
    if "eps" in vals and "p" not in vals:
        vals["eps"] = min(vals["eps"], 0.9)
    return vals


def test_every_formula_has_its_generated_function_and_bookkeeping():
    assert list(_numeric.FUNCTIONS) == list(FORMULAS)
    for fid, f in FORMULAS.items():
        meta = bounds.info(fid)
        assert meta["args"] == f.args
        for name in ("citation", "kind", "description", "literal", "erratum", "proof", "scaling",
                     "note", "assumptions"):
            assert meta[name] == getattr(f, name), (fid, name)


@pytest.mark.parametrize("fid", list(FORMULAS))
def test_generated_function_equals_its_sympy_expression(fid):
    """At 40 random points: the generated function equals the expression evaluated in 50-digit
    arithmetic (mpmath; relative 1e-11: a few dozen roundings at most) and the lambdified
    expression (relative 1e-13; bitwise under the sympy version that generated the file)."""
    f = FORMULAS[fid]
    rng = np.random.default_rng(sum(map(ord, fid)))
    precise = sp.lambdify([SYMBOLS[n] for n in f.args], f.expr, modules="mpmath")
    for _ in range(40):
        vals = _point(rng, f.args)
        got = bounds.evaluate(fid, **vals)
        lamb = f(**vals)
        with mpmath.workdps(50):
            exact = precise(*[mpmath.mpf(vals[n]) for n in f.args])
            exact = float(exact) if mpmath.im(exact) == 0 else math.nan
        if not math.isfinite(exact) or abs(exact) > 1e300:
            assert got == lamb or (math.isnan(got) and math.isnan(lamb))
            continue
        assert got == pytest.approx(exact, rel=1e-11, abs=1e-300), (fid, vals)
        assert got == pytest.approx(lamb, rel=1e-13, abs=1e-300), (fid, vals)
        if sp.__version__ == _numeric.SYMPY_VERSION:
            assert got == lamb, (fid, vals)


def test_generated_file_is_up_to_date():
    """``python -m laocheck.bounds._generate --check`` passes: the committed file is the one the
    generator writes from the current formulas (checked text for text under the sympy version
    that wrote it; under another version the printer may order terms differently, and the
    equality tests above decide)."""
    text = pathlib.Path(_numeric.__file__).read_text(encoding="utf-8")
    if sp.__version__ == _numeric.SYMPY_VERSION:
        assert _generate.source() == text, "run: python -m laocheck.bounds._generate"
    # the generated functions' names and arguments follow the formulas in any case
    for fid, f in FORMULAS.items():
        assert f"def {_generate.function_name(fid)}({', '.join(f.args)}):" in text


def test_check_mode_reports_a_stale_file(tmp_path, monkeypatch):
    stale = tmp_path / "_numeric.py"
    stale.write_text("FUNCTIONS = {}\n", encoding="utf-8")
    monkeypatch.setattr(_generate, "TARGET", stale)
    assert _generate.main(["--check"]) == 1
    assert _generate.main([]) == 0
    assert _generate.main(["--check"]) == 0


@pytest.mark.parametrize("values, word", [
    (dict(d=3, k=4, m=10), "`k`"),
    (dict(d=3, k=1, m=0), "`m`"),
    (dict(d=3.5, k=1, m=10), "`d`"),
    (dict(d=3, k=1), "`m`"),
])
def test_evaluate_refuses_what_the_formula_refuses(values, word):
    with pytest.raises(InvalidParameterError, match=word):
        bounds.evaluate("HK12.Thm3.1.eta", **values)
    with pytest.raises(InvalidParameterError, match=word):
        FORMULAS["HK12.Thm3.1.eta"](**values)


def test_evaluate_unknown_id():
    with pytest.raises(InvalidParameterError, match="`id`"):
        bounds.evaluate("HK12.Thm9.9", d=1)


def test_learners_and_estimators_fit_without_importing_sympy():
    """Every learner with eta="theory" (step sizes from laocheck.bounds) and the estimators
    run in a fresh interpreter that never imports sympy."""
    code = """
import sys
import numpy as np
import laocheck.estimators, laocheck.learners as L
rng = np.random.default_rng(0)
X = rng.uniform(-1, 1, (300, 8)) / np.sqrt(8)
y = X @ np.full(8, 0.1)
mom = np.mean(X * X, axis=0)
for est in (L.AERR(k=2), L.AELR(k=2), L.AELR(k=2, eta="proof"), L.DDAERR(k=2, second_moments=mom),
            L.DDAELR(k=2, second_moments=mom), L.TwoPhaseDDAERR(k=2), L.TwoPhaseDDAELR(k=2),
            L.AER(k=2)):
    est.set_params(random_state=0).fit(X, y)
assert "sympy" not in sys.modules, "sympy was imported"
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
