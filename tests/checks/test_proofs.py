"""The proof-step, box-line and text-constant checks (laocheck.checks.proofs_*, boxes,
text_constants, empirical_baseline): the id scheme, the errata notes of their ERRATUM checks,
and negative controls showing that the methods detect a false step."""
import math
import re

import numpy as np
import pytest
import sympy as sp

from laocheck import checks as catalog
from laocheck.checks.cb11 import proofs as proofs_cb11
from laocheck.checks.hk12 import proofs as proofs_hk12
from laocheck.checks.ks15 import proofs as proofs_ks15
from laocheck.checks.ks15 import statements as ks15
from laocheck.checks._errata import notes
from laocheck.checks._proofs import ratio_verdict, worst_instance

MODULES = (*(f"laocheck.checks.{paper}.{kind}" for paper in ("cb11", "hk12", "ks15")
              for kind in ("proofs", "boxes", "text_constants", "proof_lines")),
           "laocheck.checks._kinds.boxes", "laocheck.checks._kinds.proof_lines",
           "laocheck.checks.cb11.empirical_baseline")
NEW = [c for c in catalog.checks() if c.func.__module__ in MODULES]
STEP = re.compile(r"^(CB11|HK12|KS15)\.[A-Za-z]+[0-9A-Z.]*?\.proof\.step(\d+)(_corrected)?$")


def test_new_checks_are_registered():
    assert len([c for c in NEW if ".proof.step" in c.id]) >= 35
    assert {c.func.__module__ for c in NEW} == set(MODULES)


def test_proof_step_ids_follow_the_scheme_and_are_numbered_from_one():
    by_label = {}
    for c in NEW:
        if ".proof.step" not in c.id:
            continue
        match = STEP.match(c.id)
        assert match, c.id
        label = c.id.split(".proof.")[0]
        if not match.group(3):
            by_label.setdefault(label, []).append(int(match.group(2)))
    for label, numbers in by_label.items():
        assert sorted(numbers) == list(range(1, len(numbers) + 1)), label


def test_every_proof_step_erratum_is_marked_as_a_proof_step():
    marked = {n.id for n in notes() if n.proof_step}
    for c in NEW:
        if c.expected == catalog.Status.ERRATUM and ".proof.step" in c.id:
            assert c.id in marked, c.id
            assert c.correction == c.id + "_corrected"


def test_cb11_step6_counterexample_is_exact():
    """3/(4 ln 2) > 1 exactly: the printed regret bound fails at m = 2 on Fig. 2's path."""
    assert sp.Rational(3, 4) > sp.log(2)          # sympy decides the comparison exactly
    regret, G2 = proofs_cb11._pegasos_regret(np.array([[4.0, 0.0], [0.0, 0.0]]),
                                             16 * math.sqrt(math.log(2)), 1.0)
    lam = 16 * math.sqrt(math.log(2))
    assert math.isclose(regret, 12 / lam, rel_tol=1e-12)
    assert math.isclose(G2, 16.0, rel_tol=1e-12)
    assert regret > G2 / lam * math.log(2)


def test_cb11_thm6_step2_counterexample_by_hand():
    """CB11 Thm 6's combined deviation over (dB/k)²√(ln(d/δ)/m) at d = k = 1, c′ = 1 is
    1 + √(32 ln(2/δ)/ln(1/δ)): 1 + 4√202 at δ = 2^(−1/100), unbounded as δ → 1; at d >= 2,
    ln(2d²/δ) <= 3 ln(d/δ) on a grid (the corrected reading), which fails at d = 1, δ = 0.9."""
    def ratio(d, delta, c1=1.0, k=1):
        return c1 * (k / d) ** 2 + math.sqrt(32 * math.log(2 * d * d / delta)
                                             / math.log(d / delta))
    assert math.isclose(ratio(1, 2 ** -0.01), 1 + 4 * math.sqrt(202), rel_tol=1e-9)
    assert ratio(1, 2 ** -1e-4) > 100 > ratio(1, 2 ** -0.01)
    for d in (2, 3, 10, 1000):
        for delta in (1e-9, 0.01, 0.5, 0.999999):
            assert math.log(2 * d * d / delta) <= 3 * math.log(d / delta) + 1e-12
    assert math.log(2 / 0.9) > 3 * math.log(1 / 0.9)
    records = {i: catalog.run(catalog.get(i), seed=0, effort="fast", catch=False).status
               for i in ("CB11.Thm6.proof.step1", "CB11.Thm6.proof.step2",
                         "CB11.Thm6.proof.step2_corrected")}
    # d = k = 1 (the unbounded ratio above) is below Fig. 1's budget k >= 2, k <= d: read under
    # it the step holds (the erratum of earlier versions is withdrawn)
    assert records == {"CB11.Thm6.proof.step1": "PASS", "CB11.Thm6.proof.step2": "PASS",
                       "CB11.Thm6.proof.step2_corrected": "PASS"}


