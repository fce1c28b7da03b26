"""The one C extension, the bots' double-dummy solver; everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("tysiac.bots._dd", ["src/tysiac/bots/_dd.c"], extra_compile_args=["-O2"]),
    ]
)
