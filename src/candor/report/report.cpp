#include "candor/report/report.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <set>
#include <sstream>

#include "candor/eval/evaluate.hpp"
#include "candor/eval/metrics.hpp"
#include "candor/learn/params.hpp"
#include "candor/report/report_assets.hpp"
#include "candor/util/format.hpp"

namespace candor {

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  return out;
}

namespace {

// JSON inside <script type="application/json">: a "<" could close the element ("</script>"), so every one is
// written as the escape \u003c, which JSON.parse reads back as "<" (outside strings JSON has no "<").
std::string script_json(const nlohmann::json& j) {
  const std::string text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (char c : text)
    if (c == '<')
      out += "\\u003c";
    else
      out += c;
  return out;
}

// A probability kept to four decimals: the page shows three, and the page of 100k rows stays small.
double rounded(double p) { return std::round(p * 1e4) / 1e4; }

std::string number(double x, int digits) { return std::isfinite(x) ? fixed_digits(x, digits) : std::string("–"); }

// The plots share a frame: [0, 1] on both axes, ticks every 0.2, the diagonal of perfect calibration.
struct Frame {
  double left = 48, top = 14, size = 300;
  double x(double v) const { return left + v * size; }
  double y(double v) const { return top + (1 - v) * size; }
};

std::string frame_svg(const Frame& f, const std::string& x_label, const std::string& y_label) {
  std::ostringstream s;
  s << "<rect x=\"" << f.left << "\" y=\"" << f.top << "\" width=\"" << f.size << "\" height=\"" << f.size
    << "\" class=\"plot-area\"/>";
  for (int i = 0; i <= 5; ++i) {
    const double v = i / 5.0;
    s << "<line class=\"grid\" x1=\"" << f.x(v) << "\" y1=\"" << f.y(0) << "\" x2=\"" << f.x(v) << "\" y2=\"" << f.y(1)
      << "\"/>";
    s << "<line class=\"grid\" x1=\"" << f.x(0) << "\" y1=\"" << f.y(v) << "\" x2=\"" << f.x(1) << "\" y2=\"" << f.y(v)
      << "\"/>";
    s << "<text class=\"tick\" x=\"" << f.x(v) << "\" y=\"" << f.y(0) + 16 << "\" text-anchor=\"middle\">"
      << fixed_digits(v, 1) << "</text>";
    s << "<text class=\"tick\" x=\"" << f.x(0) - 6 << "\" y=\"" << f.y(v) + 4 << "\" text-anchor=\"end\">"
      << fixed_digits(v, 1) << "</text>";
  }
  s << "<line class=\"diagonal\" x1=\"" << f.x(0) << "\" y1=\"" << f.y(0) << "\" x2=\"" << f.x(1) << "\" y2=\""
    << f.y(1) << "\"/>";
  s << "<text class=\"axis-label\" x=\"" << f.x(0.5) << "\" y=\"" << f.y(0) + 34 << "\" text-anchor=\"middle\">"
    << html_escape(x_label) << "</text>";
  s << "<text class=\"axis-label\" transform=\"translate(12 " << f.y(0.5) << ") rotate(-90)\" text-anchor=\"middle\">"
    << html_escape(y_label) << "</text>";
  return s.str();
}

std::string svg_open(const std::string& id, const std::string& label) {
  return "<svg id=\"" + id + "\" class=\"plot\" viewBox=\"0 0 360 360\" width=\"360\" height=\"360\" role=\"img\" " +
         "aria-label=\"" + html_escape(label) + "\" xmlns=\"http://www.w3.org/2000/svg\">";
}

}  // namespace

std::string reliability_svg(const std::vector<ReliabilityBin>& bins) {
  double most = 0;
  for (const auto& b : bins) most = std::max(most, b.count);
  if (most <= 0) return "";
  const Frame f;
  std::ostringstream s;
  s << svg_open("reliability-plot", "reliability diagram: observed accuracy against predicted confidence");
  s << frame_svg(f, "predicted probability of the predicted class", "share of those predictions that are right");
  std::string line;
  for (const auto& b : bins) {
    if (b.count <= 0) continue;
    line += (line.empty() ? "" : " ") + fixed_digits(f.x(b.mean_predicted), 2) + "," + fixed_digits(f.y(b.observed), 2);
  }
  s << "<polyline class=\"reliability-line\" points=\"" << line << "\"/>";
  for (const auto& b : bins) {
    if (b.count <= 0) continue;
    const double r = 3 + 7 * std::sqrt(b.count / most);
    s << "<circle class=\"bin\" cx=\"" << fixed_digits(f.x(b.mean_predicted), 2) << "\" cy=\""
      << fixed_digits(f.y(b.observed), 2) << "\" r=\"" << fixed_digits(r, 2) << "\"><title>confidence "
      << fixed_digits(b.lo, 1) << "–" << fixed_digits(b.hi, 1) << ": " << count_text(b.count)
      << " rows, mean predicted " << fixed_digits(b.mean_predicted, 3) << ", right " << fixed_digits(b.observed, 3)
      << "</title></circle>";
  }
  s << "</svg>";
  return s.str();
}