def test_negative_control_search_rediscovers_the_printed_regret_bound_erratum():
    """The seeded search behind CB11.Thm12.proof.step6_corrected finds the printed form false
    at m = 2 when asked (its power to detect a false step)."""
    rng = np.random.default_rng(0)

    def draw(r):
        return {"a": r.normal(size=(2, 2)), "lam": float(np.exp(r.uniform(-2, 2))), "B": 100.0}

    def printed(inst):
        regret, G2 = proofs_cb11._pegasos_regret(inst["a"], inst["lam"], inst["B"])
        return regret / (G2 / inst["lam"] * math.log(2))

    worst = worst_instance(rng, 2000, draw, printed)
    assert worst[0] > 1.0
    assert ratio_verdict(worst).status == catalog.Status.FAIL


def test_negative_control_enumeration_detects_a_halved_bound():
    """HK12 Thm 3.1's first display with its right-hand side divided by 20 fails on the
    enumerated instances: the exact enumeration is not vacuous."""
    rng = np.random.default_rng(1)
    worst = -1.0
    for _ in range(12):
        inst = proofs_hk12._instance(rng, lasso=False)
        eta = 1.0 / inst["B"]
        probs, vals = proofs_hk12._enumerate(inst, eta, False)
        lin = sum(p * v[0] for p, v in zip(probs, vals))
        gs = sum(p * np.array(v[1]) for p, v in zip(probs, vals))
        G2 = max(v[4] for v in vals)
        lhs = lin + inst["B"] * float(np.linalg.norm(gs))
        rhs = 2 * inst["B"] ** 2 / eta + eta / 2 * G2 * inst["m"]
        worst = max(worst, lhs / (rhs / 20))
    assert worst > 1


def test_ratio_verdict():
    assert ratio_verdict((1.0, None)).status == catalog.Status.PASS
    res = ratio_verdict((1.01, {"a": np.array([1.0])}))
    assert res.status == catalog.Status.FAIL and res.counterexample == {"a": [1.0]}


# --- second pass: HK12 Lemma 4.1 / Thm 4.4, KS15 Thm 4.6, boxes, text constants ------------------

def test_hk12_lemma41_step_errata_recomputed_by_hand():
    """The counterexamples of HK12.Lemma4.1.proof.step5/8/10, written from Procedure 3 by hand
    (d = 1: θ̃_r = wx − y on every draw, so E[φ̂²] = Σ_n Pr[n](2^{n+1}a_nθⁿ)²)."""
    from fractions import Fraction as F
    # step 5: B = 1, w = x = 1, y = −1: N = ⌈4⌉ = 4, θ = 2, E[θ̃²] = 4 > 4B²/N = 1
    assert F(2) ** 2 > F(4, 4)
    # step 8: B = 1/2 (N = 1, ν = 0), θ = 1, a_1 = 1: E[φ̂²] = (1/4)(4·1)² = 4 > 2·a_1² = 2
    assert F(1, 4) * (4 * 1) ** 2 == 4 > 2
    # step 10: ν = 0, a_0 = 1: 2(8B²)⁰ + 2 = 4 > (4B)⁰·2·1² = 2
    assert 2 * 1 + 2 > 2
    for id_ in ("HK12.Lemma4.1.proof.step5", "HK12.Lemma4.1.proof.step8",
                "HK12.Lemma4.1.proof.step10", "HK12.Lemma4.1.proof.step3"):
        rec = catalog.run(id_, seed=3)
        assert rec.status == "ERRATUM" and rec.counterexample, id_


