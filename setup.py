"""Build of the compiled cores (C99): the solver's and the environments' deal; everything
else is in pyproject.toml."""

from setuptools import Extension, setup

FLAGS = ["-O3", "-std=c99", "-Wall", "-Wextra", "-Wno-unused-parameter"]

setup(
    ext_modules=[
        Extension(
            "paston.solver._core",
            [f"src/paston/solver/{part}.c" for part in ("_core", "_core_tables", "_core_tricks", "_core_maxn")],
            depends=["src/paston/solver/_core.h"],
            extra_compile_args=FLAGS,
        ),
        Extension(
            "paston.env._fastdeal",
            ["src/paston/env/_fastdeal.c", "src/paston/env/_fastdeal_deal.c", "src/paston/env/_fastdeal_show.c"],
            depends=["src/paston/env/_fastdeal.h"],
            extra_compile_args=FLAGS,
        ),
    ]
)
