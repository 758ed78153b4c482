#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "candor/eval/evaluate.hpp"
#include "candor/eval/metrics.hpp"
#include "candor/learn/fit.hpp"
#include "candor/learners/boost/boost_options.hpp"
#include "candor/model/logistic_rule_model.hpp"
#include "candor/report/report.hpp"
#include "candor/util/format.hpp"
#include "test_util.hpp"

namespace candor {
namespace {

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The JSON document the page's script reads.
nlohmann::json page_document(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"candor-data\">";
  const auto from = page.find(open);
  EXPECT_NE(from, std::string::npos);
  const auto begin = from + open.size();
  const auto end = page.find("</script>", begin);
  return nlohmann::json::parse(page.substr(begin, end - begin));
}

std::unique_ptr<Model> fit(const Dataset& d, const std::string& learner) {
  LearnerParams p;
  p.learner = learner;
  if (learner == "boost") {
    p.options<BoostOptions>().base = BaseLearner::tree;
    p.options<BoostOptions>().iterations = 4;
  }
  return fit_model(d, p);
}

// explain() labels as the rule-table rows they name: "3" (rule sets, PrIL), "leaf 3 0.50" (trees).
std::vector<std::size_t> explained_rows(const std::vector<std::string>& labels) {
  std::vector<std::size_t> out;
  for (const auto& label : labels) {
    if (label == "undecided") continue;
    const std::string digits = label.rfind("leaf ", 0) == 0 ? label.substr(5, label.find(' ', 5) - 5) : label;
    out.push_back(std::stoul(digits) - 1);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(FiredRules, NameTheRulesAndLeavesThatExplainNames) {
  const Dataset d = read_arff(test::shared("colic.arff"));  // missing values: trees route some rows to two leaves
  for (const std::string learner : {"cn2-unordered", "cn2-ordered", "decision-list", "tree", "pril"}) {
    const auto m = fit(d, learner);
    const auto fired = m->fired_rules(d);
    ASSERT_EQ(fired.size(), d.rows());
    std::size_t several = 0;
    for (std::size_t r = 0; r < d.rows(); ++r) {
      auto got = fired[r];
      std::sort(got.begin(), got.end());
      EXPECT_EQ(got, explained_rows(m->explain(d, r))) << learner << ", row " << r;
      several += got.size() > 1;
    }
    if (learner == "tree") {
      EXPECT_GT(several, 0u) << "no row split by a missing value";
    }
  }
}

TEST(FiredRules, LogisticRowsAreEveryRuleCoveringTheRow) {
  const Dataset d = read_arff(test::shared("labor.arff"));
  const auto m = fit(d, "rule-logistic");
  const auto table = m->rule_table();
  const auto fired = m->fired_rules(d);
  std::size_t total = 0;
  for (std::size_t r = 0; r < d.rows(); ++r) {
    for (const auto& label : m->explain(d, r))
      if (label.rfind("rule ", 0) == 0) {
        const std::size_t k = std::stoul(label.substr(5)) - 1;
        EXPECT_NE(std::find(fired[r].begin(), fired[r].end(), k), fired[r].end()) << "row " << r << ": " << label;
      }
    total += fired[r].size();
  }
  // Every rule's training coverage is the number of rows it fires on.
  std::vector<double> covered(table.size(), 0);
  for (const auto& rows : fired)
    for (auto k : rows) covered[k] += 1;
  for (std::size_t k = 0; k < table.size(); ++k) EXPECT_EQ(covered[k], table[k]["training_covered"].get<double>());
  EXPECT_GT(total, 0u);
}

TEST(FiredRules, EnsembleRowsAreOneLeafOfEveryMember) {
  const Dataset d = read_arff(test::shared("vote.arff"));
  const auto m = fit(d, "boost");
  const auto table = m->rule_table();
  const auto fired = m->fired_rules(d);
  for (std::size_t r = 0; r < d.rows(); ++r) {
    std::vector<int> members;
    for (auto k : fired[r]) members.push_back(table.at(k)["member"].get<int>());
    members.erase(std::unique(members.begin(), members.end()), members.end());
    EXPECT_EQ(members, (std::vector<int>{1, 2, 3, 4})) << "row " << r;
  }
}

TEST(Report, HoldsTheModelTheEvaluationAndEveryRow) {
  const Dataset d = read_arff(test::shared("colic.arff"));
  for (const std::string learner : {"cn2-unordered", "rule-logistic", "tree", "boost", "pril"}) {
    const auto m = fit(d, learner);
    ReportOptions o;
    o.source = "models/colic.json";
    o.data_source = "colic.arff";
    const std::string page = report_html(*m, &d, o);
    EXPECT_NE(page.find("<title>candor report: colic.json</title>"), std::string::npos);
    EXPECT_EQ(occurrences(page, "<script"), 2u) << learner;  // the document and the page's script
    const auto doc = page_document(page);
    EXPECT_EQ(doc["rules"].size(), m->rule_table().size()) << learner;
    const auto& data = doc["data"];
    ASSERT_EQ(data["shown"].get<std::size_t>(), d.rows());
    const auto fired = m->fired_rules(d);
    std::vector<std::vector<double>> proba;
    for (std::size_t r = 0; r < d.rows(); ++r) {
      const auto p = m->predict_proba(d, r);
      proba.push_back(p);
      const int best = static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
      EXPECT_EQ(data["predicted"][r].get<int>(), m->decides(d, r) ? best : -1) << learner << ", row " << r;
      EXPECT_EQ(data["actual"][r].get<int>(), d.y[r]);
      EXPECT_EQ(data["fired"][r].get<std::vector<std::size_t>>(), fired[r]);
      for (std::size_t c = 0; c < p.size(); ++c) EXPECT_NEAR(data["proba"][r][c].get<double>(), p[c], 0.5e-4);
    }
    const Metrics want = compute_metrics(d.y, proba);
    EXPECT_NE(page.find("<th scope=\"row\">log loss</th><td class=\"num\">" + fixed_digits(want.log_loss, 4)),
              std::string::npos)
        << learner;
    EXPECT_NE(page.find("<th scope=\"row\">accuracy</th><td class=\"num\">" + fixed_digits(want.accuracy, 4)),
              std::string::npos);
    EXPECT_NE(page.find("id=\"reliability-plot\""), std::string::npos);
    // Models whose rules state a probability are drawn against the data; an ensemble's are not.
    EXPECT_EQ(page.find("id=\"rule-plot\"") != std::string::npos, learner != "boost") << learner;
    // The confusion matrix counts every row once, the right ones on its diagonal.
    const auto from = page.find("<table class=\"confusion\"");
    const std::string matrix = page.substr(from, page.find("</table>", from) - from);
    const std::string diagonal_cell = "<td class=\"num diagonal\">";
    double all = 0, diagonal = 0;
    for (auto at = matrix.find("<td class=\"num"); at != std::string::npos;
         at = matrix.find("<td class=\"num", at + 1)) {
      const auto value = matrix.find('>', at) + 1;
      const double n = std::stod(matrix.substr(value, matrix.find('<', value) - value));
      all += n;
      if (matrix.compare(at, diagonal_cell.size(), diagonal_cell) == 0) diagonal += n;
    }
    EXPECT_EQ(all, static_cast<double>(d.rows())) << learner;
    EXPECT_NEAR(diagonal / all, want.accuracy, 1e-12) << learner;
  }
}

// With an evaluation of its own (candor report --folds K), the page's figures and the row view's predictions
// are that evaluation's, and the page says how they were made.
TEST(Report, ShowsACrossValidationWhereOneIsGiven) {
  const Dataset d = read_arff(test::shared("iris.arff"));
  const auto m = fit(d, "cn2-unordered");
  LearnerParams p;
  p.learner = "cn2-unordered";
  ReportOptions o;
  o.source = "iris.json";
  o.data_source = "iris.arff";
  o.data_is_training = true;
  o.evaluate = [&](const Dataset& labelled) { return out_of_fold_predictions(labelled, p, 5, 1, 1); };
  o.evaluated_by = "5-fold cross-validation of the model's learner (seed 1)";
  const std::string page = report_html(*m, &d, o);
  const FoldResult cv = out_of_fold_predictions(d, p, 5, 1, 1);
  EXPECT_NE(page.find("Evaluation on iris.arff by 5-fold cross-validation of the model&#39;s learner (seed 1)"),
            std::string::npos);
  EXPECT_NE(page.find("<th scope=\"row\">accuracy</th><td class=\"num\">" + fixed_digits(cv.metrics.accuracy, 4)),
            std::string::npos);
  EXPECT_EQ(page.find("These are the rows the model learned from"), std::string::npos);
  const auto doc = page_document(page);
  EXPECT_FALSE(doc["data"]["training_rows"].get<bool>());
  for (std::size_t r = 0; r < d.rows(); ++r)
    for (std::size_t c = 0; c < 3; ++c)
      EXPECT_NEAR(doc["data"]["proba"][r][c].get<double>(), cv.proba[r][c], 0.5e-4) << "row " << r;
  // Without it, the same page evaluates the model on its own training rows, and says so.
  o.evaluate = nullptr;
  EXPECT_NE(report_html(*m, &d, o).find("These are the rows the model learned from"), std::string::npos);
}

TEST(Report, TextFromTheDataNeverBecomesMarkup) {
  const Dataset d =
      test::arff("hostile.arff",
                 "@relation r\n"
                 "@attribute 'x</script><script>alert(1)</script>' numeric\n"
                 "@attribute 'c&amp;' {'<b>a</b>','b'}\n"
                 "@attribute class {'<img src=x onerror=alert(2)>',no}\n"
                 "@data\n"
                 "1,'<b>a</b>','<img src=x onerror=alert(2)>'\n2,'<b>a</b>','<img src=x onerror=alert(2)>'\n"
                 "3,b,no\n4,b,no\n5,'<b>a</b>','<img src=x onerror=alert(2)>'\n6,b,no\n");
  LearnerParams p;
  p.learner = "cn2-unordered";
  const auto m = fit_model(d, p);
  ReportOptions o;
  o.source = "<i>model</i>.json";
  o.data_source = "<u>data</u>.arff";
  const std::string page = report_html(*m, &d, o);
  EXPECT_EQ(occurrences(page, "<script"), 2u);
  EXPECT_EQ(occurrences(page, "<img"), 0u);
  EXPECT_EQ(occurrences(page, "<b>"), 0u);
  EXPECT_EQ(occurrences(page, "<i>"), 0u);
  EXPECT_EQ(occurrences(page, "<u>"), 0u);
  EXPECT_NE(page.find("&lt;img src=x onerror=alert(2)&gt;"), std::string::npos);  // the confusion matrix's header
  // The document still reads back the names as they are.
  const auto doc = page_document(page);
  EXPECT_EQ(doc["attributes"][0]["name"], "x</script><script>alert(1)</script>");
  EXPECT_EQ(doc["classes"][0], "<img src=x onerror=alert(2)>");
  EXPECT_EQ(html_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
}

TEST(Report, RowViewIsCappedButTheEvaluationUsesEveryRow) {
  const Dataset d = read_arff(test::shared("colic.arff"));
  const auto m = fit(d, "cn2-unordered");
  ReportOptions o;
  o.data_source = "colic.arff";
  o.max_rows = 10;
  const std::string page = report_html(*m, &d, o);
  const auto doc = page_document(page);
  EXPECT_EQ(doc["data"]["shown"], 10);
  EXPECT_EQ(doc["data"]["rows"], d.rows());
  EXPECT_EQ(doc["data"]["values"][0].size(), 10u);
  EXPECT_NE(page.find("The view holds the first 10 of 368 rows"), std::string::npos);
  EXPECT_NE(page.find("368 labelled rows"), std::string::npos);
}

TEST(Report, DataWithoutClassesIsShownButNotEvaluated) {
  Dataset d = read_arff(test::shared("labor.arff"));
  const auto m = fit(d, "cn2-unordered");
  std::fill(d.y.begin(), d.y.end(), kMissing);
  ReportOptions o;
  o.data_source = "unlabelled.csv";
  const std::string page = report_html(*m, &d, o);
  EXPECT_NE(page.find("has no class values"), std::string::npos);
  EXPECT_EQ(page.find("id=\"reliability-plot\""), std::string::npos);
  EXPECT_EQ(page_document(page)["data"]["shown"], d.rows());
}

TEST(Report, WithoutDataTheresNoEvaluationOrRowView) {
  const Dataset d = read_arff(test::shared("labor.arff"));
  const auto m = fit(d, "tree");
  const std::string page = report_html(*m, nullptr, ReportOptions{});
  EXPECT_EQ(page.find("id=\"evaluation\""), std::string::npos);
  EXPECT_EQ(page.find("id=\"rows\""), std::string::npos);
  EXPECT_TRUE(page_document(page)["data"].is_null());
  EXPECT_EQ(page_document(page)["rules"].size(), m->rule_table().size());
}

// A rule-logistic page says how many rules its penalties left at weight 0 and dropped.
TEST(Report, SaysHowManyRulesTheLogisticModelDropped) {
  const Dataset d = read_arff(test::shared("soybean.arff"));
  const auto m = fit(d, "rule-logistic");
  const auto dropped = dynamic_cast<const LogisticRuleModel&>(*m).rules_without_weight;
  ASSERT_GT(dropped, 0u);
  const std::string page = report_html(*m, nullptr, ReportOptions{});
  EXPECT_NE(page.find(std::to_string(dropped) + " more rules the rule learner found had weight 0"), std::string::npos);
  EXPECT_EQ(page_document(page)["rules"].size(), m->rule_count());
}

TEST(Report, SummaryIsAFragmentWithoutScript) {
  const Dataset d = read_arff(test::shared("iris.arff"));
  const auto m = fit(d, "cn2-unordered");
  const std::string html = report_summary_html(*m, 3);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(occurrences(html, "<tr><td>"), 3u);
  EXPECT_NE(html.find(std::to_string(m->rule_count() - 3) + " more rules"), std::string::npos);
  EXPECT_NE(html.find("Iris-setosa (0.333)"), std::string::npos);
}

TEST(ReportPlots, ReliabilityDrawsOneCirclePerNonEmptyBin) {
  std::vector<ReliabilityBin> bins{{0.5, 0.6, 0, 0, 0}, {0.6, 0.7, 5, 0.65, 0.6}, {0.9, 1.0, 10, 0.95, 1.0}};
  const std::string svg = reliability_svg(bins);
  EXPECT_EQ(occurrences(svg, "<circle class=\"bin\""), 2u);
  // x = 48 + 0.95 * 300, y = 14 + (1 - 1.0) * 300
  EXPECT_NE(svg.find("cx=\"333.00\" cy=\"14.00\""), std::string::npos);
  EXPECT_EQ(reliability_svg({{0, 1, 0, 0, 0}}), "");
}

TEST(ReportPlots, RulePlotLabelsTheTwentyRulesDecidingMost) {
  std::vector<RulePoint> points;
  for (int k = 1; k <= 30; ++k) points.push_back({0.5, 0.4, static_cast<double>(k), 0.3, 0.7, k});
  const std::string svg = rule_points_svg(points);
  EXPECT_EQ(occurrences(svg, "<circle class=\"rule-point\""), 30u);
  EXPECT_EQ(occurrences(svg, "<line class=\"interval\""), 30u);
  EXPECT_EQ(occurrences(svg, "class=\"rule-label\""), 20u);
  EXPECT_NE(svg.find(">30</text>"), std::string::npos);
  EXPECT_EQ(svg.find(">10</text>"), std::string::npos);
  EXPECT_NE(svg.find("<title>rule 3: probability 0.500 [0.300, 0.700], share of its class 0.400 of 3 rows</title>"),
            std::string::npos);
  EXPECT_EQ(rule_points_svg({}), "");
}

}  // namespace
}  // namespace candor
