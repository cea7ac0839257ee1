// A shared object that is not a rigidbench plugin and does something the moment it is loaded: its
// constructor writes the file $HOSTILE_CTOR_MARK. tests/dart_plugin_path.py hands it to rigidbench as
// RIGIDBENCH_DART_PLUGIN and checks that the file never appears (docs/security.md, "Plugins").
#include <cstdio>
#include <cstdlib>

namespace {
__attribute__((constructor)) void announce() {
  if (const char* mark = std::getenv("HOSTILE_CTOR_MARK"))
    if (std::FILE* f = std::fopen(mark, "w")) {
      std::fputs("a foreign library's constructor ran\n", f);
      std::fclose(f);
    }
}
}  // namespace
