"""The one compiled part of dicelab (the Yahtzee solver's turn chain): optional, so that a
machine without a C compiler still installs the package, which then uses numpy instead."""
import sys

from setuptools import Extension, setup

setup(ext_modules=[Extension(
    "dicelab.odds._yahtzee_kernel", ["dicelab/odds/_yahtzee_kernel.c"], optional=True,
    extra_compile_args=[] if sys.platform == "win32" else ["-O3"])])
