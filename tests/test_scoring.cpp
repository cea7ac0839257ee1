// Trajectory scoring (verification/scoring.hpp): trajectories written to files and replayed through
// the integrator contract get the verdicts the scheme gets when run directly; every kind of bad file
// is an InputError naming the file and the row.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "../core/quaternion.hpp"
#include "../integrators/integrate.hpp"
#include "../integrators/declared_scheme.hpp"
#include "../reports/pair_report.hpp"
#include "../problems/catalogue.hpp"
#include "../reports/report.hpp"
#include "../reports/trajectory_writer.hpp"
#include "../tracking/compare.hpp"
#include "../verification/scoring.hpp"
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

/// A fresh folder for a file set, and scheme `name`'s run at every level of the test ladder (as a
/// program would write them, every step from t0 to t_end), handed to write(k, level's run, ladder).
template <class Write>
std::string write_runs(const Problem& p, const std::string& name, const std::string& tag, Write&& write) {
  const fs::path dir = fs::path(RIGIDBENCH_TEST_TMP) / cat("scoring-", tag);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const SchemeEntry& s = find_scheme(name);
  const Ladder L = make_ladder(p, s.info->order, kLadder);
  for (int k = 0; k < L.levels; ++k) {
    auto integ = s.make(p);
    const Trajectory tr = simulate(*integ, p, L.h(k), L.t_end());
    REQUIRE(tr.ok);
    write(dir, k, tr, L);
  }
  return dir.string();
}

/// Writes scheme `name`'s trajectory of every level into a fresh folder, as `simulate` would.
std::string write_levels(const Problem& p, const std::string& name, const std::string& tag, const char* ext0 = ".csv") {
  return write_runs(p, name, tag, [&](const fs::path& dir, int k, const Trajectory& tr, const Ladder&) {
    write_trajectory((dir / cat("level", std::to_string(k), k == 0 ? ext0 : ".csv")).string(), p, tr.t, tr.states,
                     {{"integrator", name}});
  });
}

ScoreRequest request(const Problem& p, const std::string& dir, const SchemeInfo& like) {
  ScoreRequest r;
  r.problem = p;
  r.trajectories = dir;
  r.scheme.name = "replayed";
  r.scheme.order = like.order;
  r.scheme.claims = like.claims;
  r.scheme.claims.symmetric = r.scheme.claims.symplectic = false;  // judged on the map, not on files
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

/// Scheme `name`'s run of every level written as an outside program with other conventions would:
/// only the rows of the observation grid, the attitude as a quaternion x, y, z, w (the sign flipped on
/// every other row: q and -q are one rotation) and the angular velocity in world components w = R W.
std::string write_thinned_quaternion_world(const Problem& p, const std::string& name, const std::string& tag) {
  const std::string dir = write_runs(p, name, tag, [&](const fs::path& dir, int k, const Trajectory& tr, const Ladder& L) {
    std::ofstream out(dir / cat("level", std::to_string(k), ".csv"));
    out.precision(17);
    out << "t,q1,q2,q3,q4,w1,w2,w3\n";
    for (std::size_t n = 0; n < tr.t.size(); n += std::size_t(L.stride(k))) {
      const BodyState& b = tr.states[n].body();
      const Vec4 q = quat::from_matrix(b.R) * (n % 2 ? -1.0 : 1.0);
      const Vec3 w = b.R * b.W;
      out << L.t0 + double(n) * L.h(k) << ',' << q[1] << ',' << q[2] << ',' << q[3] << ',' << q[0] << ',' << w[0] << ','
          << w[1] << ',' << w[2] << '\n';
    }
  });
  spit((fs::path(dir) / "manifest.json").string(),
       R"({"attitude": "quaternion_xyzw", "angular_velocity": "world", "meta": {"by": "test"}})");
  return dir;
}

/// The same fitted orders (to `margin`), claims and verdicts.
void check_same_verdicts(const PairResult& a, const PairResult& b, double margin = 1e-9) {
  REQUIRE(a.convergence.size() == b.convergence.size());
  for (const auto& [name, c] : b.convergence) {
    INFO(name);
    CHECK(a.convergence.at(name).fit.slope == Approx(c.fit.slope).margin(margin));
    CHECK(a.convergence.at(name).verdict == c.verdict);
  }
  REQUIRE(a.invariants.size() == b.invariants.size());
  for (std::size_t i = 0; i < a.invariants.size(); ++i) {
    INFO(a.invariants[i].name);
    CHECK(a.invariants[i].claim == b.invariants[i].claim);
    CHECK(a.invariants[i].verdict == b.invariants[i].verdict);
  }
}

}  // namespace

