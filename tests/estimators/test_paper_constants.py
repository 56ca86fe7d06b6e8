"""HK12's constants are typed twice, once for the literal reference and once for the fast path
(laocheck.estimators._paper_constants), and agree; the fast path uses the reference only in
the protocol's reference side, so a slip in the reference no longer moves the kernels (issue
47, oracle independence)."""
import ast
from pathlib import Path

import numpy as np
import pytest

from laocheck import estimators
from laocheck.estimators import _families, _paper_constants as fast
from laocheck.reference import estimators as ref

FAMILIES = Path(_families.__file__).with_suffix(".py")


def test_the_coefficients_of_eq7_agree_exactly():
    assert np.array_equal(fast.aesvr_coefficients(), ref.aesvr_coefficients())
    for n_terms in (1, 2, 3, 40, 339, 340, 341):
        assert np.array_equal(fast.aesvr_coefficients(n_terms), ref.aesvr_coefficients(n_terms))
    assert estimators.aesvr_coefficients is fast.aesvr_coefficients


@pytest.mark.parametrize("B", [0.1, 0.5, 0.6, 0.75, 1.0, 1.5, 2.0, 3.3, 1e3, 2.0 ** 30])
def test_genest_n_agrees(B):
    assert fast.genest_sample_size(B) == ref.genest_sample_size(B)


def test_genest_small_orders_agree_and_sit_on_the_boundary():
    for N in range(1, 2049):
        assert fast.genest_small_orders(N) == ref.genest_small_orders(N)
    assert fast.genest_small_orders(4) == 4 and fast.genest_small_orders(5) == 4  # n = 2 log2 N


def test_bad_n_terms_is_refused_by_both():
    for bad in (0, 342, 2.0, True):
        for side in (fast, ref):
            with pytest.raises(ValueError, match="n_terms"):
                side.aesvr_coefficients(bad)


def test_a_slip_in_the_reference_does_not_move_the_fast_path(monkeypatch):
    est = estimators.get("HK12.AESVR.residual", B=1.5, eps=0.5, delta=0.1)
    monkeypatch.setattr(ref, "genest_sample_size", lambda B: 2 * int(np.ceil(4 * B * B)))
    monkeypatch.setattr(ref, "aesvr_coefficients",
                        lambda n_terms=None: 2 * fast.aesvr_coefficients(n_terms))
    assert fast.genest_sample_size(1.5) == 9
    assert not np.array_equal(estimators.aesvr_coefficients(), ref.aesvr_coefficients())
    assert est._genest_constants()[0] == 9                  # N = ⌈4·1.5²⌉, the paper's
    assert np.array_equal(est.coefficients, fast.aesvr_coefficients())


def test_the_families_use_the_reference_only_in_their_reference_side():
    tree = ast.parse(FAMILIES.read_text())
    users = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for sub in ast.walk(node):
                if (isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name)
                        and sub.value.id == "ref"):
                    users.add(node.name)
    assert users <= {"_reference", "_exact_distributions"}, users
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                and (n.module or "").startswith("reference") for a in n.names}
    assert imported == {"estimators"}          # `from ..reference import estimators as ref`