std::string rule_points_svg(const std::vector<RulePoint>& points) {
  if (points.empty()) return "";
  double most = 0;
  for (const auto& p : points) most = std::max(most, p.decided);
  const Frame f;
  std::ostringstream s;
  s << svg_open("rule-plot", "each rule's probability against the share of its class among the rows it decides");
  s << frame_svg(f, "the rule's probability", "share of its class among the rows it decides");
  // Labels only for the rules deciding most rows: at thousands of rules, labels would hide the points.
  std::vector<std::size_t> order(points.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return points[a].decided > points[b].decided; });
  std::set<std::size_t> labelled(order.begin(),
                                 order.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(order.size(), 20)));
  for (std::size_t i = 0; i < points.size(); ++i) {
    const RulePoint& p = points[i];
    const double cy = f.y(p.test_share);
    if (std::isfinite(p.low) && std::isfinite(p.high))
      s << "<line class=\"interval\" x1=\"" << fixed_digits(f.x(p.low), 2) << "\" y1=\"" << fixed_digits(cy, 2)
        << "\" x2=\"" << fixed_digits(f.x(p.high), 2) << "\" y2=\"" << fixed_digits(cy, 2) << "\"/>";
    const double r = 2 + 6 * std::sqrt(most > 0 ? p.decided / most : 0);
    s << "<circle class=\"rule-point\" cx=\"" << fixed_digits(f.x(p.probability), 2) << "\" cy=\""
      << fixed_digits(cy, 2) << "\" r=\"" << fixed_digits(r, 2) << "\"";
    if (p.rule > 0) s << " data-rule=\"" << p.rule << "\"";
    s << "><title>" << (p.rule > 0 ? "rule " + std::to_string(p.rule) + ": " : std::string()) << "probability "
      << fixed_digits(p.probability, 3);
    if (std::isfinite(p.low) && std::isfinite(p.high))
      s << " [" << fixed_digits(p.low, 3) << ", " << fixed_digits(p.high, 3) << "]";
    s << ", share of its class " << fixed_digits(p.test_share, 3) << " of " << count_text(p.decided)
      << " rows</title></circle>";
    if (p.rule > 0 && labelled.count(i))
      s << "<text class=\"rule-label\" x=\"" << fixed_digits(f.x(p.probability) + r + 2, 2) << "\" y=\""
        << fixed_digits(cy - 2, 2) << "\">" << p.rule << "</text>";
  }
  s << "</svg>";
  return s.str();
}

namespace {

nlohmann::json rule_rows(const Model& model) {
  nlohmann::json rows = rule_table_with_stability(model);
  for (std::size_t k = 0; k < rows.size(); ++k) rows[k]["id"] = k + 1;
  return rows;
}

// The columns of the rule table: the ones every reader looks for first, then the kind's own, then the record
// on the report's data (a JSON object keeps no order of its own).
std::vector<std::string> rule_columns(const nlohmann::json& rows) {
  static const std::vector<std::string> order{"id",           "member",           "rule",        "class",
                                              "covered",      "training_covered", "probability", "frequency",
                                              "class_counts", "training_counts",  "quality",     "weight",
                                              "gamma",        "reliability",      "correct",     "confidence",
                                              "response",     "vote_weight",      "lifts"};
  std::vector<std::string> present;
  for (const auto& row : rows)
    for (const auto& [key, value] : row.items())
      if (std::find(present.begin(), present.end(), key) == present.end()) present.push_back(key);
  std::vector<std::string> out;
  for (const auto& key : order)
    if (key == "id" || std::find(present.begin(), present.end(), key) != present.end()) out.push_back(key);
  for (const auto& key : present)
    if (std::find(out.begin(), out.end(), key) == out.end() && key != "data_decided" && key != "data_share")
      out.push_back(key);
  for (const std::string key : {"data_decided", "data_share"})
    if (std::find(present.begin(), present.end(), key) != present.end()) out.push_back(key);
  return out;
}

nlohmann::json attributes_json(const Schema& schema) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& a : schema.attributes) {
    nlohmann::json j{{"name", a.name}, {"type", a.is_nominal() ? "nominal" : "numeric"}};
    if (a.is_nominal()) j["values"] = a.values;
    out.push_back(j);
  }
  return out;
}

