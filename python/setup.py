"""Builds the compiled core with the repository's CMake and installs it with the package.

    pip install --no-build-isolation ./python

The extension is configured from the repository root (this file's parent directory), so pip
must build in place (the default for a local directory since pip 21.3).
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


class CMakeExtension(Extension):
    def __init__(self, name: str):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        if not (ROOT / "CMakeLists.txt").exists():
            raise RuntimeError(f"pagesim must be built from its repository: no {ROOT / 'CMakeLists.txt'}")
        build = Path(self.build_temp).resolve() / "cmake"
        build.mkdir(parents=True, exist_ok=True)
        subprocess.check_call([
            "cmake", "-S", str(ROOT), "-B", str(build),
            f"-DPython_EXECUTABLE={sys.executable}",
            "-DCMAKE_BUILD_TYPE=Release",
            "-DPAGESIM_TESTS=OFF", "-DPAGESIM_BENCH=OFF", "-DPAGESIM_PYTHON=ON",
        ])
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.check_call(["cmake", "--build", str(build), "--target", "_core", "-j", jobs])
        built = next((build / "python" / "pagesim").glob("_core*.so"))
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


setup(
    packages=["pagesim"],
    package_data={"pagesim": ["py.typed", "*.pyi"]},
    ext_modules=[CMakeExtension("pagesim._core")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
