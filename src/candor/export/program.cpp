#include "candor/export/program.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <stdexcept>

namespace candor {

bool Expr::is_boolean() const {
  switch (op) {
    case ExprOp::known:
    case ExprOp::is_value:
    case ExprOp::in_values:
    case ExprOp::less_equal:
    case ExprOp::greater:
    case ExprOp::equal:
    case ExprOp::all:
    case ExprOp::any:
    case ExprOp::negate: return true;
    default: return false;
  }
}

std::vector<int> Program::attributes_used() const {
  std::set<int> used;
  std::function<void(const Expr&)> visit = [&](const Expr& e) {
    if (e.op == ExprOp::attribute_value || e.op == ExprOp::known || e.op == ExprOp::is_value ||
        e.op == ExprOp::in_values)
      used.insert(e.index);
    for (const auto& a : e.args) visit(*a);
  };
  for (const auto& s : steps) visit(*s);
  for (const auto& p : probabilities) visit(*p);
  if (decided) visit(*decided);
  return {used.begin(), used.end()};
}

namespace expr {

namespace {

ExprPtr make(ExprOp op, std::vector<ExprPtr> args = {}) {
  auto e = std::make_shared<Expr>();
  e->op = op;
  e->args = std::move(args);
  return e;
}

ExprPtr attribute_op(ExprOp op, int attribute, int value = 0) {
  auto e = std::make_shared<Expr>();
  e->op = op;
  e->index = attribute;
  e->value_index = value;
  return e;
}

bool is_number(const ExprPtr& e, double x) { return e->op == ExprOp::number && e->value == x; }

// An AND or OR of the tests with nested ones of the same kind flattened and the neutral constant dropped.
ExprPtr junction(ExprOp op, std::vector<ExprPtr> tests) {
  std::vector<ExprPtr> flat;
  for (auto& t : tests) {
    if (t->op == op)
      flat.insert(flat.end(), t->args.begin(), t->args.end());
    else
      flat.push_back(std::move(t));
  }
  if (flat.size() == 1) return flat[0];
  return make(op, std::move(flat));
}

}  // namespace

ExprPtr number(double x) {
  auto e = std::make_shared<Expr>();
  e->value = x;
  return e;
}

ExprPtr variable(std::size_t step) {
  auto e = std::make_shared<Expr>();
  e->op = ExprOp::variable;
  e->index = static_cast<int>(step);
  return e;
}

ExprPtr attribute_value(int attribute) { return attribute_op(ExprOp::attribute_value, attribute); }

ExprPtr add(std::vector<ExprPtr> terms) {
  std::erase_if(terms, [](const ExprPtr& t) { return is_number(t, 0); });
  if (terms.empty()) return number(0);
  if (terms.size() == 1) return terms[0];
  return make(ExprOp::add, std::move(terms));
}

ExprPtr multiply(std::vector<ExprPtr> factors) {
  std::erase_if(factors, [](const ExprPtr& t) { return is_number(t, 1); });
  if (factors.empty()) return number(1);
  if (factors.size() == 1) return factors[0];
  return make(ExprOp::multiply, std::move(factors));
}

ExprPtr subtract(ExprPtr a, ExprPtr b) { return make(ExprOp::subtract, {std::move(a), std::move(b)}); }
ExprPtr divide(ExprPtr a, ExprPtr b) { return make(ExprOp::divide, {std::move(a), std::move(b)}); }
ExprPtr exp(ExprPtr a) { return make(ExprOp::exp, {std::move(a)}); }
ExprPtr log(ExprPtr a) { return make(ExprOp::log, {std::move(a)}); }

ExprPtr choose(ExprPtr condition, ExprPtr if_true, ExprPtr if_false) {
  if (condition->op == ExprOp::all && condition->args.empty()) return if_true;
  if (condition->op == ExprOp::any && condition->args.empty()) return if_false;
  return make(ExprOp::choose, {std::move(condition), std::move(if_true), std::move(if_false)});
}

ExprPtr cases(std::vector<ExprPtr> conditions, std::vector<ExprPtr> values, ExprPtr otherwise) {
  if (conditions.size() != values.size()) throw std::logic_error("cases: one value per condition");
  if (conditions.empty()) return otherwise;
  std::vector<ExprPtr> args;
  for (std::size_t i = 0; i < conditions.size(); ++i) {
    args.push_back(std::move(conditions[i]));
    args.push_back(std::move(values[i]));
  }
  args.push_back(std::move(otherwise));
  return make(ExprOp::cases, std::move(args));
}

ExprPtr lookup(ExprPtr index, std::vector<double> table) {
  auto e = std::make_shared<Expr>();
  e->op = ExprOp::lookup;
  e->args = {std::move(index)};
  e->table = std::move(table);
  return e;
}

ExprPtr known(int attribute) { return attribute_op(ExprOp::known, attribute); }
ExprPtr is_value(int attribute, int value) { return attribute_op(ExprOp::is_value, attribute, value); }
ExprPtr in_values(int attribute, int count) { return attribute_op(ExprOp::in_values, attribute, count); }
ExprPtr less_equal(ExprPtr a, ExprPtr b) { return make(ExprOp::less_equal, {std::move(a), std::move(b)}); }
ExprPtr greater(ExprPtr a, ExprPtr b) { return make(ExprOp::greater, {std::move(a), std::move(b)}); }
ExprPtr equal(ExprPtr a, ExprPtr b) { return make(ExprOp::equal, {std::move(a), std::move(b)}); }
ExprPtr all(std::vector<ExprPtr> tests) { return junction(ExprOp::all, std::move(tests)); }
ExprPtr any(std::vector<ExprPtr> tests) { return junction(ExprOp::any, std::move(tests)); }
ExprPtr negate(ExprPtr test) { return make(ExprOp::negate, {std::move(test)}); }

ExprPtr test(const Condition& c) {
  switch (c.op) {
    case Op::eq: return is_value(c.attribute, c.value);
    case Op::ne: return all({known(c.attribute), negate(is_value(c.attribute, c.value))});
    case Op::le: return all({known(c.attribute), less_equal(attribute_value(c.attribute), number(c.threshold))});
    case Op::gt: return all({known(c.attribute), greater(attribute_value(c.attribute), number(c.threshold))});
  }
  throw std::logic_error("unknown condition");
}

ExprPtr indicator(ExprPtr test) { return choose(std::move(test), number(1), number(0)); }

}  // namespace expr

namespace {

struct Evaluator {
  const Dataset& d;
  std::size_t row;
  std::vector<double> vars;

