// libFuzzer target: the trajectory readers of `score` (verification/scoring.hpp,
// docs/trajectory-files.md) on arbitrary bytes. The first byte chooses the format (CSV or JSON), the
// problem whose columns are expected - free_body (one rotating body) or three bonded translating
// bodies (fuzz/corpus/problem_file/body_system_3.json: suffixed columns, x and v) - and the file's
// conventions (attitude form: bits 2-3, angular-velocity frame: bit 4); the rest is the file. A
// trajectory read must hold finite times and rotations (the reader's promise), and a breakdown only
// after them.
#include <cmath>
#include <sstream>

#include "fuzz.hpp"
#include "../core/json_input.hpp"
#include "../problems/problem_file.hpp"
#include "../verification/scoring.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rigidbench;
  static const Problem problems[] = {resolve_problem("free_body", ""), load_problem_file(RIGIDBENCH_FUZZ_BODIES)};
  if (size == 0) return 0;
  const Problem& p = problems[(data[0] >> 1) & 1];
  const bool csv = (data[0] & 1) == 0;
  constexpr AttitudeForm kForms[] = {AttitudeForm::matrix_row_major, AttitudeForm::matrix_column_major,
                                     AttitudeForm::quaternion_wxyz, AttitudeForm::quaternion_xyzw};
  const FileConventions conv{kForms[(data[0] >> 2) & 3], (data[0] >> 4) & 1 ? OmegaFrame::world : OmegaFrame::body};
  const std::string_view body = fuzz::text(data + 1, size - 1);
  constexpr std::size_t kMaxRows = 1000;
  fuzz::reject_or_accept([&] {
    RecordedTrajectory r;
    if (csv) {
      std::istringstream in{std::string(body)};
      r = read_trajectory_csv(in, "fuzz input", p, kMaxRows, conv);
    } else {
      r = trajectory_from_json(parse_json_input(body, "fuzz input", JsonLimits{kTrajectoryJsonDepth}), "fuzz input", p,
                               kMaxRows, conv);
    }
    if (r.t.size() != r.states.size() || r.t.size() > kMaxRows) fuzz::finding("rows and states disagree");
    for (std::size_t n = 0; n < r.t.size(); ++n) {
      if (!std::isfinite(r.t[n])) fuzz::finding("a non-finite time was accepted");
      for (const BodyState& b : r.states[n].bodies)
        if (!b.R.allFinite() || !b.W.allFinite() || !b.x.allFinite() || !b.v.allFinite() ||
            std::abs(b.R.determinant() - 1) > 1e-3)
          fuzz::finding("a state that is not a finite rotation was accepted");
    }
    if (r.breakdown && !std::isfinite(r.breakdown->t)) fuzz::finding("a breakdown at a non-finite time");
  });
  return 0;
}