def test_hk12_thm44_step3_holds_under_section_4s_delta_by_hand():
    """HK12 Sec. 4 fixes 0 <= δ <= B: |y ± δ| <= |y| + δ <= 2B, with equality at y = B, δ = B,
    so the step's worst ratio is exactly 1 (the withdrawn erratum's δ = 2 > B = 1 broke it)."""
    from fractions import Fraction as F
    for B in (F(1, 2), F(1), F(3)):
        worst = max(abs(y + s * dl) for y in (-B, B) for dl in (F(0), B / 3, B) for s in (-1, 1))
        assert worst == 2 * B
    rec = catalog.run("HK12.Thm4.4.proof.step3", seed=3)
    assert rec.status == "PASS" and rec.figures["worst_ratio_exact"] == "1"


def test_ks15_footnote4_counterexample_by_hand():
    """x uniform on {−1, 1}²: ‖E[x²]‖₁ = 2 = d while E[x_1] = 0."""
    support = [(a, b) for a in (-1, 1) for b in (-1, 1)]
    assert sum(x[0] ** 2 + x[1] ** 2 for x in support) / 4 == 2
    assert sum(x[0] for x in support) == 0


def test_lumped_orders_enumerate_genest_exactly():
    """The lumped-orders source used for AESVR's two GenEst calls gives the same exact E[φ̂]
    as a plain enumeration of one call (orders >= n + 1 give φ̂ = 0)."""
    from fractions import Fraction as F
    from laocheck.reference.estimators import hk12_genest
    from laocheck.stats.exact import enumerate_outcomes
    w, x, y, B = [F(1, 2), F(-1, 3)], [F(1), F(1, 2)], F(1, 4), F(3, 5)
    for n in range(4):
        coeffs = [F(0)] * n + [F(1), F(0)]
        plain = enumerate_outcomes(lambda src: hk12_genest(w, x, y, coeffs, B, src)[0],
                                   max_depth=n + 1).expectation()
        lumped = enumerate_outcomes(lambda src: hk12_genest(
            w, x, y, coeffs, B, proofs_hk12._LumpedOrders(src, n + 1))[0]).expectation()
        assert plain == lumped == (w[0] * x[0] + w[1] * x[1] - y) ** n


def test_aesvr_tail_lumped_into_order_zero_gives_the_same_exact_mean():
    """HK12.Thm4.4.proof.step2 lumps the orders above n into order 0 (a_0 = 0, no θ̃ drawn):
    the exact E[g̃] equals the one with the tail at order n + 1, at B = 3/5 where order 3
    draws N = 2 attributes per factor, and E[g̃] is the printed gradient term."""
    from fractions import Fraction as F
    inst = {"w": [F(1, 6), F(-1, 3)], "x": [F(-2, 3), F(-1, 2)], "y": F(-1, 5),
            "B": F(3, 5), "eps": F(1), "delta": F(1, 2), "k": 2}
    inner = sum(a * b for a, b in zip(inst["w"], inst["x"])) / inst["eps"]
    for n in (1, 2):
        fast = list(proofs_hk12._aesvr_dist(inst, n, "gradient", tail_into=0).expectation())
        terms = [(inner - (inst["y"] + s * inst["delta"]) / inst["eps"]) ** n for s in (1, -1)]
        assert fast == [sum(terms) / 2 * xi for xi in inst["x"]]
        if n == 1:                      # (at n = 2 the tail at order 3 takes 5 s)
            assert fast == list(proofs_hk12._aesvr_dist(inst, n, "gradient").expectation())
    with pytest.raises(ValueError, match="a_0"):
        proofs_hk12._aesvr_dist(inst, 0, "gradient", tail_into=0)


