"""Every erratum re-read against every text of its paper.

A reported erratum that is an artefact of a text extraction would be a false accusation
against the paper. HK12 and KS15 each exist in two texts (HK12: the ICML 2012 PDF's text and
the HTML rendering with its LaTeX sources; KS15: the full version with appendix, whose
numbering laocheck uses, and the ICML 2015 conference version, numbered differently and
without appendix); CB11 in one (the JMLR article). For each registered erratum note
(:mod:`laocheck.checks._errata`), :func:`read` records what each text prints at the place the
erratum names, and the classification that follows:

* ``"erratum"``: false in every reading (the counterexample refutes each text's statement);
* ``"reading"``: an extraction artefact (one text is false as extracted, the typeset paper
  or its other version reads otherwise), or a formula not derivable from what the paper
  displays (the check names the missing step, issue 47); the check reports READING;
* ``"unsettled"``: not established either way; the check reports INCONCLUSIVE;
* ``"withdrawn"``: listed as an erratum before, but its counterexample broke a standing
  assumption of the paper; read under it, the statement holds and the check reports PASS.

A text that does not contain the place (the conference version has no appendix) is recorded as
``ABSENT`` with where the statement is instead. ``laocheck errata`` prints the readings under
each entry of ERRATA.md; ``tests/checks/test_errata_doc.py`` asserts that every note has its
reading, that every text of the paper is accounted for, and that the classification is the
note's kind.

The texts are quoted as printed, formulas in the extraction's own notation where it matters
(LaTeX for the HTML text), shortened with “…”. Hand-written: the re-reading is a person's
judgement of the typeset page, which no library does.

This HK12 Lemma 3.3 entry prints the same constant in both texts, so it stays an erratum:

>>> from laocheck.checks._errata_readings import readings
>>> r = readings()["HK12.Lemma3.3.eq9"]
>>> r.verdict, sorted(r.prints)
('erratum', ['HTML', 'PDF'])
"""

from __future__ import annotations

from dataclasses import dataclass

from ..exceptions import InvalidParameterError

__all__ = ["TEXTS", "VERDICTS", "ABSENT", "Reading", "read", "readings"]

#: The texts of each paper, by key, with how ERRATA.md names them.
TEXTS = {
    "CB11": {"JMLR": "the JMLR article"},
    "HK12": {"PDF": "the ICML 2012 PDF", "HTML": "the HTML text (LaTeX sources)"},
    "KS15": {"full": "the full version (with appendix)", "ICML": "the ICML 2015 version"},
}

#: The classifications, each the kind of erratum note it goes with.
VERDICTS = {"erratum": "false in every reading",
            "reading": "an extraction artefact, or a step the paper does not display",
            "unsettled": "not established",
            "withdrawn": "true under the paper's standing assumptions (withdrawn erratum)"}

#: Prefix of a text's entry when the place is not in that text.
ABSENT = "not in this text"


@dataclass(frozen=True)
class Reading:
    """What each text of the paper prints at the place an erratum names.

    Parameters
    ----------
    id : str
        The check id of the erratum note.
    prints : dict
        Text key (of :data:`TEXTS`) to what that text prints there, quoted, or a string
        starting with :data:`ABSENT` and saying where the statement is instead.
    verdict : str
        A key of :data:`VERDICTS`.
    """

    id: str
    prints: dict
    verdict: str

    @property
    def paper(self):
        """The paper's short name (the id's first component)."""
        return self.id.split(".", 1)[0]


_READINGS: dict[str, Reading] = {}


def read(id, verdict="erratum", **prints):
    """Record the re-reading of the erratum ``id``: what each text prints, and the verdict.

    Parameters
    ----------
    id : str
        The check id of an erratum note.
    verdict : str, optional
        A key of :data:`VERDICTS`. Default ``"erratum"``.
    **prints : str
        One keyword per text of the paper (:data:`TEXTS`), e.g. ``PDF=`` and ``HTML=``.

    Raises
    ------
    InvalidParameterError
        When the verdict is unknown, the paper has other texts than those given, or ``id``
        was read already.
    """
    paper = id.split(".", 1)[0]
    if verdict not in VERDICTS:
        raise InvalidParameterError(f"`verdict` must be one of {sorted(VERDICTS)}; got "
                                    f"verdict={verdict!r} for {id!r}.")
    if paper not in TEXTS or set(prints) != set(TEXTS[paper]):
        raise InvalidParameterError(
            f"`prints` must give every text of {paper} ({sorted(TEXTS.get(paper, {}))}); got "
            f"{sorted(prints)} for {id!r}.")
    if id in _READINGS:
        raise InvalidParameterError(f"`id` must be unique; {id!r} was read already.")
    _READINGS[id] = Reading(id=id, prints=dict(prints), verdict=verdict)


