#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "candor/data.hpp"
#include "candor/errors.hpp"
#include "test_util.hpp"

using namespace candor;

namespace {

// Expects parsing to fail with an InputError on `line` whose reason contains `fragment`.
void expect_arff_error(const std::string& text, std::size_t line, const std::string& fragment,
                       const LoadOptions& o = {}) {
  try {
    parse_arff(text, "t.arff", o);
    FAIL() << "expected an error containing '" << fragment << "'";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "t.arff");
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_NE(e.reason().find(fragment), std::string::npos) << e.what();
  }
}
void expect_csv_error(const std::string& text, std::size_t line, const std::string& fragment,
                      const LoadOptions& o = {}) {
  try {
    parse_csv(text, "t.csv", o);
    FAIL() << "expected an error containing '" << fragment << "'";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_NE(e.reason().find(fragment), std::string::npos) << e.what();
  }
}

const char* kSmall =
    "% comment\n"
    "@RELATION demo\n"
    "@Attribute 'outlook type' { sunny , 'partly cloudy', rainy}\n"
    "@attribute temp REAL\n"
    "@attribute \"count\" integer\n"
    "@ATTRIBUTE play {yes,no}\n"
    "\n"
    "@DATA\n"
    "sunny, 85, 3, no\n"
    "'partly cloudy',?,4,yes % trailing comment\n"
    "  rainy ,  70.5 , -2 , yes\n"
    "?, 1e2, 0, no\n";

}  // namespace

TEST(Arff, ReadsHeaderAndValues) {
  Dataset d = parse_arff(kSmall, "t.arff");
  ASSERT_EQ(d.rows(), 4u);
  ASSERT_EQ(d.num_attributes(), 3u);
  EXPECT_EQ(d.attribute(0).name, "outlook type");
  EXPECT_EQ(d.attribute(0).values, (std::vector<std::string>{"sunny", "partly cloudy", "rainy"}));
  EXPECT_EQ(d.attribute(2).name, "count");
  EXPECT_FALSE(d.attribute(1).is_nominal());
  EXPECT_EQ(d.schema.class_attribute.name, "play");
  EXPECT_EQ(d.columns[0].codes, (std::vector<int>{0, 1, 2, kMissing}));
  EXPECT_TRUE(std::isnan(d.columns[1].values[1]));
  EXPECT_DOUBLE_EQ(d.columns[1].values[2], 70.5);
  EXPECT_DOUBLE_EQ(d.columns[1].values[3], 100.0);
  EXPECT_DOUBLE_EQ(d.columns[2].values[2], -2.0);
  EXPECT_EQ(d.y, (std::vector<int>{1, 0, 0, 1}));
  EXPECT_EQ(d.lines, (std::vector<std::size_t>{9, 10, 11, 12}));
  EXPECT_TRUE(d.unit_weights());
}

TEST(Arff, QuotedQuestionMarkIsAValueNotMissing) {
  Dataset d = parse_arff("@relation r\n@attribute a {'?',x}\n@attribute c {p,q}\n@data\n'?',p\n?,q\nx,p\n", "t.arff");
  EXPECT_EQ(d.columns[0].codes, (std::vector<int>{0, kMissing, 1}));
}

TEST(Arff, SparseRowsAndInstanceWeights) {
  Dataset d = parse_arff(
      "@relation r\n@attribute a numeric\n@attribute b {u,v,w}\n@attribute c numeric\n@attribute k {p,q}\n@data\n"
      "{0 5, 3 q}\n{1 w, 2 ?, 3 p}, {2.5}\n1,v,2,q,{0.5}\n",
      "t.arff");
  ASSERT_EQ(d.rows(), 3u);
  EXPECT_EQ(d.columns[0].values[0], 5.0);
  EXPECT_EQ(d.columns[1].codes[0], 0);     // unlisted nominal: first declared value (Weka)
  EXPECT_EQ(d.columns[2].values[0], 0.0);  // unlisted numeric: 0
  EXPECT_EQ(d.columns[1].codes[1], 2);
  EXPECT_TRUE(std::isnan(d.columns[2].values[1]));
  EXPECT_EQ(d.y, (std::vector<int>{1, 0, 1}));
  EXPECT_EQ(d.weights, (std::vector<double>{1.0, 2.5, 0.5}));
}

