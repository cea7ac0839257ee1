// Trajectory scoring (verification/scoring.hpp): trajectories written to files and replayed through
// the integrator contract get the verdicts the scheme gets when run directly; every kind of bad file
// is an InputError naming the file and the row.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "rigidbench/integrators/declared_scheme.hpp"
#include "rigidbench/problems/catalogue.hpp"
#include "rigidbench/reports/report.hpp"
#include "rigidbench/reports/trajectory_writer.hpp"
#include "rigidbench/verification/scoring.hpp"
#include "support.hpp"

using namespace rigidbench;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

/// free_body over [0, 2] with a 3-level ladder from h0 = 0.05 (fast, still in the asymptotic range).
Problem short_free_body() {
  Problem p = catalogue_problem("free_body");
  p.t_end = 2.0;
  p.verification.t_end = std::nullopt;
  std::erase_if(p.verification.sample_times, [&](double t) { return t > p.t_end; });
  p.finalize();
  return p;
}
const LadderRequest kLadder{0.05, 3};

/// Writes scheme `name`'s trajectory of every level into a fresh folder, as `simulate` would.
std::string write_levels(const Problem& p, const std::string& name, const std::string& tag, const char* ext0 = ".csv") {
  const fs::path dir = fs::path(RIGIDBENCH_TEST_TMP) / cat("scoring-", tag);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const SchemeEntry& s = find_scheme(name);
  const Ladder L = make_ladder(p, s.info->order, kLadder);
  for (int k = 0; k < L.levels; ++k) {
    auto integ = s.make(p);
    const Trajectory tr = simulate(*integ, p, L.h(k), L.t_end());
    REQUIRE(tr.ok);
    write_trajectory((dir / cat("level", std::to_string(k), k == 0 ? ext0 : ".csv")).string(), p, tr.t, tr.states,
                     {{"integrator", name}});
  }
  return dir.string();
}

ScoreRequest request(const Problem& p, const std::string& dir, const SchemeInfo& like) {
  ScoreRequest r;
  r.problem = p;
  r.trajectories = dir;
  r.scheme.name = "replayed";
  r.scheme.order = like.order;
  r.scheme.claims = like.claims;
  r.ladder = kLadder;
  r.reference.cache_dir = "";
  r.progress = false;
  return r;
}

std::string slurp(const std::string& f) {
  std::ifstream in(f);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
void spit(const std::string& f, const std::string& text) { std::ofstream(f) << text; }

/// Line `line` (1-based) of a CSV file with field `field` (0-based) replaced by `value`.
std::string field(const std::string& f, int line, std::size_t index) {
  std::istringstream in(slurp(f));
  std::string l;
  for (int n = 1; std::getline(in, l); ++n)
    if (n == line) {
      std::stringstream ss(l);
      std::size_t i = 0;
      for (std::string x; std::getline(ss, x, ','); ++i)
        if (i == index) return x;
    }
  FAIL("no field " << index << " on line " << line << " of " << f);
  return {};
}

void set_field(const std::string& f, int line, std::size_t field, const std::string& value) {
  std::istringstream in(slurp(f));
  std::string out, l;
  for (int n = 1; std::getline(in, l); ++n) {
    if (n == line) {
      std::vector<std::string> parts;
      std::stringstream ss(l);
      for (std::string x; std::getline(ss, x, ',');) parts.push_back(x);
      REQUIRE(field < parts.size());
      parts[field] = value;
      l.clear();
      for (std::size_t i = 0; i < parts.size(); ++i) l += (i ? "," : "") + parts[i];
    }
    out += l + "\n";
  }
  spit(f, out);
}

}  // namespace