def readings():
    """Every recorded reading, by check id.

    Returns
    -------
    dict
        Check id to :class:`Reading`.
    """
    return dict(_READINGS)


# --- CB11 (one text: the JMLR article) --------------------------------------------------------

read("CB11.Fig1.convexity",
     JMLR="“this yields a non-symmetric matrix which will make our optimization problem with the "
          "estimated matrix non-convex. To overcome this obstacle, we symmetrize the matrix by "
          "adding its transpose and dividing by 2” (Sec. 5, before Fig. 1)")
read("CB11.Fig1.objective",
     JMLR="Fig. 1: v̄ = v̄ + 2y·v/m; “Let L̃_S(w) = wᵀĀw + wᵀv̄ + ȳ”; above it, (⟨w, x⟩ − y)² = "
          "wᵀxxᵀw − 2y xᵀw + y²")
read("CB11.Thm6.literal.empirical", verdict="unsettled",
     JMLR="“Then there exists a constant c > 0 such that L_D(ŵ) ≤ min_{‖w‖₁≤B} L_D(w) + "
          "c(dB/k)²√((1/m) ln(d/δ))” (Theorem 6, ŵ the output of Baseline(S, k))")
read("CB11.Lemma8.expectation",
     JMLR="“Based on Lemma 7, it is easy to verify that E[A_t] = x_t^⊤ x_t” (proof of Lemma 8)")
read("CB11.Lemma8.deviation",
     JMLR="|Ā_{r,s} − X_{r,s}| ≤ (d/k)²√((8/m) ln(2d²/δ)), r, s = 1, …, d, X = (1/m)Σ_t x_t x_tᵀ")
read("CB11.Lemma9.proof.step1",
     JMLR="P[∃(r, s) : |Ā_{r,s} − X_{r,s}| > ε] ≤ 2d exp(−(mε²/8)(k/(dB))²) (the union-bound "
          "display of the proof of Lemma 9)")
read("CB11.Thm6.proof.step2", verdict="withdrawn",
     JMLR="|L_D(w) − L̃_S(w)| ≤ |L_D(w) − L_S(w)| + |L_S(w) − L̃_S(w)| ≤ c(dB/k)²√((1/m) ln(d/δ)), "
          "after Lemma 10's bound (Bd/k)²√((32/m) ln(2d²/δ)) “upon slight simplifications”")
read("CB11.Eq7.vector",
     JMLR="“we estimate the term ⟨w, x⟩ by ŷ = (2/k)‖w‖₁ Σ_{s=1}^{k/2} sgn(w_{j_s}) x_{j_s} e_{j_s}. (7)”")
read("CB11.Lemma11.text",
     JMLR="“we randomly pick j_1, …, j_{k/2} from [d] without replacement according to the "
          "distribution defined by w”; Lemma 11: E ∇̃ℓ(w) = 2(⟨w, x⟩ − y)x = ∇ℓ(w)")
read("CB11.Thm12.lambda", verdict="unsettled",
     JMLR="Theorem 12: “run with λ = 12d√(log(m)/(mk))”; the proof: “Choosing λ = "
          "16d√(log(m)/(km))”")
read("CB11.Thm12.proof.step4",
     JMLR="Σ_t 2(ŷ_t − y_t)⟨v_t, w_t − w*⟩ = Σ_t((λ/2)‖w_t‖²₂ + 2(ŷ_t − y_t)⟨v_t, w_t⟩) − "
          "Σ_t((λ/2)‖w*‖²₂ + 2(ŷ_t − y_t)⟨v_t, w*⟩) + m(λ/2)‖w*‖²₂")
read("CB11.Thm12.proof.step6",
     JMLR="Σ_t f_t(w_t) − Σ_t f_t(w*) ≤ (1/λ)(max_t ‖∇f_t(w_t)‖²) ln m, “which remains valid also "
          "in the presence of the projection steps (11)”")

# --- HK12 (PDF text and HTML text) ------------------------------------------------------------

