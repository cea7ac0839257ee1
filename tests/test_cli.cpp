// The command line end to end: bad input gives a clear message naming the offending value, exit
// code 2, and no output file (nor a temporary) left behind; good input gives the documented files.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "../cli/commands.hpp"
#include "../core/atomic_file.hpp"
#include "../problems/catalogue.hpp"
#include "../problems/problem_file.hpp"
#include "../core/suggest.hpp"
#include "support.hpp"

using namespace rigidbench;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// Files in the test folder whose name contains `stem` (the output or one of its temporaries).
std::vector<std::string> leftovers(const std::string& stem) {
  std::vector<std::string> found;
  for (const auto& e : fs::directory_iterator(RIGIDBENCH_TEST_TMP))
    if (e.path().filename().string().find(stem) != std::string::npos) found.push_back(e.path().string());
  return found;
}

std::string write_problem(const std::string& name, const std::function<void(json&)>& edit) {
  json j = json::parse(problem_to_json(catalogue_problem("heavy_top")).dump());
  edit(j);
  const std::string path = test::tmp_path(name);
  std::ofstream(path) << j.dump(1);
  return path;
}

std::vector<std::vector<double>> read_csv(const std::string& path, std::vector<std::string>& header) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  header.clear();
  std::stringstream hs(line);
  for (std::string c; std::getline(hs, c, ',');) header.push_back(c);
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::vector<double> r;
    std::stringstream ls(line);
    for (std::string c; std::getline(ls, c, ',');) r.push_back(std::stod(c));
    rows.push_back(r);
  }
  return rows;
}

}  // namespace

namespace {
std::string data(const char* name) { return std::string(RIGIDBENCH_SOURCE_DIR) + "/tests/data/" + name; }
}  // namespace

