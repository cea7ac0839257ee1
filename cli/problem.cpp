// `rigidbench problem export NAME`: a catalogue entry as its problem file (docs/problem-files.md).
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "../problems/catalogue.hpp"
#include "../problems/problem_file.hpp"
#include "../reports/report.hpp"

namespace rigidbench::cli {

Command add_problem(CLI::App& app) {
  struct Options {
    std::string name, out;
  };
  auto o = std::make_shared<Options>();
  auto* sc = app.add_subcommand("problem", "Problem catalogue tools");
  sc->require_subcommand(1);
  auto* ex = sc->add_subcommand("export", "Print a catalogue entry as its problem file (JSON)");
  ex->add_option("NAME", o->name, "Catalogue name")->required();
  ex->add_option("--out", o->out, "Write to this file instead of stdout");
  return {sc, [o] {
            const std::string text = problem_to_json(catalogue_problem(o->name)).dump(2) + "\n";
            if (o->out.empty()) std::cout << text;
            else write_atomic(o->out, text);
            return kOk;
          }};
}

}  // namespace rigidbench::cli
