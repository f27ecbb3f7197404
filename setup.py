"""Build of the compiled cores (C99): the solver's and the environments' deal; everything
else is in pyproject.toml."""

from pathlib import Path

from setuptools import Extension, setup

FLAGS = ["-O3", "-std=c99", "-Wall", "-Wextra", "-Wno-unused-parameter"]
SOLVER_PARTS = sorted(str(p) for p in Path("src/paston/solver").glob("_core*.c"))
assert SOLVER_PARTS, "the solver's C core is missing (src/paston/solver/_core*.c)"
FASTDEAL_PARTS = [f"src/paston/env/_fastdeal{part}.c" for part in ("", "_deal", "_show")]

setup(
    ext_modules=[
        Extension(
            "paston.solver._core",
            SOLVER_PARTS,
            depends=["src/paston/solver/_core.h"],
            extra_compile_args=FLAGS,
        ),
        Extension(
            "paston.env._fastdeal",
            FASTDEAL_PARTS,
            depends=["src/paston/env/_fastdeal.h"],
            extra_compile_args=FLAGS,
        ),
    ]
)
