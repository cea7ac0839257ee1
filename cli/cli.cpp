#include "cli.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>

#include "commands.hpp"
#include "ranks.hpp"
#include "../core/data_files.hpp"
#include "../core/suggest.hpp"
#include "../core/text_escape.hpp"
#include "../reports/report.hpp"
#include "../verification/program_scheme.hpp"

namespace rigidbench {

namespace {

/// After CLI11's own message for a command line it could not parse: "did you mean" for every word
/// that looks like an option (--name or --name=value) and is not one of the command's, when one of
/// them is a likely typo of it.
void suggest_options(const CLI::App& sub, const std::vector<std::string>& command) {
  std::vector<std::string> names{"--help", "--help-all"};
  for (const CLI::Option* o : sub.get_options())
    for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
  for (std::size_t i = 2; i < command.size(); ++i) {
    const std::string& w = command[i];
    if (w.size() < 3 || w.compare(0, 2, "--") != 0) continue;
    const std::string opt = w.substr(0, w.find('='));
    if (std::find(names.begin(), names.end(), opt) != names.end()) continue;
    if (const auto n = nearest_name(opt, names))
      std::fprintf(stderr, "rigidbench %s: '%s' is not an option - did you mean '%s'?\n", sub.get_name().c_str(),
                   terminal_text(opt).c_str(), n->c_str());
  }
}

/// An output named like one of the command's inputs is refused before the command runs (docs/
/// security.md): `compare --in X --out X`, `verify --problem-file P --out P`, `gate --in X --bless
/// --baseline X`, `--history H --out H`. Options that write are --out, --junit, --markdown,
/// --summary-json, --bench-out, --snapshot-out, and --baseline under --bless; every other value that names an existing file is
/// read. An output folder's files are checked when written (AtomicFile refuses a file this process
/// read, note_input).
void refuse_outputs_over_inputs(const CLI::App& sub) {
  namespace fs = std::filesystem;
  const bool bless = sub.get_option_no_throw("--bless") != nullptr && sub.get_option("--bless")->count() > 0;
  std::vector<std::pair<std::string, std::string>> outputs, inputs;  // (option, value)
  for (const CLI::Option* o : sub.get_options()) {
    if (o->count() == 0 || o->get_lnames().empty()) continue;
    const std::string name = o->get_lnames().front();
    const bool writes = name == "out" || name == "junit" || name == "markdown" || name == "summary-json" ||
                        name == "bench-out" || name == "snapshot-out" || (name == "baseline" && bless);
    for (const std::string& v : o->results()) (writes ? outputs : inputs).emplace_back("--" + name, v);
  }
  // Two outputs named alike: the second would replace the first (--markdown x --junit x lost the JUnit file).
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      std::error_code ec;
      if (outputs[i].second == outputs[j].second || fs::equivalent(outputs[i].second, outputs[j].second, ec))
        throw InputError(cat(outputs[i].first, " and ", outputs[j].first, " both name '", outputs[i].second,
                             "': each output needs a file of its own"));
    }
  for (const auto& [oo, ov] : outputs) {
    std::error_code ec;
    if (!fs::is_regular_file(ov, ec)) continue;
    for (const auto& [io, iv] : inputs)
      if (fs::is_regular_file(iv, ec) && fs::equivalent(ov, iv, ec))
        throw InputError(cat(oo, " '", ov, "' is the file ", io, " '", iv,
                             "' reads: rigidbench does not replace its own input - write to another file"));
  }
}

int run_command(int argc, char** argv) {
  using namespace cli;
  CLI::App app{"rigidbench: verification and benchmark harness for rigid-body time integrators"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every subcommand");
  const auto tool = tool_info();
  app.set_version_flag("--version", cat("rigidbench ", tool["version"].get<std::string>(), " (git ",
                                        tool["git_revision"].get<std::string>(), ", ", tool["compiler"].get<std::string>(),
                                        ", ", tool["build_type"].get<std::string>(), ")\ndata: ", data_dir()));
  const std::vector<std::string> command(argv, argv + argc);
  const std::vector<Command> commands{add_list(app),    add_problem(app),         add_simulate(app),
                                      add_reference(app), add_verify(app, command), add_bench(app, command),
                                      add_gate(app, command), add_compare(app, command), add_report(app),
                                      add_ladder(app),  add_score(app, command),   add_merge(app),
                                      add_history(app), add_card(app, command), add_bench_driver(app),
                                      add_program_serve(app)};
  // Schemes that are programs (docs/programs.md), for every command: declared in files named here or
  // in $RIGIDBENCH_PROGRAMS, registered once the command line is read.
  std::vector<std::string> program_files;
  app.add_option("--program", program_files,
                 "a file declaring schemes that are programs (docs/programs.md); repeatable, before the command")
      ->check(CLI::ExistingFile);

  // An unknown first word would otherwise only get CLI11's "A subcommand is required".
  const CLI::App* chosen = nullptr;
  if (argc > 1 && argv[1][0] != '-') {
    std::string names;
    std::vector<std::string> listed;
    for (const Command& c : commands) {
      if (c.app->get_name() == argv[1]) chosen = c.app;
      if (!c.app->get_group().empty()) {
        names += cat(names.empty() ? "" : ", ", c.app->get_name());
        listed.push_back(c.app->get_name());
      }
    }
    if (chosen == nullptr) {
      std::fprintf(stderr, "rigidbench: error: unknown command '%s'%s (known: %s)\n", terminal_text(argv[1]).c_str(),
                   did_you_mean(argv[1], listed).c_str(), names.c_str());
      return kBadInput;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --help-all, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    if (chosen != nullptr) suggest_options(*chosen, command);
    return kBadInput;
  }

  try {
    add_programs_to_environment(program_files);
    register_programs_from_environment();
    for (const Command& c : commands)
      if (c.app->parsed()) {
        const std::string name = c.app->get_name();
        if (ranks().distributed() && name != "verify" && name != "bench" && name != "gate" && name != "card")
          throw InputError(cat("`", name, "` runs in one process: under an MPI launcher only verify, bench, gate --run "
                               "and card (its determinism across ranks) run on several ranks (docs/scaling.md)"));
        refuse_outputs_over_inputs(*c.app);
        return c.run();
      }
  } catch (const InputError& e) {
    std::fprintf(stderr, "rigidbench: error: %s\n", terminal_text(e.what()).c_str());
    return kBadInput;
  } catch (const IoError& e) {
    std::fprintf(stderr, "rigidbench: error: %s\n", terminal_text(e.what()).c_str());
    return kIoError;
  } catch (const std::filesystem::filesystem_error& e) {
    std::fprintf(stderr, "rigidbench: error: %s\n", terminal_text(e.what()).c_str());
    return kBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rigidbench: internal error: %s\n", terminal_text(e.what()).c_str());
    return kInternal;
  }
  return kOk;
}

}  // namespace

int run_cli(int argc, char** argv) {
  // Under an MPI launcher the command's ranks share its pairs (cli/ranks.hpp); every rank exits with
  // rank 0's code.
  std::optional<cli::RankSession> session;
  try {
    session.emplace(argc, argv);
  } catch (const InputError& e) {
    std::fprintf(stderr, "rigidbench: error: %s\n", terminal_text(e.what()).c_str());
    return cli::kBadInput;
  }
  return session->agree(run_command(argc, argv));
}

}  // namespace rigidbench