TEST_CASE("JSON trajectories: one scratch file for any number of columns, the same text in any number of passes",
          "[scoring]") {
  const fs::path dir = fs::path(RIGIDBENCH_TEST_TMP) / "trajectory-json";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // The heavy top: the transpose in one pass and in one pass per column write the same text.
  const Problem p = short_free_body();
  auto integ = find_scheme("rk4_quat").make(p);
  const Trajectory tr = simulate(*integ, p, 0.05, p.t_end);
  REQUIRE(tr.ok);
  const auto write = [&](const std::string& f, std::size_t budget) {
    TrajectoryWriter w(f, p, {{"integrator", "rk4_quat"}}, budget);
    for (std::size_t i = 0; i < tr.t.size(); ++i) w.add(tr.t[i], tr.states[i]);
    w.finish();
  };
  const std::string one = (dir / "one-pass.json").string(), many = (dir / "per-column.json").string();
  write(one, TrajectoryWriter::kTransposeDoubles);
  write(many, 1);
  CHECK(slurp(one) == slurp(many));
  const RecordedTrajectory back = read_trajectory(one, p, 1000000);
  REQUIRE(back.states.size() == tr.states.size());
  CHECK(back.t == tr.t);
  CHECK((back.states.back().body().W.array() == tr.states.back().body().W.array()).all());
  // 1200 bodies: 21 602 columns, which as one scratch file each exceeded the process's descriptors.
  const Problem gas = catalogue_problem("particle_gas_1200");
  auto bg = find_scheme("bg_newmark").make(gas);
  const Trajectory g = simulate(*bg, gas, 1e-3, 2e-3);
  REQUIRE(g.ok);
  const std::string gf = (dir / "gas.json").string();
  write_trajectory(gf, gas, g.t, g.states, {{"integrator", "bg_newmark"}});
  const RecordedTrajectory gb = read_trajectory(gf, gas, 10);
  REQUIRE(gb.states.size() == 3);
  CHECK((gb.states[2].bodies[1199].x.array() == g.states[2].bodies[1199].x.array()).all());
}

TEST_CASE("scored trajectories get the verdicts of the scheme run directly", "[scoring]") {
  const Problem p = short_free_body();
  const std::string dir = write_levels(p, "terze", "replay", ".json");  // level 0 in JSON, the others CSV
  const SchemeEntry& terze = find_scheme("terze");
  const SuiteResult scored = score_trajectories(request(p, dir, *terze.info));

  SuiteRequest direct;
  direct.problem_models = {p};
  direct.integrators = {"terze"};
  direct.ladder = kLadder;
  direct.reference.cache_dir = "";
  direct.progress = false;
  direct.measure_cost = false;
  const SuiteResult run = run_suite(direct);

  REQUIRE(scored.results.size() == 1);
  REQUIRE(run.results.size() == 1);
  const PairResult &a = scored.results[0], &b = run.results[0];
  CHECK(a.status == "ok");
  CHECK(a.origin == SchemeOrigin::trajectories);
  CHECK(scored.suite == "score");
  REQUIRE(a.convergence.size() == b.convergence.size());
  for (const auto& [name, c] : b.convergence) {
    INFO(name);
    // simulate lands its last step on t_end with h = t_end - t: round-off apart, the same states.
    CHECK(a.convergence.at(name).fit.slope == Approx(c.fit.slope).margin(1e-6));
    CHECK(a.convergence.at(name).verdict == c.verdict);
  }
  REQUIRE(a.invariants.size() == b.invariants.size());
  for (std::size_t i = 0; i < a.invariants.size(); ++i) {
    INFO(a.invariants[i].name);
    CHECK(a.invariants[i].claim == b.invariants[i].claim);
    CHECK(a.invariants[i].verdict == b.invariants[i].verdict);
    CHECK(a.invariants[i].drift == Approx(b.invariants[i].drift).margin(1e-12));
  }
  // The report marks the scheme as outside, scored from files, with no cost figure.
  const auto j = pair_to_json(a, &p);
  CHECK(j["scheme"]["origin"] == "trajectories");
  CHECK(j["scheme"]["builtin"] == false);
  CHECK(j["cost"]["source"].get<std::string>().find("trajectories scored from files") != std::string::npos);
}

TEST_CASE("a declared claim the trajectories do not keep fails", "[scoring]") {
  const Problem p = short_free_body();
  const std::string dir = write_levels(p, "lie_euler", "false-claim");
  // Lie-Euler does not conserve energy; declaring it exact must fail that verdict, and order 2 too.
  ScoreRequest r = request(p, dir, *find_scheme("lie_euler").info);
  r.scheme.claims.energy = Claim::exact;
  const SuiteResult s = score_trajectories(r);
  REQUIRE(s.results.size() == 1);
  bool energy_failed = false;
  for (const auto& i : s.results[0].invariants)
    if (i.kind == std::string("energy")) energy_failed = i.verdict == Verdict::fail;
  CHECK(energy_failed);
  CHECK(s.any_failed());
}

