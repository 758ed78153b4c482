"""The catalogue of malformed and unusual inputs: ARFF, CSV/TSV, model files and flags, each with the exit
code and the message fragments candor must give (run_catalogue.py runs them; CTest runs that).

A case: files to write (name -> text; {"latin1": text} for raw bytes; [[piece, count], ...] for big ones),
optional setup commands (must succeed) and an edit of the model file m.json they made, the command, the
expected exit code (0, or 2 for input the user must fix) and fragments of stderr / stdout. For exit 2 the
fragments name FILE:LINE wherever the input has lines. Policy where the answer is a warning rather than an
error (README, "Bad input"): CSV type inference, one number written two ways, values a model never saw.
"""
W = "@relation w\n@attribute outlook {sunny,overcast,rainy}\n@attribute temp numeric\n@attribute play {yes,no}\n@data\n"
ROWS = "sunny,85,no\nsunny,80,no\novercast,83,yes\nrainy,70,yes\nrainy,68,yes\nrainy,65,no\novercast,64,yes\nsunny,72,no\nsunny,69,yes\nrainy,75,yes\n"
CSV = "outlook,temp,play\n" + ROWS
FIT_W = [["fit", "w.arff", "-o", "m.json"]]
def arff(body): return {"w.arff": W + body}
CASES = []
def case(id, files, run, exit, stderr=None, stdout=None, **kw):
    c = {"id": id, "files": files, "run": run, "exit": exit}
    if stderr is not None: c["stderr"] = stderr if isinstance(stderr, list) else [stderr]
    if stdout is not None: c["stdout"] = stdout if isinstance(stdout, list) else [stdout]
    c.update(kw)
    CASES.append(c)

