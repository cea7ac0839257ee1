"""Debian's python3-numpy for another interpreter of the same Python version (pyenv, a venv) that has
no numpy of its own (docs/python.md, "Interpreters").

Importing this module appends one finder to the end of sys.meta_path. It answers only for the name
`numpy`, and only after every other finder has failed, so an interpreter's own numpy always wins and
no other Debian package becomes visible. numpy's submodules are then found through numpy.__path__.
The rigidbench.pth that scripts/install-python.sh writes imports it at start-up, so `import numpy`
works before `import rigidbench` as after it; rigidbench/__init__.py imports it when numpy is missing.
"""
import importlib.machinery
import os
import sys

DEBIAN_DIST_PACKAGES = "/usr/lib/python3/dist-packages"


class DebianNumpyFinder:
    """A meta path finder for `numpy` in Debian's dist-packages alone."""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name != "numpy":
            return None
        return importlib.machinery.PathFinder.find_spec(name, [DEBIAN_DIST_PACKAGES])


def install():
    """Appends the finder once; nothing when Debian's numpy is not installed."""
    if DebianNumpyFinder in sys.meta_path:
        return False
    if not os.path.isdir(os.path.join(DEBIAN_DIST_PACKAGES, "numpy")):
        return False
    sys.meta_path.append(DebianNumpyFinder)
    return True


install()