@pytest.mark.parametrize("lasso", [False, True])
@pytest.mark.parametrize("from_d", [False, True])
def test_hk12_paths_expanded_step_by_step_equal_the_replayed_enumeration(lasso, from_d):
    """HK12 Thm 3.1's and 3.4's proof steps expand Alg. 1's (Alg. 2's) tree step by step: the
    same probabilities and values, bit for bit and merged alike, as replaying every path."""
    from laocheck.stats.exact import enumerate_outcomes
    rng = np.random.default_rng(21)
    for _ in range(5):
        inst = proofs_hk12._instance(rng, lasso=lasso, with_d=from_d)
        eta = float(rng.uniform(0.05, 2.0))
        dist = enumerate_outcomes(proofs_hk12._path, dict(inst), eta, lasso, from_d)
        probs, vals = proofs_hk12._enumerate(dict(inst), eta, lasso, from_d)
        assert probs == [float(p) for p, _ in dist] and len(probs) > 1
        assert vals == [v for _, v in dist]


def test_ks15_paths_expanded_step_by_step_equal_the_replayed_enumeration():
    """KS15 Thm 3.1's (and Thm 4.1's) proof steps expand GAERR's (GAELR's) tree step by step:
    every leaf, its order, its probability and its values (bit for bit) are those of replaying
    the whole path per leaf."""
    from laocheck.stats.exact import enumerate_outcomes
    rng = np.random.default_rng(12)
    for _ in range(8):
        inst = proofs_ks15._instance(rng)
        replayed = [(float(p), v) for p, v in
                    enumerate_outcomes(proofs_ks15._path, dict(inst), inst["eta"])]
        expanded = proofs_ks15._paths(dict(inst), inst["eta"])
        assert len(expanded) == len(replayed) == 8 ** inst["m"]
        for (p, v), (p2, v2) in zip(replayed, expanded):
            assert p == p2 and v.keys() == v2.keys()
            assert all(np.array_equal(np.asarray(v[key]), np.asarray(v2[key])) for key in v)
        eta = float(rng.uniform(0.05, 2.0))           # GAELR (KS15 Alg. 3), as Thm 4.1's steps
        replayed = [(float(p), v) for p, v in
                    enumerate_outcomes(proofs_ks15._path_lasso, dict(inst), eta)]
        expanded = proofs_ks15._paths_lasso(dict(inst), eta)
        assert len(expanded) == len(replayed) > 1
        for (p, v), (p2, v2) in zip(replayed, expanded):
            assert p == p2 and v.keys() == v2.keys()
            assert all(np.array_equal(np.asarray(v[key]), np.asarray(v2[key])) for key in v)


def _phase1_law(pi, k, m1):
    """The exact law of KS15 Alg. 2's first-phase A (lines 2-10) by brute force over every
    example's J and every pick: {tuple(A): probability}."""
    import itertools
    from fractions import Fraction as F
    d = len(pi)
    law = {}
    for J in itertools.product(range(d), repeat=m1):
        pj = math.prod(F(pi[j]).limit_denominator(1000) for j in J)
        for picks in itertools.product(range(d), repeat=m1 * (k + 1)):
            counts, sums = [0] * d, [0] * d
            for t in range(m1):
                for i in picks[t * (k + 1):(t + 1) * (k + 1)]:
                    counts[i] += 1
                    sums[i] += J[t] == i
            A = tuple(sums[i] / counts[i] if counts[i] else 0.0 for i in range(d))
            law[A] = law.get(A, 0) + pj * F(1, d ** (m1 * (k + 1)))
    return law


