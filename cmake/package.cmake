# The Debian package (`cpack --config <build>/CPackConfig.cmake`, scripts/check-deb.sh; docs/decisions.md,
# "Debian package"): what `cmake --install` installs - the command, the library, its headers, the CMake
# package, the data, the Python module, the man page, the bash completion and the citable files -
# under /usr, with the run-time dependencies found by dpkg-shlibdeps plus those the headers, the
# renderer and the module need.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME rigidbench)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "verification and benchmark harness for rigid-body time integrators")
set(CPACK_PACKAGE_DESCRIPTION
    "rigidbench judges time integrators for rigid bodies (SO(3), SE(3), SE(3)^n, director and nonholonomic formulations): order of accuracy, Q_II, exact invariants, errors against references with their own error estimates, cost per step, head-to-head comparisons with the published schemes, and a regression gate for CI.")
set(CPACK_PACKAGE_CONTACT "The rigidbench developers <rigidbench@localhost>")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CMAKE_INSTALL_LIBDIR})
# Not seen by dpkg-shlibdeps: the headers' public dependencies (find_package(rigidbench)), the
# renderer's and validator's Python, the module's numpy.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libeigen3-dev, nlohmann-json3-dev, python3, python3-numpy, python3-matplotlib, python3-jsonschema")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "valgrind, openmpi-bin, chromium, poppler-utils")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3-plotly")   # the report's interactive figures; without it the static ones alone
include(CPack)
