"""`candor report` opened in a real browser: headless Chromium driven by Selenium (Debian's chromium,
chromium-driver and python3-selenium). For every model kind the page must load without a console message,
show every rule, sort and filter the rule table, draw its plots, and let a reader search the rows, keep only
the wrong ones, page through them and open one to see the rules that fired, all agreeing with what `candor
predict` says of the same rows. Text from the data must stay text.

With CANDOR_REPORT_SCREENSHOT=PATH the first page is also saved there as PNG (docs/report.png is made so)."""
import csv
import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import candor
from candor import _core

CLI = os.environ.get("CANDOR_CLI", str(Path(__file__).resolve().parents[2] / "build" / "candor"))
CORPUS = Path(__file__).resolve().parents[2] / "data" / "corpus"
# Every model kind: rule sets (two combinations), an ordered list, decision lists, rule-logistic, a tree, a
# stump, the three boostings, PrIL.
CONFIGS = {
    "rule-logistic": [],
    "cn2-unordered": ["--learner", "cn2-unordered"],
    "cn2-unordered-best-rule": ["--learner", "cn2-unordered", "--combine", "best-rule"],
    "cn2-ordered": ["--learner", "cn2-ordered"],
    "decision-list": ["--learner", "decision-list"],
    "tree": ["--learner", "tree"],
    "stump": ["--learner", "stump"],
    "boost-kbs-tree": ["--learner", "boost", "--base", "tree", "--iterations", "5"],
    "boost-adaboost-m1": ["--learner", "boost", "--boosting", "adaboost-m1", "--base", "tree", "--iterations", "5"],
    "boost-logitboost": ["--learner", "boost", "--boosting", "logitboost"],
    "pril": ["--learner", "pril", "--reliability", "0.8"],
}
# Kinds whose rules state a probability that the page draws against the data.
RULE_PLOT = {"rule-logistic", "cn2-unordered", "cn2-unordered-best-rule", "cn2-ordered", "decision-list", "tree",
             "stump", "pril"}


