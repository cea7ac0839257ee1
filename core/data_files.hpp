#pragma once
// Where rigidbench finds the files it ships beside its code: the report renderer (render/...) and the
// JSON Schemas (schema/...). Installed, they live in <prefix>/share/rigidbench/; in a build tree, in
// the source tree's reports/ folder. The installed library finds its own prefix from its location on
// disk, so an installed `rigidbench` never reads the source tree (and works after the source is gone).
#include <string>

namespace rigidbench {

/// The folder holding render/ and schema/: $RIGIDBENCH_DATA_DIR if set, else <prefix>/share/rigidbench
/// when the library runs from an installation, else the source tree's reports/ folder.
std::string data_dir();
/// data_dir()/relative; throws InputError naming the path if the file does not exist.
std::string data_file(const std::string& relative);
/// The python3 that renders reports ($RIGIDBENCH_PYTHON, else the one found at configure time).
std::string python_executable();

}  // namespace rigidbench