TEST_CASE("JSON trajectories: one scratch file for any number of columns, the same text in any number of passes",
          "[scoring][ci][sanitize]") {
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
  // simulate lands its last step on t_end with h = t_end - t: round-off apart, the same states.
  check_same_verdicts(a, b, 1e-6);
  for (std::size_t i = 0; i < a.invariants.size(); ++i)
    CHECK(a.invariants[i].drift == Approx(b.invariants[i].drift).margin(1e-12));
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

TEST_CASE("a structure claim given to score is refused: files do not give the one-step map", "[scoring]") {
  const Problem p = short_free_body();
  const std::string dir = write_levels(p, "lie_euler", "structure-claim");
  ScoreRequest r = request(p, dir, *find_scheme("lie_euler").info);
  r.scheme.claims.symplectic = true;
  CHECK_THROWS_WITH(score_trajectories(r), Contains("claims symplectic") && Contains("one-step map"));
  r.scheme.claims.symmetric = true;
  CHECK_THROWS_WITH(score_trajectories(r), Contains("claims symmetric and symplectic"));
  r.scheme.claims.symplectic = r.scheme.claims.symmetric = false;
  CHECK_NOTHROW(score_trajectories(r));
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
  SECTION("a field that is not a decimal number (a non-finite one is a breakdown: next test case)") {
    const std::string dir = fresh("nan");
    const std::string f = (fs::path(dir) / "level2.csv").string();
    set_field(f, 10, 12, "nan");  // W3 (the invariant columns after it are ignored)
    set_field(f, 10, 11, "1.5x");  // W2: text, in the same row as the nan - the file is malformed
    CHECK_THROWS_WITH(score_trajectories(request(p, dir, terze)),
                      Contains("level2.csv: line 10, column W2") && Contains("not a finite decimal number"));
    set_field(f, 10, 11, "0");
    set_field(f, 10, 0, "nan");  // a time that is not finite: no time to say the breakdown is at
    CHECK_THROWS_WITH(score_trajectories(request(p, dir, terze)),
                      Contains("level2.csv: line 10, column t") && Contains("not a finite decimal number"));
    set_field(f, 10, 0, "0.1");
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

TEST_CASE("one rule for every file: the observation grid or every step, any attitude form, every row used", "[scoring]") {
  const Problem p = short_free_body();
  const SchemeInfo& terze = *find_scheme("terze").info;
  const std::string full = write_levels(p, "terze", "rule-full");
  const std::string thin = write_thinned_quaternion_world(p, "terze", "rule-thin");
  const Ladder L = make_ladder(p, terze.order, kLadder);
  REQUIRE(L.stride(2) == 4);  // level 2's file holds one row in four
  const SuiteResult a = score_trajectories(request(p, full, terze));
  const SuiteResult b = score_trajectories(request(p, thin, terze));
  REQUIRE(a.results.size() == 1);
  REQUIRE(b.results.size() == 1);
  CHECK(a.results[0].status == "ok");
  CHECK(b.results[0].status == "ok");
  check_same_verdicts(b.results[0], a.results[0]);
  for (const auto& i : a.results[0].invariants)
    if (i.claim != Claim::none) CHECK(i.verdict == Verdict::pass);

  // Row `line` of level 2's file with field `column` off by 1e-6: the exact momentum claim must fail.
  const auto momentum_fails_with = [&](const std::string& dir, int line, std::size_t column) {
    const std::string f = (fs::path(dir) / "level2.csv").string();
    set_field(f, line, column, format_number(std::stod(field(f, line, column)) * (1 + 1e-6), 17));
    bool failed = false;
    const SuiteResult scored = score_trajectories(request(p, dir, terze));  // (kept: a range-for does not extend it)
    for (const auto& i : scored.results[0].invariants)
      if (i.kind == std::string("momentum") && i.claim == Claim::exact) failed = failed || i.verdict == Verdict::fail;
    return failed;
  };
  SECTION("an off-grid row of a full-step file enters the drifts") {
    // Line 4 of level 2 is step 2, between observations 0 and 1.
    CHECK(momentum_fails_with(full, 4, 10));  // W1
  }
  SECTION("a corrupted row of a thinned file changes the verdict too") {
    CHECK(momentum_fails_with(thin, 7, 5));  // w1
  }
  SECTION("the options say what the manifest says, or the same") {
    fs::remove(fs::path(thin) / "manifest.json");
    ScoreRequest r = request(p, thin, terze);
    CHECK_THROWS_WITH(score_trajectories(r), Contains("no column 'R11'") && Contains("with attitude R and body angular velocity"));
    r.attitude = AttitudeForm::quaternion_xyzw;
    r.omega = OmegaFrame::world;
    r.grid = RowGrid::observation;
    check_same_verdicts(score_trajectories(r).results[0], a.results[0]);
    // w first instead of w last: the first row is then not the initial attitude.
    spit((fs::path(thin) / "manifest.json").string(), R"({"attitude": "quaternion_wxyz", "angular_velocity": "world"})");
    r.attitude = std::nullopt;
    CHECK_THROWS_WITH(score_trajectories(r), Contains("not the problem's initial state") && Contains("the ones declared"));
    r.attitude = AttitudeForm::quaternion_xyzw;
    CHECK_THROWS_WITH(score_trajectories(r),
                      Contains("--attitude quaternion_xyzw but ") && Contains("manifest.json declares quaternion_wxyz: give one"));
    // The grid declared as every step: the thinned level 1 is then short.
    spit((fs::path(thin) / "manifest.json").string(), R"({"attitude": "quaternion_xyzw", "angular_velocity": "world", "grid": "every_step"})");
    r.attitude = std::nullopt;
    r.grid = std::nullopt;
    CHECK_THROWS_WITH(score_trajectories(r), Contains("level1.csv: line 3: t = 0.05, but row 1 of level 1 on every step is at t0 + 1 h = 0.025"));
  }
  SECTION("a row count that fits neither grid is refused, naming both") {
    const std::string f = (fs::path(thin) / "level1.csv").string();
    const std::string text = slurp(f);
    spit(f, text.substr(0, text.rfind('\n', text.size() - 2) + 1));  // the last row removed
    CHECK_THROWS_WITH(score_trajectories(request(p, thin, terze)),
                      Contains("level1.csv: 40 rows, but level 1") && Contains("either every step (81 rows") &&
                          Contains("or the observation grid (41 rows"));
  }
  SECTION("a non-finite row after the last state is not a breakdown but a row too many") {
    const std::string f = (fs::path(thin) / "level1.csv").string();
    spit(f, slurp(f) + "2.05,nan,0,0,1,1,0.5,-0.8\n");
    CHECK_THROWS_WITH(score_trajectories(request(p, thin, terze)),
                      Contains("level1.csv: line 43: more rows than the level's 41 states on the observation grid"));
  }
  SECTION("a quaternion is checked as a quaternion") {
    const std::string f = (fs::path(thin) / "level1.csv").string();
    set_field(f, 5, 4, format_number(std::stod(field(f, 5, 4)) * 1.001, 17));  // q4, w
    CHECK_THROWS_WITH(score_trajectories(request(p, thin, terze)),
                      Contains("level1.csv: line 5: q is not a unit quaternion"));
  }
  SECTION("a column-major matrix is the transpose of the row-major one") {
    for (int k = 0; k < L.levels; ++k) {
      const std::string f = (fs::path(full) / cat("level", std::to_string(k), ".csv")).string();
      std::string text = slurp(f);
      // Rename the header's R12 <-> R21, R13 <-> R31, R23 <-> R32: the same numbers, read column-major.
      const auto first = text.find('\n');
      std::stringstream names(text.substr(0, first));
      std::string header;
      for (std::string c; std::getline(names, c, ',');) {
        if (c.size() == 3 && c[0] == 'R') std::swap(c[1], c[2]);
        header += (header.empty() ? "" : ",") + c;
      }
      spit(f, header + text.substr(first));
    }
    ScoreRequest r = request(p, full, terze);
    // Read as row-major, the files hold R^T: a rotation too (the initial one is I), but the wrong one.
    const double wrong = score_trajectories(r).results[0].convergence.at("attitude_error_final").error.back();
    CHECK(wrong > 1e3 * a.results[0].convergence.at("attitude_error_final").error.back());
    r.attitude = AttitudeForm::matrix_column_major;
    check_same_verdicts(score_trajectories(r).results[0], a.results[0]);
  }
}

TEST_CASE("a level that ends early is a breakdown with its time and reason, the others are judged", "[scoring]") {
  Problem p = catalogue_problem("free_body");  // [0, 10]: a NaN at t = 7.3
  const LadderRequest ladder{0.1, 3};
  const fs::path dir = fs::path(RIGIDBENCH_TEST_TMP) / "scoring-breakdown";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const SchemeEntry& s = find_scheme("terze");
  const Ladder L = make_ladder(p, 2, ladder);
  for (int k = 0; k < L.levels; ++k) {
    auto integ = s.make(p);
    const Trajectory tr = simulate(*integ, p, L.h(k), L.t_end());
    REQUIRE(tr.ok);
    write_trajectory((dir / cat("level", std::to_string(k), k == 1 ? ".json" : ".csv")).string(), p, tr.t, tr.states, {});
  }
  ScoreRequest r = request(p, dir.string(), *s.info);
  r.ladder = ladder;
  const std::string f0 = (dir / "level0.csv").string();
  // Row 73 of level 0 (t = 7.3) is line 75; the program's NaN propagates to the end.
  REQUIRE(std::abs(std::stod(field(f0, 75, 0)) - 7.3) < 1e-12);
  for (int line = 75; line <= 102; ++line) set_field(f0, line, 11, line % 2 ? "nan" : "-inf");
  const SuiteResult out = score_trajectories(r);
  REQUIRE(out.results.size() == 1);
  const PairResult& pr = out.results[0];
  CHECK(pr.status == "breakdown");
  REQUIRE(pr.levels.size() == 3);
  CHECK(pr.levels[0].status == "breakdown");
  CHECK(pr.levels[1].status == "ok");
  CHECK(pr.levels[2].status == "ok");
  REQUIRE(pr.levels[0].breakdown);
  CHECK(pr.levels[0].breakdown->t == Approx(7.3).margin(1e-12));
  CHECK_THAT(pr.levels[0].breakdown->reason, Contains("not finite at t = 7.3") && Contains("level0.csv line 75, column W2: 'nan'"));
  CHECK(out.any_failed());  // exit 1 from the command line
  const auto j = pair_to_json(pr, &p);
  CHECK(j["levels"][0]["breakdown"]["t"].get<double>() == Approx(7.3).margin(1e-12));
  CHECK(!j["levels"][1].contains("breakdown"));
  // The two finer levels are still judged: the convergence series has their errors.
  const auto& c = pr.convergence.at("attitude_error_final");
  CHECK(std::isnan(c.error[0]));
  CHECK(std::isfinite(c.error[1]));
  CHECK(std::isfinite(c.error[2]));

  SECTION("a JSON null is the same breakdown") {
    std::string text = slurp((dir / "level1.json").string());
    const auto at = text.find("\"W3\":");  // in "data" (the "columns" list names it too)
    REQUIRE(at != std::string::npos);
    const auto open = text.find('[', at);
    const auto nth = [&](std::size_t from, int n) {  // the position after the n-th comma from `from`
      for (int i = 0; i < n; ++i) from = text.find(',', from) + 1;
      return from;
    };
    const auto v = nth(open + 1, 20);  // sample 20 (t = 1)
    text.replace(v, text.find_first_of(",]", v) - v, "null");
    spit((dir / "level1.json").string(), text);
    const PairResult q = score_trajectories(r).results[0];
    CHECK(q.levels[1].status == "breakdown");
    REQUIRE(q.levels[1].breakdown);
    CHECK(q.levels[1].breakdown->t == Approx(1.0).margin(1e-12));
    CHECK_THAT(q.levels[1].breakdown->reason, Contains("level1.json sample 20, column W3: null"));
  }
  SECTION("a breakdown the program declares") {
    // Level 2 written up to t = 5 only, the program saying why it stopped.
    const std::string f2 = (dir / "level2.csv").string();
    const std::string text = slurp(f2);
    std::size_t cut = 0;
    for (int line = 0; line < 1 + 200; ++line) cut = text.find('\n', cut) + 1;  // the header and t = 0 .. 4.975
    spit(f2, text.substr(0, cut));
    spit((dir / "manifest.json").string(), R"({"levels": [{"h": 0.025, "file": "level2.csv",
        "breakdown": {"t": 5, "reason": "Newton did not converge"}}]})");
    const PairResult q = score_trajectories(r).results[0];
    CHECK(q.levels[2].status == "breakdown");
    REQUIRE(q.levels[2].breakdown);
    CHECK(q.levels[2].breakdown->t == Approx(5.0).margin(1e-12));
    CHECK_THAT(q.levels[2].breakdown->reason, Contains("the program reports a breakdown at t = 5: Newton did not converge"));
    // Rows beyond the declared time, or missing before it, are a malformed set.
    spit((dir / "manifest.json").string(), R"({"levels": [{"h": 0.025, "file": "level2.csv",
        "breakdown": {"t": 6, "reason": "x"}}]})");
    CHECK_THROWS_WITH(score_trajectories(r), Contains("200 rows, but with the breakdown declared at t = 6 level 2 holds the 240 rows"));
    spit((dir / "manifest.json").string(), R"({"levels": [{"h": 0.025, "file": "level2.csv",
        "breakdown": {"t": 5.01, "reason": "x"}}]})");
    CHECK_THROWS_WITH(score_trajectories(r), Contains("breakdown at t = 5.01 is not a step time"));
  }
}