@pytest.mark.parametrize("sampler", ["simulate_phase1", "simulate_phase1_picks"])
def test_phase1_sampler_has_the_law_of_alg2_lines_2_to_10(sampler):
    """The first phase drawn from its sufficient statistics (and by every pick) has the exact
    law of the literal lines, by brute force: every value's frequency within Hoeffding's
    √(ln(2K/δ)/(2n)) of its probability, δ = 1e-7 over the K values (union bound)."""
    pi, k, m1, n = np.array([0.7, 0.2, 0.1]), 1, 2, 200_000
    law = _phase1_law(pi, k, m1)
    A = getattr(ks15, sampler)(pi, k, m1, n, np.random.default_rng(3))
    values, freq = np.unique(A, axis=0, return_counts=True)
    seen = {tuple(v): c / n for v, c in zip(values, freq)}
    assert set(seen) <= set(law)
    tol = math.sqrt(math.log(2 * len(law) / 1e-7) / (2 * n))
    assert max(abs(seen.get(a, 0.0) - float(p)) for a, p in law.items()) <= tol


def test_phase1_sampler_that_mixes_up_the_groups_is_caught():
    """The law test sees a sampler whose examples' groups have the wrong law (π reversed)."""
    pi, k, m1, n = np.array([0.7, 0.2, 0.1]), 1, 2, 200_000
    law = _phase1_law(pi, k, m1)
    real = np.random.Generator.multinomial
    rng = np.random.default_rng(3)

    class Reversed:                                  # n ~ Multinomial(m1, π reversed)
        def multinomial(self, count, pvals, size=None):
            return real(rng, count, pvals[::-1] if size is not None else pvals, size=size)

    A = ks15.simulate_phase1(pi, k, m1, n, Reversed())
    values, freq = np.unique(A, axis=0, return_counts=True)
    seen = {tuple(v): c / n for v, c in zip(values, freq)}
    tol = math.sqrt(math.log(2 * len(law) / 1e-7) / (2 * n))
    assert max(abs(seen.get(a, 0.0) - float(law.get(a, 0))) for a in set(law) | set(seen)) > tol


def test_negative_control_aesvr_unbiasedness_detects_a_dropped_half(monkeypatch):
    """HK12.Thm4.4.proof.step2 fails when Alg. 4's φ̃ forgets the ½ (its power)."""
    real = proofs_hk12.hk12_aesvr

    def mutated(*args, **kwargs):
        value, seen = real(*args, **kwargs)
        return 2 * value, seen

    monkeypatch.setattr(proofs_hk12, "hk12_aesvr", mutated)
    assert catalog.run("HK12.Thm4.4.proof.step2", seed=0).status == "FAIL"


def test_negative_control_lemma41_step4_detects_a_tighter_bound():
    """The exact search of HK12.Lemma4.1.proof.step4 reaches ratio 1 (the bound 4B² is
    attained), so it would detect any smaller constant."""
    rec = catalog.run("HK12.Lemma4.1.proof.step4", seed=0)
    assert rec.figures["worst_ratio_exact"] == "1"


# --- third pass: text constants, KS15 Thm 4.7 step 10, Lemma 3.3 in Thm 4.4, kernels, CB11 Thm 12 --

THIRD_PASS_TEXT = ("HK12.Sec3.text_k_plus_1", "HK12.Sec2.3.text_rates", "HK12.Thm2.2.text_tight",
                   "CB11.Sec6.text_pegasos_update", "CB11.Sec6.text_gradient_magnitude",
                   "CB11.Thm12.text_vs_baseline", "CB11.Thm12.text_footnote4",
                   "KS15.Thm3.6.text_m1_gg", "KS15.Thm3.6.text_m1_regime",
                   "KS15.Thm3.12.text_m1_gg", "KS15.Thm4.7.text_m1_gg", "KS15.Thm3.6.text_vs_aerr",
                   "CB11.Thm6.text_factor_d4", "CB11.Lemma4.text_constants",
                   "KS15.Sec1.text_sqrt_d_improvement", "KS15.Thm4.7.text_regimes_vs_ridge")


def test_third_pass_text_constants_pass():
    for id_ in THIRD_PASS_TEXT:
        assert catalog.run(id_, seed=0).status == "PASS", id_


