"""Build the Cython kernels of laocheck (metadata lives in pyproject.toml).

The kernels compile without bounds checks; set LAOCHECK_CYTHON_DEBUG=1 at build time to turn
bounds checking, wraparound and initialised-memory checks back on (used to test the kernels).
"""
import os

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("LAOCHECK_CYTHON_DEBUG", "0") not in ("", "0")
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "embedsignature": True,
}
MODULES = ["estimators._samplers", "estimators._kernels", "learners._ridge", "learners._lasso",
           "learners._aer", "learners._adaptive", "learners._full", "data._oracle"]

extensions = [
    Extension(
        f"laocheck.{name}",
        [f"src/laocheck/{name.replace('.', '/')}.pyx"],
        include_dirs=[np.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_9_API_VERSION")],
        extra_compile_args=["-O3"] if not DEBUG else ["-O0", "-g"],
    )
    for name in MODULES
]

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES))
