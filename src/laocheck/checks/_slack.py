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

_SMALL_PATHS = ("the step is checked by exact enumeration of every path on tiny instances "
                "(m <= 3 examples, d <= 2): there the regret term of the online bound (B²/(ηm), "
                "B log 2d/(ηm)) is of order 1 while the excess risk of the averaged iterate is "
                "small; the inequality is a worst case over distributions and sequences, attained "
                "by none of these instances (an adversarial search over the instance is still to "
                "be added)")

#: check id -> why its bound is loose (ratio < LOOSE is not a defect of the check)
LOOSE_REASONS = {
    "HK12.Lemma3.7": "the term 4BηG²m bounds E[Σ (g̃_t − ḡ_t)ᵀw_t] by Markov's inequality on "
                     "the clipped mass, which is tiny on the random dyadic instances (clipping "
                     "is rarely active at η <= 1/(2G))",
    "HK12.Thm3.1.proof.step3": _SMALL_PATHS,
    "HK12.Thm3.4.proof.step2": _SMALL_PATHS,
    "KS15.Thm4.7.proof.step1": _SMALL_PATHS,
    "CB11.Thm12.empirical": "CB11 Thm 12's explicit constant 16 comes from λ‖w‖² + 64d²B²/k "
                            "bounds on ‖∇̃‖² (Lemma 11) that no instance attains together; "
                            + _EMPIRICAL,
    "CB11.Thm12.high_probability.empirical": "the high-probability form adds a confidence "
                                             "term to the in-expectation bound; " + _EMPIRICAL,
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
    "KS15.Thm3.1.empirical": _EMPIRICAL,
    "KS15.Thm3.5.empirical": _EMPIRICAL,
    "KS15.Thm3.12.empirical": _EMPIRICAL,
    "KS15.Thm4.1.empirical": _EMPIRICAL,
    "KS15.Thm4.6.empirical": _EMPIRICAL,
    "KS15.Thm4.6.high_dim.empirical": _EMPIRICAL,
    "KS15.Thm4.7.empirical": _EMPIRICAL,
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