read("HK12.Lemma3.3.eq9",
     PDF="E_t[‖x̃_t‖²₂] = (1/k²)Σ_r E_t[‖x̃_{t,r}‖²₂] + (1/k²)Σ_{r≠s}‖x_t‖²₂ = (2d + k − 1)/(2k)·"
         "‖x_t‖²₂ (9)",
     HTML="\\frac{2d+k-1}{2k}\\lVert\\mathbf{x}_{t}\\rVert_{2}^{2} (9)")

read("HK12.Thm3.4.eta",
     PDF="“when run with η = (1/(4B²))√(2k log 2d/(5md)) … E[L_D(w̄)] ≤ L_D(w⋆) + "
         "4B²√(10d log 2d/(km))” (Theorem 3.4)",
     HTML="\\eta=\\frac{1}{4B^{2}}\\sqrt{\\frac{2k\\log 2d}{5md}}; "
          "L_{\\mathcal{D}}(\\mathbf{w}_{\\star})+4B^{2}\\sqrt{\\frac{10d\\log 2d}{km}}")
read("HK12.Thm3.4.literal",
     PDF="‖x‖∞ ≤ 1, |y| ≤ B; η = (1/(4B²))√(2k log 2d/(5md)); E[L_D(w̄)] ≤ L_D(w⋆) + "
         "4B²√(10d log 2d/(km)) for any ‖w⋆‖₁ ≤ B, provided that m ≥ log 2d (Theorem 3.4)",
     HTML="\\lVert\\mathbf{x}\\rVert_{\\infty}\\leqslant 1, \\lvert y\\rvert\\leqslant B; "
          "\\eta=\\frac{1}{4B^{2}}\\sqrt{\\frac{2k\\log 2d}{5md}}; "
          "+4B^{2}\\sqrt{\\frac{10d\\log 2d}{km}}")
read("HK12.Alg2.line9",
     PDF="1: Initialize z⁺₁ ← 1_d, z⁻₁ ← 1_d … 3: w_t ← (z⁺_t − z⁻_t)·B/(‖z⁺_t‖₁ + ‖z⁻_t‖₁) … "
         "9: Choose j_t ∈ [d] with probability |w[j]|/‖w‖₁, and observe x_t[j_t]",
     HTML="\\mathbf{z}^{+}_{1}\\leftarrow\\mathbf{1}_{d}, \\mathbf{z}^{-}_{1}\\leftarrow"
          "\\mathbf{1}_{d}; probability \\lvert\\mathbf{w}[j]\\rvert/\\lVert\\mathbf{w}\\rVert_{1}")
read("HK12.Lemma3.8.A5_data_point",
     PDF="E_t[x̃²_t] = (1/k²)Σ_r E_t[x̃²_{t,r}] + (1/k²)Σ_{r≠s} x²_t = (d + k − 1)/k · x_t (App. A.5)",
     HTML="=\\frac{d+k-1}{k}\\mathbf{x}_{t} (no square in the source either)")
read("HK12.Lemma3.8.A5_inner",
     PDF="E_t[ỹ²_t] = ‖w_t‖₁ Σ_j |w_t[j]| x_t[j]² ≤ ‖w_t‖²₁‖w²_t‖∞ ≤ B² (App. A.5)",
     HTML="\\lVert\\mathbf{w}_{t}\\rVert_{1}\\sum_{j=1}^{d}\\lvert\\mathbf{w}_{t}[j]\\rvert\\,"
          "\\mathbf{x}_{t}[j]^{2}\\leqslant\\lVert\\mathbf{w}_{t}\\rVert_{1}^{2}\\lVert"
          "\\mathbf{w}_{t}^{2}\\rVert_{\\infty}\\leqslant B^{2}")
read("HK12.Lemma4.1.second_moment",
     PDF="E[φ²] ≤ … ≤ (4B)^{2ν}·2(f′₊(1))² = exp(O(log² B)), ν := 2 log₂ N (App. A.6)",
     HTML="\\leqslant(4B)^{2\\nu}\\cdot 2(f_{+}^{\\prime}(1))^{2}=\\exp(O(\\log^{2}{B}))")
read("HK12.Lemma4.1.proof.step3",
     PDF="E[φ̂] = Σ_n (1/2^{n+1}) E[2^{n+1} a_n·θ̃₁θ̃₂···θ̃_n] = Σ_n a_n θⁿ = f(θ), “thus φ̂ is an "
         "unbiased estimator of f′(θ)”",
     HTML="=\\sum_{n=0}^{\\infty}\\frac{1}{2^{n+1}}\\mathbf{E}[2^{n+1}a_{n}\\cdot\\tilde{\\theta}_{1}"
          "\\cdots\\tilde{\\theta}_{n}]=\\sum_{n=0}^{\\infty}a_{n}\\theta^{n} =f(\\theta)")