TEST_CASE("bad input: exit code 2 - a message naming the value - no file left behind", "[cli]") {
  const std::string nonspd = write_problem("in-nonspd.json", [](json& j) {
    j["bodies"][0]["inertia"] = {{1, 0, 0}, {0, -2, 0}, {0, 0, 3}};
  });
  const std::string nonsym = write_problem("in-nonsym.json", [](json& j) {
    j["bodies"][0]["inertia"] = {{5, 0.5, 0}, {0, 5, 0}, {0, 0, 1}};
  });
  const std::string unknown_field = write_problem("in-unknown.json", [](json& j) { j["initial"][0]["spin"] = 3; });
  // Names are one to 64 of a-z, 0-9 and _ wherever they enter (core/names.hpp): a name that is a path
  // broke `report` and `history --out`; one with control bytes reached the terminal.
  const std::string path_name = write_problem("in-path-name.json", [](json& j) { j["name"] = "../../tmp/evil"; });
  const std::string esc_name = write_problem("in-esc-name.json", [](json& j) { j["name"] = "top\u001b]0;pwned\u0007"; });
  // Finite numbers beyond binary64's reach: an energy that overflows; a reference that turns to NaN.
  const std::string huge_w = write_problem("in-huge-w.json", [](json& j) {
    j["initial"][0]["angular_velocity"]["body"] = {0, 0, 1e160};
  });
  const std::string big_w = write_problem("in-big-w.json", [](json& j) {
    j["initial"][0]["angular_velocity"]["body"] = {0, 0, 1e150};
  });
  const std::string slash_report = test::tmp_path("in-slash-report.json");
  {
    std::ifstream in(data("report-integrator-is-number.json"));
    json r = json::parse(in);
    r["results"][0]["integrator"] = "lie/euler";
    std::ofstream(slash_report) << r.dump();
  }
  const std::string malformed = test::tmp_path("in-malformed.json");
  std::ofstream(malformed) << "{\"rigidbench_problem\": 1, \"name\": ";

  struct Case {
    std::string args, expect;
  };
  const std::string sim = "simulate --integrator terze --problem heavy_top --t-end 0.1 ";
  const std::vector<Case> cases{
      {"simulate --integrator nope --problem heavy_top --h 1e-3 --out OUT.csv", "unknown integrator 'nope'"},
      {"simulate --integrator terze --problem nope --h 1e-3 --out OUT.csv", "unknown problem 'nope'"},
      {sim + "--h 0 --out OUT.csv", "got 0"},
      {sim + "--h -0.001 --out OUT.csv", "got -0.001"},
      {sim + "--h nan --out OUT.csv", "nan"},
      {sim + "--h inf --out OUT.csv", "inf"},
      {"simulate --integrator terze --problem heavy_top --h 1e-3 --t-end -1 --out OUT.csv", "t_end must be finite"},
      {"simulate --integrator terze --problem heavy_top --h 1e-3 --t-end nan --out OUT.csv", "t_end must be finite"},
      {"reference --problem heavy_top --h 0.1 --t-end nan --out OUT.csv", "t_end must be finite"},
      {"verify --problem heavy_top --t-end nan --out OUT.json", "--t-end must be finite"},
      {"verify --problem heavy_top --h nan --out OUT.json", "got nan"},
      {sim + "--h 1e-3 --out OUT.txt", ".csv or .json"},
      {sim + "--h 1e-3 --out " + test::tmp_path("no/such/folder/OUT.csv"), "does not exist"},
      {"simulate --integrator terze --problem-file " + nonspd + " --h 1e-3 --out OUT.csv", "not positive definite"},
      {"simulate --integrator terze --problem-file " + nonsym + " --h 1e-3 --out OUT.csv", "not symmetric"},
      {"simulate --integrator terze --problem-file " + unknown_field + " --h 1e-3 --out OUT.csv", "/initial/0: Object contains a property that could not be validated using 'properties' or 'additionalProperties' constraints: 'spin'"},
      {"simulate --integrator terze --problem-file " + malformed + " --h 1e-3 --out OUT.csv", "not valid JSON"},
      {"simulate --integrator terze --problem heavy_top --problem-file " + malformed + " --h 1e-3 --out OUT.csv",
       "either --problem or --problem-file"},
      {"reference --problem heavy_top --h 0 --out OUT.csv", "step h must be positive and finite (got 0)"},
      {"reference --problem heavy_top --h 0.1 --tol -1 --out OUT.csv", "reference tolerance must be in (0, 1) (got -1)"},
      {"reference --problem heavy_top --h 0.1 --reference-tol -1 --out OUT.csv", "reference tolerance must be in (0, 1) (got -1)"},
      {"reference --problem heavy_top --h 0.1 --reference hamilton --out OUT.csv", "unknown reference formulation 'hamilton'"},
      {"gate --in /nonexistent.json --accuracy-only --baseline " + std::string(RIGIDBENCH_SOURCE_DIR) +
           "/baselines/quick-gate.json",
       "/nonexistent.json"},
      {"reference --problem heavy_top --h 0.1 --formulation hamilton --out OUT.csv", "unknown reference formulation 'hamilton'"},
      {"reference --problem heavy_top --h 0.1 --formulation analytic --out OUT.csv", "does not apply to problem 'heavy_top'"},
      {"reference --problem heavy_top --h 0.1 --precision octuple --out OUT.csv", "--reference-precision must be double or quad"},
      {"reference --problem heavy_top --h 0.1 --tol 1e-20 --out OUT.csv", "use --reference-precision quad"},
      // "Did you mean": a likely typo of a problem, a scheme, a command or an option is named.
      {"problem export heavy_topp", "unknown problem 'heavy_topp' - did you mean 'heavy_top'?"},
      {"verify --integrator lie_eulr --out OUT.json", "no registered integrator matches 'lie_eulr' - did you mean 'lie_euler'?"},
      {"simulate --integrator trez --problem heavy_top --h 1e-3 --out OUT.csv", "did you mean 'terze'?"},
      {"verfy --problem heavy_top", "unknown command 'verfy' - did you mean 'verify'?"},
      {"verify --integrtor terze --out OUT.json", "'--integrtor' is not an option - did you mean '--integrator'?"},
      {"verify --problme=heavy_top --out OUT.json", "'--problme' is not an option - did you mean '--problem'?"},
      {"reference --problem free_body --h 0.1 --formulation euler_angles --precision quad --out OUT.csv",
       "quad precision is available for"},
      {"verify --problem heavy_top --reference nope --out OUT.json", "unknown reference formulation 'nope'"},
      {"verify --suite nightly --out OUT.json", "unknown suite 'nightly'"},
      {"verify --problem heavy_top --h 3e-3 --out OUT.json", "not an integer multiple of h0 = 0.003"},
      {"verify --integrator 'zzz*' --out OUT.json", "no registered integrator matches 'zzz*'"},
      {"verify --problem heavy_top --levels 2 --out OUT.json", "levels must be in [3, 24] (got 2)"},
      {"verify --problem heavy_top --h -1 --out OUT.json", "got -1"},
      {"problem export spinning_top", "unknown problem 'spinning_top'"},
      {"frobnicate", "frobnicate"},
      {"simulate --problem heavy_top --h 1e-3 --out OUT.csv", "--integrator"},
      {"verify --integrator campello_implicit --set phi=2 --out OUT.json", "campello_implicit.phi takes a value in [0, 1]"},
      {"verify --integrator terze --set phi=0.5 --out OUT.json", "no selected integrator declares a setting 'phi'"},
      {"verify --integrator lgvi --set newton_tolerance=abc --out OUT.json", "'abc' is not a finite number"},
      {"verify --integrator lgvi --set simo_wong.newton_tolerance=1e-10 --out OUT.json", "'simo_wong' is not selected"},
      {"verify --integrator lgvi --set newton_max_iterations=2.5 --out OUT.json", "takes a whole number"},
      {"verify --integrator lgvi --set newton_tolerance --out OUT.json", "expected name=value"},
      {"verify --suite paper --set phi=1 --out OUT.json", "--set do not apply"},
      {sim + "--h 1e-3 --set phi=1 --out OUT.csv", "no selected integrator declares a setting 'phi'"},
      // Reliability (reproducers in tests/data/): nothing crashes, wraps or is silently replaced.
      {"simulate --integrator terze --problem-file " + data("problem-deep-nesting.json") + " --h 1e-3 --out OUT.csv",
       "nested deeper than 64 levels"},
      {"simulate --integrator terze --problem-file " + data("problem-overflow-1e400.json") + " --h 1e-3 --out OUT.csv",
       "number overflow parsing '1e400'"},
      {"simulate --integrator terze --problem-file " + data("problem-levels-2pow32plus5.json") + " --h 1e-3 --out OUT.csv",
       "/verification/levels"},
      {"simulate --integrator terze --problem-file " + data("problem-version-2pow32plus1.json") + " --h 1e-3 --out OUT.csv",
       "/rigidbench_problem"},
      {"simulate --integrator terze --problem-file " + data("problem-inertia-triangle.json") + " --h 1e-3 --out OUT.csv",
       "violates the triangle inequality"},
      // Found by fuzz/report.cpp: a bench report given as the verify report was exit 3.
      {"compare --report " + data("report-bench-as-verify.json") + " --out OUT.json", "does not follow the report schema"},
      // ... and a result whose "integrator" is a number, when reports are merged (was exit 3).
      {"compare --report " + data("report-integrator-is-number.json") + " --report " + data("report-bench-as-verify.json") +
           " --out OUT.json",
       "/results/0/integrator"},
      {"simulate --integrator terze --problem-file " + path_name + " --h 1e-3 --out OUT.csv", "/name"},
      {"simulate --integrator terze --problem-file " + esc_name + " --h 1e-3 --out OUT.csv", "/name"},
      {"compare --report " + slash_report + " --out OUT.json", "/results/0/integrator"},
      {"verify --integrator terze --problem-file " + huge_w + " --out OUT.json", "energy is not finite (inf)"},
      {"reference --problem-file " + big_w + " --h 1e-3 --t-end 0.01 --out OUT.csv", "the solution is not finite"},
      {"report --in " + slash_report + " --out OUT", "/results/0/integrator"},
      {sim + "--h 1e12 --out OUT.csv", "longer than the span"},
      {"reference --problem heavy_top --h 1e12 --out OUT.csv", "longer than the span"},
      {"verify --problem heavy_top --levels 0 --out OUT.json", "levels must be in [3, 24] (got 0)"},
      {"verify --problem heavy_top --reference-tol nan --out OUT.json", "reference tolerance must be in (0, 1) (got nan)"},
      {"verify --problem nope --out OUT", "unknown problem 'nope'"},  // a folder --out: not created
      {"verify --problem nope --out OUT.JSON", "unknown problem 'nope'"},
  };
  int i = 0;
  for (const auto& c : cases) {
    const std::string stem = "badout" + std::to_string(i++);
    std::string args = c.args;
    for (std::size_t pos; (pos = args.find("OUT")) != std::string::npos;)
      args.replace(pos, 3, args.find("/no/such/") != std::string::npos ? stem : test::tmp_path(stem));
    const auto r = test::run_cli(args);
    INFO("rigidbench " << args << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Catch::Contains(c.expect));
    CHECK(leftovers(stem).empty());
  }
}

