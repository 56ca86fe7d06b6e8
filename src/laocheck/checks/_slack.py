"""Slack: how tight each inequality check is, and why a loose one is loose.

Every check of an inequality reports a ratio lhs / rhs (``worst_ratio`` for the exact and
adversarial checks, ``ratio`` = mean excess risk / bound for the empirical ones). A ratio far
below 1 means the check could not see a bound that is wrong by the same factor (its witness
"bound divided by 4" survives): below :data:`LOOSE` the check must either search adversarially
for the instance that makes the ratio largest (its method says so) or carry a stated reason in
:data:`LOOSE_REASONS`. :func:`tightness` reads the ratio of a record;
:func:`unexplained` lists the loose records without search or reason.
"""

from __future__ import annotations

__all__ = ["LOOSE", "LOOSE_REASONS", "tightness", "unexplained", "reason"]

#: below this worst ratio a bound is loose: an adversarial search or a stated reason is needed
LOOSE = 0.03

_EMPIRICAL = ("the bound is a worst case over distributions; the instance is the paper's hard "
              "(lower-bound) instance at one (d, k, m), where the expected excess risk of the "
              "algorithm is below the bound by the constant the proof loses (Hölder and "
              "online-to-batch steps, the worst-case G²); no distribution is known on which the "
              "bound is attained")


def _grid(best, where, survives):
    """The slack of a KS15 empirical check on its (B, d, k) grid (laocheck.checks._kinds.empirical)."""
    return (f"the bound is a worst case over distributions; on the grid of (B, d, k) the largest "
            f"mean excess risk / bound is {best} at (d, k) = {where} (fast effort, seed 0; the "
            f"runs are exactly homogeneous in B, so the ratio does not depend on B); "
            + (f"so {survives} leaves the bound above the excess at every grid point, and no "
               f"distribution is known on which the bound is attained" if survives else
               "a bound divided by 4 is refuted there"))


_KS15_K = "a bound divided by 4 or with k's exponent lowered by 1/2 (1/4 at k = 16)"

_SMALL_PATHS = ("the step is checked by exact enumeration of every path on tiny instances "
                "(m <= 3 examples, d <= 2): there the regret term of the online bound (B²/(ηm), "
                "B log 2d/(ηm)) is of order 1 while the excess risk of the averaged iterate is "
                "small; the inequality is a worst case over distributions and sequences, attained "
                "by none of these instances (an adversarial search over the instance is still to "
                "be added)")

_SMALL_PATHS_GRADIENT = (_SMALL_PATHS + "; the estimate g̃ scaled by 5/4 leaves the step true "
                         "(the online bound holds for any sequence: with E g̃ = (5/4)g the left "
                         "side is at most 4/5 of the bound at the scaled G²), and g̃ scaled by 4/5 "
                         "or biased (+0.5, +2 per coordinate: worst ratios 0.01 to 0.18) is "
                         "visible only on an instance at least 80% tight")

_PHASE1_COVERAGE = ("a coverage check of a high-probability event of the first phase at the "
                    "statement's δ (0.05 to 0.2): no run of 4000 fails on the three settings "
                    "(failure probability <= 0.004); the event's constants come from Bernstein's "
                    "inequality (Lemma B.3) and a union bound over the d coordinates, so it "
                    "fails rarely even with its ε terms dropped (eq. (15): 153 failures in 4000, "
                    "3.8% < δ); a change of ε by 5/4 is invisible to any coverage test of it")

