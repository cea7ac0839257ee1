#pragma once
// `rigidbench merge`: joins the N shard reports of one sweep (`verify|bench --shard k/N`, e.g. the
// jobs of a CI matrix) into the report of the whole sweep (docs/gate.md, "Shards"). Fails closed:
// every shard 1..N exactly once, the same build and revision, every pair in the shard its key
// hashes to, and - for verify - every position of the sweep filled exactly once.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rigidbench {

/// How the sweep was split: by the pairs' key hashes (`--shard k/N`, bench and gate ranks), or as
/// planned (verify's MPI ranks, longest first: each pair's position in the sweep is still checked).
enum class ShardKeys { hashed, planned };

/// `reports` are all verify reports or all bench reports, each validated against its schema;
/// `names` name them in messages. Throws InputError naming what is wrong.
nlohmann::ordered_json merge_shard_reports(const std::vector<nlohmann::ordered_json>& reports,
                                           const std::vector<std::string>& names, ShardKeys keys = ShardKeys::hashed);

}  // namespace rigidbench
