// SUNDIALS' error-controlled integrators as adaptive schemes (docs/adaptive.md; Debian libsundials-dev,
// [HBG05] Hindmarsh et al., ACM TOMS 31 (2005); [RGL22] Reynolds et al., ACM TOMS 48 (2022) for
// ARKODE). Like the engines, code of another library judged through the public registration, with
// its version pinned in SchemeInfo::version; unlike them, not a physics engine but an ODE solver: it
// integrates the same right-hand side as the references and the odeint schemes, the quaternion
// Kirchhoff form of the rigid-body equations (problems/formulations/kirchhoff.hpp).
//
// Each step(t, h) is one call of the solver's own "advance to tout" in its normal mode: it steps past
// tout and interpolates there (its dense output). Variants:
// - sundials_cvode_adams: CVODE's variable-order Adams-Moulton (orders 1-12) with the fixed-point
//   iteration SUNDIALS recommends for non-stiff problems;
// - sundials_cvode_bdf: CVODE's variable-order BDF (orders 1-5), Newton with a dense linear solver and
//   CVODE's difference-quotient Jacobian;
// - sundials_arkode_erk: ARKODE's explicit Runge-Kutta, its default order-4 table (Zonneveld 5(3)4);
// - sundials_arkode_dirk: ARKODE's diagonally implicit Runge-Kutta, its default order-4 table
//   (SDIRK 5(3)4), Newton with a dense linear solver.
// The controllers and every other option are SUNDIALS' defaults but two: the tolerances
// (abs_tolerance, rel_tolerance, scalar), and at most 10^6 internal steps per output interval (the
// default 500 would end a tight tolerance's run as a breakdown). No quaternion projection: CVODE's
// projection interface (CVodeSetProjFn) serves BDF only, and ARKODE 5.4's relaxation is not in it;
// the canonical attitude is R(q/|q|), on SO(3) whatever |q| does.
//
// Counters: accepted steps (GetNumSteps), rejected steps (error-test failures plus nonlinear-solver
// convergence failures: each is a step attempt thrown away), right-hand sides (all of them, the
// difference-quotient Jacobian's included).
#include <arkode/arkode_arkstep.h>
#include <arkode/arkode_erkstep.h>
#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_config.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "engines.hpp"
#include "../problems/formulations/kirchhoff.hpp"

namespace rigidbench::engines {
namespace {

enum class Method { cvode_adams, cvode_bdf, arkode_erk, arkode_dirk };

struct Variant {
  const char* name;
  Method method;
  const char* title;
  const char* what;
  int order;  // the method's order; 0: variable
  SchemeKind kind;
};

constexpr Variant kVariants[] = {
    {"sundials_cvode_adams", Method::cvode_adams, "CVODE Adams-Moulton (variable order 1-12), fixed-point iteration",
     "CVodeCreate(CV_ADAMS) with SUNNonlinSol_FixedPoint", 0, SchemeKind::implicit},
    {"sundials_cvode_bdf", Method::cvode_bdf, "CVODE BDF (variable order 1-5), Newton with a dense linear solver",
     "CVodeCreate(CV_BDF) with SUNLinSol_Dense and the difference-quotient Jacobian", 0, SchemeKind::implicit},
    {"sundials_arkode_erk", Method::arkode_erk, "ARKODE explicit Runge-Kutta, Zonneveld 5(3)4",
     "ERKStepCreate, default order-4 table ARKODE_ZONNEVELD_5_3_4", 4, SchemeKind::explicit_},
    {"sundials_arkode_dirk", Method::arkode_dirk, "ARKODE diagonally implicit Runge-Kutta, SDIRK 5(3)4",
     "ARKStepCreate (implicit), default order-4 table ARKODE_SDIRK_5_3_4, SUNLinSol_Dense", 4, SchemeKind::implicit},
};

constexpr long kMaxSteps = 1000000;

class Sundials final : public AnyIntegrator {
 public:
  Sundials(const Problem& p, const SchemeSettings& set, const Variant& v, const SchemeInfo& info)
      : info_(&info), v_(&v), counters_(), rhs_(&p, &counters_.load_evaluations), abs_(set.get(kAbsTolerance)),
        rel_(set.get(kRelTolerance)) {
    if (SUNContext_Create(nullptr, &ctx_) != 0) throw std::runtime_error("SUNDIALS: SUNContext_Create failed");
    y_ = N_VNew_Serial(7, ctx_);
  }
  Sundials(const Sundials&) = delete;
  Sundials& operator=(const Sundials&) = delete;
  ~Sundials() override {
    release();
    N_VDestroy(y_);
    SUNContext_Free(&ctx_);
  }

  const SchemeInfo& info() const override { return *info_; }

