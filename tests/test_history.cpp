// The change-point rule of the run history (tracking/history.hpp; docs/history.md, "Change points")
// and the history file's own checks. The end-to-end test through the command line (recording,
// trends, concurrent writers) is tests/history.py.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "../core/types.hpp"
#include "../reports/report.hpp"
#include "../tracking/history.hpp"
#include "../verification/suite.hpp"
#include "support.hpp"

using namespace rigidbench;

TEST_CASE("history change points: the gate's band around the value at the last change", "[history]") {
  SECTION("constant and within-band series have none") {
    CHECK(change_points({1000, 1000, 1000}, 1.02).empty());
    CHECK(change_points({1000, 1019, 1001, 981}, 1.02).empty());
  }
  SECTION("a jump is flagged at the first point past the band, both ways") {
    const auto c = change_points({1000, 1000, 1050, 1050, 1000}, 1.02);
    REQUIRE(c.size() == 2);
    CHECK(c[0].index == 2);
    CHECK(c[0].worse);
    CHECK(c[0].before == 1000);
    CHECK(c[0].after == 1050);
    CHECK(c[1].index == 4);
    CHECK_FALSE(c[1].worse);
  }
  SECTION("a creep is flagged where it has left the band since the last change") {
    // +1 % per point: 1.0201 after two steps leaves the 2 % band; the band moves there, and two
    // more steps leave it again.
    const auto c = change_points({100, 101, 102.01, 103.0301, 104.060401}, 1.02);
    REQUIRE(c.size() == 2);
    CHECK(c[0].index == 2);
    CHECK(c[1].index == 4);
    CHECK(c[1].before == 102.01);
  }
  SECTION("the absolute allowance (reference floor, rounding) absorbs changes below it") {
    const std::vector<double> e{1e-14, 5e-14, 1e-14};
    CHECK(change_points(e, std::pow(10.0, 0.1), {1e-13, 1e-13, 1e-13}).empty());
    CHECK(change_points(e, std::pow(10.0, 0.1)).size() == 2);
  }
  SECTION("points without a value are skipped, not compared") {
    const auto c = change_points({NAN, 1.0, NAN, 1.0, 3.0}, 1.02);
    REQUIRE(c.size() == 1);
    CHECK(c[0].index == 4);
  }
}

TEST_CASE("history file: refused when it is not a rigidbench history", "[history]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(RIGIDBENCH_TEST_TMP) / "history-unit";
  fs::create_directories(dir);
  const std::string text = (dir / "text.sqlite").string();
  std::ofstream(text) << std::string(2048, 'x');
  CHECK_THROWS_AS(HistoryDb(text, HistoryDb::Mode::record), InputError);
  CHECK_THROWS_WITH(HistoryDb(text, HistoryDb::Mode::read), Catch::Contains("not a database"));
  CHECK_THROWS_WITH(HistoryDb((dir / "absent.sqlite").string(), HistoryDb::Mode::read), Catch::Contains("cannot be opened"));
  const std::string fresh = (dir / "fresh.sqlite").string();
  fs::remove(fresh);
  {
    HistoryDb db(fresh, HistoryDb::Mode::record);
    CHECK(db.runs() == 0);
    CHECK(db.integrity_check() == "ok");
    CHECK_THROWS_WITH(db.record(HistoryRun{"verify", "", "", nullptr, nullptr, nullptr}), Catch::Contains("nothing to record"));
    HistoryRun bad{"verify", "", "", nlohmann::json{{"results", nlohmann::json::array()}}, nullptr, nullptr};
    CHECK_THROWS_WITH(db.record(bad), Catch::Contains("does not follow"));
    CHECK(db.runs() == 0);
  }
  const HistoryDb again(fresh, HistoryDb::Mode::read);
  CHECK(again.trends({}).at("summary").at("revisions") == 0);
}

TEST_CASE("history trends read the error at a level every run has (sequential ladders end where they settle)", "[history]") {
  // docs/history.md: a revision whose ladder ran a level no other did would be alone in its trend.
  namespace fs = std::filesystem;
  SuiteRequest req;
  req.problems = {"free_body"};
  req.integrators = {"lie_euler"};
  req.progress = false;
  req.measure_cost = false;
  nlohmann::json older = nlohmann::json::parse(suite_report(run_suite(req), {}, "2026-01-01T00:00:00Z").dump());
  req.ladder.fixed = true;
  nlohmann::json newer = nlohmann::json::parse(suite_report(run_suite(req), {}, "2026-01-02T00:00:00Z").dump());
  const auto levels = [](const nlohmann::json& r) { return r.at("results").at(0).at("settings").at("levels").get<int>(); };
  REQUIRE(levels(older) < levels(newer));
  older["tool"]["git_revision"] = "aaaaaaaaaaaa";
  newer["tool"]["git_revision"] = "bbbbbbbbbbbb";
  const fs::path dir = fs::path(RIGIDBENCH_TEST_TMP) / "history-levels";
  fs::create_directories(dir);
  const std::string file = (dir / "h.sqlite").string();
  fs::remove(file);
  HistoryDb db(file, HistoryDb::Mode::record);
  db.record(HistoryRun{"verify", "", "pass", older, nullptr, nullptr});
  db.record(HistoryRun{"verify", "", "pass", newer, nullptr, nullptr});
  const nlohmann::ordered_json t = db.trends({});
  REQUIRE(t.at("pairs").size() == 1);
  const auto& e = t.at("pairs").at(0).at("error");
  CHECK(e.at("points").size() == 2);
  const auto& h = older.at("results").at(0).at("settings").at("h");
  CHECK(std::any_of(h.begin(), h.end(), [&](const auto& x) { return std::abs(x.template get<double>() - e.at("h").get<double>()) < 1e-12; }));
}