def test_ks15_thm47_step10_in_the_setting_k_at_most_d_by_hand():
    """d = 1, k = 2, x ≡ 1 (‖E[x²]‖₁ = 1 = d), ε = 1: 16·5(16 + 88/3 + 2) = 11360/3 > 61² = 3721
    (the withdrawn erratum: k > d, outside KS15's setting k ≪ d), while at k = d = 1 the constant
    4√(5(16 + 88/3 + 1)) ≈ 60.88 <= 61 holds; k/d = 1 is the worst ratio in the setting."""
    from fractions import Fraction as F
    assert 80 * (16 + F(88, 3) + 2) == F(11360, 3) > 61 ** 2
    assert 80 * (16 + F(88, 3) + 1) == F(11120, 3) <= 61 ** 2
    rec = catalog.run("KS15.Thm4.7.proof.step10", seed=0)
    assert rec.status == "PASS" and rec.figures["k_threshold_at_S=d"] == "283*d/240"
    assert catalog.run("KS15.Thm4.7.proof.step10_corrected", seed=0).status == "PASS"


def test_lemma33_reuse_needs_k_at_most_d_plus_one():
    """Lemma 3.3's (d + k − 1)/k <= 2d/k is k <= d + 1: at d = 1, k = 3 it is 1 > 2/3 (the
    assumption HK12.Thm4.4.proof.reuse_lemma3.3 states); its instances keep k <= 2."""
    from fractions import Fraction as F
    assert F(1 + 3 - 1, 3) > F(2, 3)
    assert catalog.run("HK12.Thm4.4.proof.reuse_lemma3.3", seed=1).status == "PASS"


def test_negative_control_genest_kernel_check_detects_a_wrong_n(monkeypatch):
    """HK12.Proc3.line1.kernel fails when the lines' law uses N = ⌈4B²⌉ + 1 (the kernel's
    averaged values then are impossible outcomes)."""
    from laocheck.checks.hk12 import boxes
    real = boxes._ceil_4b2
    monkeypatch.setattr(boxes, "_ceil_4b2", lambda b: real(b) + 1)
    rec = catalog.run("HK12.Proc3.line1.kernel", seed=0)
    assert rec.status == "FAIL" and rec.counterexample


def test_negative_control_aesvr_line2_kernel_detects_unscaled_x(monkeypatch):
    """HK12.Alg4.line2.kernel fails when the kernel runs with another ε than the lines (x′ and
    y± then differ from x/ε and (y ± δ)/ε)."""
    from laocheck.checks.hk12 import boxes
    real = boxes.estimators.get

    def wrong_eps(name, **kw):
        if name == "HK12.AESVR.residual":
            kw["eps"] = kw["eps"] * 2
        return real(name, **kw)

    monkeypatch.setattr(boxes.estimators, "get", wrong_eps)
    assert catalog.run("HK12.Alg4.line2.kernel", seed=0).status == "FAIL"


def test_negative_control_cb11_thm12_high_probability_detects_a_small_bound(monkeypatch):
    """CB11.Thm12.high_probability.empirical fails when the bound is below every run's excess
    (then all R runs exceed it and the Clopper-Pearson lower bound is far above δ_thm)."""
    from laocheck import bounds
    monkeypatch.setitem(bounds.FORMULAS, "CB11.Thm12.bound_proof", lambda **kw: 1e-9)
    rec = catalog.run("CB11.Thm12.high_probability.empirical", seed=0)
    assert rec.status == "FAIL" and rec.figures["exceedances"] == rec.figures["R"]


def test_negative_control_lemma33_reuse_detects_x_tilde_built_from_x_prime(monkeypatch):
    """HK12.Thm4.4.proof.reuse_lemma3.3 fails when Alg. 4's x̃ is built from x′ = x/ε (what the
    lemma's ‖x‖₂ <= 1 excludes): g̃ = φ̃·x̃/ε then has E‖g̃‖² = E[φ̃²]E‖x̃‖²/ε² > E[φ̃²]·2d/k."""
    real = proofs_hk12.hk12_aesvr

    def from_x_prime(w, x, y, k, coefficients, B, eps, delta, src, *, part="gradient"):
        value, seen = real(w, x, y, k, coefficients, B, eps, delta, src, part=part)
        return (value / eps if part == "gradient" else value), seen

    monkeypatch.setattr(proofs_hk12, "hk12_aesvr", from_x_prime)
    rec = catalog.run("HK12.Thm4.4.proof.reuse_lemma3.3", seed=0, effort="full")
    assert rec.status == "FAIL"


