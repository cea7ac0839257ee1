// `rigidbench merge`: the shard reports of one sweep joined into the report of the whole sweep
// (docs/gate.md, "Shards").
#include <cstdio>
#include <fstream>
#include <memory>

#include "../core/json_input.hpp"
#include "commands.hpp"
#include "../tracking/merge.hpp"
#include "../reports/report.hpp"

namespace rigidbench::cli {

Command add_merge(CLI::App& app) {
  struct Options {
    std::vector<std::string> in;
    std::string out;
  };
  auto o = std::make_shared<Options>();
  auto* sc = app.add_subcommand("merge", "Join the shard reports of one sweep (verify or bench --shard k/N) into one report");
  sc->add_option("--in", o->in, "Shard reports, one per shard (all verify or all bench)")->required();
  sc->add_option("--out", o->out, "The merged report (JSON)")->required();
  return {sc, [o] {
            require_out_folder(o->out);
            std::vector<nlohmann::ordered_json> reports;
            for (const auto& f : o->in)
              reports.push_back(read_ordered_json_input(f, "merge:"));
            const nlohmann::ordered_json merged = merge_shard_reports(reports, o->in);
            write_atomic(o->out, merged.dump(1) + "\n");
            std::printf("merge: %zu shard(s) -> %s (%zu results)\n", o->in.size(), o->out.c_str(), merged.at("results").size());
            return kOk;
          }};
}

}  // namespace rigidbench::cli
