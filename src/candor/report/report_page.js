// The script of a candor report page (report.cpp embeds it). It reads the JSON document in
// the script element "candor-data" and builds the rule table and the row view, a page at a time. Every text from
// the model or the data is set as textContent, never parsed as HTML.
"use strict";
(function () {
  const doc = JSON.parse(document.getElementById("candor-data").textContent);
  const classes = doc.classes;

  function el(tag, attrs, children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") e.textContent = v;
      else if (k === "class") e.className = v;
      else e.setAttribute(k, v);
    }
    for (const c of children || []) if (c !== null && c !== undefined) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    return e;
  }
  function num(x, digits) {
    if (x === null || x === undefined || (typeof x === "number" && !isFinite(x))) return "–";
    if (Number.isInteger(x)) return String(x);
    return String(+x.toFixed(digits));
  }
  function bar(share) {
    const fill = el("span");
    fill.style.width = (100 * Math.max(0, Math.min(1, share))).toFixed(1) + "%";
    return el("span", { class: "bar" }, [fill]);
  }

  // A pager under a table: first, previous, "page k of n", next, last, and the page size.
  function pager(container, state, total, redraw) {
    container.textContent = "";
    const pages = Math.max(1, Math.ceil(total / state.size));
    state.page = Math.min(state.page, pages - 1);
    const button = (label, name, target, disabled) => {
      const b = el("button", { type: "button", "data-page": name, text: label });
      b.disabled = disabled;
      b.addEventListener("click", () => { state.page = target; redraw(); });
      return b;
    };
    container.appendChild(button("«", "first", 0, state.page === 0));
    container.appendChild(button("‹", "previous", state.page - 1, state.page === 0));
    container.appendChild(el("span", { class: "page-of", text: " page " + (state.page + 1) + " of " + pages + " " }));
    container.appendChild(button("›", "next", state.page + 1, state.page >= pages - 1));
    container.appendChild(button("»", "last", pages - 1, state.page >= pages - 1));
    const select = el("select", { "aria-label": "rows per page" });
    for (const n of [25, 50, 100, 250]) {
      const o = el("option", { value: String(n), text: n + " per page" });
      if (n === state.size) o.selected = true;
      select.appendChild(o);
    }
    select.addEventListener("change", () => { state.size = +select.value; state.page = 0; redraw(); });
    container.appendChild(select);
  }

  // ---- Rules -----------------------------------------------------------------------------------------
  const rules = doc.rules;
  const ruleColumns = doc.rule_columns.filter((c) => c !== "interval_low" && c !== "interval_high");
  const hasInterval = doc.rule_columns.includes("interval_low");
  const coverKey = ["covered", "training_covered"].find((k) => doc.rule_columns.includes(k));
  const mostCovered = rules.reduce((m, r) => Math.max(m, coverKey && typeof r[coverKey] === "number" ? r[coverKey] : 0), 1e-300);
  const columnHelp = {
    id: "the rule's number, as `candor rules` prints it",
    rule: "the conditions",
    class: "the class the rule predicts",
    covered: "training examples the rule was learned from",
    training_covered: "every training row the rule covers",
    probability: "the rule's probability of its class" + (hasInterval ? ", with its 95% interval" : ""),
    frequency: "share of the resamples of `candor fit --stability` whose rule set holds this rule",
    data_decided: "rows of the report's data the rule decides",
    data_share: "share of its class among the rows of the report's data it decides",
  };
  function sortValue(r, c) {
    const v = r[c];
    if (Array.isArray(v)) return v.reduce((a, b) => a + (typeof b === "number" ? b : 0), 0);
    return v === null || v === undefined ? -Infinity : v;
  }
  function ruleCell(r, c) {
    const v = r[c];
    if (c === "rule") return el("td", { class: "cond", text: v });
    if (c === coverKey && typeof v === "number") return el("td", { class: "cover" }, [bar(v / mostCovered), " " + num(v, 2)]);
    if (c === "probability" && typeof v === "number") {
      const t = num(v, 3) + (hasInterval && r.interval_low !== null && r.interval_low !== undefined ? " [" + num(r.interval_low, 3) + ", " + num(r.interval_high, 3) + "]" : "");
      return el("td", { class: "num", text: t });
    }
    if (Array.isArray(v)) return el("td", { class: "num", text: v.map((x) => num(x, 2)).join(" / ") });
    if (typeof v === "number") return el("td", { class: "num", text: num(v, 4) });
    return el("td", { text: v === undefined || v === null ? "–" : String(v) });
  }
  const ruleState = { page: 0, size: 50, sort: null, descending: false, filter: "", klass: "" };
  const ruleTable = document.getElementById("rule-table");
  const ruleHead = el("tr");
  for (const c of ruleColumns) {
    const th = el("th", { scope: "col", "data-column": c, title: columnHelp[c] || c, "aria-sort": "none" }, [
      el("button", { type: "button", class: "sort", text: c === "id" ? "#" : c }),
    ]);
    th.firstChild.addEventListener("click", () => {
      ruleState.descending = ruleState.sort === c ? !ruleState.descending : c !== "id" && c !== "rule" && c !== "class";
      ruleState.sort = c;
      ruleState.page = 0;
      drawRules();
    });
    ruleHead.appendChild(th);
  }
  ruleTable.tHead.appendChild(ruleHead);
  const classSelect = document.getElementById("rule-class");
  for (const c of classes) classSelect.appendChild(el("option", { value: c, text: c }));
  const ruleFilter = document.getElementById("rule-filter");
  ruleFilter.addEventListener("input", () => { ruleState.filter = ruleFilter.value; ruleState.page = 0; drawRules(); });
  classSelect.addEventListener("change", () => { ruleState.klass = classSelect.value; ruleState.page = 0; drawRules(); });

  function ruleMatches(r) {
    if (ruleState.klass && r.class !== ruleState.klass) return false;
    const q = ruleState.filter.trim().toLowerCase();
    if (!q) return true;
    const id = /^#(\d+)$/.exec(q);
    if (id) return r.id === +id[1];
    const text = (String(r.rule || "") + " " + String(r.class || "") + (r.member ? " member " + r.member : "")).toLowerCase();
    return q.split(/\s+/).every((w) => text.includes(w));
  }
  function drawRules() {
    let shown = rules.filter(ruleMatches);
    if (ruleState.sort) {
      const c = ruleState.sort, sign = ruleState.descending ? -1 : 1;
      shown = shown.slice().sort((a, b) => {
        const x = sortValue(a, c), y = sortValue(b, c);
        const d = typeof x === "string" || typeof y === "string" ? String(x).localeCompare(String(y)) : x - y;
        return sign * d || a.id - b.id;
      });
    }
    for (const th of ruleHead.children)
      th.setAttribute("aria-sort", th.dataset.column === ruleState.sort ? (ruleState.descending ? "descending" : "ascending") : "none");
    const body = ruleTable.tBodies[0];
    body.textContent = "";
    const start = ruleState.page * ruleState.size;
    for (const r of shown.slice(start, start + ruleState.size)) {
      const tr = el("tr", { "data-rule": String(r.id) });
      for (const c of ruleColumns) tr.appendChild(ruleCell(r, c));
      body.appendChild(tr);
    }
    if (!rules.length) body.appendChild(el("tr", {}, [el("td", { colspan: String(ruleColumns.length), text: "This model has no rules." })]));
    document.getElementById("rule-count").textContent = shown.length + " of " + rules.length + " rules";
    pager(document.getElementById("rule-pager"), ruleState, shown.length, drawRules);
  }
  function showRule(id) {
    ruleFilter.value = "#" + id;
    classSelect.value = "";
    Object.assign(ruleState, { filter: ruleFilter.value, klass: "", page: 0 });
    drawRules();
    document.getElementById("rules").scrollIntoView();
  }
  drawRules();
  for (const point of document.querySelectorAll("#rule-plot circle[data-rule]"))
    point.addEventListener("click", () => showRule(+point.dataset.rule));

  // ---- Rows ------------------------------------------------------------------------------------------
  const data = doc.data;
  if (!data) return;
  const attributes = doc.attributes;
  const rowCount = data.shown;
  function valueText(a, r) {
    const v = data.values[a][r];
    if (v === null) return "?";
    const attr = attributes[a];
    if (attr.type === "nominal") return v < attr.values.length ? attr.values[v] : "(a value not seen in training)";
    return String(v);
  }
  const className = (k) => (k >= 0 ? classes[k] : k === -1 ? "?" : "");
  const predictedName = (k) => (k >= 0 ? classes[k] : "undecided");
  const wrong = (r) => data.actual[r] >= 0 && data.predicted[r] !== data.actual[r];
  let rowTexts = null;  // built at the first search: every row's classes and values, lower case
  function rowText(r) {
    if (!rowTexts) {
      rowTexts = new Array(rowCount);
      for (let i = 0; i < rowCount; ++i) {
        let t = className(data.actual[i]) + " " + predictedName(data.predicted[i]);
        for (let a = 0; a < attributes.length; ++a) t += " " + valueText(a, i);
        rowTexts[i] = t.toLowerCase();
      }
    }
    return rowTexts[r];
  }
  const rowState = { page: 0, size: 50, query: "", wrongOnly: false, selected: -1 };
  const rowTable = document.getElementById("row-table");
  const rowHead = el("tr");
  for (const h of ["row", "actual", "predicted", "probability", "rules that fired"]) rowHead.appendChild(el("th", { scope: "col", text: h }));
  rowTable.tHead.appendChild(rowHead);
  let matching = null;
  function filterRows() {
    const q = rowState.query.trim().toLowerCase();
    matching = [];
    const number = /^\d+$/.test(q) ? +q : -1;
    for (let r = 0; r < rowCount; ++r) {
      if (rowState.wrongOnly && !wrong(r)) continue;
      if (q && r + 1 !== number && !q.split(/\s+/).every((w) => rowText(r).includes(w))) continue;
      matching.push(r);
    }
  }
  function ruleButton(k) {
    const b = el("button", { type: "button", class: "rule-link", text: "#" + (k + 1), title: rules[k] ? rules[k].rule : "" });
    b.addEventListener("click", (e) => { e.stopPropagation(); showRule(k + 1); });
    return b;
  }
  function drawRows() {
    const body = rowTable.tBodies[0];
    body.textContent = "";
    const start = rowState.page * rowState.size;
    for (const r of matching.slice(start, start + rowState.size)) {
      const p = data.predicted[r];
      const confidence = p >= 0 ? data.proba[r][p] : Math.max(...data.proba[r]);
      const fired = el("td", { class: "fired" });
      const list = data.fired[r];
      for (const k of list.slice(0, 8)) fired.appendChild(ruleButton(k));
      if (list.length > 8) fired.appendChild(document.createTextNode(" +" + (list.length - 8) + " more"));
      if (!list.length) fired.textContent = rules.length ? "none (the default)" : "–";
      const tr = el("tr", { "data-row": String(r + 1), class: (wrong(r) ? "wrong" : "") + (r === rowState.selected ? " selected" : ""), tabindex: "0" }, [
        el("td", { class: "num", text: String(r + 1) }),
        el("td", { text: className(data.actual[r]) }),
        el("td", { text: predictedName(p) }),
        el("td", { class: "num", text: num(confidence, 3) }),
        fired,
      ]);
      const open = () => { rowState.selected = r; drawRows(); drawDetail(r); };
      tr.addEventListener("click", open);
      tr.addEventListener("keydown", (e) => { if (e.key === "Enter") open(); });
      body.appendChild(tr);
    }
    document.getElementById("row-count").textContent = matching.length + " of " + rowCount + " rows";
    pager(document.getElementById("row-pager"), rowState, matching.length, drawRows);
  }
  function drawDetail(r) {
    const box = document.getElementById("row-detail");
    box.textContent = "";
    box.appendChild(el("h3", { text: "Row " + (r + 1) + ": actual " + className(data.actual[r]) + ", predicted " + predictedName(data.predicted[r]) }));
    const probs = el("table", { class: "data" }, [el("thead", {}, [el("tr", {}, [el("th", { text: "class" }), el("th", { text: "probability" })])])]);
    const pb = el("tbody");
    classes.forEach((c, k) => pb.appendChild(el("tr", {}, [el("td", { text: c }), el("td", {}, [bar(data.proba[r][k]), " " + num(data.proba[r][k], 3)])])));
    probs.appendChild(pb);
    const fired = el("ol", { class: "fired-rules" });
    for (const k of data.fired[r]) {
      const rule = rules[k] || {};
      const facts = [];
      if (rule.class !== undefined) facts.push("class " + rule.class);
      if (typeof rule.probability === "number") facts.push("probability " + num(rule.probability, 3));
      if (typeof rule.weight === "number") facts.push("weight " + num(rule.weight, 3));
      if (rule.member !== undefined) facts.push("member " + rule.member);
      fired.appendChild(el("li", {}, [ruleButton(k), " IF ", el("span", { class: "cond", text: String(rule.rule) }), facts.length ? " → " + facts.join(", ") : ""]));
    }
    const values = el("table", { class: "data values" });
    const vb = el("tbody");
    attributes.forEach((a, i) => vb.appendChild(el("tr", {}, [el("th", { scope: "row", text: a.name }), el("td", { text: valueText(i, r) })])));
    values.appendChild(vb);
    box.appendChild(el("div", { class: "cards" }, [
      el("div", {}, [el("h4", { text: "Rules that fired" }), data.fired[r].length ? fired : el("p", { text: "No rule fired: the model's default decided." })]),
      el("div", {}, [el("h4", { text: "Probabilities" }), probs]),
      el("div", {}, [el("h4", { text: "Values" }), values]),
    ]));
  }
  const rowSearch = document.getElementById("row-search");
  rowSearch.addEventListener("input", () => { rowState.query = rowSearch.value; rowState.page = 0; filterRows(); drawRows(); });
  const wrongBox = document.getElementById("row-wrong");
  wrongBox.addEventListener("change", () => { rowState.wrongOnly = wrongBox.checked; rowState.page = 0; filterRows(); drawRows(); });
  filterRows();
  drawRows();
})();