def test_hk12_lemma41_second_moment_counterexample_is_an_entire_f_by_hand():
    """HK12 Sec. 4.1 takes f analytic on all of R: f = exp (a_n = 1/n!) is, and at d = 1,
    w = (B), x = (1), y = −B (inside ‖x‖₂ <= 1, ‖w‖₂ <= B, |y| <= B) θ̃_r = θ = 2B, so
    E[φ̂²] = 2Σ 2ⁿa_n²θ^{2n} = 2Σ(8B²)ⁿ/(n!)² = 2·I₀(4√2·B) >= 2 + 2·8^B: exp(Θ(B)), not
    exp(O(log² B)). The earlier a_n = 1/(n + 1)² has f′ singular at 1 (not entire)."""
    from fractions import Fraction as F
    from scipy.special import i0
    for B in (1, 2, 4, 8):
        total = sum(F(8 * B * B) ** n / F(math.factorial(n)) ** 2 for n in range(200))
        assert 2 * total >= 2 + 2 * F(8) ** B
        assert math.isclose(float(2 * total), 2 * i0(4 * math.sqrt(2) * B), rel_tol=1e-12)
    # log E / log² B keeps growing: at B = 2^j it is at least (2^j log 8)/(j log 2)²
    growth = [(2 ** j * math.log(8)) / (j * math.log(2)) ** 2 for j in (4, 8, 16)]
    assert growth[0] < growth[1] < growth[2] and growth[2] > 1e3
    rec = catalog.run("HK12.Lemma4.1.second_moment", seed=0)
    assert rec.status == "ERRATUM" and rec.counterexample["f"].startswith("exp")


def test_errata_counterexamples_lie_inside_the_standing_assumptions():
    """Issue 47 item 7: the counterexamples re-read under the papers' standing assumptions
    (KS15's k ≪ d, i.e. k <= d; ‖x‖∞ or ‖x‖₂ <= 1; ‖w‖₁ <= B; Thm 4.1's η <= 1/(2G))."""
    from fractions import Fraction as F
    rec = catalog.run("KS15.LemmaB.9.proof.step3", seed=0)
    ce = rec.counterexample
    assert rec.status == "ERRATUM"
    assert sum(abs(F(v)) for v in ce["w_at_B=1"]) <= 1          # ‖w‖₁ <= B (at B = 1)
    assert max(abs(F(v)) for v in ce["x"]) <= 1 and abs(F(ce["y_at_B=1"])) <= 1
    for id_ in ("KS15.Lemma3.2.proof.step2", "KS15.Lemma4.2.proof.step1"):
        rec = catalog.run(id_, seed=0)
        ce = rec.counterexample
        d = len(ce["q"])
        assert rec.status == "ERRATUM" and 2 <= ce["k"] <= d, id_
        assert all(sum(F(v) ** 2 for v in x) <= 1 for _p, x in ce["D"]), id_     # ‖x‖₂ <= 1
    rec = catalog.run("KS15.Lemma4.2", seed=0)
    assert rec.status == "ERRATUM" and rec.counterexample["k"] <= rec.counterexample["d"]
    # KS15 Sec. 4's text η = 2B/(G√m) at m = 16, B = 1 is 1/(2G), Thm 4.1's largest step, and the
    # bound still exceeds the stated rate by (log 2 + 10)/(2√(10 log 2)) at d = 2 (m cancels)
    rec = catalog.run("KS15.Thm4.1.text_aelr_eta", seed=0)
    ce = rec.counterexample
    assert rec.status == "ERRATUM" and ce["m"] == 16 and ce["B"] == 1 and ce["k"] <= ce["d"]
    assert sp.simplify(sp.sympify(ce["η·2G"]) - 1) == 0
    assert math.isclose(float(sp.sympify(ce["ratio"])),
                        (math.log(2) + 10) / (2 * math.sqrt(10 * math.log(2))), rel_tol=1e-12)
