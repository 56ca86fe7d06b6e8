"""The estimator families' specs against what they declare: the checks a user runs on a spec's
own fields, beside the property checks of :mod:`laocheck.checks.estimator_properties` (which
take the spec's claims at the catalog's parameters as given).

For every registered :class:`~laocheck.estimators.EstimatorSpec` of
:mod:`laocheck.estimators._families`:

* ``<spec>.example_params``: ``laocheck.estimators.example_params`` gives what its docstring
  says (q_i ∝ i, E[x_i²] ∝ i², η = 1/(2B), k as asked, CB11's k rounded down to an even k >= 2,
  AESVR's ε = 1/2 and δ = 1/10, GenEst's f′(z) = 1 + z/2 − z²/8 + z³/16, B as asked), and the
  estimator builds with them and gives them back as its ``params``, at every dimension of the
  exact instances, every k of the spec's ``exact_k`` and B ∈ {1/2, 1, 2};
* ``<spec>.declared_budget``: the estimator's ``budget`` attribute is the spec's budget
  formula at the same parameters (two transcriptions of the paper's budget: HK12 Alg. 1-2,
  KS15 Alg. 1/3, CB11 Figs. 1-2, HK12 Lemma 4.1 and Thm 4.4);
* ``<spec>.exact_k``: the spec's ``exact_k``, ``k_max`` and ``check_k`` say what
  ``EstimatorSpec`` documents: ``(0,)`` exactly when the estimator takes no k; each exact k is
  the k the estimator is built with (not rounded to another); the estimator accepts every k of
  ``k_values(d)`` on an exact instance of dimension d and refuses k_max(d) + 2; the exact
  instances of the tests (d3, d4) reach the boundary k = d; for HK12 and KS15 (k <= d) the
  catalog's k puts the boundary instance ``kd_edge`` (d = 2) on k = d (issue 47 item 5);
* ``<spec>.target_method``: the estimator's ``target(w, x, y)`` is the spec's target (written
  from the paper) on every exact instance it accepts, at its example parameters (AESVR: also
  at both ends δ = 0 and δ = B of HK12 Sec. 4's 0 <= δ <= B, where a refusal of an instance
  the example parameters accept is a failure; issue 47 item 5);
* ``<spec>.magnitude_bounds``: the finite-range bounds of the estimator (the protocol's
  ``_magnitude``, "Finite range" in :mod:`laocheck.estimators._protocol`) are numbers >= 0 (a
  product with a zero factor is 0, never NaN) and the largest bounds the target and (finite
  support, clipped or not) every draw, on every exact instance it accepts (256 draws each: a bound
  below a draw is a certain violation, so the check cannot fail falsely; it detects a bound
  that is too small only where a draw shows it); AESVR also at δ = 0 and δ = B, as above;
* ``KS15.GA*.<part>.q_support`` (the estimates that take q): a q with q_i = 0 where x_i ≠ 0
  is refused naming `q` (KS15 Alg. 1/3: x̃ = x_i/(k q_i) is unbiased only on q's support),
  and a point mass q = e_j on an x supported on j is accepted (x̃ = x, exactly);
* ``KS15.DDAE*.<part>.q_zero``, ``KS15.ImprovedInnerProduct.gradient.q_zero`` (the estimates
  whose q comes from E[x²]): E[x_j²] = 0 puts q_j on 0, the end of KS15 Lemmas 3.2/4.2's
  q_i >= 0 (issue 47 item 5): accepted where x_j = 0, its kernel's 256 draws finite, the exact
  mean (the literal reference enumerated) the target for an unbiased estimate, and refused
  where x_j ≠ 0;
* ``KS15.<Algo>.<part>.k_equals_d`` (the KS15 estimates that draw x̃ from a q of length d,
  whose catalog estimator, built for d = 4, refuses the d = 2 boundary instance kd_edge): the
  property checks the spec selects (exact unbiasedness, budget, second moment, clipping,
  scaling, and the kernel against the reference's exact law at δ) on kd_edge at k = d = 2;
* ``KS15.ImprovedInnerProduct.gradient.q_array``: q given as an array (KS15 Sec. 5: any q
  for x̃) is the estimator's q; eq. (4)'s q as an array equals q='ridge''s;
* ``KS15.ImprovedInnerProduct.residual.moment_support``: E[x_j²] = 0 is accepted where
  x_j = 0 and refused where w_j·x_j ≠ 0 (p_j = 0 would bias φ̃), the refusal naming
  `second_moments` and w_j·x_j (the gradient refuses such an x first for its x̃: q_j = 0);
* ``HK12.GenEst.derivative.finite_range_edge``, ``HK12.AESVR.<part>.finite_range_edge``:
  instances whose every formed number stays below 0.6·MAX_MAGNITUDE (GenEst with w = 0 and
  huge x, which it never reads; AESVR with 1/ε = 0.6·MAX, and at d = 1 with x = 0.6·MAX) are
  accepted: the finite-range guard is not looser than the numbers it bounds;
* ``<spec>.finite_range_refusal`` (CB11 Baseline, GenEst, AESVR): an instance whose kernel
  would form a number beyond MAX_MAGNITUDE (2y·v; a factor (‖w‖²/w_j)·x_j, also at
  max|w| = 2^-200; AESVR's factor on (x/ε, (y ± δ)/ε)) is refused up front, its target finite;
* ``HK12.AESVR.<part>.target_derivative``: the AESVR spec's target is f_ε′ (times x for the
  gradient), f_ε′ derived with sympy from HK12 Sec. 4.2's f_ε(z) = (ε/2)[ρ((z−δ)/ε) +
  ρ((z+δ)/ε)] − δ with ρ(x) = x·erf(x) + e^(−x²)/√π, not from Claim 4.3's erf (the property
  checks do not check unbiasedness of an unbounded estimate against its target), at the
  example δ = 1/10 and at δ = 0 and δ = B.

Every comparison is exact, or up to float rounding (relative 1e-12) where floats are formed;
δ = 0 (``magnitude_bounds`` compares sampled draws with a bound that holds for every draw),
except ``k_equals_d``'s multinomial test of the kernel (δ = ``DEFAULT_DELTA``). The
expected values are typed here from the docstrings and the paper, never read from the spec
being checked.
"""

