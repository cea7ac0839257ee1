#pragma once
// A shared object named by a path from outside (a plugin: RIGIDBENCH_DART_PLUGIN) is checked before
// dlopen runs a byte of it (docs/security.md, "Plugins"). dlopen runs a library's constructors
// before anyone can ask it what it is, and opening a FIFO blocks forever, so the file is read as
// data first: it must be a regular file, not writable by others, an ELF shared object for this
// machine, and carry the note rigidbench puts in its own plugins (RIGIDBENCH_PLUGIN_NOTE below).
#include <string>
#include <string_view>

namespace rigidbench {

/// The ELF note a rigidbench plugin carries: owner "rigidbench", type 1, and a description naming
/// the plugin and its interface ("dart-plugin 1"). Put in the plugin's source as
/// RIGIDBENCH_PLUGIN_NOTE("dart-plugin 1"), a section named .note.* (the assembler makes it SHT_NOTE).
#define RIGIDBENCH_PLUGIN_NOTE_TYPE 1
#define RIGIDBENCH_PLUGIN_NOTE(desc_literal)                                                      \
  static const struct {                                                                         \
    unsigned namesz, descsz, type;                                                              \
    char name[12];                                                                              \
    char desc[(sizeof(desc_literal) + 3) / 4 * 4];                                              \
  } rigidbench_plugin_note __attribute__((section(".note.rigidbench"), used, aligned(4))) = {   \
      11, sizeof(desc_literal), RIGIDBENCH_PLUGIN_NOTE_TYPE, "rigidbench", desc_literal}

/// Empty when `path` may be handed to dlopen as the plugin whose note says `desc`; otherwise why not
/// ("is a FIFO, not a regular file", "is writable by other users", "is not an ELF shared object",
/// "carries no rigidbench note 'dart-plugin 1' (another library, or a plugin of another version)").
/// Reads the file's headers only; never blocks on a FIFO or a device.
std::string plugin_file_problem(const std::string& path, std::string_view desc);
/// The same check, and the file checked opened: a descriptor (close-on-exec) to load the plugin
/// from as "/proc/self/fd/<fd>", so that the file dlopen maps is the file that was read - not
/// another found by dlopen's own search (a bare name is looked for in LD_LIBRARY_PATH) or swapped in
/// since; -1 with `why` set when the file is refused.
int open_plugin_file(const std::string& path, std::string_view desc, std::string& why);

}  // namespace rigidbench