TEST(Arff, ErrorsNameLineAndReason) {
  const std::string head = "@relation r\n@attribute a {x,y}\n@attribute b numeric\n@attribute c {p,q}\n@data\n";
  expect_arff_error(head + "x,1,p\nx,2\n", 7, "row has 2 values but 3 attributes");
  expect_arff_error(head + "x,1,p\nz,2,q\n", 7, "value 'z' is not declared for nominal attribute 'a'");
  expect_arff_error(head + "x,1.2.3,p\n", 6, "cannot read '1.2.3' as a number");
  expect_arff_error("@relation r\n@attribute a {x,y}\n@attribute c {p,q}\n", 3, "no @data section");
  expect_arff_error("@relation r\n@attribute a {x,y}\n@attribute a numeric\n@attribute c {p,q}\n@data\nx,1,p\n", 3,
                    "duplicate attribute name 'a'");
  expect_arff_error("@relation r\n@attribute a {x,y}\n@attribute c numeric\n@data\nx,1\ny,2\n", 3,
                    "class attribute 'c' is numeric");
  expect_arff_error(head + "x,1,p\ny,2,p\n", 0, "is constant");
  expect_arff_error(head, 0, "no data rows");
  expect_arff_error(head + "x,1,?\n", 6, "missing class value");
  expect_arff_error("@relation r\n@attribute s string\n@attribute c {p,q}\n@data\n'a',p\n", 2,
                    "string attribute 's' is not supported");
  expect_arff_error("@relation r\n@attribute d date \"yyyy-MM-dd\"\n@attribute c {p,q}\n@data\n", 2, "date attribute");
  expect_arff_error("@relation r\n@attribute a {x,y\n", 2, "not closed");
  expect_arff_error("@relation r\n@attribute a {x,x}\n", 2, "declared twice");
  expect_arff_error("@relation r\n@attribute a {x,y}\n@attribute c {p,q}\n@data\n'x,p\n", 5, "unterminated");
  expect_arff_error(head + "{7 1}\n", 6, "sparse index");
  expect_arff_error(head + "x,1,p,{-1}\n", 6, "instance weight");
}

TEST(Arff, DropsUnsupportedAttributesOnlyWhenAsked) {
  LoadOptions o;
  o.drop_unsupported = true;
  std::vector<std::string> dropped;
  Dataset d = parse_arff(
      "@relation r\n@attribute s string\n@attribute a {x,y}\n@attribute c {p,q}\n@data\n'hello world',x,p\n'b',y,q\n",
      "t.arff", o, &dropped);
  EXPECT_EQ(dropped, (std::vector<std::string>{"s"}));
  ASSERT_EQ(d.num_attributes(), 1u);
  EXPECT_EQ(d.attribute(0).name, "a");
  EXPECT_EQ(d.columns[0].codes, (std::vector<int>{0, 1}));
}

TEST(Arff, ClassByNameAndWeightColumn) {
  LoadOptions o;
  o.class_name = "a";
  o.weight_column = "w";
  Dataset d =
      parse_arff("@relation r\n@attribute a {x,y}\n@attribute w numeric\n@attribute c {p,q}\n@data\nx,2,p\ny,0.5,q\n",
                 "t.arff", o);
  EXPECT_EQ(d.schema.class_attribute.name, "a");
  ASSERT_EQ(d.num_attributes(), 1u);
  EXPECT_EQ(d.attribute(0).name, "c");
  EXPECT_EQ(d.weights, (std::vector<double>{2.0, 0.5}));
  o.class_name = "nope";
  // Reported where the header starts: the first attribute's line.
  expect_arff_error("@relation r\n@attribute a {x,y}\n@attribute w numeric\n@attribute c {p,q}\n@data\nx,2,p\n", 2,
                    "no attribute named 'nope'", o);
}

TEST(Csv, InfersTypesAndMissingMarkers) {
  Dataset d = parse_csv("x,colour,\"na me\",label\n1,red,\"a, b\",yes\n2.5,NA,c,no\n?,blue,,yes\n", "t.csv");
  ASSERT_EQ(d.rows(), 3u);
  EXPECT_FALSE(d.attribute(0).is_nominal());
  EXPECT_TRUE(std::isnan(d.columns[0].values[2]));
  EXPECT_TRUE(d.attribute(1).is_nominal());
  EXPECT_EQ(d.attribute(1).values, (std::vector<std::string>{"red", "blue"}));
  EXPECT_EQ(d.columns[1].codes, (std::vector<int>{0, kMissing, 1}));
  EXPECT_EQ(d.attribute(2).name, "na me");
  EXPECT_EQ(d.attribute(2).values[0], "a, b");
  EXPECT_EQ(d.columns[2].codes[2], kMissing);
  EXPECT_EQ(d.schema.class_attribute.values, (std::vector<std::string>{"yes", "no"}));
}

TEST(Csv, ColumnWithOneNonNumberIsNominalAndNumericClassLabelsStayNominal) {
  Dataset d = parse_csv("a,b,c\n1,1,0\n2,x,1\n3,3,0\n", "t.csv");
  EXPECT_FALSE(d.attribute(0).is_nominal());
  EXPECT_TRUE(d.attribute(1).is_nominal());
  EXPECT_EQ(d.schema.class_attribute.values, (std::vector<std::string>{"0", "1"}));
}

TEST(Csv, CustomMissingMarkers) {
  LoadOptions o;
  o.missing_markers = {"-"};
  Dataset d = parse_csv("a,c\n-,p\n?,q\n", "t.csv", o);
  EXPECT_TRUE(d.attribute(0).is_nominal());  // "?" is an ordinary value now
  EXPECT_EQ(d.columns[0].codes, (std::vector<int>{kMissing, 0}));
}