#: check id -> why its bound is loose (ratio < LOOSE is not a defect of the check)
LOOSE_REASONS = {
    "HK12.Lemma3.7": "no instance can reach a ratio above 1/16: for c = 1/η, (|v| − c)₊ <= "
                     "v²/(4c) (as (|v| − 2c)² >= 0), so |E[g̃_i − ḡ_i]| <= ηE[g̃_i²]/4 <= ηG²/4 "
                     "and E[(g̃_t − ḡ_t)ᵀw_t] <= BηG²/4, a sixteenth of 4BηG²; the random dyadic "
                     "instances reach about a quarter of that cap (clipping is rarely active at "
                     "η <= 1/(2G)), so a bound off by less than 16 is invisible to any instance; "
                     "the check sees a ḡ off by 5/4 (the package's clip, at η = 1/(64G))",
    "HK12.Thm3.1.proof.step3": _SMALL_PATHS,
    "HK12.Thm3.4.proof.step2": _SMALL_PATHS,
    "KS15.Thm4.7.proof.step1": _SMALL_PATHS,
    "KS15.Thm3.1.proof.step2": _SMALL_PATHS_GRADIENT,
    "KS15.Thm3.1.proof.step3": _SMALL_PATHS_GRADIENT,
    "KS15.Thm3.1.proof.step4": _SMALL_PATHS_GRADIENT,
    "KS15.Lemma3.8.proof.step1": _SMALL_PATHS_GRADIENT,
    "KS15.Thm4.1.proof.step2": _SMALL_PATHS_GRADIENT,
    "KS15.LemmaB.9": "no instance can reach a ratio above 1/8: with ‖w_t − w*‖₁ <= 2B the "
                     "gap is at most 2B‖E[g̃ − ḡ]‖∞ <= BηG²/2 ((|v| − c)₊ <= v²/(4c), as for "
                     "HK12 Lemma 3.7), an eighth of 4BηG²; the random dyadic instances reach "
                     "about a quarter of that cap, so a bound off by less than 8 is invisible to "
                     "any instance; the check sees a ḡ off by 5/4 (the package's clip, at "
                     "η = 1/(64G))",
    "KS15.Eq15": _PHASE1_COVERAGE,
    "KS15.Lemma3.11": _PHASE1_COVERAGE,
    "KS15.Lemma3.7.high_prob": _PHASE1_COVERAGE,
    "KS15.Lemma4.8.high_prob": _PHASE1_COVERAGE,
    "CB11.Thm12.empirical": "CB11 Thm 12's explicit constant 16 comes from λ‖w‖² + 64d²B²/k "
                            "bounds on ‖∇̃‖² (Lemma 11) that no instance attains together; on "
                            "the grid of (B, d, k) the best lower end / bound is 0.004 (at d = 4, "
                            "k = 2), so a bound off by 4, or by √d or √k, stays above the runs; "
                            "B = 1000 refutes a bound with B's exponent one too low; "
                            + _EMPIRICAL,
    "CB11.Thm12.high_probability.empirical": "the high-probability form adds a confidence "
                                             "term to the in-expectation bound; no run of 800 "
                                             "reaches 1/30 of it, so only B = 1000 (a bound "
                                             "with B's exponent one too low) is refuted; "
                                             + _EMPIRICAL,
    "CB11.Thm6.corrected.empirical": "Thm 6's explicit c (CB11.Thm6.bound_proof) adds Lemma 4's "
                                     "Rademacher bound and Lemma 10's Hoeffding bound, each a "
                                     "worst case; the largest excess of 60 runs is below 1/400 "
                                     "of it, so only B = 10⁶ (a bound with B's exponent one too "
                                     "low) is refuted; " + _EMPIRICAL,
    # CB11 Thm 12's proof: the package's eq. (8) estimate off by 5/4 (G² off by 25/16) stays
    # inside these bounds on every instance the checks can reach
    "CB11.Thm12.proof.step11": "(G²/λ) ln m with G = 8Bd√(2/k): the runs' ‖∇f_t‖ reach about "
                               "0.55 G (CB11.Thm12.proof.step10) and the cited regret is "
                               "(G²/(2λ))(1 + ln m), so the bound exceeds the regret of any run "
                               "by a factor of about 6",
    "CB11.Thm12.proof.step13": "at the enumerable m = 2, 3 (d = k = 2) 16dB²√((m/k) ln m) is "
                               "26.6B² and 41B², above m·4B² (the largest possible excess "
                               "of Σ losses): the ratio is below 0.3 on every instance",
    "CB11.Thm12.proof.step16": "at the enumerable m = 2, 3 (d = k = 2) 16dB²√(ln m/(km)) is "
                               "13.3B² and 13.7B², above 4B² (the range of L_D on the L1 "
                               "ball): the ratio is below 0.3 on every instance",
    "CB11.Lemma4.proof.rademacher": "the cited Rademacher bound (Kakade et al. 2008) is a worst "
                                    "case over distributions; on random uniform 8-point "
                                    "distributions the Hölder upper bound of the supremum stays "
                                    "below 1/2.5 of it, on the Hadamard ones (balanced ±1, the "
                                    "extreme) below 0.9",
    "HK12.Thm3.1.empirical": _EMPIRICAL,
    "HK12.Thm3.1.high_dim.empirical": "HK12 Thm B.1's instance keeps 16 informative rows "
                                      "(ε = 1/4) at every d: its excess risk does not grow "
                                      "with d while the bound grows as √d (ratio 0.03 at "
                                      "d = 10⁴, 0.01 at 10⁶); the check is about the scale of "
                                      "d, its grid's B = 100 point sees a wrong power of B; "
                                      + _EMPIRICAL,
    "HK12.Thm3.1.proof.step1": _SMALL_PATHS + "; even AERR's gradient estimate negated or "
                               "halved passes (worst ratios 0.39, 0.94): no mutation of the "
                               "estimator by a constant factor is visible at these sizes",
    "HK12.Thm3.1.proof.step2": _SMALL_PATHS + "; even a negated gradient estimate passes "
                               "(worst ratio 0.16)",
    "HK12.Thm3.4.proof.step1": _SMALL_PATHS + "; even a negated gradient estimate passes "
                               "(worst ratio 0.07)",
    "HK12.Thm3.4.empirical": _EMPIRICAL,
    "HK12.Thm3.4.proof_eta.empirical": _EMPIRICAL,
    "KS15.Thm3.1.empirical": _grid(0.32, "(16, 2)", None),
    "KS15.Thm3.5.empirical": _grid(0.32, "(16, 2)", None),
    "KS15.Thm3.12.empirical": _grid(0.28, "(16, 16)", None),
    "KS15.Thm4.1.empirical": _grid(0.09, "(256, 16)", _KS15_K),
    "KS15.Thm4.6.empirical": _grid(0.11, "(4096, 16)", _KS15_K),
    "KS15.Thm4.6.high_dim.empirical": _grid(0.11, "(10^3, 16)", _KS15_K),
    "KS15.Thm4.7.empirical": _grid(0.017, "(16, 16)", "a bound divided by 4, or with d's or "
                                   "k's exponent lowered by 1/2 (1/32 at d = 1024, where the "
                                   "ratio is 0.003; 1/4 at k = 16)"),
}


def tightness(record):
    """The ratio lhs / rhs of a record (a :class:`CheckRecord` or its dict): ``worst_ratio``,
    else ``ratio``; None when the check reports neither."""
    figures = record["figures"] if isinstance(record, dict) else record.figures
    for key in ("worst_ratio", "ratio"):
        value = (figures or {}).get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    return None


def reason(check_id):
    """The stated reason check ``check_id``'s bound is loose, or None."""
    return LOOSE_REASONS.get(check_id)


def _searched(record):
    method = record["method"] if isinstance(record, dict) else record.method
    return "adversarial" in method.lower() or "nelder" in method.lower()


def unexplained(records):
    """Ids of the records with a ratio below :data:`LOOSE`, no adversarial search in their
    method and no stated reason."""
    out = []
    for r in records:
        t = tightness(r)
        rid = r["id"] if isinstance(r, dict) else r.id
        if t is not None and t < LOOSE and not _searched(r) and reason(rid) is None:
            out.append(rid)
    return out
