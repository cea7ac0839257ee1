#pragma once
// The paper suite's items, one file per source paper (docs/bibliography.md). Each function appends
// that paper's reproductions to `out`; run_paper_suite (verification/paper_suite.cpp) lists them.
// A new paper's reproductions are a new file here plus one line there.
#include "../paper_suite.hpp"

namespace rigidbench::papers {

/// Paper 000, Tables 1-6: Q_II(t) and the invariants of the non-twisting body.
void paper000_tables(PaperSuiteResult& out, bool progress);
/// Paper 001, Fig. 1: convergence on the 3-D pendulum.
void paper001_fig1(PaperSuiteResult& out, bool progress);
/// Paper 001, section 4.1 (Figs. 4-7): the 80-particle torus.
void paper001_torus(PaperSuiteResult& out, bool progress);
/// Paper 002: the heavy top's Hamiltonian error at three steps.
void paper002(PaperSuiteResult& out, bool progress);
/// Paper 003: the Newton-Euler, Kirchhoff and Lagrange formulations against each other and the closed form.
void paper003(PaperSuiteResult& out, bool progress);
/// Paper 004: the Terze-Mueller-Zlatar update's momentum (torque-free) and its energy drift in t and h.
void paper004(PaperSuiteResult& out, bool progress);

}  // namespace rigidbench::papers