TEST_CASE("the manifest: known keys only, conventions by name, a declared cost with its machine and method", "[scoring]") {
  const Problem p = short_free_body();
  const SchemeInfo& terze = *find_scheme("terze").info;
  const std::string dir = write_levels(p, "terze", "manifest-keys");
  const std::string m = (fs::path(dir) / "manifest.json").string();
  const auto refused = [&](const std::string& text, const std::string& message) {
    spit(m, text);
    INFO(text);
    CHECK_THROWS_WITH(score_trajectories(request(p, dir, terze)), Contains(message));
  };
  refused(R"({"angular_velocty": "world"})", "manifest.json: unknown key 'angular_velocty' (known: levels, attitude, angular_velocity");
  refused(R"({"attitude": "euler_zyx"})", "unknown attitude form 'euler_zyx' (known: R, R_row_major, R_column_major, quaternion_wxyz");
  refused(R"({"angular_velocity": "space"})", "unknown angular-velocity frame 'space' (known: body, world)");
  refused(R"({"grid": "every_other"})", "unknown grid 'every_other' (known: every_step, observation)");
  refused(R"({"levels": [{"h": 0.05, "file": "level0.csv", "breakdwon": {}}]})", "levels[0]: unknown key 'breakdwon'");
  refused(R"({"levels": [{"h": 0.05, "file": "level0.csv", "breakdown": {"t": 0, "reason": "x"}}]})",
          "levels[0].breakdown.t = 0 is not in (t0, t_end]");
  refused(R"({"cost": {"ns_per_step": 120}})", "a declared cost says on which machine");
  refused(R"({"cost": {"ns_per_step": 120, "steps_per_second": 1e6, "machine": "m", "method": "x"}})",
          "give either ns_per_step or steps_per_second");
  refused(R"({"cost": {"ns_per_step": [1, 2], "machine": "m", "method": "x"}})", "2 values, the ladder has 3 levels");
  refused(R"({"cost": {"ns_per_step": -1, "machine": "m", "method": "x"}})", "cost.ns_per_step: expected a positive number");
  spit(m, R"({"cost": {"steps_per_second": [1e7, null, 4e6], "machine": "Xeon", "method": "std::chrono over 5 runs"}})");
  const TrajectorySet set = trajectory_set(dir, make_ladder(p, terze.order, kLadder));
  REQUIRE(set.cost);
  CHECK(set.cost->ns_per_step[0] == Approx(100));
  CHECK(std::isnan(set.cost->ns_per_step[1]));
  CHECK(set.cost->ns_per_step[2] == Approx(250));
  CHECK(set.cost->machine == "Xeon");
}

