"""The catalogue of malformed and unusual inputs: ARFF, CSV/TSV, model files and flags, each with the exit
code and the message fragments candor must give (run_catalogue.py runs them; CTest runs that).

A case: files to write (name -> text; {"latin1": text} for raw bytes; [[piece, count], ...] for big ones),
optional setup commands (must succeed) and an edit of the model file m.json they made, the command, the
expected exit code (0, or 2 for input the user must fix) and fragments of stderr / stdout. For exit 2 the
fragments name FILE:LINE wherever the input has lines. Policy where the answer is a warning rather than an
error (docs/guide-cli.md, "Reading data"): CSV type inference, one number written two ways, values a model never saw.
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
case("arff-invalid-utf8-names-line-and-column", {"d.arff": {"latin1": "@relation r\n@attribute a {x,caf\u00e9}\n@attribute c {p,n}\n@data\nx,p\ncaf\u00e9,n\n"}}, ["fit", "d.arff", "-o", "m.json"], 2, ["d.arff:2: ", "not UTF-8", "column 20"])
case("csv-invalid-utf8-names-line-and-column", {"d.csv": {"latin1": "a,c\nx,p\ncaf\u00e9,n\n"}}, ["fit", "d.csv", "-o", "m.json"], 2, ["d.csv:3: ", "not UTF-8", "column 4"])

# ---- Exports of hostile names: refused where the target cannot hold them, data everywhere else
# ARFF-quoted (with ARFF's escapes): a value with a newline and SQL after it, a class with psql's shell escape.
HOSTILE_VALUE, HOSTILE_CLASS = "'a\\nDROP TABLE data; --'", "'p\\n\\\\! touch PWNED'"
HOSTILE_ARFF = ("@relation h\n@attribute x {" + HOSTILE_VALUE + ",b}\n@attribute X numeric\n"
                "@attribute 'c*/ /*' {" + HOSTILE_CLASS + ",\"n'); --\"}\n@data\n"
                + "".join((HOSTILE_VALUE if i % 3 == 0 else "b") + f",{i % 5}," + (HOSTILE_CLASS if i % 3 == 0 else "\"n'); --\"") + "\n"
                          for i in range(30)))
case("export-sql-names-one-column-in-sqlite", {"h.arff": HOSTILE_ARFF}, ["export", "m.json", "--format", "sql"], 2, ["'X'", "'x'", "one column"], setup=[["fit", "h.arff", "-o", "m.json", "--learner", "cn2-unordered"]])
for fmt in ("python", "c"):
    case(f"export-{fmt}-hostile-names-check", {"h.arff": HOSTILE_ARFF}, ["export", "m.json", "--format", fmt, "--check", "h.arff", "-o", "out.txt"], 0, "0 rows of another class", setup=[["fit", "h.arff", "-o", "m.json", "--learner", "cn2-unordered"]])

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
case("csv-class-typo-suggests-the-name", {"w.csv": CSV}, ["fit", "w.csv", "-o", "m.json", "--class", "paly"], 2, ["w.csv:1: ", "did you mean 'play'?"])
case("fit-names-the-class-it-learned", {"w.csv": CSV}, ["fit", "w.csv", "-o", "m.json"], 0, ["class 'play' (2 values), the last column (choose another with --class)"])
case("evaluate-writes-no-progress-into-a-pipe", {"w.csv": CSV}, ["evaluate", "w.csv", "--folds", "2", "--learner", "laplace-covering"], 0, stdout="accuracy", stderr_absent=["evaluate:", "folds,"])
case("evaluate-quiet-is-accepted", {"w.csv": CSV}, ["evaluate", "w.csv", "--folds", "2", "--quiet"], 0, stdout="accuracy")
case("csv-whole-number-class-warns", {"w.csv": "x,age\n" + "".join(f"{i * 0.37:.2f},{20 + i % 15}\n" for i in range(60))}, ["fit", "w.csv", "-o", "m.json", "--learner", "one-r"], 0, ["warning", "w.csv:1: ", "15 values, all whole numbers"])
# Twenty rows: temp holds one n/a and one ?; all other cells are numbers.
MISSING_CSV = "outlook,temp,play\n" + ROWS.replace("85", "n/a") + ROWS.replace("83", "?")
case("csv-missing-adds-to-the-default-markers", {"w.csv": MISSING_CSV}, ["fit", "w.csv", "-o", "m.json", "--missing", "n/a"], 0, "20 rows", stderr_absent=["warning"])
case("csv-missing-only-replaces-the-default-markers", {"w.csv": MISSING_CSV}, ["fit", "w.csv", "-o", "m.json", "--missing-only", "n/a"], 0, ["warning", "'temp' is read as nominal"])
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
case("model-file-given-as-data", {"w.arff": W + ROWS}, ["predict", "m.json", "m.json"], 2, ["m.json:1: ", "is JSON (a model file?), not data", "the model comes first"], setup=[["fit", "w.arff", "-o", "m.json", "--learner", "cn2-unordered"]])
case("predict-arguments-swapped", {"w.arff": W + ROWS}, ["predict", "w.arff", "m.json"], 2, ["w.arff:1: ", "is a data file, not a model file", "the model comes first"], setup=[["fit", "w.arff", "-o", "m.json", "--learner", "cn2-unordered"]])
case("predict-key-carries-an-id-through-as-text", {"w.csv": CSV, "t.csv": "id,outlook,temp,play\n007,sunny,85,no\nA-9,rainy,70,\n"}, ["predict", "m.json", "t.csv", "--key", "id"], 0, stdout=["row,id,predicted", "1,007,", "2,A-9,"], setup=[["fit", "w.csv", "-o", "m.json", "--learner", "cn2-unordered"]])
case("predict-key-typo-suggests-the-column", {"w.csv": CSV, "t.csv": "id,outlook,temp,play\n007,sunny,85,no\n"}, ["predict", "m.json", "t.csv", "--key", "idd"], 2, ["t.csv:1: ", "did you mean 'id'?"], setup=[["fit", "w.csv", "-o", "m.json", "--learner", "cn2-unordered"]])
case("csv-gzip-compressed", {"w.csv.gz": {"latin1": "\u001f\u008b\u0008\u0000binary"}}, ["fit", "w.csv.gz", "-o", "m.json"], 2, ["w.csv.gz: ", "compressed", "decompress"])
case("csv-directory-as-data", {"dir/x.csv": CSV}, ["fit", "dir", "-o", "m.json"], 2, "dir")
case("csv-predict-column-missing", {"w.csv": CSV, "t.csv": "outlook,play\nsunny,no\n"}, ["predict", "m.json", "t.csv"], 2, ["t.csv:1: ", "temp"], setup=[["fit", "w.csv", "-o", "m.json"]])
case("csv-predict-unseen-value-warns", {"w.csv": CSV, "t.csv": "outlook,temp,play\ncloudy,70,no\nsunny,70,no\n"}, ["predict", "m.json", "t.csv"], 0, ["cloudy", "t.csv:2"], setup=[["fit", "w.csv", "-o", "m.json"]], stdout_lines=3)
case("tree-predict-unseen-nominal-value", {"w.csv": CSV, "t.csv": "outlook,temp,play\ncloudy,70,\nsunny,70,\n"}, ["predict", "m.json", "t.csv", "--proba"], 0, ["t.csv:2", "cloudy"], setup=[["fit", "w.csv", "-o", "m.json", "--learner", "tree", "--min-leaf", "1"]], stdout_lines=3)
case("report-data-column-missing", {"w.csv": CSV, "t.csv": "outlook,play\nsunny,no\n"}, ["report", "m.json", "t.csv", "-o", "r.html"], 2, ["t.csv:1: ", "temp"], setup=[["fit", "w.csv", "-o", "m.json"]])
case("report-unseen-value-warns", {"w.csv": CSV, "t.csv": "outlook,temp,play\ncloudy,70,no\nsunny,70,no\n"}, ["report", "m.json", "t.csv", "-o", "r.html"], 0, ["cloudy", "t.csv:2", "report written to r.html"], setup=[["fit", "w.csv", "-o", "m.json", "--learner", "tree", "--min-leaf", "1"]])
case("report-on-training-rows-says-so", {"w.csv": CSV}, ["report", "m.json", "w.csv", "-o", "r.html"], 0, ["evaluated on the 10 rows of w.csv, the rows the model learned from"], setup=[["fit", "w.csv", "-o", "m.json", "--learner", "cn2-unordered"]])
case("report-on-other-rows-names-them", {"w.csv": CSV, "t.csv": CSV.replace("85", "86")}, ["report", "m.json", "t.csv", "-o", "r.html"], 0, ["evaluated on the 10 rows of t.csv"], stderr_absent=["learned from"], setup=[["fit", "w.csv", "-o", "m.json", "--learner", "cn2-unordered"]])
case("report-needs-an-output", {"w.csv": CSV}, ["report", "m.json"], 2, "--output", setup=[["fit", "w.csv", "-o", "m.json"]])
case("report-output-folder-missing", {"w.csv": CSV}, ["report", "m.json", "w.csv", "-o", "no/such/folder/r.html"], 2, "no/such/folder", setup=[["fit", "w.csv", "-o", "m.json"]])
case("report-not-a-model", {"m.json": "{\"format\": \"other\"}"}, ["report", "m.json", "-o", "r.html"], 2, "not a candor model")
case("report-rows-zero", {"w.csv": CSV}, ["report", "m.json", "w.csv", "-o", "r.html", "--rows", "0"], 2, "--rows", setup=[["fit", "w.csv", "-o", "m.json"]])
case("csv-predict-text-in-numeric-column", {"w.csv": CSV, "t.csv": "outlook,temp,play\nsunny,warm,no\n"}, ["predict", "m.json", "t.csv"], 2, ["t.csv:2: ", "warm"], setup=[["fit", "w.csv", "-o", "m.json"]])

# ---- model files
MODEL = [["fit", "w.arff", "-o", "m.json", "--learner", "cn2-unordered"]]
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
model_case("model-wrong-type", {"set": {"/rules/0/quality": "high"}}, 2, ["m.json:", "/rules/0/quality: type must be number"])
model_case("model-covered-contradicts-counts", {"set": {"/rules/0/covered": 1000.0}}, 2, ["m.json:", "/rules/0", "covered"])
model_case("model-unknown-entry", {"set": {"/rules/0/probabilty": 0.5}}, 2, ["m.json:", "unknown entry /rules/0/probabilty"])
model_case("model-rules-not-a-list", {"set": {"/rules": {"a": 1}}}, 2, ["m.json:", "rules"])
model_case("model-attribute-type-unknown", {"set": {"/attributes/1/type": "complex"}}, 2, ["m.json:", "complex"])
case("model-nominal-applied-to-numeric-arff", {"w.arff": W + ROWS, "n.arff": W.replace("outlook {sunny,overcast,rainy}", "outlook numeric") + "1,70,yes\n2,80,no\n"}, ["predict", "m.json", "n.arff"], 0, ["n.arff:6: attribute 'outlook'", "a number where the model has names"], setup=MODEL, stdout_lines=3)
model_case("model-nominal-attribute-given-operator-le", {"set": {"/attributes/1/type": "nominal", "/attributes/1/values": ["hot", "cold"]}}, 2, ["m.json:", "temp"])
model_case("model-interval-outside-unit", {"set": {"/rules/0/interval": [0.2, 1.5]}}, 2, ["m.json:", "interval"])
model_case("model-settings-prior-weight-negative", {"set": {"/settings/prior_weight": -1.0}}, 2, ["m.json: malformed model: /settings/prior_weight: ", "prior_weight must be a finite number of at least 0, not -1"])
model_case("model-settings-unknown-combination", {"set": {"/settings/combine": "sum"}}, 2, ["m.json: malformed model: /settings/combine: ", "unknown combination 'sum'"])
# A file written before models recorded their settings: they are read from its learner object.
model_case("model-older-learner-prior-weight-negative", {"set": {"/learner/prior_weight": -1.0}, "delete": ["/settings"]}, 2, ["m.json:", "learner parameter 'prior_weight'"])
model_case("model-learner-option-no-learner-takes", {"set": {"/learner/beam_width": 0}}, 2, ["m.json: /learner: ", "beam"], run=["rules", "m.json"])
model_case("model-learner-not-an-object", {"set": {"/learner": "cn2-unordered"}}, 2, ["m.json:", "learner"])
model_case("model-nan-text-count", {"raw_replace": ["\"rows\": 10", "\"rows\": NaN"]}, 2, "m.json:")
STABLE_MODEL = [["fit", "w.arff", "-o", "m.json", "--learner", "cn2-unordered", "--stability", "3"]]
case("model-stability-frequency-above-one", {"w.arff": W + ROWS}, ["rules", "m.json"], 2, ["m.json:", "rule_frequency"], setup=STABLE_MODEL, edit={"set": {"/stability/rule_frequency/0": 1.5}})
case("model-stability-frequency-count", {"w.arff": W + ROWS}, ["rules", "m.json"], 2, ["m.json:", "rule_frequency has 1 entries"], setup=STABLE_MODEL, edit={"set": {"/stability/rule_frequency": [0.5]}})
STABLE_RULES_MODEL = [["fit", "w.arff", "-o", "m.json", "--learner", "cn2-unordered", "--stable-resamples", "4"]]
case("model-stable-rule-frequency-above-one", {"w.arff": W + ROWS}, ["rules", "m.json"], 2, ["m.json:", "/rules/0/stable_frequency: stable_frequency 1.5"], setup=STABLE_RULES_MODEL, edit={"set": {"/rules/0/stable_frequency": 1.5}})
case("model-stability-one-resample", {"w.arff": W + ROWS}, ["rules", "m.json"], 2, ["m.json:", "resamples"], setup=STABLE_MODEL, edit={"set": {"/stability/resamples": 1}})
case("fit-stability-one-resample", {"w.arff": W + ROWS}, ["fit", "w.arff", "-o", "m.json", "--stability", "1"], 2, "--stability")
# The default model (rules in a logistic model): the same checks reach its rules and weights.
DEFAULT_MODEL = [["fit", "w.arff", "-o", "m.json"]]
def default_model_case(id, edit, exit, stderr, run=None, **kw):
    case(id, {"w.arff": W + ROWS}, run or ["predict", "m.json", "w.arff"], exit, stderr, setup=DEFAULT_MODEL, edit=edit, **kw)
default_model_case("default-model-rule-probability-above-one", {"set": {"/rule_model/rules/0/probability": 5.0}}, 2, "m.json:")
# A rule marked as covering+additive's one-condition rule needs the laws that corrected it.
default_model_case("default-model-additive-rule-without-its-laws", {"set": {"/rule_model/rules/0/additive": True}}, 2, ["m.json:", "/rule_model/rules/0/additive: an additive rule of an evc model needs the model's \"additive_evc\" calibration"])
default_model_case("default-model-additive-not-a-boolean", {"set": {"/rule_model/rules/0/additive": "yes"}}, 2, ["m.json:", "/rule_model/rules/0/additive"])
default_model_case("default-model-weight-not-a-number", {"set": {"/intercepts/0": "big"}}, 2, "m.json:")
default_model_case("default-model-weights-wrong-length", {"set": {"/rule_gamma": []}}, 2, "m.json:")
# Every problem in a model file names its entry by JSON pointer, the rule set inside the default model included.
default_model_case("default-model-pointer-to-rule-entry", {"set": {"/rule_model/rules/0/quality": "high"}}, 2, "m.json: malformed model: /rule_model/rules/0/quality: type must be number")
default_model_case("default-model-pointer-to-condition", {"set": {"/rule_model/rules/0/conditions/0/op": "~"}}, 2, ["m.json: malformed model: /rule_model/rules/0/conditions/0/op: ", "'~'"])
default_model_case("default-model-pointer-to-missing-entry", {"delete": ["/rule_model/rules/0/probability"]}, 2, "m.json: malformed model: /rule_model/rules/0: lacks \"probability\"")
default_model_case("default-model-pointer-to-weights", {"set": {"/intercepts": None}}, 2, "m.json: malformed model: /intercepts: type must be array")
default_model_case("default-model-pointer-to-calibration", {"set": {"/rule_model/evc/laws/yes/0/mu": "x"}}, 2, "m.json: malformed model: /rule_model/evc/laws/yes/0/mu: ")
default_model_case("default-model-dropped-rules-negative", {"set": {"/rules_without_weight": -1}}, 2, ["m.json:", "rules_without_weight"])
# A PrIL model's problems name the branch, subset or rule they are in.
PRIL_MODEL = [["fit", "d.csv", "-o", "m.json", "--learner", "pril"]]
def pril_model_case(id, edit, stderr):
    case(id, {"d.csv": {"rows": ["a,b,c\n", "{i},{i2},x{i2}\n", 3000]}}, ["rules", "m.json"], 2, stderr, setup=PRIL_MODEL, edit=edit)
pril_model_case("pril-model-pointer-to-rule", {"set": {"/branches/0/sets/0/rules/0/reliability": 1.5}}, "m.json: malformed model: /branches/0/sets/0/rules/0: a reliability must lie in (0, 1)")
pril_model_case("pril-model-pointer-to-subset", {"set": {"/branches/0/sets/0/attributes": [99]}}, "m.json: malformed model: /branches/0/sets/0: a rule set attribute is out of range")
pril_model_case("pril-model-pointer-to-branching", {"set": {"/branching": [99]}}, "m.json: malformed model: /branching: a branching attribute is out of range")

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


# ---- hostile grid configs: a config is shared between people; it may name a Weka classifier and its
# options, nothing else. Each attack must be refused (exit 2, the config's JSON pointer) and create nothing.
import json as _json
def grid_case(id, learner, exit=2, stderr=None, absent=("PWNED",), **kw):
    config = {"learners": {"evil": learner}, "datasets": ["w.arff"], "resampling": {"folds": 2}}
    case(id, {"w.arff": W + ROWS, "g.json": _json.dumps(config)}, ["experiment", "grid", "--config", "g.json", "--out", "o", "--no-plots"],
         exit, stderr if stderr is not None else ["g.json: at /learners/evil"], absent=list(absent), **kw)
grid_case("grid-weka-newline-runs-nothing", "weka:weka.classifiers.rules.ZeroR\ntouch PWNED #", stderr=["g.json: at /learners/evil", "control character"])
grid_case("grid-weka-carriage-return", "weka:weka.classifiers.rules.ZeroR\rtouch PWNED")
grid_case("grid-weka-classpath", "weka:-cp . Evil", stderr=["g.json: at /learners/evil", "-cp"])
grid_case("grid-weka-classpath-path", "weka:-cp /tmp Evil")
grid_case("grid-weka-output-file", "weka:weka.classifiers.rules.ZeroR -d PWNED", stderr=["g.json: at /learners/evil", "-d"])
grid_case("grid-weka-input-file", "weka:weka.classifiers.rules.ZeroR -l w.arff", stderr=["g.json: at /learners/evil", "-l"])
grid_case("grid-weka-xml-options", "weka:weka.classifiers.rules.ZeroR -xml w.arff")
grid_case("grid-weka-threshold-file", "weka:weka.classifiers.rules.ZeroR -threshold-file PWNED")
grid_case("grid-weka-classifications-file", "weka:weka.classifiers.rules.ZeroR -classifications weka.classifiers.evaluation.output.prediction.CSV -file PWNED")
grid_case("grid-weka-serialized-classifier", "weka:weka.classifiers.misc.SerializedClassifier -model w.arff", stderr=["g.json: at /learners/evil", "reads files"])
grid_case("grid-weka-command-substitution", "weka:weka.classifiers.rules.ZeroR $(touch PWNED)")
grid_case("grid-weka-backticks", "weka:weka.classifiers.rules.ZeroR `touch PWNED`")
grid_case("grid-weka-semicolon", "weka:weka.classifiers.rules.ZeroR; touch PWNED")
grid_case("grid-weka-pipe-and-redirect", "weka:weka.classifiers.rules.ZeroR | tee PWNED > PWNED")
grid_case("grid-weka-quotes", "weka:weka.classifiers.rules.ZeroR 'x' \"y\"")
grid_case("grid-weka-argument-file", "weka:weka.classifiers.rules.ZeroR @PWNED")
grid_case("grid-weka-java-property", "weka:weka.classifiers.rules.ZeroR -Djava.io.tmpdir=x", stderr=["g.json: at /learners/evil", "Java property"])
grid_case("grid-weka-not-a-weka-class", "weka:java.lang.Runtime", stderr=["g.json: at /learners/evil", "not a Weka classifier"])
grid_case("grid-weka-nul-byte", "weka:weka.classifiers.rules.ZeroR\u0000touch PWNED")
grid_case("grid-weka-nothing-named", "weka:", stderr=["g.json: at /learners/evil", "no Weka classifier"])
grid_case("grid-learner-option-infinite", "--quality m-estimate --m inf", stderr=["g.json: at /learners/evil", "--m must be a finite number"])
grid_case("grid-learner-a-number", 3, stderr=["g.json: at /learners/evil", "string of options or an object"])
grid_case("grid-learner-object-unknown-key", {"learner": "cn2-unordered", "beam": 3}, stderr=["g.json: at /learners/evil", "beam"])
# The suggestion and the whole list of parameters, not cut short.
grid_case("grid-learner-object-misspelt-key", {"learner": "cn2-unordered", "beam_widht": 3},
          stderr=["g.json: at /learners/evil", "did you mean 'beam_width'? (known: learner, ", ")\n"], stderr_absent=["more bytes"])
case("grid-weka-learner-on-the-command-line", {"w.arff": W + ROWS}, ["experiment", "grid", "--learner", "evil=weka:weka.classifiers.rules.ZeroR\ntouch PWNED", "--datasets", "w.arff", "--out", "o", "--no-plots"], 2, ["learner 'evil'", "control character"], absent=["PWNED"])
def grid_config_case(id, text, stderr, **kw):
    case(id, {"w.arff": W + ROWS, "g.json": text}, ["experiment", "grid", "--config", "g.json", "--out", "o", "--no-plots"], 2, stderr, **kw)
GOOD = '{"learners": {"a": ""}, "datasets": ["w.arff"]'
grid_config_case("grid-test-fraction-overflow", GOOD + ', "resampling": {"kind": "holdout", "test_fraction": 1e999}}', ["g.json: not valid JSON: number overflow parsing '1e999'"])
grid_config_case("grid-test-fraction-out-of-range", GOOD + ', "resampling": {"kind": "holdout", "test_fraction": 1.5}}', ["g.json: at /resampling/test_fraction"])
grid_config_case("grid-folds-not-an-integer", GOOD + ', "resampling": {"folds": 2.5}}', ["g.json: at /resampling/folds"])
grid_config_case("grid-folds-huge", GOOD + ', "resampling": {"folds": 1e12}}', ["g.json: at /resampling/folds"])
grid_config_case("grid-resampling-unknown-key", GOOD + ', "resampling": {"fold": 3}}', ["g.json: at /resampling/fold", "unknown resampling key"])
grid_config_case("grid-resampling-unknown-kind", GOOD + ', "resampling": {"kind": "bootstrap"}}', ["g.json: at /resampling", "bootstrap"])
grid_config_case("grid-stability-not-an-object", GOOD + ', "stability": 20}', ["g.json: at /stability", "resamples"])
grid_config_case("grid-stability-negative-resamples", GOOD + ', "stability": {"resamples": -3}}', ["g.json: at /stability/resamples"])
grid_config_case("grid-stability-one-resample", GOOD + ', "stability": {"resamples": 1}}', ["g.json: at /stability/resamples", "at least 2"])
grid_config_case("grid-stability-huge-resamples", GOOD + ', "stability": {"resamples": 1e12}}', ["g.json: at /stability/resamples"])
grid_config_case("grid-stability-unknown-resampling", GOOD + ', "stability": {"resamples": 3, "resampling": "jackknife"}}', ["g.json: at /stability/resampling", "jackknife"])
grid_config_case("grid-stability-one-quantile", GOOD + ', "stability": {"resamples": 3, "quantiles": 1}}', ["g.json: at /stability/quantiles"])
grid_config_case("grid-stability-unknown-key", GOOD + ', "stability": {"resample": 3}}', ["g.json: at /stability/resample", "unknown stability key"])
grid_config_case("grid-seed-negative", GOOD + ', "seed": -1}', ["g.json: at /seed"])
grid_config_case("grid-seed-text", GOOD + ', "seed": "x"}', ["g.json: at /seed"])
grid_config_case("grid-alpha-out-of-range", GOOD + ', "alpha": 5}', ["g.json: at /alpha"])
grid_config_case("grid-datasets-not-a-list", '{"learners": {"a": ""}, "datasets": "w.arff"}', ["g.json: at /datasets", "list of strings"])
grid_config_case("grid-datasets-number-inside", '{"learners": {"a": ""}, "datasets": ["w.arff", 7]}', ["g.json: at /datasets/1"])
grid_config_case("grid-not-an-object", '[1, 2]', ["g.json: at /", "JSON object"])
grid_config_case("grid-learners-not-an-object", '{"learners": ["a"], "datasets": ["w.arff"]}', ["g.json: at /learners"])
grid_config_case("grid-config-deeply-nested", '{"learners": {"a": ' + '[' * 100000 + ']' * 100000 + '}}', ["g.json:1: ", "nested more than"])
grid_config_case("grid-config-syntax-error-line", '{\n  "learners": {"a": ""},\n  "datasets": [w.arff]\n}', ["g.json:3: "])
def grid_state_case(id, state, stderr):
    case(id, {"w.arff": W + ROWS, "o/grid.json": state}, ["experiment", "grid", "--learner", "a=", "--datasets", "w.arff", "--out", "o", "--folds", "2", "--no-plots"], 2, stderr)
grid_state_case("grid-state-array", "[]", ["o/grid.json: at /", "JSON object"])
grid_state_case("grid-state-seed-text", '{"seed": "x"}', ["o/grid.json: at /seed"])
grid_state_case("grid-state-unknown-key", '{"seed": 1, "sneaky": true}', ["o/grid.json: at /sneaky"])
grid_state_case("grid-state-deeply-nested", '{"learners": ' + '{"a": ' * 50000 + '1' + '}' * 50000 + '}', ["o/grid.json:1: ", "nested more than"])
grid_state_case("grid-state-not-json", '{"seed": 1,', ["o/grid.json:1: ", "not valid JSON"])
case("grid-results-not-ours", {"w.arff": W + ROWS, "o/results.csv": "a,b\n1,2\n"}, ["experiment", "grid", "--learner", "a=", "--datasets", "w.arff", "--out", "o", "--folds", "2", "--no-plots"], 2, ["o/results.csv:1: "], unchanged=["o/results.csv"])

# ---- output paths are arguments, never shell text
PLOT_ATTACK = "out/x'$(touch PWNED)'y"
RESULTS = "dataset,learner,accuracy\nd1,a,0.8\nd1,b,0.7\nd2,a,0.9\nd2,b,0.6\nd3,a,0.5\nd3,b,0.4\n"
case("stats-plot-path-runs-nothing", {"r.csv": RESULTS}, ["stats", "cd", "r.csv", "--metric", "accuracy", "--plot", PLOT_ATTACK + "/cd.png"], 0, absent=["PWNED"])
case("evaluate-plot-path-runs-nothing", {"w.arff": W + ROWS}, ["evaluate", "w.arff", "--folds", "2", "--plot", PLOT_ATTACK], 0, absent=["PWNED"], stdout="accuracy")
case("fit-output-path-runs-nothing", {"w.arff": W + ROWS}, ["fit", "w.arff", "-o", "m'$(touch PWNED)'.json"], 0, absent=["PWNED"])

# ---- faults: a failed or killed write leaves the previous file whole; write errors are exit 2
BIG = {"rows": ["a,b,c\n", "{i},{i2},x{i2}\n", 3000]}
KEEP = dict(setup=[["fit", "w.arff", "-o", "m.json"]], unchanged=["m.json"])
case("fit-killed-midway-keeps-model", {"w.arff": W + ROWS, "b.csv": BIG}, ["fit", "b.csv", "-o", "m.json", "--learner", "tree", "--min-leaf", "1"], 0, file_size_limit=500, signal=25, valid_json=["m.json"], **KEEP)
case("fit-file-too-large-keeps-model", {"w.arff": W + ROWS, "b.csv": BIG}, ["fit", "b.csv", "-o", "m.json", "--learner", "tree", "--min-leaf", "1"], 2, ["m.json: cannot write", "too large"], file_size_limit=500, ignore_sigxfsz=True, **KEEP)
case("grid-summary-write-fails-keeps-results", {"w.arff": W + ROWS}, ["experiment", "grid", "--learner", "a=", "--datasets", "w.arff", "--out", "o", "--folds", "2", "--no-plots"], 2, ["cannot write"], file_size_limit=300, ignore_sigxfsz=True)
case("concurrent-writers-leave-one-whole-model", {"w.arff": W + ROWS}, ["fit", "w.arff", "-o", "m.json", "--learner", "rule-logistic"], 0, parallel=4, valid_json=["m.json"])
case("predict-to-full-disk", {"w.arff": W + ROWS}, ["predict", "m.json", "w.arff", "--proba"], 2, "standard output: cannot write", setup=MODEL, stdout_file="/dev/full")
case("rules-to-full-disk", {"w.arff": W + ROWS}, ["rules", "m.json"], 2, "standard output: cannot write", setup=MODEL, stdout_file="/dev/full")
case("evaluate-to-full-disk", {"w.arff": W + ROWS}, ["evaluate", "w.arff", "--folds", "2", "--format", "json"], 2, "standard output: cannot write", stdout_file="/dev/full")
case("params-to-full-disk", {}, ["params"], 2, "standard output: cannot write", stdout_file="/dev/full")
case("fit-output-in-read-only-place", {"w.arff": W + ROWS}, ["fit", "w.arff", "-o", "/proc/m.json"], 2, "/proc/m.json: cannot write")
case("fit-output-is-a-directory", {"w.arff": W + ROWS, "m.json/x": ""}, ["fit", "w.arff", "-o", "m.json"], 2, "m.json: cannot write: is a directory")
case("fit-output-folder-missing", {"w.arff": W + ROWS}, ["fit", "w.arff", "-o", "nowhere/m.json"], 2, "nowhere/m.json: cannot write")
case("grid-out-in-read-only-place", {"w.arff": W + ROWS}, ["experiment", "grid", "--learner", "a=", "--datasets", "w.arff", "--out", "/proc/candor-grid", "--no-plots"], 2, "/proc/candor-grid")
case("evaluate-plot-in-read-only-place", {"w.arff": W + ROWS}, ["evaluate", "w.arff", "--folds", "2", "--plot", "/proc/candor-plot"], 2, "/proc/candor-plot")

# ---- resource limits: refused up front with what to change, never killed by the kernel or exit 1
ID_ROWS = {"rows": ["id,x,c\n", "v{i},{i2},{i2}\n", 1000000]}
case("csv-identifier-column-too-big-to-index", {"big.csv": ID_ROWS}, ["fit", "big.csv", "-o", "m.json"], 2, ["big.csv", "attribute 'id'", "1000000 distinct values"])
case("csv-identifier-column-over-memory-limit", {"d.csv": {"rows": ["id,x,c\n", "v{i},{i2},{i2}\n", 30000]}}, ["fit", "d.csv", "-o", "m.json"], 2, ["attribute 'id'", "30000 distinct values"], env={"CANDOR_MEMORY_LIMIT": "64M"})
case("evc-permutations-two-billion", {"w.arff": W + ROWS}, ["fit", "w.arff", "-o", "m.json", "--quality", "evc", "--evc-permutations", "2000000000"], 2, ["--evc-permutations 2000000000", "fewer permutations"])
case("evc-permutations-beyond-int", {"w.arff": W + ROWS}, ["fit", "w.arff", "-o", "m.json", "--quality", "evc", "--evc-permutations", "99999999999"], 2, "evc-permutations")
case("rule-logistic-columns-over-memory-limit", {"d.csv": {"rows": ["id,x,c\n", "v{i},{i2},{i2}\n", 20000]}}, ["fit", "d.csv", "-o", "m.json", "--learner", "rule-logistic", "--features", "attributes"], 2, ["rule-logistic's attribute matrix", "columns"], env={"CANDOR_MEMORY_LIMIT": "256M"})

# ---- hostile model files
model_case("model-nested-100000-deep", {"raw_replace": ["\"learner\": {", "\"learner\": {\"x\": " + "{\"a\": " * 100000 + "1" + "}" * 100000 + ", "]}, 2, ["m.json:", "nested more than"], run=["rules", "m.json"])
model_case("model-nested-arrays-deep", {"raw_replace": ["\"rules\": [", "\"rules\": [" + "[" * 200000 + "]" * 200000 + ", "]}, 2, ["m.json:", "nested more than"], run=["rules", "m.json"])
model_case("model-nested-30-deep-is-just-unknown", {"raw_replace": ["\"learner\": {", "\"learner\": {\"x\": " + "{\"a\": " * 30 + "1" + "}" * 30 + ", "]}, 2, ["m.json:", "x"], run=["rules", "m.json"])
model_case("model-infinite-number-text", {"raw_replace": ["\"rows\": 10", "\"rows\": Infinity"]}, 2, "m.json:")

# ---- options that would write numbers no model file can hold
for flag, value in [("--m", "inf"), ("--prior-weight", "inf"), ("--m-scale", "1e308"), ("--m", "1e300"), ("--min-new-positives", "inf"),
                    ("--lambda", "1e300"), ("--subsample", "nan"), ("--min-leaf", "-inf")]:
    flag_case("flag" + flag + "-" + value, ["fit", "w.arff", "-o", "m.json", flag, value], 2, flag, absent=["m.json"])

# ---- predictions CSV: RFC 4180 whatever the class values
ODD = "@relation odd\n@attribute a numeric\n@attribute c {'yes,sure','no \"way\"',plain}\n@data\n" + "".join(
    f"{i},{c}\n" for i, c in enumerate(["'yes,sure'", "'no \"way\"'", "plain"] * 4))
case("predict-class-values-with-commas-and-quotes", {"o.arff": ODD}, ["predict", "m.json", "o.arff", "--proba", "--explain"], 0,
     stdout=['"p(yes,sure)"', '"p(no ""way"")"', '"yes,sure"'], setup=[["fit", "o.arff", "-o", "m.json"]], stdout_lines=13, csv_fields=7)

# ---- Python inputs (run by scripts/python.sh with --python)
PY_DATA = "import numpy as np, pandas as pd, candor\nX = pd.DataFrame({'a': [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 'b': ['x', 'y', 'x', 'y', 'x', 'y']})\ny = ['p', 'n', 'p', 'n', 'p', 'n']\n"
def py_case(id, code, exit=0, stderr=None, **kw):
    case(id, {}, [], exit, stderr, python=PY_DATA + code, **kw)
py_case("python-empty-dataframe", "candor.CN2Unordered().fit(pd.DataFrame({'a': []}), [])", 1, ["ValueError", "0 sample"])
py_case("python-empty-array", "candor.CN2Unordered().fit(np.empty((0, 2)), [])", 1, ["ValueError", "0 sample"])
py_case("python-empty-dataframe-no-columns", "candor.CN2Unordered().fit(pd.DataFrame(), [])", 1, ["ValueError", "0 sample"])
py_case("python-nullable-int-with-missing", "X['n'] = pd.array([1, None, 3, 4, None, 6], dtype='Int64')\nm = candor.CN2Unordered().fit(X, y)\nprint(m.predict_proba(X).shape, m.rules_.shape[0] > 0)", 0, stdout="(6, 2) True")
py_case("python-convert-dtypes", "m = candor.CN2Unordered().fit(X.convert_dtypes(), y)\nprint(list(m.predict(X.convert_dtypes())))", 0, stdout="['p', 'n', 'p', 'n', 'p', 'n']")
py_case("python-nullable-boolean-is-nominal", "X = pd.DataFrame({'member': pd.array([True, False, True, False, None, False], dtype='boolean')})\nm = candor.CN2Unordered().fit(X, y)\nprint(m.rules_['rule'].tolist())", 0, stdout="member = ")
py_case("python-bool-is-nominal", "X = pd.DataFrame({'member': [True, False, True, False, True, False]})\nm = candor.CN2Unordered().fit(X, y)\nprint(m.rules_['rule'].tolist())", 0, stdout="member = True")
py_case("python-datetime-refused", "X['when'] = pd.date_range('2020-01-01', periods=6)\ncandor.CN2Unordered().fit(X, y)", 1, ["TypeError", "column 'when'", "not supported"])
py_case("python-grid-weka-newline-runs-nothing", "import os\ntry:\n    candor.grid({'learners': {'evil': 'weka:weka.classifiers.rules.ZeroR\\ntouch PWNED #'}, 'datasets': ['iris']}, out='o')\nexcept ValueError as e:\n    print('refused:', e)\nprint('created' if os.path.exists('PWNED') else 'nothing created')", 0, stdout=["refused:", "control character", "nothing created"])
py_case("python-grid-state-refused", "import os\nos.makedirs('o')\nopen('o/grid.json', 'w').write('[]')\ncandor.grid({'learners': {'a': ''}, 'datasets': ['iris']}, out='o')", 1, ["ValueError", "grid.json: at /"])
case("fit-output-dev-null-stays-a-device", {"w.arff": W + ROWS}, ["fit", "w.arff", "-o", "/dev/null"], 0, "/dev/null", char_devices=["/dev/null"])
case("fit-output-dev-full", {"w.arff": W + ROWS}, ["fit", "w.arff", "-o", "/dev/full"], 2, "/dev/full: cannot write", char_devices=["/dev/full"])
case("fit-output-through-a-link-keeps-the-link", {"w.arff": W + ROWS, "real.json": "{}"}, ["fit", "w.arff", "-o", "m.json"], 0, symlinks={"m.json": "real.json"}, valid_json=["real.json"])
case("grid-alpha-not-a-number", {"w.arff": W + ROWS}, ["experiment", "grid", "--learner", "a=", "--datasets", "w.arff", "--out", "o", "--alpha", "nan", "--no-plots"], 2, "alpha")
case("grid-seed-negative-on-the-command-line", {"w.arff": W + ROWS}, ["experiment", "grid", "--learner", "a=", "--datasets", "w.arff", "--out", "o", "--seed", "-1", "--no-plots"], 2, "--seed")
flag_case("flag-threads-negative-says-the-range-briefly", ["fit", "w.arff", "-o", "m.json", "--threads", "-1"], 2, ["--threads", "4096"], stderr_max_bytes=200)
flag_case("flag-pril-steps-beyond-any-use", ["fit", "w.arff", "-o", "m.json", "--learner", "pril", "--steps", "2000000000"], 2, "steps")
flag_case("flag-boost-iterations-beyond-any-use", ["fit", "w.arff", "-o", "m.json", "--learner", "boost", "--iterations", "2000000000"], 2, "iterations")
flag_case("flag-pril-bins-beyond-any-use", ["fit", "w.arff", "-o", "m.json", "--learner", "pril", "--bins", "2000000000"], 2, "bins")