TEST_CASE("--help exits 0", "[cli]") {
  CHECK(test::run_cli("--help").exit_code == 0);
  CHECK(test::run_cli("verify --help").exit_code == 0);
}

TEST_CASE("simulate with RK4 at h = 1e-4 agrees with the reference to 1e-9 on the heavy top", "[cli]") {
  const std::string sim = test::tmp_path("sim-rk4.csv"), ref = test::tmp_path("ref.csv");
  auto r1 = test::run_cli("simulate --integrator odeint_rk4_quat --problem heavy_top --h 1e-4 --t-end 10 --every 1000 --out " + sim);
  REQUIRE(r1.exit_code == 0);
  auto r2 = test::run_cli("reference --problem heavy_top --t-end 10 --h 0.1 --out " + ref);
  REQUIRE(r2.exit_code == 0);
  std::vector<std::string> hs, hr;
  const auto a = read_csv(sim, hs), b = read_csv(ref, hr);
  REQUIRE(hs == hr);
  REQUIRE(a.size() == 101);
  REQUIRE(b.size() == 101);
  CHECK(hs.front() == "t");
  CHECK(hs[1] == "R11");
  CHECK(hs[12] == "W3");
  CHECK(hs[13] == "energy");
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    REQUIRE(a[i][0] == Approx(b[i][0]).margin(1e-12));
    for (std::size_t k = 1; k <= 12; ++k) worst = std::max(worst, std::abs(a[i][k] - b[i][k]));
  }
  INFO("max |R, W difference| = " << worst);
  CHECK(worst < 1e-9);
  // The invariant columns are the problem's: H(0) = 1269.975.
  CHECK(b[0][13] == Approx(1269.975).margin(5e-4));
}