TEST_CASE("ladder says which grids, attitude forms and angular-velocity frames a file may use", "[scoring][cli]") {
  const auto kv = test::run_cli("ladder --problem dzhanibekov --order 1");
  INFO(kv.output.substr(0, 2000));
  REQUIRE(kv.exit_code == 0);
  for (const char* line : {"\nobservation_dt ", "\nobservations ", "\nattitude_form quaternion_xyzw q1,q2,q3,q4\n",
                           "\nattitude_form R_column_major R11,", "\nangular_velocity_frame world w1,w2,w3\n"})
    CHECK(kv.output.find(line) != std::string::npos);
  const auto j = nlohmann::json::parse(test::run_cli("ladder --problem dzhanibekov --order 1 --json").output);
  // The observation grid is what a thinned first-order ladder writes: at most 2^15 + 1 rows per level.
  CHECK(j["observations"].get<std::int64_t>() <= 32768);
  for (const auto& l : j["levels"]) CHECK(l["rows_observation"].get<std::int64_t>() == j["observations"].get<std::int64_t>() + 1);
  CHECK(j["levels"].back()["rows_every_step"].get<std::int64_t>() > 1000000);
}

TEST_CASE("a declared cost is carried by the report, flagged, and ranked by compare beside measured ones", "[scoring][compare]") {
  const Problem p = short_free_body();
  const SchemeInfo& terze = *find_scheme("terze").info;
  const std::string dir = write_levels(p, "terze", "declared-cost");
  spit((fs::path(dir) / "manifest.json").string(),
       R"({"cost": {"ns_per_step": [90, 95, 100], "machine": "i7-8650U, 1 core", "method": "clock_gettime over 10 runs, median"}})");
  const SuiteResult scored = score_trajectories(request(p, dir, terze));
  const auto rep = suite_report(scored, {"rigidbench", "score"}, iso8601_now());
  const auto& cost = rep["results"][0]["cost"];
  INFO(cost.dump());
  CHECK(cost["ns_per_step"].get<double>() == 100);  // the finest level's
  CHECK(cost["declared"]["machine"] == "i7-8650U, 1 core");
  CHECK(cost["declared"]["ns_per_step_by_level"][0].get<double>() == 90);
  CHECK(cost["source"].get<std::string>().find("declared by the program, not measured by rigidbench") != std::string::npos);
  // The report's reader keeps it: read back and written again, the same pair.
  CHECK(PairReport::read(rep["results"][0]).to_json().dump() == rep["results"][0].dump());
  // compare ranks it (a cost to the target) and says where the figure comes from.
  const auto c = compare_reports(nlohmann::json::parse(rep.dump()), nullptr, {});
  const auto& row = c["problems"][0]["rows"][0];
  CHECK(row["rank"] == 1);
  CHECK(row["cost_per_step"]["declared"] == true);
  CHECK(row["cost_per_step"]["source"].get<std::string>().find("declared by the program (clock_gettime") != std::string::npos);
  CHECK(std::isfinite(row["cost_to_target"]["cpu_seconds"].get<double>()));
  CHECK(compare_markdown(c).find("100 declared (") != std::string::npos);
}

