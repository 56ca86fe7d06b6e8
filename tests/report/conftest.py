"""The three standard reports rendered once per test session at the specs' tiny effort."""

import pytest

from laocheck.report import KINDS, SPECS_DIR, Context, build_report, load_spec

SPECS = SPECS_DIR
NAMES = ("bounds", "verification", "rho")
SEED = 3


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """{name: BuiltReport} of the three standard reports (effort tiny, seed 3)."""
    out = tmp_path_factory.mktemp("reports")
    return {name: build_report(load_spec(SPECS / f"{name}.toml", KINDS), out, effort="tiny",
                               ctx=Context(seed=SEED, effort="tiny"))
            for name in NAMES}