std::string metrics_table(const FoldResult& e, bool any_undecided) {
  std::ostringstream s;
  auto row = [&](const std::string& name, double v, const std::string& help) {
    s << "<tr><th scope=\"row\">" << name << "</th><td class=\"num\">" << number(v, 4) << "</td><td class=\"help\">"
      << help << "</td></tr>";
  };
  s << "<table class=\"metrics\" id=\"metrics\"><tbody>";
  row("accuracy", e.metrics.accuracy, "share of rows whose most probable class is right");
  if (any_undecided) {
    row("adjusted accuracy", e.adjusted_accuracy, "share of rows decided and right (undecided counts as wrong)");
    row("undecided", e.undecided_rate, "share of rows the model leaves undecided");
  }
  row("log loss", e.metrics.log_loss, "mean of −ln p(actual class); lower is better");
  row("Brier score", e.metrics.brier, html_escape(brier_kind(e.confusion.size())) + "; lower is better");
  row("ECE", e.metrics.ece,
      "expected calibration error of the top-label confidence, 10 bins; lower is better, down to " +
          number(e.metrics.ece_floor, 4) + ", what exactly calibrated predictions would show on these rows");
  row("AUC", e.metrics.auc, "area under the ROC curve (one-vs-rest, weighted by class frequency)");
  row("rule RMSE", e.rule_rmse,
      "root mean squared difference between each rule's probability and its class's share among the rows it "
      "decides");
  s << "</tbody></table>";
  return s.str();
}

std::string confusion_table(const std::vector<std::vector<double>>& counts, const std::vector<std::string>& classes) {
  std::ostringstream s;
  s << "<table class=\"confusion\" id=\"confusion\"><thead><tr><th>actual \\ predicted</th>";
  for (const auto& c : classes) s << "<th scope=\"col\">" << html_escape(c) << "</th>";
  s << "</tr></thead><tbody>";
  for (std::size_t a = 0; a < counts.size(); ++a) {
    s << "<tr><th scope=\"row\">" << html_escape(classes[a]) << "</th>";
    for (std::size_t p = 0; p < counts[a].size(); ++p)
      s << "<td class=\"num" << (a == p ? " diagonal" : "") << "\">" << count_text(counts[a][p]) << "</td>";
    s << "</tr>";
  }
  s << "</tbody></table>";
  return s.str();
}

std::string priors_table(const Model& model) {
  const auto prior = model.prior();
  const auto& classes = model.schema.class_attribute.values;
  std::ostringstream s;
  s << "<table class=\"priors\" id=\"priors\"><thead><tr><th>class</th><th>training rows</th><th>prior</th></tr>"
       "</thead><tbody>";
  for (std::size_t c = 0; c < classes.size(); ++c)
    s << "<tr><td>" << html_escape(classes[c]) << "</td><td class=\"num\">" << count_text(model.training_counts[c])
      << "</td><td><span class=\"bar\"><span style=\"width:" << fixed_digits(100 * prior[c], 1) << "%\"></span></span> "
      << fixed_digits(prior[c], 3) << "</td></tr>";
  s << "</tbody></table>";
  return s.str();
}

std::string options_table(const LearnerParams& params) {
  std::ostringstream s;
  s << "<details><summary>every option of the learner</summary><table class=\"options\" id=\"options\"><tbody>";
  const nlohmann::json all = params_to_json(params);
  for (const auto& [key, value] : all.items())
    s << "<tr><th scope=\"row\">" << html_escape(key) << "</th><td>"
      << html_escape(value.is_string() ? value.get<std::string>() : value.dump()) << "</td></tr>";
  s << "</tbody></table></details>";
  return s.str();
}