read("HK12.Lemma4.1.proof.step5",
     PDF="“if n ≤ ν then for all r, E[θ̃²_r] ≤ 4B², and otherwise E[θ̃²_r] ≤ 4B²/N ≤ 1”",
     HTML="n\\leqslant\\nu … \\leqslant 4B^{2}, and otherwise … \\leqslant 4B^{2}/N\\leqslant 1")
read("HK12.Lemma4.1.proof.step8",
     PDF="E[φ²] = 2Σ_n a²_n E[2ⁿ·θ̃²₁θ̃²₂···θ̃²_n] ≤ 2Σ_{n≤ν} a²_n(8B²)ⁿ + 2Σ_{n>ν} a²_n",
     HTML="=2\\sum_{n=0}^{\\infty}a_{n}^{2}\\mathbf{E}[2^{n}\\cdot\\tilde{\\theta}_{1}^{2}\\cdots"
          "\\tilde{\\theta}_{n}^{2}] \\leqslant 2\\sum_{n\\leqslant\\nu}a_{n}^{2}(8B^{2})^{n}"
          "+2\\sum_{n>\\nu}a_{n}^{2}")
read("HK12.Lemma4.1.proof.step10",
     PDF="≤ 2(8B²)^ν Σ_n a²_n + 2Σ_n a²_n ≤ (4B)^{2ν}·2(f′₊(1))²",
     HTML="\\leqslant 2(8B^{2})^{\\nu}\\sum_{n=0}^{\\infty}a_{n}^{2}+2\\sum_{n=0}^{\\infty}"
          "a_{n}^{2} \\leqslant(4B)^{2\\nu}\\cdot 2(f_{+}^{\\prime}(1))^{2}")
read("HK12.Thm4.4.proof.step3", verdict="withdrawn",
     PDF="“since ‖x′_t‖₂ ≤ 1/ε and |y±_t| ≤ 2B/ε, according to the same lemma we have "
         "E_t[φ̃²_t] = exp(O(log² (B/ε)))”",
     HTML="\\lVert\\mathbf{x}_{t}^{\\prime}\\rVert_{2}\\leqslant\\tfrac{1}{\\varepsilon}, "
          "\\lvert y_{t}^{\\pm}\\rvert\\leqslant 2\\tfrac{B}{\\varepsilon}; "
          "=\\exp(O(\\log^{2}{\\tfrac{B}{\\varepsilon}}))")
read("HK12.LemmaA.1.proof.step2",
     PDF="log‖z_{T+1}‖₁ = log n + Σ_t log(1 − ηp_tᵀc_t + η²p_tᵀc²_t) ≤ log n − ηΣ_t p_tᵀc_t + "
         "η²Σ_t p_tᵀc²_t (App. A.2, “by induction”)",
     HTML="\\log\\lVert\\mathbf{z}_{T+1}\\rVert_{1} =\\log n+\\sum_{t=1}^{T}\\log(1-\\eta"
          "\\mathbf{p}_{t}^{\\top}\\mathbf{c}_{t}+\\eta^{2}\\mathbf{p}_{t}^{\\top}\\mathbf{c}_{t}^{2})")
read("HK12.ThmB.1.proof.step1",
     PDF="L_D(w) ≤ L_D(w⋆) + δε ≤ 1 − 2(1 − δ)ε “Where in the first inequality we used Lemma B.4”",
     HTML="L_{\\mathcal{D}}(\\mathbf{w})\\leqslant L_{\\mathcal{D}}(\\mathbf{w}^{\\star})+\\delta"
          "\\varepsilon\\leqslant 1-2(1-\\delta)\\varepsilon; the same sentence")

# --- KS15 (full version and ICML version) -----------------------------------------------------

_NO_APPENDIX = (ABSENT + ": the ICML version's proofs are in its supplementary appendix, which "
                "is not part of it")

read("KS15.Lemma3.2.proof.step2",
     full="E_{D,A}‖x̃_t‖²₂ = (1/k)E_{D,A}‖x̃_{t,r}‖²₂ + ((k² − k)/k²)E_D[‖x‖₂]², “Since "
          "E_{D,A}[x̃_{t,r}] = E_D[x] and x̃_{t,r} and x̃_{t,s} are independent of each other” "
          "(App. B.2)",
     ICML=_NO_APPENDIX + " (Lemma 3.2 is stated there, its proof is not)")
