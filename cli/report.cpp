// `rigidbench report`: figures and one HTML page rendered by render/render_report.py (python3 with
// matplotlib) from the JSON files alone. Inputs are checked here first so that bad input is exit 2
// with the file named before Python starts; the renderer itself exits 2 for a report it cannot use.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "rigidbench/cli/commands.hpp"
#include "rigidbench/core/data_files.hpp"
#include "rigidbench/core/process.hpp"
#include "rigidbench/reports/compare.hpp"

namespace rigidbench::cli {
namespace {

int run_renderer(const std::vector<std::string>& inputs, const std::string& out_dir, const std::string& formats,
                 bool quiet) {
  for (const auto& f : inputs) {
    const nlohmann::json j = read_json_file(f, "report");
    if (!j.is_object() || !j.contains("schema_version"))
      throw InputError(cat("report: '", f, "' is not a rigidbench report (no schema_version)"));
  }
  for (std::size_t a = 0, b; a <= formats.size(); a = b + 1) {
    b = formats.find(',', a);
    if (b == std::string::npos) b = formats.size();
    const std::string f = formats.substr(a, b - a);
    if (f != "png" && f != "svg" && f != "pdf")
      throw InputError(cat("report: --format '", f, "' is not one of png, svg, pdf"));
  }
  // $RIGIDBENCH_RENDERER replaces the renderer (tests use it); else the installed or source-tree one.
  const char* script_env = std::getenv("RIGIDBENCH_RENDERER");
  const std::string script = script_env && *script_env ? script_env : data_file("render/render_report.py");
  if (!std::filesystem::exists(script)) throw InputError(cat("report: the renderer '", script, "' is missing"));
  std::filesystem::create_directories(out_dir);
  const std::string py = python_executable();
  std::vector<std::string> args{py, script, "--out", out_dir, "--format", formats};
  if (quiet) args.push_back("--quiet");
  args.insert(args.end(), inputs.begin(), inputs.end());
  const int rc = run_process(args);
  if (rc == 127) {
    std::fprintf(stderr, "rigidbench: error: report: cannot run '%s' (python3 with matplotlib is needed)\n", py.c_str());
    return kBadInput;
  }
  if (rc > 128) return kInternal;  // killed by a signal
  return rc == 0 ? kOk : rc == kBadInput ? kBadInput : kInternal;
}

}  // namespace

Command add_report(CLI::App& app) {
  struct Options {
    std::vector<std::string> in;
    std::string out, format = "png";
    bool quiet = false;
  };
  auto o = std::make_shared<Options>();
  auto* sc = app.add_subcommand("report", "Plots (matplotlib) and one HTML page, from report JSON alone");
  sc->add_option("--in", o->in, "Report files: verify, paper, bench, compare (JSON)")->required();
  sc->add_option("--out", o->out, "Output folder (index.html, figures/)")->required();
  sc->add_option("--format", o->format, "Figure formats, comma-separated: png (default), svg, pdf");
  sc->add_flag("--quiet", o->quiet, "No progress on stderr (one line per figure otherwise)");
  return {sc, [o] { return run_renderer(o->in, o->out, o->format, o->quiet); }};
}

}  // namespace rigidbench::cli