TEST_CASE("problem export gives a file that reproduces the catalogue run exactly", "[cli]") {
  const std::string file = test::tmp_path("exported-pendulum.json");
  REQUIRE(test::run_cli("problem export pendulum3d --out " + file).exit_code == 0);
  CHECK(load_problem_file(file) == catalogue_problem("pendulum3d"));
  const std::string a = test::tmp_path("sim-cat.json"), b = test::tmp_path("sim-file.json");
  REQUIRE(test::run_cli("simulate --integrator terze --problem pendulum3d --h 0.01 --out " + a).exit_code == 0);
  REQUIRE(test::run_cli("simulate --integrator terze --problem-file " + file + " --h 0.01 --out " + b).exit_code == 0);
  const json ja = json::parse(std::ifstream(a)), jb = json::parse(std::ifstream(b));
  CHECK(ja["data"] == jb["data"]);
  CHECK(ja["columns"].size() == 1 + 12 + 4);
  CHECK(ja["data"]["t"].back() == Approx(10.0));
}

TEST_CASE("verify writes a report and exits 0 when every verdict holds", "[cli]") {
  const std::string out = test::tmp_path("verify-out");
  fs::remove_all(out);
  const auto r = test::run_cli("verify --problem heavy_top --integrator terze --integrator 'odeint_rk4*' --quiet --out " + out);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  const json j = json::parse(std::ifstream(out + "/report.json"));
  CHECK(j["schema_version"] == "1.0");
  CHECK(j["results"].size() == 2);
  CHECK(j["results"][0]["reference"]["kind"] == "odeint");
  CHECK(j["summary"]["failed_verdicts"] == 0);
  // The console table's Q_II column is what its header says: Q_II over 2^p, at the level's h.
  CHECK(r.output.find("Q_II/2^p (h)") != std::string::npos);
  const std::size_t row = r.output.find("\nterze ");
  REQUIRE(row != std::string::npos);
  const std::string line = r.output.substr(row + 1, r.output.find('\n', row + 1) - row - 1);
  // ... and the levels column the levels run of those planned, and how the ladder ended.
  CHECK_THAT(line, Catch::Matches(R"(terze +heavy_top +ok +\d/\d (decided|floor|budget) +2\.00/2 pass +[34]\.\d{3}/4 \([0-9.e-]+\) pass .*)"));
}

TEST_CASE("verify's console row of a pair that broke down says its claims were not judged", "[cli]") {
  // The LGVI's Newton solve cannot converge at h = 5 on free_body: the pair breaks down before any of its
  // exact claims is judged, and the column reads "0/n undefined" (it read "0/n pass").
  const std::string out = test::tmp_path("verify-breakdown");
  fs::remove_all(out);
  const auto r = test::run_cli("verify --integrator lgvi --problem free_body --h 5 --levels 3 --fixed-ladder --out " + out);
  INFO(r.output);
  const std::size_t row = r.output.find("\nlgvi ");
  REQUIRE(row != std::string::npos);
  const std::string line = r.output.substr(row + 1, r.output.find('\n', row + 1) - row - 1);
  CHECK_THAT(line, Catch::Matches(R"(lgvi +free_body +breakdown .* 0/\d+ undefined .*)"));
}