read("KS15.Thm3.6.literal", verdict="unsettled",
     full="Theorem 3.6 (known ‖E_D[x²]‖_{1/2}): η = max(√(k/(6dm₂)), √(k/(m₂(2N + "
          "2√(5/3)·d√N·√(ε + k))))), the radicals' extent as the extraction gives it",
     ICML=ABSENT + ": the known-moment variant of Two-Phased DDAERR is only in the full version")
read("KS15.Lemma3.7.prob1",
     full="“For all m₁ and t > m₁, with probability 1 over the first phase, we have "
          "E_{D,A₂}[‖x̃_{t,r}‖²₂] ≤ 5d” (Lemma 3.7)",
     ICML=ABSENT + ": the lemma is not stated; its bound enters Theorem 3.4's first part, "
          "(4B²/√m₂)√(6d/k), as in the full version's Theorem 3.12")
read("KS15.Lemma3.10.proof_step_size",
     full="“By Lemma 3.8, using η = √(k/(12dm₂)), we have with probability 1, E_{D,A₂}[L_D(w̄)] − "
          "L_D(w*) ≤ 4B²√(6d/(km₂))” (App. B.7)",
     ICML=_NO_APPENDIX)
read("KS15.Thm3.12.bound", verdict="reading",
     full="(16B²/√m₂)·√((1/k)(√N + d√(2d log(2d/δ)/((k + 1)m₁)))²) + 1 as the LaTeX extraction "
          "closes the root before “+ 1”",
     ICML="Theorem 3.4: “≤ (16B²/√m₂) × √√√√ …”: one tall radical (the extraction's stacked √) "
          "over the whole expression, “+ 1” inside it")
read("KS15.Alg3.line9",
     full="Algorithm 3 (GAELR): 1: z⁺₁ ← 1_d, z⁻₁ ← 1_d; 3: w_t ← (z⁺_t − z⁻_t)B/(‖z⁺_t‖₁ + "
          "‖z⁻_t‖₁); 9: choose j_t with probability |w_t[j]|/‖w_t‖₁",
     ICML=ABSENT + ": GAELR is described in the text and its pseudo-code is in the "
          "supplementary appendix, which is not part of it")
read("KS15.Alg4.line1", verdict="withdrawn",
     full="Algorithm 4 (Two-Phased DDAELR), line 1: “Initialize w₁ ≠ 0, ‖w₁‖₂ ≤ B arbitrarily”",
     ICML=ABSENT + ": “DDAELR algorithm (Algorithm 4 in Appendix A.3)”, not part of it")
read("KS15.Thm4.1.text_aelr_eta",
     full="“G² ≤ 8B²d/k, which together with Theorem 4.1 and using η = 2B/(G√m) yields an "
          "expected risk bound of 4B²√(10d log 2d/(km))”",
     ICML="“G² ≤ 8B²d/k, which together with Theorem 4.1 and using η = 2B/(G√m) yields an "
          "expected excess risk bound of 4B²√(10d log 2d/(km))” (the same)")
read("KS15.Lemma4.2",
     full="“‖E_{D,A}[x̃²_t]‖∞ = max_i (1/k)E_{D,A}[x̃²_{t,r}[i]] + ((k − 1)/k)E_D[‖x‖∞]²” "
          "(Lemma 4.2)",
     ICML="Lemma 4.2 is another statement: ‖E_{D,A}[g̃²_t]‖∞ ≤ 4B²((1/k)‖E_{D,A}[x̃²_{t,r}]‖∞ + "
          "1), the full version's Lemma 4.5 (check KS15.Lemma4.5, PASS); the erratum is the full "
          "version's Lemma 4.2 alone")
read("KS15.Lemma4.2.proof.step1",
     full="‖E[((1/k)Σ_r x̃_{t,r}[i])²]‖∞ = ‖(1/k²)Σ_r E[x̃²_{t,r}[i]] + (1/k²)Σ_{r≠s} "
          "E[x̃_{t,r}[i]²]‖∞ (App. B.9, first display)",
     ICML=_NO_APPENDIX)
read("KS15.Lemma4.4.proof.step1",
     full="E_{D,A}[φ̃²_t] = E_{D,A}[((w_{t,j}x_t[j_t] − y_t)/p_j)²] (App. B.11)",
     ICML=_NO_APPENDIX)