// What the evaluation of the report's data gives the page: its section, and each row's prediction where every
// row was evaluated (the row view then reuses them rather than predicting again).
struct DataEvaluation {
  std::string html;
  std::vector<std::vector<double>> proba;  // empty unless every row is labelled
  std::vector<char> decided;
  bool any_undecided = false;
};

// Evaluates the model on the labelled rows of `data` (or by options.evaluate's cross-validation) and writes the
// evaluation section; each rule's row of `rules` gains its record on the data.
DataEvaluation evaluate_report_data(const Model& model, const Dataset& data, const ReportOptions& options,
                                    nlohmann::json& rules) {
  DataEvaluation out;
  std::vector<std::size_t> labelled;
  for (std::size_t r = 0; r < data.rows(); ++r)
    if (data.y[r] != kMissing) labelled.push_back(r);
  if (labelled.empty()) {
    out.html = "<section id=\"evaluation\"><h2>Evaluation</h2><p class=\"note\">" + html_escape(options.data_source) +
               " has no class values: the rows are predicted below, but there is nothing to evaluate.</p></section>";
    return out;
  }
  Dataset labelled_rows;  // a copy only where some rows have no class
  const Dataset& test = labelled.size() == data.rows() ? data : (labelled_rows = data.subset(labelled));
  FoldResult e = options.evaluate ? options.evaluate(test) : evaluate_model(model, test, true);
  const bool cross_validated = static_cast<bool>(options.evaluate);
  for (char d : e.decided) out.any_undecided |= !d;
  // The rule table gains each rule's record on the data where the model states it.
  for (const auto& p : e.rule_points)
    if (p.rule > 0 && static_cast<std::size_t>(p.rule) <= rules.size()) {
      rules[p.rule - 1]["data_decided"] = p.decided;
      rules[p.rule - 1]["data_share"] = p.test_share;
    }
  std::ostringstream s;
  s << "<section id=\"evaluation\"><h2>Evaluation on " << html_escape(options.data_source)
    << (options.evaluated_by.empty() ? std::string() : " by " + html_escape(options.evaluated_by)) << "</h2><p>"
    << count_text(static_cast<double>(labelled.size())) << " labelled rows";
  if (labelled.size() < data.rows())
    s << " (" << count_text(static_cast<double>(data.rows() - labelled.size()))
      << " rows without a class are in the row view only)";
  s << ".</p>";
  if (cross_validated)
    s << "<p class=\"note\">Each row is predicted by a model of this learner fitted without the row's fold, "
         "so the figures are what the learner does on rows it has not seen (pooled over the rows, not averaged "
         "over folds). The row view shows that prediction beside the rules of this model, fitted on every "
         "row, that cover the row; the rule plot shows the fold models' rules on their held-out rows.</p>";
  else if (options.data_is_training)
    s << "<p class=\"note\"><strong>These are the rows the model learned from</strong>: the figures below are "
         "training figures, better than the model will do on new rows. For an honest estimate, report on rows "
         "kept apart, or add <code>--folds 10</code> (cross-validation with the model's learner).</p>";
  s << "<div class=\"cards\"><div>" << metrics_table(e, out.any_undecided) << "</div><div><h3>Confusion matrix</h3>"
    << confusion_table(e.confusion, model.schema.class_attribute.values) << "</div></div><div class=\"cards\">";
  const std::string rel = reliability_svg(reliability_bins(e.y, e.proba));
  if (!rel.empty())
    s << "<figure>" << rel
      << "<figcaption>Reliability: rows binned by the probability of their predicted class; on the diagonal, "
         "a stated probability of p is right a share p of the time. Circle area: rows in the bin."
         "</figcaption></figure>";
  const std::string pts = rule_points_svg(e.rule_points);
  if (!pts.empty())
    s << "<figure>" << pts
      << "<figcaption>Rules: each rule's probability (with its interval) against the share of its class among "
         "the rows it decides here; honest rules lie near the diagonal. Circle area: rows decided; the 20 "
         "rules deciding most are numbered.</figcaption></figure>";
  else
    s << "<p class=\"note\">This model's rules state no probability to compare with the data.</p>";
  s << "</div></section>";
  out.html = s.str();
  if (labelled.size() == data.rows()) {
    out.proba = std::move(e.proba);
    out.decided = std::move(e.decided);
  }
  return out;
}