TEST(Csv, ErrorsNameLineAndReason) {
  expect_csv_error("a,b,c\n1,2,p\n1,2\n", 3, "row has 2 values but the header has 3");
  expect_csv_error("a,a,c\n1,2,p\n", 1, "duplicate column name 'a'");
  expect_csv_error("a,b,c\n", 0, "no data rows");
  expect_csv_error("a,b,c\n1,2,p\n1,2,p\n", 0, "is constant");
  expect_csv_error("a,b,c\n1,\"2,p\n", 2, "unterminated");
  expect_csv_error("a,b,c\n1,2,p\n3,4,\n", 3, "missing class value");
  LoadOptions o;
  o.class_name = "a";
  expect_csv_error("a,b,c\n1.5,2,p\n3.25,4,q\n", 1, "class attribute 'a' is numeric", o);
}

TEST(Schema, PredictionDataIsMappedByNameAndValueText) {
  Dataset train = parse_arff(
      "@relation r\n@attribute a {x,y}\n@attribute b numeric\n@attribute c {p,q}\n@data\nx,1,p\ny,2,q\n", "t.arff");
  LoadOptions o;
  o.schema = &train.schema;
  o.require_labels = false;
  // Columns in another order, a value never seen in training, no class column.
  Dataset test = parse_csv("b,a\n3,y\n4,z\n5,\n", "t.csv", o);
  EXPECT_EQ(test.columns[0].codes, (std::vector<int>{1, 2, kMissing}));  // z -> code beyond the known values
  EXPECT_EQ(test.columns[1].values, (std::vector<double>{3, 4, 5}));
  EXPECT_EQ(test.y, (std::vector<int>{kMissing, kMissing, kMissing}));
  EXPECT_THROW(parse_csv("a\nx\n", "t.csv", o), InputError);  // attribute b is missing
}

// Every file of the shared corpus loads, with the row and attribute counts of INDEX.tsv.
TEST(Corpus, EverySharedDatasetLoadsWithIndexedShape) {
  std::ifstream index(test::shared("INDEX.tsv"));
  ASSERT_TRUE(index) << "the shared corpus is required: " << test::datasets_dir();
  std::string line;
  std::getline(index, line);
  int checked = 0;
  while (std::getline(index, line)) {
    std::istringstream fields(line);
    std::string name, rows, attrs, nominal, numeric, classes;
    std::getline(fields, name, '\t');
    std::getline(fields, rows, '\t');
    std::getline(fields, attrs, '\t');
    std::getline(fields, nominal, '\t');
    std::getline(fields, numeric, '\t');
    std::getline(fields, classes, '\t');
    SCOPED_TRACE(name);
    Dataset d = read_arff(test::shared(name + ".arff"));
    EXPECT_EQ(d.rows(), std::stoul(rows));
    EXPECT_EQ(d.num_attributes(), std::stoul(attrs));
    std::size_t nom = 0;
    for (const auto& a : d.schema.attributes) nom += a.is_nominal();
    EXPECT_EQ(nom, std::stoul(nominal));
    auto totals = d.class_totals();
    std::size_t occurring = 0;
    for (double t : totals) occurring += t > 0;
    EXPECT_EQ(occurring, std::stoul(classes));
    ++checked;
  }
  EXPECT_GE(checked, 49);
}

TEST(Dataset, InvalidRowsNamesTheFirstBrokenColumnOrRows) {
  const auto sound = [] { return parse_csv("a,b,class\nx,1.5,p\ny,?,q\n?,2,p\n", "t.csv"); };
  EXPECT_EQ(invalid_rows(sound()), "");
  Dataset unseen = sound();  // the code one past the values: a value the model never saw, as the readers code it
  unseen.columns[0].codes[0] = 2;
  EXPECT_EQ(invalid_rows(unseen), "");
  Dataset d = sound();
  d.columns[0].codes[1] = 3;
  EXPECT_EQ(invalid_rows(d), "column 'a': a code outside its values");
  d = sound();
  d.columns[0].codes[1] = -2;
  EXPECT_EQ(invalid_rows(d), "column 'a': a code outside its values");
  d = sound();
  d.columns[1].values[0] = -INFINITY;
  EXPECT_EQ(invalid_rows(d), "column 'b': infinite value");
  d = sound();
  d.columns[1].values.pop_back();
  EXPECT_EQ(invalid_rows(d), "column 'b': one value per row");
  d = sound();
  d.y[2] = 2;
  EXPECT_EQ(invalid_rows(d), "a class code outside the classes");
  d = sound();
  d.weights[1] = -0.5;
  EXPECT_EQ(invalid_rows(d), "sample weights must be finite and non-negative");
  d = sound();
  d.weights[1] = NAN;
  EXPECT_EQ(invalid_rows(d), "sample weights must be finite and non-negative");
}
