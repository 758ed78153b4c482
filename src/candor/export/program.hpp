#pragma once
// A model's prediction as straight-line code: the one form every export (SQL, Python, C) is printed from.
//
// A Program is a list of steps, each a numeric variable defined by an expression over the row's attributes
// and earlier steps, then one probability expression per class and, for models that may leave a case
// undecided (PrIL), a condition saying whether the row is decided. The predicted class is the first class of
// highest probability, as Model::predict takes it.
//
// Expressions are trees of plain values. Every attribute test is total: a missing value (and a nominal value
// the model never saw) makes a test false or true by the model's own rule, never unknown, so that SQL's
// three-valued logic, C's NaN comparisons and Python's None agree. `evaluate` runs a program on a row of a
// Dataset; the tests hold it to Model::predict_proba, and the printed exports to it.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "candor/coverage/condition.hpp"
#include "candor/data.hpp"

namespace candor {

enum class ExprOp : unsigned char {
  // numeric
  number,           // `value`
  variable,         // step `index`
  attribute_value,  // numeric attribute `index`; only under a `known` test of it
  add,              // n-ary sum (printed as a balanced tree: no depth limit of SQL or Python is reached)
  multiply,         // n-ary product
  subtract,         // args[0] - args[1]
  divide,           // args[0] / args[1]
  exp,              // exp(args[0]), for arguments of at most about 709 (the programs only take exp of <= 0)
  log,              // natural logarithm of args[0] > 0
  choose,           // args[0] (boolean) ? args[1] : args[2]
  cases,            // args = c1, v1, c2, v2, ..., otherwise: the value of the first true condition
  lookup,           // table[args[0]], the index a whole number in [0, table size)
  // boolean
  known,       // attribute `index` has a value
  is_value,    // nominal attribute `index` equals its declared value `value_index`
  in_values,   // nominal attribute `index` is one of its first `value_index` declared values
  less_equal,  // args[0] <= args[1]
  greater,     // args[0] > args[1]
  equal,       // args[0] == args[1]
  all,         // n-ary AND (TRUE when empty)
  any,         // n-ary OR (FALSE when empty)
  negate,      // NOT args[0]
};

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
  ExprOp op = ExprOp::number;
  double value = 0;
  int index = 0;
  int value_index = 0;
  std::vector<ExprPtr> args;
  std::vector<double> table;  // lookup

  bool is_boolean() const;
};

struct Program {
  std::vector<ExprPtr> steps;          // v0, v1, ...: each refers to attributes and earlier steps only
  std::vector<ExprPtr> probabilities;  // one per class, in the model's class order
  ExprPtr decided;                     // boolean; null when every row is decided
  // Attributes the program reads, ascending.
  std::vector<int> attributes_used() const;
};

// Builders, in their own namespace so that exp and log do not hide the standard ones. Each folds what it
// can (a sum of no terms is 0, an AND of one test is that test).
namespace expr {
ExprPtr number(double x);
ExprPtr variable(std::size_t step);
ExprPtr attribute_value(int attribute);
ExprPtr add(std::vector<ExprPtr> terms);
ExprPtr multiply(std::vector<ExprPtr> factors);
ExprPtr subtract(ExprPtr a, ExprPtr b);
ExprPtr divide(ExprPtr a, ExprPtr b);
ExprPtr exp(ExprPtr a);
ExprPtr log(ExprPtr a);
ExprPtr choose(ExprPtr condition, ExprPtr if_true, ExprPtr if_false);
// `conditions[i]` gives `values[i]`; none: `otherwise`.
ExprPtr cases(std::vector<ExprPtr> conditions, std::vector<ExprPtr> values, ExprPtr otherwise);
ExprPtr lookup(ExprPtr index, std::vector<double> table);
ExprPtr known(int attribute);
ExprPtr is_value(int attribute, int value);
ExprPtr in_values(int attribute, int count);
ExprPtr less_equal(ExprPtr a, ExprPtr b);
ExprPtr greater(ExprPtr a, ExprPtr b);
ExprPtr equal(ExprPtr a, ExprPtr b);
ExprPtr all(std::vector<ExprPtr> tests);
ExprPtr any(std::vector<ExprPtr> tests);
ExprPtr negate(ExprPtr test);
// A rule condition with candor's missing-value rule (coverage/condition.hpp): a missing value satisfies no
// condition; an unseen nominal value satisfies every A != v and no A = v.
ExprPtr test(const Condition& c);
// 1 when `test` holds, else 0.
ExprPtr indicator(ExprPtr test);
}  // namespace expr

// The values of a program's steps and outputs on one row of data read against the model's schema.
struct ProgramResult {
  std::vector<double> probabilities;
  bool decided = true;
};
ProgramResult evaluate(const Program& p, const Dataset& d, std::size_t row);

}  // namespace candor