# ---- ARFF
case("arff-row-on-data-line", {"d.arff": "@relation r\n@attribute a {x,y}\n@attribute c {p,n}\n@data x,p\ny,n\nx,n\n"}, ["fit", "d.arff", "-o", "m.json"], 2, "d.arff:4: ")
case("arff-no-data-section", {"d.arff": "@relation r\n@attribute a {x,y}\n@attribute c {p,n}\n"}, ["fit", "d.arff", "-o", "m.json"], 2, "d.arff:")
case("arff-unknown-type", {"d.arff": "@relation r\n@attribute a fancy\n@attribute c {p,n}\n@data\n1,p\n"}, ["fit", "d.arff", "-o", "m.json"], 2, "d.arff:2: ")
case("arff-undeclared-nominal-value", arff(ROWS + "cloudy,70,yes\n"), FIT_W[0], 2, ["w.arff:16: ", "cloudy"])
case("arff-too-few-values", arff("sunny,85\n" + ROWS), FIT_W[0], 2, "w.arff:6: ")
case("arff-too-many-values", arff(ROWS + "sunny,85,no,extra\n"), FIT_W[0], 2, "w.arff:16: ")
case("arff-unterminated-quote", arff("'sunny,85,no\n" + ROWS), FIT_W[0], 2, "w.arff:6: ")
case("arff-unterminated-value-list", {"d.arff": "@relation r\n@attribute a {x,y\n@attribute c {p,n}\n@data\nx,p\n"}, ["fit", "d.arff", "-o", "m.json"], 2, "d.arff:2: ")
case("arff-duplicate-attribute", {"d.arff": "@relation r\n@attribute a {x,y}\n@attribute a {x,y}\n@attribute c {p,n}\n@data\nx,x,p\ny,y,n\n"}, ["fit", "d.arff", "-o", "m.json"], 2, "d.arff:3: ")
case("arff-string-attribute-refused", {"d.arff": "@relation r\n@attribute s string\n@attribute a {x,y}\n@attribute c {p,n}\n@data\n'hi',x,p\n'ho',y,n\n"}, ["fit", "d.arff", "-o", "m.json"], 2, "d.arff:2: ")
case("arff-string-attribute-dropped-on-request", {"d.arff": "@relation r\n@attribute s string\n@attribute a {x,y}\n@attribute c {p,n}\n@data\n'hi',x,p\n'ho',y,n\n"}, ["fit", "d.arff", "-o", "m.json", "--drop-unsupported"], 0, "s")
case("arff-sparse-duplicate-index", {"d.arff": "@relation r\n@attribute a numeric\n@attribute b numeric\n@attribute c {p,n}\n@data\n{0 1, 0 2, 2 p}\n{1 1, 2 n}\n"}, ["fit", "d.arff", "-o", "m.json"], 2, "d.arff:6: ")
case("arff-sparse-index-out-of-range", {"d.arff": "@relation r\n@attribute a numeric\n@attribute b numeric\n@attribute c {p,n}\n@data\n{0 1, 7 2, 2 p}\n{1 1, 2 n}\n"}, ["fit", "d.arff", "-o", "m.json"], 2, "d.arff:6: ")
case("arff-number-not-a-number", arff(ROWS + "sunny,hot,no\n"), FIT_W[0], 2, ["w.arff:16: ", "hot"])
case("arff-negative-weight", arff(ROWS + "sunny,70,no,{-1}\n"), FIT_W[0], 2, "w.arff:16: ")
case("arff-weight-overflow", arff(ROWS + "sunny,70,no,{1e308}\nsunny,71,no,{1e308}\n"), FIT_W[0], 2, "w.arff:17: ")
case("arff-empty-file", {"d.arff": ""}, ["fit", "d.arff", "-o", "m.json"], 2, "d.arff:")
case("arff-header-only", {"w.arff": W}, FIT_W[0], 2, "w.arff:")
case("arff-missing-class-in-training", arff(ROWS + "sunny,70,?\n"), FIT_W[0], 2, "w.arff:16: ")
case("arff-one-class", {"d.arff": "@relation r\n@attribute a {x,y}\n@attribute c {p,n}\n@data\nx,p\ny,p\n"}, ["fit", "d.arff", "-o", "m.json"], 2, "d.arff:")
case("arff-byte-order-mark", {"w.arff": "\ufeff" + W + ROWS}, ["fit", "w.arff", "-o", "m.json"], 0, check_model_attribute="outlook")
case("arff-crlf-lines", {"w.arff": (W + ROWS).replace("\n", "\r\n")}, ["evaluate", "w.arff", "--folds", "2"], 0, stdout="accuracy")
case("arff-comments-and-blank-lines", {"w.arff": W + "% a comment\n\n" + ROWS + "\n% end\n"}, ["fit", "w.arff", "-o", "m.json"], 0, "10 rows")
case("arff-nul-byte-in-value", arff(ROWS + "sun\u0000ny,70,no\n"), FIT_W[0], 2, ["w.arff:16: ", "\\x00"])
case("arff-huge-value-echoed-short", {"w.arff": [[W + ROWS, 1], ["x", 3000000], [",70,no\n", 1]]}, FIT_W[0], 2, "w.arff:16: ", stderr_max_bytes=2000)
case("arff-date-attribute-refused", {"d.arff": "@relation r\n@attribute d date\n@attribute c {p,n}\n@data\n2020-01-01,p\n2020-01-02,n\n"}, ["fit", "d.arff", "-o", "m.json"], 2, "d.arff:2: ")
case("arff-missing-relation-accepted", {"d.arff": "@attribute a {x,y}\n@attribute c {p,n}\n@data\nx,p\ny,n\n"}, ["fit", "d.arff", "-o", "m.json"], 0, "2 rows")
case("arff-binary-garbage", {"d.arff": {"latin1": "\u00ff\u00fe\u0001\u0002@data\n\u0080\u0081"}}, ["fit", "d.arff", "-o", "m.json"], 2, "d.arff:")