TEST_CASE("bad trajectory files are clear errors naming the file and the row", "[scoring]") {
  const Problem p = short_free_body();
  const SchemeInfo& terze = *find_scheme("terze").info;
  auto fresh = [&](const std::string& tag) { return write_levels(p, "terze", tag); };

  SECTION("a missing level") {
    const std::string dir = fresh("missing");
    fs::remove(fs::path(dir) / "level2.csv");
    CHECK_THROWS_WITH(score_trajectories(request(p, dir, terze)), Contains("no trajectory for level 2"));
  }
  SECTION("a grid that does not match the ladder") {
    const std::string dir = fresh("grid");
    const std::string f = (fs::path(dir) / "level1.csv").string();
    set_field(f, 6, 0, "0.123");
    CHECK_THROWS_WITH(score_trajectories(request(p, dir, terze)),
                      Contains("level1.csv: line 6") && Contains("does not match the ladder"));
  }
  SECTION("an R that is not a rotation") {
    const std::string dir = fresh("rotation");
    const std::string f = (fs::path(dir) / "level0.csv").string();
    set_field(f, 5, 1, "1.01");  // R11
    CHECK_THROWS_WITH(score_trajectories(request(p, dir, terze)),
                      Contains("level0.csv: line 5") && Contains("R is not a rotation"));
  }
  SECTION("NaN") {
    const std::string dir = fresh("nan");
    const std::string f = (fs::path(dir) / "level2.csv").string();
    set_field(f, 10, 12, "nan");  // W3 (the invariant columns after it are ignored)
    CHECK_THROWS_WITH(score_trajectories(request(p, dir, terze)),
                      Contains("level2.csv: line 10, column W3") && Contains("not a finite decimal number"));
    set_field(f, 10, 12, "0x1p3");  // a hex float: not the documented syntax, not silently 0
    CHECK_THROWS_WITH(score_trajectories(request(p, dir, terze)), Contains("'0x1p3' is not a finite decimal number"));
    set_field(f, 10, 12, "1e400");
    CHECK_THROWS_WITH(score_trajectories(request(p, dir, terze)), Contains("'1e400' overflows a double"));
  }
  SECTION("the documented number syntax and a byte-order mark are read, not refused") {
    // '+' signs and a value below the smallest double (it is 0, as in JSON) change nothing here, and
    // the mark a spreadsheet puts before the header is not part of the column 't'.
    const std::string dir = fresh("syntax");
    const std::string f = (fs::path(dir) / "level0.csv").string();
    const SuiteResult before = score_trajectories(request(p, dir, terze));
    set_field(f, 3, 0, "+" + field(f, 3, 0));
    set_field(f, 4, 11, field(f, 4, 11) + "e0");
    REQUIRE(field(f, 2, 2) == "0");  // R12 of the initial row
    set_field(f, 2, 2, "1e-400");
    spit(f, "\xEF\xBB\xBF" + slurp(f));
    const SuiteResult after = score_trajectories(request(p, dir, terze));
    REQUIRE(after.results.size() == 1);
    CHECK(after.results[0].status == before.results[0].status);
    CHECK(after.results[0].convergence.at("attitude_error_final").error ==
          before.results[0].convergence.at("attitude_error_final").error);
  }
  SECTION("a truncated file") {
    const std::string dir = fresh("truncated");
    const std::string f = (fs::path(dir) / "level1.csv").string();
    const std::string text = slurp(f);
    spit(f, text.substr(0, text.rfind('\n', text.size() / 2) + 6));  // cut inside a row (5 characters into it)
    CHECK_THROWS_WITH(score_trajectories(request(p, dir, terze)), Contains("level1.csv: line") && Contains("truncated"));
    spit(f, text.substr(0, text.rfind('\n', text.size() / 2) + 1));  // cut between rows
    CHECK_THROWS_WITH(score_trajectories(request(p, dir, terze)), Contains("level1.csv") && Contains("truncated"));
  }
  SECTION("a first row that is not the initial state") {
    const std::string dir = fresh("initial");
    const std::string f = (fs::path(dir) / "level0.csv").string();
    set_field(f, 2, 10, "12.5");  // W1 of the initial row
    CHECK_THROWS_WITH(score_trajectories(request(p, dir, terze)),
                      Contains("level0.csv: line 2") && Contains("not the problem's initial state"));
  }
  SECTION("files are regular, unambiguous and of bounded rows") {
    // A FIFO named by the manifest is refused before it is opened (it blocked forever).
    const std::string dir = fresh("bounds");
    REQUIRE(::mkfifo((fs::path(dir) / "pipe.csv").c_str(), 0600) == 0);
    spit((fs::path(dir) / "manifest.json").string(), R"({"levels": [{"h": 0.05, "file": "pipe.csv"}]})");
    CHECK_THROWS_WITH(score_trajectories(request(p, dir, terze)), Contains("pipe.csv' is not a regular file"));
    fs::remove(fs::path(dir) / "manifest.json");
    // level0.csv and level0.json both there: one would silently shadow the other.
    spit((fs::path(dir) / "level0.json").string(), "{}");
    CHECK_THROWS_WITH(score_trajectories(request(p, dir, terze)), Contains("are given for level 0: remove one"));
    fs::remove(fs::path(dir) / "level0.json");
    // One endless line: refused at its bound, not read into memory.
    const std::string f = (fs::path(dir) / "level1.csv").string();
    const std::string text = slurp(f);
    spit(f, text.substr(0, text.find('\n') + 1) + std::string(1 << 20, '1'));
    CHECK_THROWS_WITH(score_trajectories(request(p, dir, terze)), Contains("level1.csv: line 2 is longer than"));
  }
  SECTION("a manifest naming an h off the ladder") {
    const std::string dir = fresh("manifest");
    spit((fs::path(dir) / "manifest.json").string(), R"({"levels": [{"h": 0.03, "file": "level0.csv"}]})");
    CHECK_THROWS_WITH(score_trajectories(request(p, dir, terze)), Contains("manifest.json: levels[0]") &&
                                                                      Contains("not a step of the ladder"));
  }
  SECTION("a missing column") {
    const std::string dir = fresh("column");
    const std::string f = (fs::path(dir) / "level0.csv").string();
    set_field(f, 1, 11, "Wy");  // the header's W2
    CHECK_THROWS_WITH(score_trajectories(request(p, dir, terze)), Contains("level0.csv: no column 'W2'"));
  }
  SECTION("a column given twice") {
    const std::string dir = fresh("twice");
    const std::string f = (fs::path(dir) / "level1.csv").string();
    set_field(f, 1, 11, "W1");  // the header's W2 renamed to W1, which field 11 already names
    CHECK_THROWS_WITH(score_trajectories(request(p, dir, terze)),
                      Contains("level1.csv: the column 'W1' appears twice in the header (fields 11 and 12)"));
  }
}

