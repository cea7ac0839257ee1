#pragma once
// Text from inputs, made harmless for where it is shown (docs/decisions.md, "Text from inputs"):
// names are one alphabet (core/names.hpp) and need nothing, but titles, reasons, messages of
// outside programs and file contents quoted in errors can hold anything. Each output format has one
// function here, used wherever such text is written into it.
#include <string>
#include <string_view>

namespace rigidbench {

/// For a terminal (error messages, progress): every control byte except newline and tab - ESC
/// sequences that retitle or reprogram a terminal, BEL, CR that overwrites a line - as \xNN.
std::string terminal_text(std::string_view s);

/// For one line (a scheme's identity, which the history prints in its keys and keeps in SQLite):
/// every control byte, newline and tab included, as \xNN, so that a given identity stays one line and
/// two different ones stay different.
std::string line_text(std::string_view s);

/// For one Markdown table cell or heading: '|' escaped, line breaks as spaces, HTML's <, > and &
/// as entities (GitHub renders inline HTML), backticks escaped, other control bytes dropped.
std::string markdown_text(std::string_view s);

/// For one word of a POSIX shell command line (a command printed for people to rerun, or run through
/// popen): as it is when it holds only characters no shell treats specially, else in single quotes
/// with each ' as '\''.
std::string shell_text(std::string_view s);

/// For XML text and attribute values (the gate's JUnit file): <, >, &, " and newline as entities;
/// the other control characters, which XML 1.0 admits in no form, dropped (tab kept).
std::string xml_text(std::string_view s);

}  // namespace rigidbench
