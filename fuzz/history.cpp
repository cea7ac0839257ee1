// libFuzzer target: a run history (SQLite, tracking/history.hpp; docs/history.md) on arbitrary bytes
// written as the history file, opened as `history` opens it (read) and as `verify --history` does
// (record), then read back: integrity check, run count, trends. A history is outside input
// (docs/security.md): a file that is not one rigidbench wrote - another layout, a trigger or a view
// added, a corrupt page - must be an InputError, never a crash, a hang or another exception; one that
// is accepted reads without error.
#include <cstdlib>
#include <filesystem>
#include <string>

#include "fuzz.hpp"
#include "../tracking/history.hpp"

namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rigidbench;
  // Under /dev/shm when it is there: SQLite syncs its journal on every write.
  static const std::string dir =
      fuzz::scratch_folder("rigidbench-fuzz-history", fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path());
  const std::string path = (fs::path(dir) / "history.sqlite").string();
  for (const HistoryDb::Mode mode : {HistoryDb::Mode::read, HistoryDb::Mode::record}) {
    std::error_code ec;
    fs::remove(path + "-journal", ec);
    fuzz::write_file(path, data, size);
    fuzz::reject_or_accept([&] {
      const HistoryDb db(path, mode);
      (void)db.integrity_check();
      (void)db.runs();
      (void)db.trends(HistoryQuery{});
    });
  }
  return 0;
}
