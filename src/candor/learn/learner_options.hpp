#pragma once
// The options a learner declares in its own folder (learners/<learner>/), held by LearnerParams without
// LearnerParams naming their types, so that a new learner's options edit no shared header. Each block is
// a plain struct with default member values and operator==; LearnerParams::options<T>() reads and writes
// it, and a block never written reads as its defaults.
//
// What every covering learner shares (heuristics, search, covering, EVC, stable rules) stays as members of
// LearnerParams: those are the components the shared covering code reads, not a learner's own.
#include <memory>
#include <vector>

namespace candor {

class LearnerOptions {
 public:
  LearnerOptions() = default;
  LearnerOptions(const LearnerOptions& other) {
    for (const Block& b : other.blocks_) blocks_.push_back({b.type, b.type->copy(b.value.get())});
  }
  LearnerOptions& operator=(const LearnerOptions& other) {
    if (this != &other) {
      LearnerOptions copy(other);
      blocks_.swap(copy.blocks_);
    }
    return *this;
  }
  LearnerOptions(LearnerOptions&&) noexcept = default;
  LearnerOptions& operator=(LearnerOptions&&) noexcept = default;

  // The block of type T: the one written, or T's defaults.
  template <class T>
  const T& get() const {
    if (const Block* b = find(type_of<T>())) return *static_cast<const T*>(b->value.get());
    static const T defaults{};
    return defaults;
  }
  // The block of type T to write, made from T's defaults on first use.
  template <class T>
  T& get() {
    if (Block* b = find(type_of<T>())) return *static_cast<T*>(b->value.get());
    blocks_.push_back({type_of<T>(), std::make_shared<T>()});
    return *static_cast<T*>(blocks_.back().value.get());
  }

  // Equal when every block holds the same values; a block never written counts as its defaults.
  bool operator==(const LearnerOptions& other) const {
    for (const Block& b : blocks_) {
      const Block* o = other.find(b.type);
      if (o ? !b.type->equal(b.value.get(), o->value.get()) : !b.type->is_default(b.value.get())) return false;
    }
    for (const Block& o : other.blocks_)
      if (!find(o.type) && !o.type->is_default(o.value.get())) return false;
    return true;
  }

 private:
  // What a block's type can do, one instance per type; its address identifies the type.
  struct Type {
    std::shared_ptr<void> (*copy)(const void*);
    bool (*equal)(const void*, const void*);
    bool (*is_default)(const void*);
  };
  template <class T>
  static const Type* type_of() {
    static const Type type{
        [](const void* v) -> std::shared_ptr<void> { return std::make_shared<T>(*static_cast<const T*>(v)); },
        [](const void* a, const void* b) { return *static_cast<const T*>(a) == *static_cast<const T*>(b); },
        [](const void* v) { return *static_cast<const T*>(v) == T{}; }};
    return &type;
  }
  struct Block {
    const Type* type;
    std::shared_ptr<void> value;  // this object's own: copies of LearnerOptions copy the value
  };
  const Block* find(const Type* type) const {
    for (const Block& b : blocks_)
      if (b.type == type) return &b;
    return nullptr;
  }
  Block* find(const Type* type) {
    for (Block& b : blocks_)
      if (b.type == type) return &b;
    return nullptr;
  }
  std::vector<Block> blocks_;
};

}  // namespace candor
