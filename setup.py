"""Builds the candor Python package: the extension candor._core is compiled by the project's CMake build
(CANDOR_BUILD_PYTHON=ON) and placed beside the pure-Python modules in python/candor.

Offline, into a virtual environment that sees Debian's numpy, pandas and scikit-learn:
    python3 -m venv --system-site-packages .venv
    .venv/bin/pip install --no-build-isolation --no-index .

With CANDOR_BUILD_DIR naming a CMake build configured with CANDOR_BUILD_PYTHON=ON for the same Python (as
scripts/build.sh configures build/), the extension is built there, linking the library that build already
compiled, instead of compiling the library again in build-python/.
"""
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = os.environ.get("CANDOR_BUILD_DIR")
        if build_dir:
            build_dir = os.path.abspath(build_dir)
            if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
                raise RuntimeError(f"CANDOR_BUILD_DIR={build_dir} is not a configured CMake build")
        else:
            build_dir = os.path.join(ROOT, "build-python")
            os.makedirs(build_dir, exist_ok=True)
            subprocess.check_call(["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                                   "-DCANDOR_BUILD_PYTHON=ON", "-DCANDOR_BUILD_TESTS=OFF", "-DCANDOR_BUILD_BENCH=OFF",
                                   # Sources compiled in batches: half the time of one by one.
                                   "-DCMAKE_UNITY_BUILD=ON",
                                   f"-DPython3_EXECUTABLE={sys.executable}"])
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "_core", "-j", str(os.cpu_count() or 1)])
        built = [f for f in os.listdir(build_dir) if f.startswith("_core") and f.endswith(".so")]
        if not built:
            raise RuntimeError("the CMake build produced no _core extension")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(build_dir, built[0]), target)


setup(
    name="candor",
    version="0.3.0",
    description="Rule learning whose rules tell the truth about themselves",
    package_dir={"": "python"},
    packages=["candor"],
    ext_modules=[CMakeExtension("candor._core")],
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.9",
)