  // Sums and products in the balanced order the printers use.
  double fold(const std::vector<ExprPtr>& args, std::size_t lo, std::size_t hi, bool product) {
    if (hi - lo == 1) return number(*args[lo]);
    const std::size_t mid = lo + (hi - lo) / 2;
    const double a = fold(args, lo, mid, product), b = fold(args, mid, hi, product);
    return product ? a * b : a + b;
  }

  bool truth(const Expr& e) {
    const auto a = static_cast<std::size_t>(e.index);
    switch (e.op) {
      case ExprOp::known: return !d.is_missing(a, row);
      case ExprOp::is_value: return d.columns[a].codes[row] == e.value_index;
      case ExprOp::in_values: {
        const int code = d.columns[a].codes[row];
        return code != kMissing && code < e.value_index;
      }
      case ExprOp::less_equal: return number(*e.args[0]) <= number(*e.args[1]);
      case ExprOp::greater: return number(*e.args[0]) > number(*e.args[1]);
      case ExprOp::equal: return number(*e.args[0]) == number(*e.args[1]);
      case ExprOp::all:
        for (const auto& t : e.args)
          if (!truth(*t)) return false;
        return true;
      case ExprOp::any:
        for (const auto& t : e.args)
          if (truth(*t)) return true;
        return false;
      case ExprOp::negate: return !truth(*e.args[0]);
      default: throw std::logic_error("a number where a test was expected");
    }
  }

  double number(const Expr& e) {
    switch (e.op) {
      case ExprOp::number: return e.value;
      case ExprOp::variable: return vars.at(static_cast<std::size_t>(e.index));
      case ExprOp::attribute_value: return d.columns[static_cast<std::size_t>(e.index)].values[row];
      case ExprOp::add: return fold(e.args, 0, e.args.size(), false);
      case ExprOp::multiply: return fold(e.args, 0, e.args.size(), true);
      case ExprOp::subtract: return number(*e.args[0]) - number(*e.args[1]);
      case ExprOp::divide: return number(*e.args[0]) / number(*e.args[1]);
      case ExprOp::exp: return std::exp(number(*e.args[0]));
      case ExprOp::log: return std::log(number(*e.args[0]));
      case ExprOp::choose: return truth(*e.args[0]) ? number(*e.args[1]) : number(*e.args[2]);
      case ExprOp::cases:
        for (std::size_t i = 0; i + 1 < e.args.size(); i += 2)
          if (truth(*e.args[i])) return number(*e.args[i + 1]);
        return number(*e.args.back());
      case ExprOp::lookup: return e.table.at(static_cast<std::size_t>(number(*e.args[0])));
      default: throw std::logic_error("a test where a number was expected");
    }
  }
};

}  // namespace

ProgramResult evaluate(const Program& p, const Dataset& d, std::size_t row) {
  Evaluator ev{d, row, {}};
  for (const auto& s : p.steps) ev.vars.push_back(ev.number(*s));
  ProgramResult out;
  for (const auto& e : p.probabilities) out.probabilities.push_back(ev.number(*e));
  if (p.decided) out.decided = ev.truth(*p.decided);
  return out;
}

}  // namespace candor