# ---- CSV / TSV
case("csv-too-few-cells", {"w.csv": CSV + "sunny,70\n"}, ["fit", "w.csv", "-o", "m.json"], 2, "w.csv:12: ")
case("csv-too-many-cells", {"w.csv": CSV + "sunny,70,no,4\n"}, ["fit", "w.csv", "-o", "m.json"], 2, "w.csv:12: ")
case("csv-empty-file", {"w.csv": ""}, ["fit", "w.csv", "-o", "m.json"], 2, "w.csv:")
case("csv-header-only", {"w.csv": "outlook,temp,play\n"}, ["fit", "w.csv", "-o", "m.json"], 2, "w.csv:")
case("csv-duplicate-column", {"w.csv": "outlook,outlook,play\n" + ROWS}, ["fit", "w.csv", "-o", "m.json"], 2, "w.csv:1: ")
case("csv-empty-column-name", {"w.csv": "outlook,,play\n" + ROWS}, ["fit", "w.csv", "-o", "m.json"], 2, "w.csv:1: ")
case("csv-unterminated-quote", {"w.csv": CSV + "\"sunny,70,no\n"}, ["fit", "w.csv", "-o", "m.json"], 2, "w.csv:12: ")
case("csv-typo-in-numeric-column-warns", {"w.csv": CSV.replace("83", "8.3.1")}, ["fit", "w.csv", "-o", "m.json"], 0, ["warning", "w.csv:4"])
case("csv-nan-in-numeric-column-warns", {"w.csv": CSV.replace("83", "nan")}, ["fit", "w.csv", "-o", "m.json"], 0, ["warning", "w.csv:4"])
case("csv-nul-in-numeric-column-warns", {"w.csv": CSV.replace("83", "8\u00003")}, ["fit", "w.csv", "-o", "m.json"], 0, ["warning", "w.csv:4", "\\x00"])
case("csv-row-of-empty-cells-fit", {"w.csv": CSV + ",,\n"}, ["fit", "w.csv", "-o", "m.json"], 2, "w.csv:12: ")
case("csv-row-of-empty-cells-predict", {"w.csv": CSV, "t.csv": "outlook,temp,play\nsunny,70,\n,,\nrainy,60,\n"}, ["predict", "m.json", "t.csv"], 0, setup=[["fit", "w.csv", "-o", "m.json"]], stdout_lines=4, stdout="3,")
case("csv-class-written-two-ways-warns", {"w.csv": "a,c\n1,1\n2,1.0\n3,2\n4,2\n"}, ["fit", "w.csv", "-o", "m.json"], 0, ["warning", "w.csv:"])
case("csv-byte-order-mark", {"w.csv": "\ufeff" + CSV}, ["fit", "w.csv", "-o", "m.json"], 0, check_model_attribute="outlook")
case("tsv-comma-inside-cells", {"w.tsv": CSV.replace(",", "\t").replace("sunny", "sun,ny")}, ["fit", "w.tsv", "-o", "m.json"], 0, check_model_attribute="outlook")
case("csv-unknown-class-column", {"w.csv": CSV}, ["fit", "w.csv", "-o", "m.json", "--class", "weather"], 2, ["w.csv:1: ", "weather"])
case("csv-weight-not-a-number", {"w.csv": "outlook,w,play\nsunny,1,no\nrainy,heavy,yes\novercast,1,yes\n"}, ["fit", "w.csv", "-o", "m.json", "--weight-column", "w"], 2, "w.csv:3: ")
case("csv-negative-weight", {"w.csv": "outlook,w,play\nsunny,1,no\nrainy,-2,yes\novercast,1,yes\n"}, ["fit", "w.csv", "-o", "m.json", "--weight-column", "w"], 2, "w.csv:3: ")
case("csv-infinite-weight", {"w.csv": "outlook,w,play\nsunny,1,no\nrainy,inf,yes\novercast,1,yes\n"}, ["fit", "w.csv", "-o", "m.json", "--weight-column", "w"], 2, "w.csv:3: ")
case("csv-semicolon-separated", {"w.csv": CSV.replace(",", ";")}, ["fit", "w.csv", "-o", "m.json"], 2, ["w.csv:1: ", "';'"])
case("csv-tab-separated-named-csv", {"w.csv": CSV.replace(",", "\t")}, ["fit", "w.csv", "-o", "m.json"], 2, ["w.csv:1: ", "tabs"])
case("tsv-comma-separated-named-tsv", {"w.tsv": CSV}, ["fit", "w.tsv", "-o", "m.json"], 2, ["w.tsv:1: ", "','"])
case("csv-crlf-lines", {"w.csv": CSV.replace("\n", "\r\n")}, ["fit", "w.csv", "-o", "m.json"], 0, check_model_class="play")
case("csv-all-missing-column", {"w.csv": "outlook,temp,play\n" + "".join(r.split(",")[0] + ",?," + r.split(",")[2] + "\n" for r in ROWS.splitlines())}, ["fit", "w.csv", "-o", "m.json"], 0, "10 rows")
case("csv-missing-class-in-training", {"w.csv": CSV + "sunny,70,?\n"}, ["fit", "w.csv", "-o", "m.json"], 2, "w.csv:12: ")
case("csv-one-class", {"w.csv": "a,c\n1,p\n2,p\n"}, ["fit", "w.csv", "-o", "m.json"], 2, "w.csv:")
case("csv-missing-file", {}, ["fit", "nowhere.csv", "-o", "m.json"], 2, "nowhere.csv")
case("csv-directory-as-data", {"dir/x.csv": CSV}, ["fit", "dir", "-o", "m.json"], 2, "dir")
case("csv-predict-column-missing", {"w.csv": CSV, "t.csv": "outlook,play\nsunny,no\n"}, ["predict", "m.json", "t.csv"], 2, ["t.csv:1: ", "temp"], setup=[["fit", "w.csv", "-o", "m.json"]])
case("csv-predict-unseen-value-warns", {"w.csv": CSV, "t.csv": "outlook,temp,play\ncloudy,70,no\nsunny,70,no\n"}, ["predict", "m.json", "t.csv"], 0, ["cloudy", "t.csv:2"], setup=[["fit", "w.csv", "-o", "m.json"]], stdout_lines=3)
case("tree-predict-unseen-nominal-value", {"w.csv": CSV, "t.csv": "outlook,temp,play\ncloudy,70,\nsunny,70,\n"}, ["predict", "m.json", "t.csv", "--proba"], 0, ["t.csv:2", "cloudy"], setup=[["fit", "w.csv", "-o", "m.json", "--learner", "tree", "--min-leaf", "1"]], stdout_lines=3)
case("csv-predict-text-in-numeric-column", {"w.csv": CSV, "t.csv": "outlook,temp,play\nsunny,warm,no\n"}, ["predict", "m.json", "t.csv"], 2, ["t.csv:2: ", "warm"], setup=[["fit", "w.csv", "-o", "m.json"]])