read("KS15.Thm4.6.text_footnote4",
     full="footnote 4: “If ‖E_D[x²]‖₁ = d it is easy to see that E_D[x_i] = 1 for all i ∈ [d]. "
          "In this case, all the q_i-s are equal to 1/d and the DDAELR and AELR algorithms "
          "coincide.”",
     ICML="“… = d we have that E_D[x_i] = 1 for all i ∈ [d]. In this case, all the q_i-s are "
          "equal to 1/d and the DDAELR and AELR algorithms coincide.” (the same)")
read("KS15.Thm4.7.as_any_m1",
     full="Theorem 4.7: “If m₂ ≥ log 2d then for any m₁ … with probability 1 over the first "
          "phase we have E_{D,A₂}[L_D(w̄)] − L_D(w*) ≤ 61B²√(d log 2d/(km₂))”",
     ICML="Theorem 4.5, the same statement: “If m₂ ≥ log 2d then for any m₁ … ≤ "
          "61B²√(d log 2d/(km₂))”")
read("KS15.Thm4.7.text_m1_regime",
     full="“If m₁ ≥ d² log(2d/δ)/((k + 1)‖E_D[x²]‖₁), the expected risk bound turns to "
          "O((B²/√(km₂))√(‖E_D[x²]‖₁ + k)), which is the same bound as in the regular DDAELR”",
     ICML="the same sentence after Theorem 4.5: “… the expected excess risk bound turns to "
          "O((B²/√(km₂))√(‖E_D[x²]‖₁ + k)), which is the same bound as in the regular DDAELR "
          "algorithm”")
read("KS15.Thm4.7.proof.step2",
     full="“Plugging η = √(log 2d/(Ĝ²m₂)) = √(k log 2d/(20B²m₂(8‖A‖₁ + 20dε + k)))”, Ĝ² = "
          "4B²((4/k)‖2A + (10/3)ε‖₁ + (20/(3k))dε + 1) (Sec. 4.2.1)",
     ICML=ABSENT + ": the proof of Theorem 4.5 is in the supplementary appendix (C.14), not "
          "part of it; Theorem 4.5's η is the same, √(k log 2d/(20B²m₂(8‖A‖₁ + 20d·min(…, 1) "
          "+ k)))")
read("KS15.Thm4.7.proof.step10", verdict="withdrawn",
     full="“If ε = 1, we have 4B²√(5(16‖E_D[x²]‖₁ + (88/3)dε + k) log 2d/(km₂)) ≤ "
          "61B²√(d log 2d/(km₂))” (Sec. 4.2.1)",
     ICML=ABSENT + ": the proof of Theorem 4.5 is in the supplementary appendix (C.14), not "
          "part of it")
read("KS15.Eq11-12.values", verdict="unsettled",
     full="Sec. 5.1: ρ_ridge = 1, 0.91, 0.55, 0.05 and ρ_lasso = 1, 0.086, 0.014, 0.0033 for "
          "α = 0, −0.5, −1, −2",
     ICML="figure captions: ρRidge = 1, 0.91, 0.55, 0.05; ρLasso = 1, 0.086, 0.014, 0.0033 "
          "(the same)")
read("KS15.LemmaB.5.proof.step2", verdict="reading",
     full="log‖z_{T+1}‖₁ = log Σ_i Π_t e^{ηc_t[i]} ≥ log Π_t e^{ηc_t[i*]} = −ηΣ_t c_t[i*] "
          "(App. B.8; the exponent's sign lost, HK12 Lemma A.1 prints e^{−ηc_t[i]})",
     ICML=_NO_APPENDIX)
read("KS15.LemmaB.8.proof.step2",
     full="|E[X̄] − E[X]| ≤ ∫_{x<−C}(x + C)dμ + ∫_{x>C}(x − C)dμ ≤ ∫_{x>C}(x − C)dμ ≤ … "
          "(App. B.8)",
     ICML=_NO_APPENDIX)
read("KS15.LemmaB.9.proof.step3",
     full="“‖E_{D,A}[g̃_t − ḡ_t]‖∞ ≤ 2ηG². Together with ‖w_t − w*‖₁ ≤ 2B, this implies "
          "E_{D,A}[(g̃_t − ḡ_t)ᵀ(w_t − w*)] ≤ 4ηG²” (App. B.8)",
     ICML=_NO_APPENDIX)
