"""`pip install` of the rigidbench Python module from the source tree (docs/python.md, "pip install").

    python3 -m venv --system-site-packages .venv        # Debian's python3 is externally managed (PEP 668)
    .venv/bin/pip install --no-build-isolation --no-index .

No network: setuptools, the compiler, CMake and pybind11 are Debian's (scripts/install-deps.sh), and
--no-build-isolation keeps pip from fetching setuptools. The build is CMake's, the release settings
with only the library and the module: the wheel holds the module and librigidbench beside it (found
through the module's RPATH $ORIGIN); the command line (`rigidbench report` and the rest) is not part
of it - that is the Debian package's or `cmake --install`'s. numpy is not
declared (pip would try to fetch it): the venv's system site packages give Debian's, and an
interpreter without any gets Debian's through rigidbench_debian_numpy. RIGIDBENCH_CMAKE_ARGS adds
CMake options (the CI test passes -DRIGIDBENCH_WERROR=ON, the release preset's, to reuse its cache).
"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))


def version():
    """The CMake project's version (rigidbench --version, CITATION.cff, rigidbench.__version__)."""
    with open(os.path.join(HERE, "CMakeLists.txt")) as f:
        return re.search(r"project\(rigidbench VERSION (\d+\.\d+\.\d+)", f.read()).group(1)


class CMakeBuild(build_ext):
    """Builds the module with CMake and lays out the package folder of the wheel."""

    def build_extension(self, ext):
        # build/wheel: as deep in the tree as the presets' folders, so that with ccache (CCACHE_BASEDIR
        # is the source tree) the command lines, relative, equal the release preset's and hit its cache.
        build = os.path.join(HERE, "build", "wheel")
        pkg = os.path.dirname(os.path.abspath(self.get_ext_fullpath(ext.name)))
        configure = ["cmake", "-S", HERE, "-B", build, "-DCMAKE_BUILD_TYPE=Release", f"-DRIGIDBENCH_PYTHON={sys.executable}",
                     "-DRIGIDBENCH_BUILD_TESTS=OFF", "-DRIGIDBENCH_BUILD_BENCHMARKS=OFF", "-DRIGIDBENCH_WHEEL=ON",
                     # The wheel holds librigidbench alone: no engine (docs/python.md, "pip install").
                     "-DRIGIDBENCH_WITH_ENGINES=OFF"]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        configure += shlex.split(os.environ.get("RIGIDBENCH_CMAKE_ARGS", ""))
        subprocess.check_call(configure)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
        subprocess.check_call(["cmake", "--build", build, "-j", jobs, "--target", "rigidbench_python"])
        os.makedirs(pkg, exist_ok=True)
        built = glob.glob(os.path.join(build, "python", "rigidbench", "_rigidbench*.so"))
        shutil.copy2(built[0], self.get_ext_fullpath(ext.name))
        # The library under its soname (what the module's DT_NEEDED names: major.minor of this
        # version, not whichever an earlier build left in the folder), the file itself: a wheel
        # cannot hold symbolic links.
        major, minor = version().split(".")[:2]
        soname = os.path.join(build, f"librigidbench.so.{major}.{minor}")
        shutil.copy2(soname, os.path.join(pkg, os.path.basename(soname)))


setup(
    name="rigidbench",
    version=version(),
    description="Verification and benchmark harness for rigid-body time integrators",
    license="Apache-2.0",
    python_requires=">=3.9",
    packages=["rigidbench"],
    package_dir={"": "python"},
    py_modules=["rigidbench_debian_numpy"],
    ext_modules=[Extension("rigidbench._rigidbench", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
