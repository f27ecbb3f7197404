"""Build of the compiled cores (C99): the solver's and the environments' deal; everything
else is in pyproject.toml."""

from setuptools import Extension, setup

FLAGS = ["-O3", "-std=c99", "-Wall", "-Wextra", "-Wno-unused-parameter"]

setup(
    ext_modules=[
        Extension("paston.solver._core", ["src/paston/solver/_core.c"], extra_compile_args=FLAGS),
        Extension(
            "paston.env._fastdeal",
            ["src/paston/env/_fastdeal.c", "src/paston/env/_fastdeal_deal.c", "src/paston/env/_fastdeal_show.c"],
            depends=["src/paston/env/_fastdeal.h"],
            extra_compile_args=FLAGS,
        ),
    ]
)