// The row view's part of the page's data: the first options.max_rows rows, their values, classes, predictions
// and the rules that fire on them.
nlohmann::json row_view(const Model& model, const Dataset& data, const ReportOptions& options,
                        DataEvaluation& evaluation) {
  const std::size_t shown = std::min(data.rows(), options.max_rows);
  // The rules behind the rows the view holds, and no others.
  std::vector<std::size_t> view_rows(shown);
  std::iota(view_rows.begin(), view_rows.end(), std::size_t{0});
  const auto fired = shown == data.rows() ? model.fired_rules(data) : model.fired_rules(data.subset(view_rows));
  nlohmann::json values = nlohmann::json::array();
  for (std::size_t a = 0; a < data.num_attributes(); ++a) {
    nlohmann::json column = nlohmann::json::array();
    for (std::size_t r = 0; r < shown; ++r) {
      if (data.is_missing(a, r))
        column.push_back(nullptr);
      else if (data.attribute(a).is_nominal())
        column.push_back(data.columns[a].codes[r]);
      else
        column.push_back(data.columns[a].values[r]);
    }
    values.push_back(std::move(column));
  }
  nlohmann::json actual = nlohmann::json::array(), predicted = nlohmann::json::array(), proba = nlohmann::json::array(),
                 fired_json = nlohmann::json::array();
  for (std::size_t r = 0; r < shown; ++r) {
    auto p = evaluation.proba.empty() ? model.predict_proba(data, r) : std::move(evaluation.proba[r]);
    const bool decided = evaluation.decided.empty() ? model.decides(data, r) : evaluation.decided[r] != 0;
    const int best = static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
    actual.push_back(data.y[r]);
    predicted.push_back(decided ? best : -1);
    for (double& x : p) x = rounded(x);
    proba.push_back(p);
    fired_json.push_back(fired[r]);
  }
  return {{"source", options.data_source},
          {"training_rows", options.data_is_training && !options.evaluate},
          {"rows", data.rows()},
          {"shown", shown},
          {"values", values},
          {"actual", actual},
          {"predicted", predicted},
          {"proba", proba},
          {"fired", fired_json},
          {"undecided", evaluation.any_undecided}};
}

}  // namespace