# ---- model files
MODEL = [["fit", "w.arff", "-o", "m.json"]]
def model_case(id, edit, exit, stderr, run=None, **kw):
    case(id, {"w.arff": W + ROWS}, run or ["predict", "m.json", "w.arff"], exit, stderr, setup=MODEL, edit=edit, **kw)
case("model-is-a-directory", {"m.json/x": ""}, ["predict", "m.json", "d.csv"], 2, "m.json: is a directory")
case("model-missing-file", {"w.csv": CSV}, ["predict", "none.json", "w.csv"], 2, "none.json")
case("model-not-json", {"m.json": "{\n  \"format\": \"candor-model\",\n  oops\n}\n", "w.csv": CSV}, ["rules", "m.json"], 2, "m.json:3: ")
case("model-empty-file", {"m.json": ""}, ["rules", "m.json"], 2, "m.json:")
case("model-truncated", {"w.arff": W + ROWS}, ["rules", "m.json"], 2, "m.json:", setup=MODEL, truncate={"m.json": 200})
model_case("model-number-out-of-range", {"raw_replace": ["\"rows\": 10", "\"rows\": 1e400"]}, 2, "m.json:")
model_case("model-empty-class-values", {"set": {"/class/values": []}}, 2, "m.json:", run=["rules", "m.json"])
model_case("model-negative-count", {"set": {"/rules/0/class_counts/0": -3.0}}, 2, "m.json:")
model_case("model-probability-above-one", {"set": {"/rules/0/probability": 5.0}}, 2, "m.json:")
model_case("model-negative-rows", {"set": {"/training/rows": -5}}, 2, "m.json:")
model_case("model-future-version", {"set": {"/version": 2}}, 2, ["m.json:", "version"])
model_case("model-unknown-kind", {"set": {"/model": "forest"}}, 2, ["m.json:", "forest"])
model_case("model-not-a-candor-model", {"delete": ["/format"]}, 2, ["m.json:", "candor-model"])
model_case("model-condition-on-unknown-attribute", {"set": {"/rules/0/conditions/0/attribute": "humidity"}}, 2, ["m.json:", "humidity"])
model_case("model-condition-on-unknown-value", {"set": {"/rules/0/conditions/0": {"attribute": "outlook", "op": "=", "value": "cloudy"}}}, 2, ["m.json:", "/rules/0", "cloudy"])
model_case("model-rule-of-unknown-class", {"set": {"/rules/0/class": "maybe"}}, 2, ["m.json:", "maybe"])
model_case("model-class-counts-wrong-length", {"set": {"/rules/0/class_counts": [1.0, 2.0, 3.0]}}, 2, "m.json:")
model_case("model-unknown-operator", {"set": {"/rules/0/conditions/0/op": "~"}}, 2, ["m.json:", "~"])
model_case("model-wrong-type", {"set": {"/rules/0/quality": "high"}}, 2, ["m.json:", "/rules/0"])
model_case("model-covered-contradicts-counts", {"set": {"/rules/0/covered": 1000.0}}, 2, ["m.json:", "/rules/0", "covered"])
model_case("model-unknown-entry", {"set": {"/rules/0/probabilty": 0.5}}, 2, ["m.json:", "unknown entry /rules/0/probabilty"])
model_case("model-rules-not-a-list", {"set": {"/rules": {"a": 1}}}, 2, ["m.json:", "rules"])
model_case("model-attribute-type-unknown", {"set": {"/attributes/1/type": "complex"}}, 2, ["m.json:", "complex"])
case("model-nominal-applied-to-numeric-arff", {"w.arff": W + ROWS, "n.arff": W.replace("outlook {sunny,overcast,rainy}", "outlook numeric") + "1,70,yes\n2,80,no\n"}, ["predict", "m.json", "n.arff"], 0, ["n.arff:6: attribute 'outlook'", "a number where the model has names"], setup=MODEL, stdout_lines=3)
model_case("model-nominal-attribute-given-operator-le", {"set": {"/attributes/1/type": "nominal", "/attributes/1/values": ["hot", "cold"]}}, 2, ["m.json:", "temp"])
model_case("model-interval-outside-unit", {"set": {"/rules/0/interval": [0.2, 1.5]}}, 2, ["m.json:", "interval"])
model_case("model-nan-text-count", {"raw_replace": ["\"rows\": 10", "\"rows\": NaN"]}, 2, "m.json:")