from __future__ import annotations

import inspect
from fractions import Fraction

import numpy as np

from ... import estimators
from ..._lazy import load
from ...estimators._families import REGISTRATIONS
from ...estimators._protocol import MAX_MAGNITUDE
from ...estimators.instances import INSTANCES, as_float, params_for
from ...exceptions import InvalidParameterError
from .._registry import DEFAULT_DELTA, Result, Status, register
from . import estimator_properties as EP
from .estimator_properties import enumerate_estimate

# start-up: sympy loads on first use, when a check runs; `laocheck list` reads only the
# registrations
sp = load("sympy")

__all__ = ["FAMILY_CHECKS"]

#: the properties each spec gets here (ids ``<spec name>.<property>``)
FAMILY_CHECKS = ("example_params", "declared_budget", "exact_k", "target_method",
                 "magnitude_bounds")
#: draws per instance of ``magnitude_bounds``. Its draws are compared with the bounds for the
#: finite-support estimates only: GenEst's and AESVR's product of a random number of factors
#: is documented as not bounded up front (``_GenEstBase._genest_magnitude``); their bounds are
#: checked against the target and for sign only. A clipped gradient's draws are clip(g̃, 1/η),
#: bounded by its g̃ entry
_MAGNITUDE_DRAWS = 256

#: float rounding of a value computed by another order of operations (a few ulps)
_RTOL = 1e-12
#: the exact instances of the tests (laocheck.estimators.instances.cases) and their dimensions
_TEST_INSTANCES = ("d3", "d4", "w0")
_DIMS = sorted({len(w) for w, _, _ in INSTANCES.values()})
_BS = (0.5, 1.0, 2.0)
#: GenEst's example f′ (registry docstring): 1 + z/2 − z²/8 + z³/16
_GENEST_COEFFICIENTS = [1.0, 0.5, -0.125, 0.0625]


def _spec_of(name):
    """The registered spec ``name`` (a function of this module: the witnesses replace it)."""
    return estimators.spec_of(name)


def _factory(name):
    """The factory ``name`` is registered with (its class, or the class with its algorithm and
    part bound)."""
    return next(factory for n, factory, _ in REGISTRATIONS if n == name)


def _takes_k(name):
    """Whether the estimator's constructor has a parameter k."""
    return "k" in inspect.signature(_factory(name)).parameters


def _close(a, b):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= _RTOL * np.maximum(1, np.abs(b))))


def _verdict(failures, checked, what, detects=1.0 + _RTOL):
    """FAIL with the first failures, else PASS; ``detects``: 1 + the rounding tolerance of a
    comparison of numbers, None for a comparison of declarations (exact_k)."""
    figures = {"checked": checked, "failures": len(failures)}
    if failures:
        return Result(Status.FAIL, figures, counterexample="; ".join(failures[:4]),
                      detects=detects)
    return Result(Status.PASS, figures, note=f"{checked} {what}", detects=detects)


def _grid(spec):
    """(d, k, B) of the exact instances' dimensions, the spec's valid exact k, B ∈ _BS."""
    for d in _DIMS:
        for k in spec.k_values(d):
            for B in _BS:
                yield d, k, B


def _param_sets(spec, d, k):
    """(label, parameters) of the checks that run at the example parameters: the example
    parameters, and where they hold HK12 Sec. 4's insensitivity δ (``delta``; the section
    assumes 0 <= δ <= B throughout), the same at both ends δ = 0 and δ = B (issue 47 item 5:
    the boundaries of a displayed condition)."""
    params = spec.example_params(d, k=k)
    out = [("", params)]
    if "delta" in params and "B" in params:
        out += [(f"δ = {label}: ", {**params, "delta": value})
                for label, value in (("0", 0.0), ("B", float(params["B"])))]
    return out


def _boundary_refused(label, inst, exc):
    """The failure of an instance the example parameters accept and a boundary δ refuses."""
    return f"{label}{inst}: refused at the boundary of 0 <= δ <= B (HK12 Sec. 4): {exc}"


def _accepted_runs(spec, failures, call):
    """``call(estimator, w, x, y)`` (floats) on every exact instance at each parameter set of
    :func:`_param_sets`: yields ``(instance name, (w, x, y) exact, label, params, estimator,
    value)`` for the sets the estimator accepts. An instance whose example parameters are
    refused is skipped; a boundary set refused after they were accepted is a failure (appended
    to ``failures``, :func:`_boundary_refused`)."""
    for inst, (w, x, y) in sorted(INSTANCES.items()):
        wf, xf, yf = as_float((w, x, y))
        accepted = False
        for label, params in _param_sets(spec, len(w), spec.check_k):
            try:
                est = estimators.get(spec.name, **params)
                value = call(est, wf, xf, yf)
            except InvalidParameterError as exc:
                if accepted:                          # the example parameters were accepted
                    failures.append(_boundary_refused(label, inst, exc))
                if not label:
                    break                             # an instance the estimator refuses
                continue
            accepted = True
            yield inst, (w, x, y), label, params, est, value


