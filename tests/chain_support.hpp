#pragma once
// A chain of one link on its pivot built as the realisable heavy top (tests/test_chains.cpp compares
// the chain references with the top's, tests/test_chain_schemes.cpp the chain schemes with their
// one-body steps).
#include "../problems/catalogue.hpp"
#include "../problems/families/spherical_chain.hpp"

namespace rigidbench::test {

/// heavy_top_realisable: J = diag(5, 5, 1) about the pivot, M = 2, centre of mass at l E3, l = 1,
/// g = 10: about the centre of mass J_c = J - M l^2 (I - E3 E3^T) = diag(3, 3, 1), the pivot at -E3;
/// the top's initial attitude and angular velocity.
inline Problem chain_one_link() {
  const Problem top = catalogue_problem("heavy_top_realisable");
  Problem p = catalogue_problem("chain_double");
  p.name = "chain_one";
  p.bodies = {BodyModel{Vec3(3, 3, 1).asDiagonal(), 2.0}};
  ChainData& d = p.family_data.edit<ChainData>();
  d.gravity = Vec3(0, 0, -10);
  d.inboard = {Vec3(0, 0, -1)};
  d.outboard = {Vec3::Zero()};
  p.initial = State(1);
  p.initial.body().R = top.initial.body().R;
  p.initial.body().W = top.initial.body().W;
  place_chain(d, p.initial);
  p.finalize();
  return p;
}

}  // namespace rigidbench::test