std::string report_html(const Model& model, const Dataset* data, const ReportOptions& options) {
  const std::string file_name =
      options.source.empty() ? std::string("model") : std::filesystem::path(options.source).filename().string();
  const std::string title = options.title.empty() ? "candor report: " + file_name : options.title;

  nlohmann::json doc;
  doc["classes"] = model.schema.class_attribute.values;
  doc["attributes"] = attributes_json(data ? data->schema : model.schema);
  nlohmann::json rules = rule_rows(model);
  std::string evaluation;
  if (data) {
    DataEvaluation e = evaluate_report_data(model, *data, options, rules);
    evaluation = e.html;
    doc["data"] = row_view(model, *data, options, e);
  }
  doc["rule_columns"] = rule_columns(rules);
  doc["rules"] = std::move(rules);

  std::ostringstream page;
  page << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
          "script-src 'unsafe-inline'; img-src data:\">"
       << "<title>" << html_escape(title) << "</title><style>" << kReportStyle << "</style></head><body>\n";
  page << "<header><h1>" << html_escape(title) << "</h1><p class=\"meta\">" << html_escape(model.kind_name())
       << " model · " << counted(model.rule_count(), "rule") << " · "
       << count_text(static_cast<double>(model.training_rows)) << " training rows";
  if (!model.training_source.empty()) page << " from " << html_escape(model.training_source);
  if (!options.version.empty()) page << " · candor " << html_escape(options.version);
  page << "</p>";
  if (!options.sha256.empty())
    page << "<p class=\"meta\">model file " << html_escape(options.source) << ", SHA-256 <code>"
         << html_escape(options.sha256) << "</code></p>";
  page << "<nav><a href=\"#model\">Model</a> <a href=\"#rules\">Rules</a>";
  if (data) page << " <a href=\"#evaluation\">Evaluation</a> <a href=\"#rows\">Rows</a>";
  page << "</nav></header><main>\n";

  const LearnerParams learner = model_options(model);
  page << "<section id=\"model\"><h2>Model</h2><p><strong>Learner:</strong> " << html_escape(describe(learner))
       << "</p>" << options_table(learner);
  if (model.stability) {
    const StabilityRecord& s = *model.stability;
    page << "<p id=\"stability\"><strong>Stability</strong> over " << s.resamples << " " << html_escape(s.resampling)
         << " resamples of the training data (thresholds snapped to its " << s.quantiles
         << "-quantiles): rule-set stability " << fixed_digits(s.rule_set_stability, 3) << " (s.d. "
         << fixed_digits(s.rule_set_stability_sd, 3) << "), prediction agreement "
         << fixed_digits(s.prediction_agreement, 3) << ", probability spread " << fixed_digits(s.probability_spread, 3)
         << ". The rule table's <code>frequency</code> is the share of resamples holding each rule.</p>";
  }
  page << "<h3>Class priors</h3>" << priors_table(model) << "</section>\n";

  page << "<section id=\"rules\"><h2>Rules</h2>";
  if (model.rules_dropped() > 0) page << "<p class=\"note\">" << html_escape(model.dropped_rules_sentence()) << ".</p>";
  page << "<div class=\"controls\"><label>Filter <input id=\"rule-filter\" type=\"search\" "
          "placeholder=\"words of the conditions or class; #12 for rule 12\"></label>"
          " <label>Class <select id=\"rule-class\"><option value=\"\">all</option></select></label>"
          " <span id=\"rule-count\" class=\"count\"></span></div>"
          "<div class=\"table-wrap\"><table id=\"rule-table\" "
          "class=\"data\"><thead></thead><tbody></tbody></table></div>"
          "<div class=\"pager\" id=\"rule-pager\"></div></section>\n";

  if (data) {
    page << evaluation << "\n";
    page << "<section id=\"rows\"><h2>Rows of " << html_escape(options.data_source) << "</h2>";
    if (data->rows() > options.max_rows)
      page << "<p class=\"note\">The view holds the first " << count_text(static_cast<double>(options.max_rows))
           << " of " << count_text(static_cast<double>(data->rows())) << " rows; the evaluation uses them all.</p>";
    page << "<div class=\"controls\"><label>Search <input id=\"row-search\" type=\"search\" "
            "placeholder=\"a row number, a class or a value\"></label>"
            " <label><input id=\"row-wrong\" type=\"checkbox\"> only rows predicted wrongly</label>"
            " <span id=\"row-count\" class=\"count\"></span></div>"
            "<div class=\"table-wrap\"><table id=\"row-table\" class=\"data\"><thead></thead><tbody></tbody></table>"
            "</div><div class=\"pager\" id=\"row-pager\"></div><div id=\"row-detail\"></div></section>\n";
  }
  page << "</main>\n<script type=\"application/json\" id=\"candor-data\">" << script_json(doc) << "</script>\n<script>"
       << kReportScript << "</script>\n</body></html>\n";
  return page.str();
}

std::string report_summary_html(const Model& model, std::size_t rules) {
  const auto& classes = model.schema.class_attribute.values;
  const auto prior = model.prior();
  std::ostringstream s;
  s << "<div class=\"candor-summary\"><p><strong>" << html_escape(model.kind_name()) << "</strong> model, "
    << counted(model.rule_count(), "rule") << ", " << count_text(static_cast<double>(model.training_rows))
    << " training rows<br><small>" << html_escape(describe(model_options(model))) << "</small></p>";
  s << "<p>classes:";
  for (std::size_t c = 0; c < classes.size(); ++c)
    s << (c ? ", " : " ") << html_escape(classes[c]) << " (" << fixed_digits(prior[c], 3) << ")";
  s << "</p>";
  const nlohmann::json table = rule_rows(model);
  if (!table.empty()) {
    const std::size_t shown = std::min(rules, table.size());
    s << "<table><thead><tr><th>#</th><th style=\"text-align:left\">rule</th><th>class</th><th>covered</th>"
         "<th>probability</th></tr></thead><tbody>";
    for (std::size_t k = 0; k < shown; ++k) {
      const auto& row = table[k];
      auto num = [&](const char* key, int digits) {
        return row.contains(key) && row[key].is_number() ? number(row[key].get<double>(), digits) : std::string("–");
      };
      s << "<tr><td>" << (k + 1) << "</td><td style=\"text-align:left\">"
        << html_escape(row.value("rule", std::string())) << "</td><td>"
        << html_escape(row.value("class", std::string())) << "</td><td>" << num("covered", 1) << "</td><td>"
        << num("probability", 3) << "</td></tr>";
    }
    s << "</tbody></table>";
    if (shown < table.size()) s << "<p><small>" << table.size() - shown << " more rules</small></p>";
  }
  s << "</div>";
  return s.str();
}

}  // namespace candor