def _expected_params(spec, d, k, B, params):
    """The documented value of each example parameter present (None: not documented)."""
    i = np.arange(1, d + 1, dtype=float)
    out = {}
    for key in params:
        if key == "k":
            out[key] = 2 * max(1, k // 2) if spec.paper == "CB11" else k
        elif key == "q":
            out[key] = i / i.sum()
        elif key == "second_moments":
            out[key] = i ** 2 / (i ** 2).sum()
        elif key == "eta":
            out[key] = 1 / (2 * B)
        elif key == "B":
            out[key] = B
        elif key == "eps":
            out[key] = 0.5
        elif key == "delta":
            out[key] = 0.1
        elif key == "coefficients":
            out[key] = _GENEST_COEFFICIENTS
    return out


def check_example_params(ctx, *, spec_name):
    """The example parameters of a spec of CB11, HK12 or KS15 (``example_params``) are the
    documented ones and its estimator accepts them."""
    spec = _spec_of(spec_name)
    failures, checked = [], 0
    for d, k, B in _grid(spec):
        params = spec.example_params(d, k=k, B=B)
        expected = _expected_params(spec, d, k, B, params)
        checked += 1
        for key, value in params.items():
            if key not in expected:
                failures.append(f"d={d}, k={k}, B={B}: undocumented parameter {key}={value!r}")
            elif not _close(value, expected[key]):
                failures.append(f"d={d}, k={k}, B={B}: {key}={value!r}, documented "
                                f"{expected[key]!r}")
        if spec.name.startswith(("KS15.DDAE", "KS15.Improved")) and "second_moments" not in params:
            failures.append(f"d={d}: no second_moments (KS15 eq. (4) / Lemma 4.3 need E[x²])")
        try:
            got = estimators.get(spec.name, **params).params
        except (InvalidParameterError, TypeError) as exc:
            failures.append(f"d={d}, k={k}, B={B}: the estimator refuses {params} or cannot "
                            f"give them back: {exc}")
            continue
        if set(got) != set(params) or any(not _close(got[key], params[key]) for key in params):
            failures.append(f"d={d}, k={k}, B={B}: built with {sorted(params)}, its params are "
                            f"{ {key: got[key] for key in sorted(got)} }")
    return _verdict(failures, checked, "parameter sets as documented, each accepted and "
                    "given back by the estimator's params")


def check_declared_budget(ctx, *, spec_name):
    """The estimator's ``budget`` is its spec's budget formula (CB11 Figs. 1-2, HK12 Alg. 1-2,
    Lemma 4.1, Thm 4.4, KS15 Alg. 1/3) at every exact parameter set."""
    spec = _spec_of(spec_name)
    failures, checked = [], 0
    for d, k, B in _grid(spec):
        params = spec.example_params(d, k=k, B=B)
        est = estimators.get(spec.name, **params)
        try:
            claimed = spec.budget.of(params)
        except InvalidParameterError as exc:
            failures.append(f"d={d}, k={k}: the spec's budget {spec.budget.text!r} is not "
                            f"defined at {params}: {exc}")
            continue
        checked += 1
        if est.budget != claimed:
            failures.append(f"d={d}, k={k}: the estimator declares budget {est.budget}, the "
                            f"spec {spec.budget.text} = {claimed}")
    return _verdict(failures, checked, "parameter sets where the estimator's budget is the "
                    "spec's")


def check_exact_k(ctx, *, spec_name):
    """The spec's ``exact_k`` and ``check_k`` as ``EstimatorSpec`` documents them, the exact
    instances reaching k = d (HK12, KS15: k <= d; CB11: k attributes of d)."""
    spec = _spec_of(spec_name)
    failures = []
    takes_k = _takes_k(spec.name)
    if (tuple(spec.exact_k) == (0,)) == takes_k:
        failures.append(f"exact_k={spec.exact_k} but the estimator "
                        f"{'takes' if takes_k else 'takes no'} k ((0,) means: no k)")
    with_k = takes_k and "k" in spec.example_params(4, k=spec.check_k)
    if with_k:
        for k in spec.exact_k:
            d = next((d for d in _DIMS if k in spec.k_values(d)), None)
            built = None if d is None else spec.example_params(d, k=k).get("k")
            if built != k:
                failures.append(f"exact k={k} builds the estimator with k={built}")
        test_dims = sorted({len(INSTANCES[i][0]) for i in _TEST_INSTANCES})
        if not any(d in spec.k_values(d) for d in test_dims):
            failures.append(f"no exact instance of the tests (d in {test_dims}) reaches k = d: "
                            f"exact_k={spec.exact_k}")
        if spec.paper in ("HK12", "KS15") and spec.check_k != len(INSTANCES["kd_edge"][0]):
            failures.append(f"check_k={spec.check_k}: kd_edge (d = 2) is not on k = d")
        for d in _DIMS:
            inst = next(i for i, (w, _, _) in sorted(INSTANCES.items()) if len(w) == d)
            wf, xf, yf = as_float(INSTANCES[inst])
            for k in spec.k_values(d):
                try:
                    estimators.get(spec.name, **spec.example_params(d, k=k)).target(wf, xf, yf)
                except InvalidParameterError as exc:
                    failures.append(f"k={k} <= k_max({d}) refused on {inst}: {exc}")
            if spec.k_max is not None:
                over = spec.k_max(d) + 2
                try:
                    estimators.get(spec.name, **spec.example_params(d, k=over)).target(wf, xf, yf)
                    failures.append(f"k={over} > k_max({d}) = {spec.k_max(d)} accepted on {inst}")
                except InvalidParameterError:
                    pass
    return _verdict(failures, 1, "exact_k and check_k as documented" +
                    ("" if with_k else " (no k: exact_k = (0,) or unused)"), detects=None)


def check_target_method(ctx, *, spec_name):
    """The estimator's ``target`` is its spec's target, the quantity CB11 Lemma 11, HK12
    Lemmas 3.3 / 3.8 / 4.1 or KS15 Lemma B.2 say the estimate is unbiased for."""
    spec = _spec_of(spec_name)
    failures, checked = [], 0
    for inst, (w, x, y), label, params, _est, got in _accepted_runs(
            spec, failures, lambda est, wf, xf, yf: est.target(wf, xf, yf)):
        expected = spec.target(w, x, y, **params)
        if isinstance(expected, list) and expected and isinstance(expected[0], list):
            expected = [[float(v) for v in row] for row in expected]
        else:
            expected = np.asarray(expected, dtype=object).astype(float)
        checked += 1
        if not _close(got, expected):
            failures.append(f"{label}{inst}: target() = {np.asarray(got).tolist()}, the "
                            f"spec's {np.asarray(expected).tolist()}")
    if not checked:
        return Result(Status.INCONCLUSIVE, {"checked": 0},
                      note="the estimator refuses every exact instance")
    return _verdict(failures, checked, "instances where target() is the spec's target")


def check_magnitude_bounds(ctx, *, spec_name):
    """The finite-range bounds of an estimator of CB11, HK12 or KS15 are >= 0 and bound its
    target and (finite support) its draws."""
    spec = _spec_of(spec_name)
    failures, checked = [], 0

    def draws_and_target(est, wf, xf, yf):
        return (est.sample(wf, xf, yf, n=_MAGNITUDE_DRAWS, rng=ctx.rng).values,
                est.target(wf, xf, yf))

    for inst, (w, x, y), label, params, est, (draws, target) in _accepted_runs(
            spec, failures, draws_and_target):
        wf, xf, yf = as_float((w, x, y))
        hook = getattr(est, "_magnitude", None)   # the protocol's "Finite range" hook
        with np.errstate(all="ignore"):
            bounds = hook(wf, xf, yf) if hook is not None else None
        if bounds is None:                        # the protocol's "no bound known"
            return Result(Status.INCONCLUSIVE, {"checked": 0}, note=f"{spec.name} declares "
                          "no finite-range bounds (no `_magnitude`, or it returns None): "
                          "nothing to compare its draws and target with")
        checked += 1
        values = [b for b, _ in bounds]
        bad = [(b, text) for b, text in bounds if not b >= 0]
        if bad:
            failures.append(f"{label}{inst}: bound(s) below 0 or NaN: {bad[:2]}")
            continue
        top = max(values) * (1 + _RTOL)
        seen = float(np.max(np.abs(np.asarray(target, dtype=float)), initial=0.0))
        if spec.finite:                           # see _MAGNITUDE_DRAWS
            seen = max(seen, float(np.max(np.abs(draws), initial=0.0)))
        if seen > top:
            failures.append(f"{label}{inst}: a draw or the target reaches {seen!r}, above "
                            f"every bound (largest {max(values)!r})")
    if not checked:
        return Result(Status.INCONCLUSIVE, {"checked": 0},
                      note="the estimator refuses every exact instance")
    return _verdict(failures, checked, "instances where every bound is >= 0 and the largest "
                    "bounds the target" + (f" and {_MAGNITUDE_DRAWS} draws" if spec.finite else
                                           " (draws not compared: not bounded up front)"))


def check_q_support(ctx, *, spec_name):
    """KS15 Alg. 1 line 4 and Alg. 3: x̃ = x_i/(k q_i) with i ~ q is unbiased only where q_i > 0
    wherever x_i ≠ 0: such a q is refused naming `q`, and a point mass q = e_j on an x supported
    on j is accepted, its every draw x̃ = x (exactly)."""
    spec = _spec_of(spec_name)
    failures, checked = [], 0
    for inst in ("d4", "l2_edge"):
        wf, xf, yf = as_float(INSTANCES[inst])
        d = xf.shape[0]
        params = spec.example_params(d, k=spec.check_k)
        j = int(np.flatnonzero(xf)[0])
        hole = np.array(params["q"], dtype=float)
        hole[j] = 0.0
        hole /= hole.sum()
        checked += 1
        try:
            estimators.get(spec.name, **{**params, "q": hole}).sample(wf, xf, yf, n=1,
                                                                      rng=ctx.rng)
            failures.append(f"{inst}: q_{j} = 0 with x_{j} = {xf[j]} accepted")
        except InvalidParameterError as exc:
            if "`q`" not in str(exc):
                failures.append(f"{inst}: q_{j} = 0 refused without naming `q`: {exc}")
        point = np.zeros(d)
        point[j] = 1.0
        xj = np.zeros(d)
        xj[j] = xf[j]
        est = estimators.get(spec.name, **{**params, "q": point})
        try:
            draws = est.sample(wf, xj, yf, n=8, rng=ctx.rng).values
        except InvalidParameterError as exc:
            failures.append(f"{inst}: q = e_{j} refused on x = x_{j} e_{j}: {exc}")
            continue
        if spec.part == "data_point" and not np.array_equal(draws, np.tile(xj, (8, 1))):
            failures.append(f"{inst}: q = e_{j}: x̃ = {draws[0].tolist()}, not x")
    return _verdict(failures, checked, "instances where a q missing x's support is refused "
                    "naming `q` and a point mass on it is accepted")


def check_q_array(ctx, *, spec_name):
    """KS15 Sec. 5 (and Sec. 3 after Lemma 3.3): the improved inner product's x̃ takes any
    data-point distribution q; given as an array, eq. (4)'s q ∝ √E[x_i²] builds the estimator
    with that q, the one q='ridge' computes, and it draws."""
    spec = _spec_of(spec_name)
    failures, checked = [], 0
    for inst in ("d4", "l2_edge", "w0_edge"):
        wf, xf, yf = as_float(INSTANCES[inst])
        params = spec.example_params(xf.shape[0], k=spec.check_k)
        root = np.sqrt(np.asarray(params["second_moments"], dtype=float))
        q = root / root.sum()                                   # KS15 eq. (4)
        checked += 1
        try:
            by_array = estimators.get(spec.name, **params, q=q)
            by_rule = estimators.get(spec.name, **params, q="ridge")
            by_array.sample(wf, xf, yf, n=4, rng=ctx.rng)
        except (InvalidParameterError, IndexError, TypeError, ValueError) as exc:
            failures.append(f"{inst}: q given as eq. (4)'s array refused: "
                            f"{type(exc).__name__}: {exc}")
            continue
        if not (_close(by_array.q, q) and _close(by_rule.q, q)):
            failures.append(f"{inst}: q = {np.asarray(by_array.q).tolist()} (array), "
                            f"{np.asarray(by_rule.q).tolist()} ('ridge'), eq. (4) {q.tolist()}")
    return _verdict(failures, checked, "instances where eq. (4)'s q as an array is the "
                    "estimator's q, as q='ridge'")


def check_moment_support(ctx, *, spec_name):
    """KS15 Sec. 5's improved inner product draws j with p_j ∝ |w_j|·√E[x_j²]: E[x_j²] = 0
    gives p_j = 0, harmless where x_j = 0 (w_j x_j = 0: the estimate stays unbiased), biased
    where w_j x_j ≠ 0. The first is accepted; the second refused naming `second_moments` and
    the missed part w_j·x_j."""
    spec = _spec_of(spec_name)
    failures, checked = [], 0
    wf, xf, yf = as_float(INSTANCES["d4"])
    params = spec.example_params(4, k=spec.check_k)
    for j in range(4):
        moments = np.array(params["second_moments"], dtype=float)
        moments[j] = 0.0
        est = estimators.get(spec.name, **{**params, "second_moments": moments})
        x0 = xf.copy()
        x0[j] = 0.0
        checked += 1
        try:
            est.sample(wf, x0, yf, n=4, rng=ctx.rng)
        except InvalidParameterError as exc:
            failures.append(f"E[x_{j}²] = 0 with x_{j} = 0 refused: {exc}")
        try:
            est.sample(wf, xf, yf, n=4, rng=ctx.rng)
            failures.append(f"E[x_{j}²] = 0 with w_{j}·x_{j} = {wf[j] * xf[j]} accepted")
        except InvalidParameterError as exc:
            text = str(exc)
            if "`second_moments`" not in text or f"={wf[j] * xf[j]}" not in text:
                failures.append(f"E[x_{j}²] = 0 with w_{j}·x_{j} = {wf[j] * xf[j]} refused "
                                f"without naming `second_moments` and w_{j}·x_{j}: {text}")
    return _verdict(failures, checked, "coordinates where E[x_j²] = 0 is accepted with x_j = "
                    "0 and refused, naming it, with w_j·x_j ≠ 0")


def check_q_zero(ctx, *, spec_name):
    """KS15 Lemmas 3.2 and 4.2 take q_i >= 0 (eqs. (3) and (8) minimise over it): DDAERR's
    q ∝ √E[x²] (eq. (4)) and DDAELR's q ∝ E[x²] (Lemma 4.3) put q_j = 0 where E[x_j²] = 0.
    On d4 with E[x_j²] = 0 and x_j = 0, for each j: the estimator accepts it, its q_j is 0,
    and the exact mean of one draw (the literal reference enumerated) is the spec's target;
    with x_j ≠ 0 it is refused naming `q` or `second_moments` (x̃ would be biased)."""
    spec = _spec_of(spec_name)
    failures, checked = [], 0
    w, x, y = INSTANCES["d4"]
    params = params_for(spec, 4, spec.check_k)              # E[x_i²] = (i/8)²: q exact
    wf, xf, yf = as_float((w, x, y))
    for j in range(4):
        moments = np.array(params["second_moments"], dtype=float)
        moments[j] = 0.0
        x0 = list(x)
        x0[j] = Fraction(0)
        label = f"E[x_{j}²] = 0"
        checked += 1
        try:
            est = estimators.get(spec.name, **{**params, "second_moments": moments})
            # the kernel: a draw of j (q_j = 0) would form x_j/(k q_j) = 0/0
            draws = est.sample(wf, as_float((w, x0, y))[1], yf, n=_MAGNITUDE_DRAWS,
                               rng=ctx.rng).values
        except InvalidParameterError as exc:
            failures.append(f"{label} with x_{j} = 0 refused (q_{j} = 0 is allowed where "
                            f"x_{j} = 0: KS15 Lemma 3.2's q_i >= 0): {exc}")
            continue
        if est.q[j] != 0:
            failures.append(f"{label}: q_{j} = {est.q[j]!r}, not 0")
        if not np.all(np.isfinite(draws)):
            failures.append(f"{label}, x_{j} = 0: a draw of the kernel is not finite")
        if spec.unbiased:
            mean = enumerate_estimate(est, (w, x0, y)).expectation(lambda v: v[0])
            target = np.ravel(np.asarray(spec.target(w, x0, y, **params), dtype=object))
            if not _close([float(v) for v in mean], [float(v) for v in target]):
                failures.append(f"{label}, x_{j} = 0: E[estimate] = "
                                f"{[float(v) for v in mean]}, the target "
                                f"{[float(v) for v in target]}")
        try:
            est.sample(wf, xf, yf, n=4, rng=ctx.rng)
            failures.append(f"{label} with x_{j} = {xf[j]} accepted (q_{j} = 0: x̃ biased)")
        except InvalidParameterError as exc:
            if "`q`" not in str(exc) and "`second_moments`" not in str(exc):
                failures.append(f"{label} with x_{j} = {xf[j]} refused without naming `q` "
                                f"or `second_moments`: {exc}")
    return _verdict(failures, checked, "coordinates where E[x_j²] = 0 (q_j = 0) is accepted "
                    "with x_j = 0" + (", the exact mean the target," if spec.unbiased else "")
                    + " and refused with x_j ≠ 0")


#: the property checks run again at k = d (``k_equals_d``): the exact ones and the kernel's
#: draws against the reference's exact law (the only one with δ > 0: it has the check's δ)
_K_EQUALS_D_PROPERTIES = ("unbiased.exact", "budget", "kernel_matches_reference",
                          "second_moment", "second_moment_inf", "clip_threshold", "scaling")


def check_k_equals_d(ctx, *, spec_name):
    """The property checks of a KS15 estimate that draws x̃ from a q of length d (the exact
    ones, and the kernel against the reference's exact law at the check's δ), on the boundary
    instance kd_edge (d = 2) at k = d = 2: the catalog's own run them on d = 4 at k = 2, where
    its q (of length 4) refuses kd_edge."""
    spec = _spec_of(spec_name)
    d = len(INSTANCES["kd_edge"][0])
    params = params_for(spec, d, d)
    est = estimators.get(spec.name, **params)
    claims = EP.claims_from_spec(spec, params)
    figures, done = {"k": d, "d": d}, []
    for prop in _K_EQUALS_D_PROPERTIES:
        if not EP.applies(prop, claims):
            continue
        result = EP._WRAPPED[prop](ctx, estimator=est, claims=claims)
        figures[prop] = result.figures
        done.append(result.detects)
        if result.status != Status.PASS:
            return Result(result.status, figures, counterexample=result.counterexample,
                          note=f"{prop} at k = d = {d}: {result.note or result.status.value}",
                          detectable=result.detectable, detects=result.detects)
    checked = [i for prop in figures if isinstance(figures[prop], dict)
               for i in np.ravel([figures[prop].get("instances_checked", [])])]
    if "kd_edge" not in checked:
        return Result(Status.INCONCLUSIVE, figures, note="kd_edge was not examined")
    found = [f for f in done if f is not None]
    return Result(Status.PASS, figures, detects=max(found) if found else None,
                  note=f"{', '.join(p for p in figures if p not in ('k', 'd'))} hold on "
                  f"kd_edge at k = d = {d}")


def _edge_instances(spec):
    """(label, params, w, x, y) on the edge of the finite range whose every number the
    estimator forms is known to stay below MAX_MAGNITUDE (0.6 of it at most)."""
    big = 0.6 * MAX_MAGNITUDE
    if spec.name == "HK12.GenEst.derivative":
        # w = 0: every factor is −y (HK12 Procedure 3's fallback), x is never read
        params = spec.example_params(2)
        return [("w = 0, x_i = 0.6·MAX", params, np.zeros(2), np.full(2, big), 0.5)]
    out = []
    params = {**spec.example_params(2, k=2), "eps": 1 / big}
    # 1/ε = 0.6·MAX: x/ε <= 0.6·MAX, (|y| + δ)/ε = 0.06·MAX, the GenEst factors <= 0.12·MAX
    out.append(("1/ε = 0.6·MAX", params, np.full(2, 0.1), np.ones(2), 0.0))
    if spec.part == "gradient":
        # d = 1, k = 1: x̃ = x = 0.6·MAX, f_ε′·x <= 0.6·MAX, the factors tiny (w = 2^-60)
        params = spec.example_params(1, k=1)
        out.append(("d = 1, x = 0.6·MAX", params, np.array([2.0 ** -60]), np.array([big]),
                    0.0))
    return out


def check_finite_range_edge(ctx, *, spec_name):
    """HK12 Procedure 3 and Alg. 4 on the edge of the finite range (``_protocol``, "Finite
    range"): an instance whose every number stays below MAX_MAGNITUDE is accepted."""
    spec = _spec_of(spec_name)
    failures, checked = [], 0
    for label, params, w, x, y in _edge_instances(spec):
        checked += 1
        try:
            value = estimators.get(spec.name, **params).target(w, x, y)
        except InvalidParameterError as exc:
            failures.append(f"{label}: refused: {exc}")
            continue
        if not np.all(np.isfinite(value)):
            failures.append(f"{label}: target {value!r} not finite")
    return _verdict(failures, checked, "edge instances accepted")


def _beyond_instances(spec):
    """(label, params, w, x, y) whose kernel forms a number beyond MAX_MAGNITUDE, computed here
    from the paper's formula, while the target stays finite."""
    if spec.name == "CB11.Baseline.loss":
        # CB11 Fig. 1's 2·y·v_i = 2y·(d/k)·x_i = 1.2·MAX at d = k = 2, x_i = 3/2, y = MAX/2.5
        return [("2y·v = 1.2·MAX", spec.example_params(2, k=2), np.zeros(2),
                 np.full(2, 1.5), MAX_MAGNITUDE / 2.5)]
    if spec.name.startswith("HK12.AESVR."):
        # HK12 Alg. 4 line 2: a factor (‖w‖²/w_2)·x_2/ε − (y ± δ)/ε of GenEst on (x/ε, (y ± δ)/ε)
        # reaches 0.5·MAX + 0.6·MAX: (‖w‖²/w_2)·x_2 = 2^60 with 1/ε = 0.5·MAX/2^60, labels
        # (|y| + δ)/ε = 0.6·MAX; B = 1/2 (N = 1); the target f_ε′ is finite
        eps = 2.0 ** 60 / (0.5 * MAX_MAGNITUDE)
        params = {**spec.example_params(2, k=2, B=0.5), "eps": eps, "delta": 0.1}
        return [("a factor θ̃ = 1.1·MAX", params, np.array([1.0, 2.0 ** -60]),
                 np.array([0.0, 1.0]), 0.6 * MAX_MAGNITUDE * eps - 0.1)]
    params = spec.example_params(2)
    # HK12 Procedure 3's factor (‖w‖²/w_j)·x_j at j = 2 (p_2 ∝ w_2² > 0): 2^1100 (an
    # overflow) while wᵀx − y = 2^100; at max|w| = 1 and at max|w| = 2^-200
    return [("(‖w‖²/w_2)·x_2 = 2^1100", params, np.array([1.0, 2.0 ** -500]),
             np.array([0.0, 2.0 ** 600]), 0.0),
            ("(‖w‖²/w_2)·x_2 = 2^1100, max|w| = 2^-200", params,
             np.array([2.0 ** -200, 2.0 ** -700]), np.array([0.0, 2.0 ** 800]), 0.0)]


def check_finite_range_refusal(ctx, *, spec_name):
    """CB11 Fig. 1 and HK12 Procedure 3 beyond the finite range (``_protocol``, "Finite
    range"): an instance whose kernel would form a number beyond MAX_MAGNITUDE is refused up
    front, even where the target itself is finite."""
    spec = _spec_of(spec_name)
    failures, checked = [], 0
    for label, params, w, x, y in _beyond_instances(spec):
        checked += 1
        try:
            estimators.get(spec.name, **params).target(w, x, y)
            failures.append(f"{label}: accepted")
        except InvalidParameterError:
            pass
    return _verdict(failures, checked, "instances beyond the finite range refused",
                    detects=None)


def _fprime_from_hk12():
    """f_ε′(z) derived with sympy from HK12 Sec. 4.2's f_ε and ρ (a callable z, ε, δ -> float)."""
    z, t = sp.symbols("z t", real=True)
    eps = sp.Symbol("epsilon", positive=True)
    delta = sp.Symbol("delta", nonnegative=True)          # HK12 Sec. 4: 0 <= δ <= B
    rho = sp.Lambda(t, t * sp.erf(t) + sp.exp(-t ** 2) / sp.sqrt(sp.pi))
    f_eps = eps / 2 * rho((z - delta) / eps) + eps / 2 * rho((z + delta) / eps) - delta
    return sp.lambdify((z, eps, delta), sp.simplify(sp.diff(f_eps, z)), modules="mpmath")


def check_aesvr_target(ctx, *, spec_name):
    """HK12 Sec. 4.2: the AESVR spec's target is f_ε′ (times x), f_ε′ derived with sympy from
    f_ε and ρ as HK12 defines them (Claim 4.3 is not used)."""
    spec = _spec_of(spec_name)
    fprime = _fprime_from_hk12()
    failures, checked = [], 0
    for inst, (w, x, y) in sorted(INSTANCES.items()):
        zv = sum(Fraction(a) * Fraction(b) for a, b in zip(w, x)) - Fraction(y)
        for label, params in _param_sets(spec, len(w), spec.check_k):
            eps, delta = params["eps"], params["delta"]
            value = float(fprime(float(zv), eps, delta))
            expected = value if spec.part == "residual" else [value * float(v) for v in x]
            got = spec.target(w, x, y, **params)
            checked += 1
            if not _close(got, expected):
                failures.append(f"{label}{inst}: spec target "
                                f"{np.asarray(got, dtype=float).tolist()}, f_ε′ from HK12 "
                                f"Sec. 4.2 {np.asarray(expected).tolist()}")
    return _verdict(failures, checked, "instances where the spec's target is f_ε′ "
                    "(sympy's derivative of HK12's f_ε)")


_FUNCS = {
    "example_params": (check_example_params, "laocheck.estimators.example_params gives {name} "
                       "the documented parameters (q_i ∝ i, E[x_i²] ∝ i², η = 1/(2B), k, "
                       "ε = 1/2, δ = 1/10, GenEst's cubic f′, B) and the estimator accepts them",
                       "every d of the exact instances, every exact k, B ∈ {1/2, 1, 2}"),
    "declared_budget": (check_declared_budget, "the estimator {name} declares the budget of its "
                        "spec's formula", "every d of the exact instances, every exact k, "
                        "B ∈ {1/2, 1, 2}"),
    "exact_k": (check_exact_k, "the exact k of {name}'s spec are the k it is built with, (0,) "
                "exactly when it takes no k, reach k = d on an exact instance of the tests, and "
                "(HK12, KS15: k <= d) put kd_edge on k = d at the catalog's k",
                "k as declared by the spec (EstimatorSpec: exact_k, k_max, check_k)"),
    "target_method": (check_target_method, "the estimator {name}'s target(w, x, y) is its "
                      "spec's target (written from the paper)", "every exact instance the "
                      "estimator accepts, at its example parameters (AESVR: and at δ = 0 and "
                      "δ = B, HK12 Sec. 4's 0 <= δ <= B)"),
    "magnitude_bounds": (check_magnitude_bounds, "the finite-range bounds of {name} "
                         "(Estimator._magnitude) are numbers >= 0, never NaN, and the largest "
                         "bounds every draw and the target", "every exact instance the "
                         "estimator accepts, at its example parameters (AESVR: and at δ = 0 "
                         "and δ = B, HK12 Sec. 4's 0 <= δ <= B); 256 draws each"),
}


def _register():
    for spec in estimators.specs():
        for prop in FAMILY_CHECKS:
            func, statement, assumptions = _FUNCS[prop]
            register(f"{spec.name}.{prop}", citation=spec.citation,
                     statement=statement.format(name=spec.name), assumptions=assumptions,
                     method="exact comparison (floats: relative 1e-12)", delta=0.0,
                     detectable=1.0, spec_name=spec.name)(func)
        if "q" in spec.example_params(4, k=spec.check_k):
            register(f"{spec.name}.q_support", citation=spec.citation,
                     statement=f"{spec.name} refuses a q with q_i = 0 where x_i ≠ 0, naming "
                     "`q` (x̃ would be biased), and accepts a point mass q = e_j on an x "
                     "supported on j", assumptions="instances d4 and l2_edge; q = the example "
                     "q with its first entry on x's support set to 0, or e_j",
                     method="exact (a refusal, and x̃ = x for every draw)", delta=0.0,
                     detectable=1.0, spec_name=spec.name)(check_q_support)
        if spec.name == "KS15.ImprovedInnerProduct.residual":   # the gradient's x̃ refuses first
            register(f"{spec.name}.moment_support", citation="KS15 Sec. 5",
                     statement=f"{spec.name} accepts E[x_j²] = 0 where x_j = 0 and refuses it "
                     "where w_j·x_j ≠ 0 (p_j ∝ |w_j|√E[x_j²] = 0 would bias φ̃), naming "
                     "`second_moments` and w_j·x_j", assumptions="instance d4, each j in turn",
                     method="exact (an acceptance and a refusal per coordinate)", delta=0.0,
                     detectable=1.0, spec_name=spec.name)(check_moment_support)
        if spec.name.startswith(("KS15.DDAE", "KS15.ImprovedInnerProduct.")) and \
                spec.part != "residual":
            register(f"{spec.name}.q_zero", citation="KS15 Lemmas 3.2, 4.2 (q_i >= 0), "
                     "eq. (4), Lemma 4.3",
                     statement=f"{spec.name} accepts E[x_j²] = 0 (so q_j = 0, the end of "
                     "KS15 Lemmas 3.2/4.2's q_i >= 0) where x_j = 0" + (
                         ", its exact mean is then the target," if spec.unbiased else "")
                     + " and refuses it where x_j ≠ 0, naming `q` or `second_moments`",
                     assumptions="instance d4 with x_j = 0, each j in turn; E[x_i²] = (i/8)² "
                     "elsewhere", method="exact (acceptance, q_j = 0, enumeration of the "
                     "reference; floats: relative 1e-12; a refusal)", delta=0.0,
                     detectable=1.0, spec_name=spec.name)(check_q_zero)
        if spec.paper == "KS15" and "k" in spec.example_params(4, k=spec.check_k) and \
                "kd_edge" not in EP.instances_of(estimators.get(spec.name,
                                                                **EP.catalog_params(spec))):
            register(f"{spec.name}.k_equals_d", citation=spec.citation,
                     statement=f"the property checks of {spec.name} (unbiasedness, budget, "
                     "the kernel against the reference, second moment, clipping, scaling: "
                     "those its spec claims) hold on the boundary instance kd_edge at "
                     "k = d = 2", assumptions="kd_edge "
                     "(‖x‖₂ = ‖x‖∞ = 1, |y| = B), the example parameters at d = 2, k = 2 "
                     "(the catalog's property checks run at d = 4, k = 2)",
                     method="the property checks' exact enumeration (Fractions; floats at "
                     "their binary value within γ); the kernel's draws by a multinomial test "
                     "at δ", delta=DEFAULT_DELTA, detectable="reported per run",
                     spec_name=spec.name)(check_k_equals_d)
        if spec.name == "KS15.ImprovedInnerProduct.gradient":
            register(f"{spec.name}.q_array", citation="KS15 Sec. 5",
                     statement=f"{spec.name} takes its data-point distribution q as an array: "
                     "eq. (4)'s q ∝ √E[x_i²] given as an array is its q, as q='ridge' computes "
                     "it", assumptions="instances d4, l2_edge, w0_edge at the example "
                     "parameters", method="exact comparison (floats: relative 1e-12)",
                     delta=0.0, detectable=1.0, spec_name=spec.name)(check_q_array)
        if spec.name.startswith(("HK12.AESVR.", "HK12.GenEst.")):
            register(f"{spec.name}.finite_range_edge", citation=spec.citation,
                     statement=f"{spec.name} accepts instances on the edge of the finite range "
                     "(every number it forms at most 0.6·MAX_MAGNITUDE): its guard is not "
                     "looser than the numbers it bounds", assumptions="GenEst: w = 0 with "
                     "x_i = 0.6·MAX; AESVR: 1/ε = 0.6·MAX, and (gradient) d = 1 with "
                     "x = 0.6·MAX", method="exact (acceptance, finite target)", delta=0.0,
                     detectable=None, spec_name=spec.name)(check_finite_range_edge)
        if spec.name in ("CB11.Baseline.loss", "HK12.GenEst.derivative") or \
                spec.name.startswith("HK12.AESVR."):
            register(f"{spec.name}.finite_range_refusal", citation=spec.citation,
                     statement=f"{spec.name} refuses up front an instance whose kernel would "
                     "form a number beyond MAX_MAGNITUDE (CB11 Fig. 1's 2y·v, HK12 Procedure "
                     "3's factor (‖w‖²/w_j)·x_j, and on (x/ε, (y ± δ)/ε) in Alg. 4), its target "
                     "finite", assumptions="d = 2; "
                     "the numbers computed from the paper's formulas", method="exact "
                     "(a refusal)", delta=0.0, detectable=None,
                     spec_name=spec.name)(check_finite_range_refusal)
        if spec.name.startswith("HK12.AESVR."):
            register(f"{spec.name}.target_derivative", citation="HK12 Sec. 4.2, Claim 4.3",
                     statement=f"the target of {spec.name}'s spec is f_ε′(wᵀx − y)" +
                     ("·x" if spec.part == "gradient" else "") + ", f_ε′ the derivative of "
                     "f_ε(z) = (ε/2)[ρ((z−δ)/ε) + ρ((z+δ)/ε)] − δ, ρ(x) = x erf(x) + "
                     "e^(−x²)/√π", assumptions="ε = 1/2, δ = 1/10 (the example parameters), "
                     "δ = 0 and δ = B (the ends of HK12 Sec. 4's 0 <= δ <= B); every exact "
                     "instance", method="sympy derivative, evaluated with mpmath; "
                     "relative 1e-12", delta=0.0, detectable=1.0,
                     spec_name=spec.name)(check_aesvr_target)


_register()