TEST_CASE("claims: each kind once, and only kinds the scored problem has", "[scoring]") {
  CHECK_THROWS_WITH(parse_claims({"energy=exact,energy=none"}),
                    Contains("claim kind 'energy' given twice ('energy=exact' and 'energy=none')"));
  CHECK_THROWS_WITH(parse_claims({"energy=exact", "constraint=exact", "energy=bounded"}), Contains("given twice"));
  CHECK(parse_claims({"energy=exact", "constraint=exact"}).constraint == Claim::exact);
  // heavy_top has no Casimir (its |Pi| changes under gravity), the free body no nonholonomic constraint.
  CHECK_THROWS_WITH(check_claims_apply(parse_claims({"casimir=exact"}), catalogue_problem("heavy_top"), "mine"),
                    Contains("scheme 'mine' claims casimir, which 'heavy_top' does not have (its invariant kinds: energy, "));
  CHECK_NOTHROW(check_claims_apply(parse_claims({"casimir=none,energy=bounded"}), catalogue_problem("heavy_top"), "mine"));
  const Problem p = short_free_body();
  ScoreRequest r = request(p, write_levels(p, "terze", "claims"), *find_scheme("terze").info);
  r.scheme.claims.nonholonomic = Claim::exact;
  CHECK_THROWS_WITH(score_trajectories(r), Contains("claims nonholonomic, which '"));
}

TEST_CASE("the key-value ladder lists the loads, and points to --json for what is not numbers", "[scoring][cli]") {
  const auto top = test::run_cli("ladder --problem heavy_top --order 2");
  INFO(top.output);
  REQUIRE(top.exit_code == 0);
  for (const char* line : {"\nloads 1\n", "\nload uniform_field\n", "\nload_mass 20\n", "\nload_acceleration 0 0 -1\n",
                           "\nload_point 0 0 1\n"})
    CHECK(top.output.find(line) != std::string::npos);
  const auto free = test::run_cli("ladder --problem free_body --order 2");
  CHECK(free.output.find("\nloads 0\n") != std::string::npos);
  CHECK(free.output.find("interactions") == std::string::npos);
  const auto gas = test::run_cli("ladder --problem particle_gas_20 --order 2");
  INFO(gas.output.substr(0, 600));
  CHECK(gas.output.find(" (their parameters: rigidbench ladder --json)\n") != std::string::npos);
}