  void reset(const State& x0, double t0) override {
    release();
    counters_ = {};
    rhs_evaluations_ = 0;
    fault_.clear();
    const auto q = formulations::KirchhoffQuaternion::from_body(x0.body());
    double* y = N_VGetArrayPointer(y_);
    for (std::size_t i = 0; i < 7; ++i) y[i] = q[i];
    switch (v_->method) {
      case Method::cvode_adams:
      case Method::cvode_bdf: {
        mem_ = CVodeCreate(v_->method == Method::cvode_adams ? CV_ADAMS : CV_BDF, ctx_);
        check(CVodeInit(mem_, &Sundials::f, t0, y_), "CVodeInit");
        check(CVodeSStolerances(mem_, rel_, abs_), "CVodeSStolerances");
        check(CVodeSetUserData(mem_, this), "CVodeSetUserData");
        check(CVodeSetErrHandlerFn(mem_, &Sundials::on_error, this), "CVodeSetErrHandlerFn");
        check(CVodeSetMaxNumSteps(mem_, kMaxSteps), "CVodeSetMaxNumSteps");
        if (v_->method == Method::cvode_adams) {
          nls_ = SUNNonlinSol_FixedPoint(y_, 0, ctx_);
          check(CVodeSetNonlinearSolver(mem_, nls_), "CVodeSetNonlinearSolver");
        } else {
          dense_solver();
          check(CVodeSetLinearSolver(mem_, ls_, A_), "CVodeSetLinearSolver");
        }
        break;
      }
      case Method::arkode_erk:
        mem_ = ERKStepCreate(&Sundials::f, t0, y_, ctx_);
        check(ERKStepSStolerances(mem_, rel_, abs_), "ERKStepSStolerances");
        check(ERKStepSetUserData(mem_, this), "ERKStepSetUserData");
        check(ERKStepSetErrHandlerFn(mem_, &Sundials::on_error, this), "ERKStepSetErrHandlerFn");
        check(ERKStepSetMaxNumSteps(mem_, kMaxSteps), "ERKStepSetMaxNumSteps");
        check(ERKStepSetTableNum(mem_, ARKODE_ZONNEVELD_5_3_4), "ERKStepSetTableNum");
        break;
      case Method::arkode_dirk:
        mem_ = ARKStepCreate(nullptr, &Sundials::f, t0, y_, ctx_);
        check(ARKStepSStolerances(mem_, rel_, abs_), "ARKStepSStolerances");
        check(ARKStepSetUserData(mem_, this), "ARKStepSetUserData");
        check(ARKStepSetErrHandlerFn(mem_, &Sundials::on_error, this), "ARKStepSetErrHandlerFn");
        check(ARKStepSetMaxNumSteps(mem_, kMaxSteps), "ARKStepSetMaxNumSteps");
        check(ARKStepSetTableNum(mem_, ARKODE_SDIRK_5_3_4, ARKODE_ERK_NONE), "ARKStepSetTableNum");
        dense_solver();
        check(ARKStepSetLinearSolver(mem_, ls_, A_), "ARKStepSetLinearSolver");
        break;
    }
    out_ = q;
  }

  StepStatus step(double t, double h) override {
    (void)t;
    const double tout = t + h;
    double reached = 0;
    const int flag = v_->method == Method::cvode_adams || v_->method == Method::cvode_bdf ? CVode(mem_, tout, y_, &reached, CV_NORMAL)
                     : v_->method == Method::arkode_erk ? ERKStepEvolve(mem_, tout, y_, &reached, ARK_NORMAL)
                                                        : ARKStepEvolve(mem_, tout, y_, &reached, ARK_NORMAL);
    collect();
    if (flag < 0)
      return StepStatus::breakdown(cat(flag_name(flag), fault_.empty() ? "" : ": ", fault_));
    const double* y = N_VGetArrayPointer(y_);
    for (std::size_t i = 0; i < 7; ++i) out_[i] = y[i];
    return {};
  }

  void read(State& x) const override { formulations::KirchhoffQuaternion::to_body(out_, x.body()); }
  Counters counters() const override { return counters_; }
  std::optional<NewtonSystem> newton_system(double, double) override { return std::nullopt; }

