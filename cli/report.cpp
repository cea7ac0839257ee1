// `rigidbench report`: figures and one HTML page rendered by render/render_report.py (python3 with
// matplotlib) from the JSON files alone (render_reports, common.cpp).
#include <memory>

#include "commands.hpp"

namespace rigidbench::cli {
Command add_report(CLI::App& app) {
  struct Options {
    std::vector<std::string> in;
    std::string out, format = "png", style = "screen";
    SchemeOptions schemes;
    ProblemOptions problems;
    bool quiet = false, inline_figures = false;
  };
  auto o = std::make_shared<Options>();
  auto* sc = app.add_subcommand("report", "Plots (matplotlib) and one HTML page, from report JSON alone");
  sc->add_option("--in", o->in, "Report files: verify, paper, bench, compare (JSON)")->required();
  sc->add_option("--out", o->out, "Output folder (index.html, figures/)")->required();
  sc->add_option("--format", o->format, "Figure formats, comma-separated: png (default), svg, pdf");
  sc->add_flag("--quiet", o->quiet, "No progress on stderr (one line per figure otherwise)");
  sc->add_flag("--inline", o->inline_figures,
               "Inline the PNG figures in index.html: one self-contained file (several MB), instead of a page that "
               "loads figures/ as it is scrolled");
  o->schemes.add_to(sc, Use::filter, "in figures and tables");
  o->problems.add_to(sc, Use::filter, false, false);
  sc->add_option("--style", o->style,
                 "Figure style: screen (default), journal-single (3.5 in wide, 8 pt) or journal-double (7.16 in, 8 pt)")
      ->check(CLI::IsMember({"screen", "journal-single", "journal-double"}));
  return {sc, [o] {
            std::vector<std::string> opts{"--style", o->style};
            if (o->inline_figures) opts.push_back("--inline");
            for (const auto& i : o->schemes.integrators) opts.insert(opts.end(), {"--integrator", i});
            for (const auto& p : o->problems.problems) opts.insert(opts.end(), {"--problem", p});
            return render_reports(o->in, o->out, o->format, o->quiet, opts);
          }};
}

}  // namespace rigidbench::cli