# ---- flags
FLAG_FILES = {"w.arff": W + ROWS}
def flag_case(id, run, exit, stderr, **kw):
    case(id, dict(FLAG_FILES), run, exit, stderr, **kw)
flag_case("flag-unknown", ["fit", "w.arff", "-o", "m.json", "--beam", "3"], 2, "--beam")
flag_case("flag-beam-width-zero", ["fit", "w.arff", "-o", "m.json", "--beam-width", "0"], 2, "beam")
flag_case("flag-beam-width-text", ["fit", "w.arff", "-o", "m.json", "--beam-width", "wide"], 2, "wide")
flag_case("flag-of-another-learner", ["fit", "w.arff", "-o", "m.json", "--confidence", "0.3"], 2, ["--confidence", "tree"])
flag_case("flag-unknown-learner", ["fit", "w.arff", "-o", "m.json", "--learner", "forest"], 2, "forest")
flag_case("flag-unknown-quality", ["fit", "w.arff", "-o", "m.json", "--quality", "gini"], 2, "gini")
flag_case("flag-negative-m", ["fit", "w.arff", "-o", "m.json", "--quality", "m-estimate", "--m", "-1"], 2, "m")
flag_case("flag-negative-threads", ["fit", "w.arff", "-o", "m.json", "--threads", "-2"], 2, "threads")
flag_case("flag-one-fold", ["evaluate", "w.arff", "--folds", "1"], 2, "folds")
flag_case("flag-more-folds-than-rows", ["evaluate", "w.arff", "--folds", "50"], 2, "w.arff")
flag_case("flag-out-under-a-file", ["experiment", "grid", "--learner", "a=", "--datasets", "w.arff", "--out", "w.arff/sub"], 2, "w.arff")
flag_case("flag-no-subcommand", [], 2, "")
flag_case("flag-fit-without-data", ["fit"], 2, "")
flag_case("flag-weight-column-unknown", ["fit", "w.arff", "-o", "m.json", "--weight-column", "kg"], 2, "kg")
flag_case("flag-reliability-out-of-range", ["fit", "w.arff", "-o", "m.json", "--learner", "pril", "--reliability", "1.5"], 2, "reliability")

