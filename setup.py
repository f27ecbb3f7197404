"""Build of the compiled solver core (C99); everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "paston.solver._core",
            ["src/paston/solver/_core.c"],
            extra_compile_args=["-O3", "-std=c99", "-Wall", "-Wextra", "-Wno-unused-parameter"],
        )
    ]
)