def run(args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    assert os.path.exists(driver_path), "chromium-driver is not installed (scripts/install-deps.sh installs it)"
    options = Options()
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1300,1800"):
        options.add_argument(a)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    yield driver
    driver.quit()


def open_page(browser, path):
    browser.get(Path(path).resolve().as_uri())
    messages = browser.get_log("browser")
    assert messages == [], f"console messages on {path}: {messages}"


def text(browser, css):
    return browser.find_element("css selector", css).text


def click(browser, css):
    browser.execute_script("document.querySelector(arguments[0]).click()", css)


def type_into(browser, css, value):
    browser.execute_script(
        "const e = document.querySelector(arguments[0]); e.value = arguments[1];"
        "e.dispatchEvent(new Event('input'));", css, value)


def column(browser, table, name):
    """The cells' texts of the named column of a table's shown rows."""
    return browser.execute_script(
        "const t = document.getElementById(arguments[0]);"
        "const k = [...t.tHead.rows[0].cells].findIndex((c) => c.dataset.column === arguments[1]);"
        "return [...t.tBodies[0].rows].map((r) => r.cells[k].textContent.trim());", table, name)


def leading_number(cell):
    return float(cell.split()[0])


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    out = {}
    for name, args in CONFIGS.items():
        model = folder / f"{name}.json"
        run([CLI, "fit", str(CORPUS / "colic.arff"), "-o", str(model)] + args)
        page = folder / f"{name}.html"
        run([CLI, "report", str(model), str(CORPUS / "colic.arff"), "-o", str(page)])
        out[name] = (model, page)
    return out


@pytest.mark.parametrize("name", list(CONFIGS))
def test_every_kind_opens_sorts_filters_and_explains(browser, models, name):
    model, page = models[name]
    table = json.loads(_core.Model.from_json(model.read_text()).rule_table())
    n = len(table)
    open_page(browser, page)
    if name == "cn2-unordered" and os.environ.get("CANDOR_REPORT_SCREENSHOT"):
        browser.save_screenshot(os.environ["CANDOR_REPORT_SCREENSHOT"])

    # Every rule is there, 50 to a page.
    assert text(browser, "#rule-count") == f"{n} of {n} rules"
    assert len(browser.find_elements("css selector", "#rule-table tbody tr")) == min(n, 50)

    # Sorting: by coverage (a LogitBoost leaf: its response), largest first, then smallest first; the header says which.
    key = next(k for k in ("covered", "training_covered", "response") if k in table[0])
    click(browser, f'#rule-table th[data-column="{key}"] button')
    shown = [leading_number(c) for c in column(browser, "rule-table", key)]
    assert shown == sorted(shown, reverse=True)
    assert shown[0] == max(r[key] for r in table) or abs(shown[0] - max(r[key] for r in table)) < 0.01
    assert browser.find_element("css selector", f'#rule-table th[data-column="{key}"]').get_attribute(
        "aria-sort") == "descending"
    click(browser, f'#rule-table th[data-column="{key}"] button')
    shown = [leading_number(c) for c in column(browser, "rule-table", key)]
    assert shown == sorted(shown)

    # Filtering: by number, by words of the conditions, by class.
    if n >= 2:
        type_into(browser, "#rule-filter", "#2")
        assert [r.get_attribute("data-rule") for r in browser.find_elements("css selector", "#rule-table tbody tr")] == ["2"]
    word = table[0]["rule"].split()[0].lower()
    type_into(browser, "#rule-filter", word)
    expected = [r for r in table
                if word in (r["rule"] + " " + r.get("class", "") + (f" member {r['member']}" if "member" in r else "")).lower()]
    assert text(browser, "#rule-count") == f"{len(expected)} of {n} rules"
    assert all(word in c.lower() for c in column(browser, "rule-table", "rule"))
    type_into(browser, "#rule-filter", "")
    if "class" in table[0]:
        klass = table[0]["class"]
        browser.execute_script("const s = document.getElementById('rule-class'); s.value = arguments[0];"
                               "s.dispatchEvent(new Event('change'));", klass)
        assert text(browser, "#rule-count") == f"{sum(r['class'] == klass for r in table)} of {n} rules"
        assert set(column(browser, "rule-table", "class")) == {klass}

    # The plots.
    assert browser.find_elements("css selector", "svg#reliability-plot circle.bin")
    assert bool(browser.find_elements("css selector", "svg#rule-plot circle.rule-point")) == (name in RULE_PLOT)

    # The rows agree with `candor predict`: which are wrong, and (for rule sets) which rules decided.
    predicted = list(csv.reader(io.StringIO(run([CLI, "predict", str(model), str(CORPUS / "colic.arff"), "--explain"]))))
    header, rows = predicted[0], predicted[1:]
    assert text(browser, "#row-count") == f"{len(rows)} of {len(rows)} rows"
    wrong = sum(r[header.index("predicted")] != r[header.index("actual")] for r in rows)
    click(browser, "#row-wrong")
    assert text(browser, "#row-count") == f"{wrong} of {len(rows)} rows"
    click(browser, "#row-wrong")

    type_into(browser, "#row-search", "12")
    numbers = [r.get_attribute("data-row") for r in browser.find_elements("css selector", "#row-table tbody tr")]
    assert "12" in numbers
    click(browser, '#row-table tbody tr[data-row="12"]')
    detail = text(browser, "#row-detail h3")
    want = rows[11]
    assert detail == f"Row 12: actual {want[header.index('actual')]}, predicted {want[header.index('predicted')]}"
    fired = [b.text for b in browser.find_elements("css selector", "#row-detail .fired-rules li > button.rule-link")]
    explained = want[header.index("rules")]
    if name in ("cn2-unordered", "cn2-unordered-best-rule", "cn2-ordered", "decision-list", "pril"):
        assert fired == ([] if explained in ("default", "undecided") else [f"#{k}" for k in explained.split(";")])
    if name in ("tree", "stump"):
        assert sorted(fired) == sorted(f"#{part.split()[1]}" for part in explained.split(";"))

    # Paging through the rows.
    type_into(browser, "#row-search", "")
    click(browser, '#row-pager button[data-page="next"]')
    first = browser.find_element("css selector", "#row-table tbody tr").get_attribute("data-row")
    assert first == "51"
    assert "page 2 of 8" in text(browser, "#row-pager")
    assert browser.get_log("browser") == []


def test_text_from_the_data_stays_text(browser, tmp_path):
    data = tmp_path / "hostile.arff"
    bold = "'<b onmouseover=\"window.pwned=2\">a</b>'"
    closing = "'</script><script>window.pwned=3</script>'"
    lines = [f"{i},{'b' if i % 2 else bold},{'no' if i % 2 else closing}\n" for i in range(12)]
    data.write_text("@relation r\n"
                    "@attribute 'x<img src=q onerror=\"window.pwned=1\">' numeric\n"
                    f"@attribute n {{{bold},b}}\n"
                    f"@attribute class {{{closing},no}}\n"
                    "@data\n" + "".join(lines))
    model, page = tmp_path / "m.json", tmp_path / "m.html"
    run([CLI, "fit", str(data), "--learner", "cn2-unordered", "-o", str(model)])
    run([CLI, "report", str(model), str(data), "-o", str(page)])
    open_page(browser, page)
    assert browser.execute_script("return window.pwned === undefined")
    assert browser.find_elements("css selector", "#rule-table img, #row-table img, #row-detail img, b") == []
    click(browser, "#row-table tbody tr")
    assert "x<img src=q" in text(browser, "#row-detail .values")
    assert "</script><script>window.pwned=3</script>" in text(browser, "#rule-class")
    assert browser.execute_script("return window.pwned === undefined")


def test_python_report_is_the_same_page(browser, tmp_path):
    import pandas as pd

    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, None, 10.0],
                      "b": pd.Categorical(list("xyxyxyxyxy"))})
    y = pd.Series(["p", "p", "p", "q", "q", "q", "p", "q", "p", "q"], name="outcome")
    est = candor.CN2Unordered().fit(X, y)
    path = tmp_path / "py.html"
    page = est.report(X, y, path=path)
    assert path.read_text() == page
    open_page(browser, path)
    assert text(browser, "#rule-count") == f"{len(est.rules_)} of {len(est.rules_)} rules"
    assert text(browser, "#row-count") == "10 of 10 rows"
    assert browser.find_elements("css selector", "svg#reliability-plot")
    compact = est._repr_html_()
    assert "<table" in compact and "<script" not in compact
    assert est.report().count("id=\"rows\"") == 0  # without X: the model alone


def test_python_report_refuses_labels_it_cannot_place(tmp_path):
    import pandas as pd

    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]})
    y = pd.Series(["p", "p", "p", "q", "q", "q"])
    est = candor.CN2Unordered().fit(X, y)
    with pytest.raises(ValueError, match="y given without X"):
        est.report(y=y)
    with pytest.raises(ValueError, match=r"y\[2\] = 'r' is not one of the classes"):
        est.report(X, ["p", "q", "r", "p", "q", "p"])
    # Unlabelled rows (None) are shown but not evaluated.
    page = est.report(X, ["p", None, "q", float("nan"), "q", "p"])
    assert "4 labelled rows (2 rows without a class are in the row view only)" in page