TEST_CASE("an adaptive scheme's runs scored from files get the tolerance ladder of the scheme run directly", "[scoring][adaptive]") {
  // A program's file set as `ladder --adaptive` asks for it: rkmk_dopri5's run at every tolerance,
  // written on the output times, with its controller's counts in manifest.json.
  const Problem p = catalogue_problem("heavy_top");
  const ToleranceLadder T{.tol0 = 1e-5, .levels = 5};
  const nlohmann::ordered_json d = tolerance_ladder_description(p, T);
  REQUIRE(d["tolerances"].size() == 5);
  const double t0 = d["t0"].get<double>(), dt = d["output_dt"].get<double>();
  const std::int64_t outputs = d["outputs"].get<std::int64_t>();
  const fs::path dir = fs::path(RIGIDBENCH_TEST_TMP) / "scoring-adaptive";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const SchemeEntry& rkmk = find_scheme("rkmk_dopri5");
  nlohmann::json manifest{{"levels", nlohmann::json::array()}, {"meta", {{"program", "tests/test_scoring.cpp"}}}};
  for (const auto& lv : d["tolerances"]) {
    SchemeSettings set;
    set.values = {{"abs_tolerance", lv["tol"].get<double>()}, {"rel_tolerance", lv["tol"].get<double>()}};
    const auto s = rkmk.factory(p, set);
    std::vector<double> t{t0};
    std::vector<State> states{p.initial};
    State x = p.initial;
    s->reset(x, t0);
    REQUIRE(integrate(*s, FixedSteps{t0, dt, outputs}, {.every = 1}, x, [&](const Observation& o, const State& xo) {
              if (o.index == 0) return;
              t.push_back(o.t);
              states.push_back(xo);
            }).ok);
    const std::string file = lv["file"].get<std::string>();
    write_trajectory((dir / file).string(), p, t, states, {{"integrator", "rkmk_dopri5"}});
    const Counters c = s->counters();
    manifest["levels"].push_back({{"tol", lv["tol"]}, {"file", file}, {"accepted_steps", c.accepted_steps},
                                  {"rejected_steps", c.rejected_steps}, {"rhs_evaluations", c.rhs_evaluations},
                                  {"load_evaluations", c.load_evaluations}});
  }
  std::ofstream(dir / "manifest.json") << manifest.dump(1);

  ScoreRequest r = request(p, dir.string(), *rkmk.info);
  r.ladder = {};
  r.tolerance = T;
  const SuiteResult scored = score_trajectories(r);
  SuiteRequest direct;
  direct.problem_models = {p};
  direct.integrators = {"rkmk_dopri5"};
  direct.tolerance_ladder = T;
  direct.reference.cache_dir = "";
  direct.progress = false;
  direct.measure_cost = false;
  const SuiteResult run = run_suite(direct);
  REQUIRE(scored.results.size() == 1);
  const PairResult &a = scored.results[0], &b = run.results.at(0);
  INFO(a.reason);
  REQUIRE(a.status == "ok");
  CHECK(a.origin == SchemeOrigin::trajectories);
  REQUIRE(a.tolerance);
  REQUIRE(b.tolerance);
  for (std::size_t k = 0; k < a.tolerance->levels.size(); ++k) {
    const ToleranceLevel &x = a.tolerance->levels[k], &y = b.tolerance->levels[k];
    INFO("tol " << x.tol);
    CHECK(x.error("attitude_error_max") == Approx(y.error("attitude_error_max")).epsilon(1e-9));  // the states as written, to 17 digits
    CHECK(x.counters.accepted_steps == y.counters.accepted_steps);
    CHECK(x.counters.rhs_evaluations == y.counters.rhs_evaluations);
    CHECK(x.grid_bound == y.grid_bound);
  }
  CHECK(a.tolerance->proportionality_verdict == b.tolerance->proportionality_verdict);
  CHECK(a.tolerance->proportionality.slope == Approx(b.tolerance->proportionality.slope).epsilon(1e-6));
  CHECK(a.tolerance->rejection_verdict == b.tolerance->rejection_verdict);
  // Not timed: a replay's wall clock (reading a file) is no cost of the program's.
  for (const ToleranceLevel& x : a.tolerance->levels) CHECK(std::isnan(x.seconds));
  CHECK(!a.cost.declared.has_value());

  // A declared cost: each run's time as the program measured it, flagged as declared.
  {
    nlohmann::json m = manifest;
    m["cost"] = {{"machine", "i7-8650U, one core"}, {"method", "clock_gettime, median of 5"}};
    for (std::size_t k = 0; k < m["levels"].size(); ++k) m["levels"][k]["seconds"] = k == 1 ? nlohmann::json() : nlohmann::json(1e-3 * double(k + 1));
    std::ofstream(dir / "manifest.json") << m.dump(1);
    const SuiteResult timed = score_trajectories(r);
    const PairResult& t = timed.results.at(0);
    REQUIRE(t.tolerance);
    CHECK(t.cost.declared.has_value());
    CHECK(t.cost.source.find("declared by the program") != std::string::npos);
    CHECK(t.tolerance->levels[0].seconds == 1e-3);
    CHECK(std::isnan(t.tolerance->levels[1].seconds));  // null: that run was not timed
    CHECK(t.tolerance->levels[4].seconds == Approx(5e-3));
  }

  // A manifest without the counts, a tolerance off the ladder, a missing level: clear errors.
  auto broken = [&](auto&& edit, const char* says) {
    nlohmann::json m = manifest;
    edit(m);
    std::ofstream(dir / "manifest.json") << m.dump(1);
    CHECK_THROWS_WITH(score_trajectories(r), Contains(says));
  };
  broken([](nlohmann::json& m) { m["levels"][0].erase("rejected_steps"); }, "missing \"rejected_steps\"");
  broken([](nlohmann::json& m) { m["levels"][1]["tol"] = 2e-6; }, "is not on the ladder");
  broken([](nlohmann::json& m) { m["levels"].erase(m["levels"].begin() + 2); }, "no entry for tol");
  broken([](nlohmann::json& m) { m["levels"][0]["accepted_steps"] = -3; }, "non-negative integer");
  broken([](nlohmann::json& m) { m["levels"][0]["seconds"] = 0.1; }, "without a declared cost");
  broken([](nlohmann::json& m) { m["cost"] = {{"machine", "x"}}; }, "how it was measured");
  broken([](nlohmann::json& m) { m["cost"] = {{"machine", "x"}, {"method", "y"}}; }, "missing \"seconds\"");
  broken(
      [](nlohmann::json& m) {
        m["cost"] = {{"machine", "x"}, {"method", "y"}};
        for (auto& l : m["levels"]) l["seconds"] = -1;
      },
      "seconds");
  fs::remove(dir / "manifest.json");
  CHECK_THROWS_WITH(score_trajectories(r), Contains("needs") && Contains("manifest.json"));
}