 private:
  static int f(double t, N_Vector y, N_Vector ydot, void* user) {
    auto* self = static_cast<Sundials*>(user);
    ++self->rhs_evaluations_;
    formulations::KirchhoffQuaternion::state_type in{}, out{};
    const double* yy = N_VGetArrayPointer(y);
    for (std::size_t i = 0; i < 7; ++i) in[i] = yy[i];
    self->rhs_(in, out, t);
    double* d = N_VGetArrayPointer(ydot);
    for (std::size_t i = 0; i < 7; ++i) d[i] = out[i];
    for (double v : out)
      if (!std::isfinite(v)) return 1;  // recoverable: the solver retries with a smaller step
    return 0;
  }
  static void on_error(int, const char* module, const char* function, char* msg, void* user) {
    static_cast<Sundials*>(user)->fault_ = cat(module, ".", function, ": ", msg);
  }
  void check(int flag, const char* what) const {
    if (flag < 0) throw std::runtime_error(cat("SUNDIALS: ", what, " failed (", std::to_string(flag), ")"));
  }
  void dense_solver() {
    A_ = SUNDenseMatrix(7, 7, ctx_);
    ls_ = SUNLinSol_Dense(y_, A_, ctx_);
  }
  /// The name of a return flag. SUNDIALS allocates it with malloc and leaves it to the caller to free
  /// (found by the sanitize preset's LeakSanitizer).
  std::string flag_name(int flag) const {
    char* name = v_->method == Method::cvode_adams || v_->method == Method::cvode_bdf ? CVodeGetReturnFlagName(flag)
                 : v_->method == Method::arkode_erk                                    ? ERKStepGetReturnFlagName(flag)
                                                                                       : ARKStepGetReturnFlagName(flag);
    std::string s = name != nullptr ? name : std::to_string(flag);
    std::free(name);
    return s;
  }
  /// The solver's counts since reset (Counters of an adaptive scheme).
  void collect() {
    long steps = 0, err_fails = 0, conv_fails = 0;
    switch (v_->method) {
      case Method::cvode_adams:
      case Method::cvode_bdf:
        CVodeGetNumSteps(mem_, &steps);
        CVodeGetNumErrTestFails(mem_, &err_fails);
        CVodeGetNumNonlinSolvConvFails(mem_, &conv_fails);
        break;
      case Method::arkode_erk:
        ERKStepGetNumSteps(mem_, &steps);
        ERKStepGetNumErrTestFails(mem_, &err_fails);
        break;
      case Method::arkode_dirk:
        ARKStepGetNumSteps(mem_, &steps);
        ARKStepGetNumErrTestFails(mem_, &err_fails);
        ARKStepGetNumNonlinSolvConvFails(mem_, &conv_fails);
        break;
    }
    counters_.accepted_steps = std::uint64_t(steps);
    counters_.rejected_steps = std::uint64_t(err_fails + conv_fails);
    counters_.rhs_evaluations = rhs_evaluations_;
  }
  void release() {
    if (mem_ != nullptr) {
      if (v_->method == Method::cvode_adams || v_->method == Method::cvode_bdf) CVodeFree(&mem_);
      else if (v_->method == Method::arkode_erk) ERKStepFree(&mem_);
      else ARKStepFree(&mem_);
    }
    if (nls_ != nullptr) SUNNonlinSolFree(nls_), nls_ = nullptr;
    if (ls_ != nullptr) SUNLinSolFree(ls_), ls_ = nullptr;
    if (A_ != nullptr) SUNMatDestroy(A_), A_ = nullptr;
    mem_ = nullptr;
  }

  const SchemeInfo* info_;
  const Variant* v_;
  Counters counters_;  // before rhs_, which points into it
  formulations::KirchhoffQuaternion rhs_;
  double abs_, rel_;
  SUNContext ctx_ = nullptr;
  N_Vector y_ = nullptr;
  void* mem_ = nullptr;
  SUNNonlinearSolver nls_ = nullptr;
  SUNLinearSolver ls_ = nullptr;
  SUNMatrix A_ = nullptr;
  formulations::KirchhoffQuaternion::state_type out_{};
  std::uint64_t rhs_evaluations_ = 0;
  std::string fault_;
};

}  // namespace

std::string sundials_version() { return SUNDIALS_VERSION; }

void register_sundials() {
  for (const Variant& v : kVariants) {
    register_variant(
        SchemeInfo{.name = v.name,
                   .title = keep(cat("SUNDIALS ", sundials_version(), " ", v.title)),
                   .source = keep(cat("SUNDIALS ", sundials_version(), " (Debian libsundials-dev; Hindmarsh et al., ACM TOMS 31 "
                                      "(2005); ARKODE: Reynolds et al., ACM TOMS 48 (2022)): ", v.what)),
                   .representation = "quaternion q and body angular velocity W (Kirchhoff form), no projection",
                   .order = v.order,
                   .kind = v.kind,
                   .applies = {.families = {"rigid_body"}, .features = {"internal_momentum"}},
                   .claims = {},
                   .notes = "advances to each output time in its normal mode (steps past it and interpolates); "
                            "SUNDIALS' default controllers, at most 10^6 steps per output interval",
                   .settings = {kAbsTolerance, kRelTolerance},
                   .adaptive = true,
                   .dense_output = true,
                   .version = keep(cat("SUNDIALS ", sundials_version()))},
        [&v](const Problem& p, const SchemeSettings& set, const SchemeInfo& info) {
          return std::make_unique<Sundials>(p, set, v, info);
        },
        false);
  }
}

}  // namespace rigidbench::engines
