#pragma once
// Data a family owns beyond the common problem model (docs/architecture.md, "The problem model"):
// a body system's interactions and contact diameters (problems/families/body_system.hpp), a body in a
// fluid's added mass (problems/families/kirchhoff_body.hpp), the internal momentum of the rigid-body
// equations that the gyrostat sets (problems/families/rigid_body.hpp). The common model (bodies'
// inertia and mass, loads, initial state, span, verification settings) stays on Problem; what only
// one family means lives in that family's type, so adding a family adds no field to Problem.
//
// A problem holds at most one such value, of the type its family declares. Reading it as a type it
// does not hold gives the type's default (no interactions, no added mass, no internal momentum), so
// code that handles a family's terms reads them unconditionally and sees none on other problems.
#include <memory>
#include <stdexcept>
#include <string>
#include <typeinfo>

namespace rigidbench {

/// The base of every family's data type; derive through FamilyDataOf<D>.
class FamilyData {
 public:
  virtual ~FamilyData() = default;
  virtual std::unique_ptr<FamilyData> clone() const = 0;
  /// Same type and equal values (D::operator==).
  virtual bool equals(const FamilyData& o) const = 0;
  /// Equal to a default-constructed D: a problem without data equals one holding the default.
  virtual bool is_default() const = 0;
};

/// D's copy, comparison and default test, from D's copy constructor and operator==.
template <class D>
class FamilyDataOf : public FamilyData {
 public:
  std::unique_ptr<FamilyData> clone() const override { return std::make_unique<D>(static_cast<const D&>(*this)); }
  bool equals(const FamilyData& o) const override {
    const D* d = dynamic_cast<const D*>(&o);
    return d != nullptr && static_cast<const D&>(*this) == *d;
  }
  bool is_default() const override { return static_cast<const D&>(*this) == D{}; }
  /// The base holds nothing: a D's defaulted operator== compares its own members only.
  bool operator==(const FamilyDataOf&) const { return true; }
};

/// The one slot a Problem keeps its family's data in: a value (copied with the problem, compared
/// with it), empty until a family's builder, reader or validate() writes it.
class FamilyDataSlot {
 public:
  FamilyDataSlot() = default;
  FamilyDataSlot(const FamilyDataSlot& o) : data_(o.data_ ? o.data_->clone() : nullptr) {}
  FamilyDataSlot(FamilyDataSlot&&) noexcept = default;
  FamilyDataSlot& operator=(const FamilyDataSlot& o) {
    if (this != &o) data_ = o.data_ ? o.data_->clone() : nullptr;
    return *this;
  }
  FamilyDataSlot& operator=(FamilyDataSlot&&) noexcept = default;

  /// The D held, or nullptr (empty, or another type).
  template <class D>
  const D* find() const {
    return dynamic_cast<const D*>(data_.get());
  }
  /// The D held, or D's default.
  template <class D>
  const D& get() const {
    static const D none{};
    const D* d = find<D>();
    return d ? *d : none;
  }
  /// The D held, made (default) where the slot is empty; throws std::logic_error where it holds
  /// another type (a family writing two types, or a problem whose family changed after it was built).
  template <class D>
  D& edit() {
    if (!data_) data_ = std::make_unique<D>();
    D* d = dynamic_cast<D*>(data_.get());
    if (d == nullptr)
      throw std::logic_error(std::string("FamilyDataSlot::edit: the problem holds another family's data, not ") +
                             typeid(D).name());
    return *d;
  }
  bool operator==(const FamilyDataSlot& o) const {
    if (!data_ || !o.data_) return (!data_ || data_->is_default()) && (!o.data_ || o.data_->is_default());
    return data_->equals(*o.data_);
  }

 private:
  std::unique_ptr<FamilyData> data_;
};

}  // namespace rigidbench