TEST_CASE("verify --jobs far beyond the machine still writes its report", "[cli]") {
  // 10^6 workers: the pool takes no more threads than there are work units, and a thread the system
  // refuses leaves the run on the threads it has (it was exit 3 after all the work, report lost).
  const std::string out = test::tmp_path("jobs-million.json");
  fs::remove(out);
  const auto r = test::run_cli("verify --integrator terze --problem free_body --levels 3 --quiet --jobs 1000000 --out " + out);
  INFO(r.output);
  CHECK((r.exit_code == 0 || r.exit_code == 1));
  CHECK(fs::is_regular_file(out));
}

TEST_CASE("verify --set: the report lists every declared setting of the pair, given or default", "[cli][settings]") {
  const std::string out = test::tmp_path("verify-set");
  fs::remove_all(out);
  const auto r = test::run_cli("verify --problem free_body --integrator lgvi --integrator terze --quiet "
                               "--set newton_tolerance=1e-12 --out " + out);
  INFO(r.output);
  CHECK(r.exit_code == 0);
  const json j = json::parse(std::ifstream(out + "/report.json"));
  REQUIRE(j["results"].size() == 2);
  for (const json& res : j["results"]) {
    if (res["integrator"] == "lgvi") {
      CHECK(res["settings"]["scheme"]["newton_tolerance"] == 1e-12);
      CHECK(res["settings"]["scheme"]["newton_max_iterations"] == 50);
    } else {
      CHECK_FALSE(res["settings"].contains("scheme"));  // terze has no settings
    }
  }
}

TEST_CASE("verify --out x.JSON names a file and a refused report is saved elsewhere with exit 5", "[cli]") {
  const std::string upper = test::tmp_path("upper-case.JSON");
  fs::remove_all(upper);
  const auto r = test::run_cli("verify --integrator terze --problem free_body --levels 3 --quiet --out " + upper);
  INFO(r.output);
  CHECK((r.exit_code == 0 || r.exit_code == 1));  // 3 levels: Q_II may fail; what matters is the file
  CHECK(fs::is_regular_file(upper));

  // A folder where the report should go, appearing during the run: rename fails (EISDIR).
  const fs::path target = fs::path(test::tmp_path("rescue")) / "report.json";
  const fs::path cache = test::tmp_path("rescue-cache");
  fs::remove_all(target.parent_path());
  fs::remove_all(cache);
  fs::create_directories(target);
  ::setenv("RIGIDBENCH_CACHE_DIR", cache.c_str(), 1);
  CHECK_THROWS_AS(cli::write_report(target.string(), "{\"computed\": 42}\n"), IoError);
  ::unsetenv("RIGIDBENCH_CACHE_DIR");
  std::vector<fs::path> saved;
  for (const auto& e : fs::directory_iterator(cache / "unsaved")) saved.push_back(e.path());
  REQUIRE(saved.size() == 1);
  CHECK(saved[0].filename().string().rfind("report-", 0) == 0);
  std::ifstream in(saved[0]);
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == "{\"computed\": 42}\n");
  CHECK(fs::is_directory(target));  // untouched
}

TEST_CASE("did you mean: edit distance counts a swap as one edit, and only near names are suggested", "[cli]") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("terze", "terze") == 0);
  CHECK(edit_distance("tezre", "terze") == 1);  // two neighbours swapped
  CHECK(edit_distance("lie_eulr", "lie_euler") == 1);
  CHECK(edit_distance("trez", "terze") == 2);
  CHECK(edit_distance("abc", "") == 3);
  const std::vector<std::string> names{"verify", "bench", "report"};
  CHECK(nearest_name("verfy", names) == std::optional<std::string>("verify"));
  CHECK(nearest_name("benhc", names) == std::optional<std::string>("bench"));
  CHECK_FALSE(nearest_name("frobnicate", names).has_value());
  CHECK_FALSE(nearest_name("verify", names).has_value());  // not a typo: the name itself
  CHECK(did_you_mean("repot", names) == " - did you mean 'report'?");
  CHECK(did_you_mean("xyzzy", names).empty());
}
