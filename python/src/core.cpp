// The candor Python extension (candor._core): the C++ learners, models and parameter tables through candor's
// public API (include/candor/), with nothing re-implemented in Python. Data arrives column by column (numeric float64
// with NaN for missing, nominal int32 codes with -1 for missing), so that pandas categories reach the learners as
// nominal attributes.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "candor/candor.hpp"
#include "candor/grid.hpp"

namespace py = pybind11;
using namespace candor;

namespace {

// Every C++ error reaches Python as ValueError with its message (bad parameters, bad data, bad model files).
template <class F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const py::error_already_set&) {
    throw;
  } catch (const MemoryLimitError& e) {
    PyErr_SetString(PyExc_MemoryError, e.what());
    throw py::error_already_set();
  } catch (const std::bad_alloc&) {
    PyErr_SetString(PyExc_MemoryError, "out of memory: use less data, fewer distinct values or smaller options");
    throw py::error_already_set();
  } catch (const OutputError& e) {
    PyErr_SetString(PyExc_OSError, e.what());
    throw py::error_already_set();
  } catch (const std::exception& e) {
    throw py::value_error(e.what());
  }
}

py::list param_table_py() {
  py::list out;
  const py::object loads = py::module_::import("json").attr("loads");
  for (const auto& info : option_table()) {
    py::dict d;
    d["name"] = info.name;
    d["type"] = info.type;
    d["default"] = loads(info.default_value.dump());
    d["help"] = info.help;
    d["values"] = info.values;
    d["group"] = info.group;
    out.append(d);
  }
  return out;
}

// Each learner with the parameters it can read (for boost: those of every base learner).
py::list learner_table_py() {
  py::list out;
  for (const auto& l : learner_descriptions()) {
    py::dict d;
    d["name"] = l.name;
    d["description"] = l.description;
    d["weak"] = l.weak;
    d["params"] = py::cast(l.options);
    out.append(d);
  }
  return out;
}

Dataset make_dataset(const std::vector<std::string>& names, const std::vector<py::object>& nominal_values,
                     const std::vector<py::array>& columns, const std::vector<std::string>& class_values,
                     py::array_t<int, py::array::c_style | py::array::forcecast> y,
                     py::array_t<double, py::array::c_style | py::array::forcecast> weights,
                     const std::string& class_name) {
  if (names.size() != columns.size() || names.size() != nominal_values.size())
    throw std::invalid_argument("one name, value list and column per attribute");
  Dataset d;
  d.source = "python";
  const std::size_t n = static_cast<std::size_t>(y.size());
  if (static_cast<std::size_t>(weights.size()) != n) throw std::invalid_argument("one weight per row");
  d.schema.class_attribute.name = class_name;
  d.schema.class_attribute.type = AttributeType::nominal;
  d.schema.class_attribute.values = class_values;
  d.columns.resize(names.size());
  for (std::size_t a = 0; a < names.size(); ++a) {
    Attribute attr;
    attr.name = names[a];
    if (!nominal_values[a].is_none()) {
      attr.type = AttributeType::nominal;
      attr.values = nominal_values[a].cast<std::vector<std::string>>();
      auto codes = py::array_t<int, py::array::c_style | py::array::forcecast>::ensure(columns[a]);
      if (!codes || static_cast<std::size_t>(codes.size()) != n)
        throw std::invalid_argument("column '" + names[a] + "': one code per row");
      const int* c = codes.data();
      d.columns[a].codes.assign(c, c + n);
    } else {
      attr.type = AttributeType::numeric;
      auto values = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(columns[a]);
      if (!values || static_cast<std::size_t>(values.size()) != n)
        throw std::invalid_argument("column '" + names[a] + "': one value per row");
      const double* v = values.data();
      d.columns[a].values.assign(v, v + n);
    }
    d.schema.attributes.push_back(std::move(attr));
  }
  const int* yy = y.data();
  d.y.assign(yy, yy + n);
  const double* w = weights.data();
  d.weights.assign(w, w + n);
  if (const std::string why = invalid_rows(d); !why.empty()) throw std::invalid_argument(why);
  d.lines.resize(n);
  std::iota(d.lines.begin(), d.lines.end(), std::size_t{1});
  return d;
}

// A data file read by the CLI's readers, as columns for a pandas DataFrame: the attributes in file order,
// the class last; nominal columns as codes with their values (-1 missing), numeric ones with NaN missing.
py::dict read_data_py(const std::string& path, const std::string& class_name, const std::vector<std::string>& missing,
                      const std::string& delimiter) {
  LoadOptions o;
  o.class_name = class_name;
  o.missing_markers = missing;
  o.require_labels = false;
  if (delimiter.size() > 1) throw std::invalid_argument("delimiter must be one character");
  o.delimiter = delimiter.empty() ? 0 : delimiter[0];
  std::vector<std::string> warnings;
  o.warnings = &warnings;
  const Dataset d = load_dataset(path, o);
  py::list names, nominal, columns;
  auto add = [&](const Attribute& a, py::object column) {
    names.append(a.name);
    if (a.is_nominal())
      nominal.append(py::cast(a.values));
    else
      nominal.append(py::none());
    columns.append(column);
  };
  for (std::size_t a = 0; a < d.schema.attributes.size(); ++a) {
    const Attribute& attr = d.schema.attributes[a];
    if (attr.is_nominal())
      add(attr, py::array_t<int>(static_cast<py::ssize_t>(d.rows()), d.columns[a].codes.data()));
    else
      add(attr, py::array_t<double>(static_cast<py::ssize_t>(d.rows()), d.columns[a].values.data()));
  }
  add(d.schema.class_attribute, py::array_t<int>(static_cast<py::ssize_t>(d.rows()), d.y.data()));
  py::dict out;
  out["names"] = names;
  out["nominal"] = nominal;
  out["columns"] = columns;
  out["weights"] = py::array_t<double>(static_cast<py::ssize_t>(d.rows()), d.weights.data());
  out["warnings"] = py::cast(warnings);
  return out;
}

struct PyModel {
  std::shared_ptr<Model> model;
};

GridRunOptions grid_options(const std::string& out, const std::string& datasets_dir, int threads, bool plots,
                            bool progress) {
  GridRunOptions o;
  o.out = out;
  o.datasets_dir = datasets_dir;
  o.threads = threads;
  o.plots = plots;
  o.progress = progress;
  return o;
}

// (data set, learner, repeat, fold, stability), as GridCell holds them.
py::tuple cell_tuple(const GridCell& c) { return py::make_tuple(c.dataset, c.learner, c.repeat, c.fold, c.stability); }

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "candor's C++ core";
  m.def(
      "read_data",
      [](const std::string& path, const std::string& class_name, const std::vector<std::string>& missing,
         const std::string& delimiter) {
        return guarded([&] { return read_data_py(path, class_name, missing, delimiter); });
      },
      py::arg("path"), py::arg("class_name") = "", py::arg("missing") = std::vector<std::string>{"", "?", "NA"},
      py::arg("delimiter") = "",
      "Reads an ARFF or CSV file as `candor fit` does: names, nominal values (None for numeric), columns, weights "
      "and the readers' warnings.");
  m.def("set_progress", &set_progress_everywhere,
        "Whether long work inside a call (a fit's rounds, EVC's permutations) reports progress on stderr where "
        "stderr is no terminal (the estimators' verbose).");
  m.def("param_table", &param_table_py, "Every learner parameter: name, type, default, help, group.");
  m.def("learner_table", &learner_table_py, "Every learner: name, description and the parameters it reads.");
  m.def("describe", [](const std::string& params_json) {
    return guarded([&] { return Learner::from_json(nlohmann::json::parse(params_json)).describe(); });
  });
  py::class_<Dataset>(m, "Dataset")
      .def(py::init([](const std::vector<std::string>& names, const std::vector<py::object>& nominal_values,
                       const std::vector<py::array>& columns, const std::vector<std::string>& class_values,
                       py::array_t<int, py::array::c_style | py::array::forcecast> y,
                       py::array_t<double, py::array::c_style | py::array::forcecast> weights,
                       const std::string& class_name) {
             return guarded(
                 [&] { return make_dataset(names, nominal_values, columns, class_values, y, weights, class_name); });
           }),
           py::arg("names"), py::arg("nominal_values"), py::arg("columns"), py::arg("class_values"), py::arg("y"),
           py::arg("weights"), py::arg("class_name") = "class")
      .def_property_readonly("rows", &Dataset::rows);
  // Experiment grids: the runner of `candor experiment grid`, whole or cell by cell (candor.grid).
  m.attr("default_datasets_dir") = CANDOR_DEFAULT_DATASETS_DIR;
  m.def(
      "run_grid",
      [](const std::string& text, const std::string& source, const std::string& out, const std::string& datasets_dir,
         int threads, bool plots, bool progress) {
        guarded([&] {
          py::gil_scoped_release release;
          run_grid(text, source, grid_options(out, datasets_dir, threads, plots, progress));
        });
      },
      py::arg("config_json"), py::arg("source"), py::arg("out"), py::arg("datasets_dir"), py::arg("threads") = 0,
      py::arg("plots") = false, py::arg("progress") = false);
  py::class_<GridCellRunner>(m, "GridCellRunner")
      .def(py::init([](const std::string& text, const std::string& source, const std::string& datasets_dir) {
             return guarded([&] { return std::make_unique<GridCellRunner>(text, source, datasets_dir); });
           }),
           py::arg("config_json"), py::arg("source"), py::arg("datasets_dir"))
      .def("cells",
           [](GridCellRunner& r) {
             return guarded([&] {
               py::list out;
               for (const auto& c : r.cells()) out.append(cell_tuple(c));
               return out;
             });
           })
      .def(
          "run",
          [](GridCellRunner& r, const std::string& dataset, const std::string& learner, int repeat, int fold,
             bool stability, int threads) {
            return guarded([&] {
              py::gil_scoped_release release;
              return r.run({dataset, learner, repeat, fold, stability}, threads);
            });
          },
          py::arg("dataset"), py::arg("learner"), py::arg("repeat"), py::arg("fold"), py::arg("stability") = false,
          py::arg("threads") = 1)
      .def(
          "prepare",
          [](GridCellRunner& r, const std::string& out, bool progress) {
            return guarded([&] {
              py::list pending;
              for (const auto& c : prepare_grid(r, grid_options(out, "", 0, false, progress)))
                pending.append(cell_tuple(c));
              return pending;
            });
          },
          py::arg("out"), py::arg("progress") = false)
      .def(
          "summarise",
          [](GridCellRunner& r, const std::string& out, bool plots, bool progress) {
            guarded([&] {
              py::gil_scoped_release release;
              write_grid_summary(r, grid_options(out, "", 0, plots, progress));
            });
          },
          py::arg("out"), py::arg("plots") = false, py::arg("progress") = false);
  m.def(
      "append_grid_result",
      [](const std::string& out, const std::string& line, bool stability) {
        GridCell cell;
        cell.stability = stability;
        guarded([&] { append_grid_result(grid_options(out, "", 0, false, false), cell, line); });
      },
      py::arg("out"), py::arg("line"), py::arg("stability") = false);
  m.def(
      "measure_stability",
      [](const Dataset& d, const std::string& params_json, int resamples, const std::string& resampling, int quantiles,
         int threads) {
        return guarded([&] {
          const Learner learner = Learner::from_json(nlohmann::json::parse(params_json));
          StabilityOptions o;
          o.resamples = resamples;
          o.resampling = parse_stability_resampling(resampling);
          o.seed = learner.get("seed").get<std::uint64_t>();
          o.quantiles = quantiles;
          o.threads = threads;
          StabilityRecord r;
          {
            py::gil_scoped_release release;
            r = measure_stability(d, learner, o);
          }
          return stability_json(r).dump();
        });
      },
      py::arg("data"), py::arg("params_json"), py::arg("resamples"), py::arg("resampling"), py::arg("quantiles"),
      py::arg("threads"));

  // One part of a fit across workers (candor/distributed.hpp): requests and replies are bytes.
  py::class_<PartRows>(m, "PartRows")
      // Takes the rows of `data`, which is left empty: a worker holds its rows once.
      .def(py::init([](Dataset& d) { return guarded([&] { return std::make_unique<PartRows>(std::move(d)); }); }),
           py::arg("data"))
      .def_property_readonly("rows", &PartRows::rows)
      .def_property_readonly("bytes", &PartRows::bytes)
      .def("to_bytes", [](const PartRows& part) { return guarded([&] { return py::bytes(part.to_bytes()); }); })
      .def_static(
          "from_bytes",
          [](const py::bytes& bytes) { return guarded([&] { return PartRows::from_bytes(std::string(bytes)); }); },
          py::arg("bytes"))
      .def(
          "answer",
          [](PartRows& part, const py::bytes& request, const py::bytes& shared, py::object scores) {
            return guarded([&] {
              const std::string req = request, sh = shared;
              std::string reply;
              if (scores.is_none()) {
                py::gil_scoped_release release;
                reply = part.answer(req, sh, std::nullopt);
              } else {
                auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(scores);
                if (!a) throw std::invalid_argument("scores that are no array of numbers");
                py::gil_scoped_release release;
                reply = part.answer(req, sh, std::span<const double>(a.data(), static_cast<std::size_t>(a.size())));
              }
              return py::bytes(reply);
            });
          },
          py::arg("request"), py::arg("shared"), py::arg("scores").none(true))
      .def(
          "update",
          // The new scores are a new array (the old ones stay as they were, for Dask to retry from), written once.
          [](PartRows& part, const py::bytes& request, const py::bytes& shared, py::object scores) {
            return guarded([&] {
              const std::string req = request, sh = shared;
              py::array_t<double> out(static_cast<py::ssize_t>(part.score_size()));
              double* to = out.mutable_data();
              if (!scores.is_none()) {
                auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(scores);
                if (!a || static_cast<std::size_t>(a.size()) != part.score_size())
                  throw std::invalid_argument("scores of another part");
                std::copy(a.data(), a.data() + a.size(), to);
              }
              {
                py::gil_scoped_release release;
                part.update(req, sh, {to, part.score_size()});
              }
              return out;
            });
          },
          py::arg("request"), py::arg("shared"), py::arg("scores").none(true));
  m.def(
      "refuses_parts",
      [](const std::string& params_json) {
        return guarded([&] { return refuses_parts(Learner::from_json(nlohmann::json::parse(params_json))); });
      },
      py::arg("params_json"));

  py::class_<PyModel>(m, "Model")
      .def_static(
          "fit_on_parts",
          [](const Dataset& layout, const std::vector<std::size_t>& part_rows, py::function ask, py::function update,
             py::function share, py::object end_scores, const std::string& params_json, int threads) {
            return guarded([&] {
              const Learner learner = Learner::from_json(nlohmann::json::parse(params_json));
              auto as_bytes = [](const std::vector<std::string>& requests) {
                py::list out;
                for (const auto& r : requests) out.append(py::bytes(r));
                return out;
              };
              PartTransport transport;
              transport.ask = [&](const std::vector<std::string>& requests) {
                py::gil_scoped_acquire acquire;
                std::vector<std::string> replies;
                for (const auto& r : ask(as_bytes(requests))) replies.push_back(r.cast<std::string>());
                return replies;
              };
              transport.update = [&](const std::vector<std::string>& requests) {
                py::gil_scoped_acquire acquire;
                update(as_bytes(requests));
              };
              transport.share = [&](const std::string& value) {
                py::gil_scoped_acquire acquire;
                share(py::bytes(value));
              };
              if (!end_scores.is_none())
                transport.end_scores = [&] {
                  py::gil_scoped_acquire acquire;
                  end_scores();
                };
              PartsFit fit;
              {
                py::gil_scoped_release release;
                fit = fit_model_on_parts(layout, part_rows, std::move(transport), learner, threads);
              }
              return py::make_tuple(PyModel{std::shared_ptr<Model>(std::move(fit.model))}, fit.requests, fit.bytes);
            });
          },
          py::arg("layout"), py::arg("part_rows"), py::arg("ask"), py::arg("update"), py::arg("share"),
          py::arg("end_scores").none(true), py::arg("params_json"), py::arg("threads") = 1)
      .def_static(
          "fit",
          [](const Dataset& d, const std::string& params_json, int threads) {
            return guarded([&] {
              const Learner learner = Learner::from_json(nlohmann::json::parse(params_json));
              py::gil_scoped_release release;
              return PyModel{std::shared_ptr<Model>(fit_model(d, learner, threads))};
            });
          },
          py::arg("data"), py::arg("params_json"), py::arg("threads") = 1)
      .def_static("from_json",
                  [](const std::string& text) {
                    return guarded([&] {
                      return PyModel{std::shared_ptr<Model>(model_from_json(nlohmann::json::parse(text), "json"))};
                    });
                  })
      .def("to_json", [](const PyModel& pm) { return pm.model->to_json().dump(2); })
      .def("text", [](const PyModel& pm) { return guarded([&] { return model_text(*pm.model); }); })
      .def(
          "export",
          [](const PyModel& pm, const std::string& format, const std::string& table,
             const std::vector<std::string>& keys, const std::string& prefix, const std::string& source,
             const std::string& sha256, const std::string& version) {
            return guarded([&] {
              ExportOptions o;
              o.table = table;
              o.keys = keys;
              o.prefix = prefix;
              o.source = source;
              o.sha256 = sha256;
              o.version = version;
              return export_model(*pm.model, parse_export_format(format), o);
            });
          },
          py::arg("format"), py::arg("table"), py::arg("keys"), py::arg("prefix"), py::arg("source"), py::arg("sha256"),
          py::arg("version"))
      .def(
          "report",
          [](const PyModel& pm, const Dataset* data, const std::string& title, const std::string& source,
             const std::string& sha256, const std::string& version, const std::string& data_source,
             std::size_t max_rows) {
            return guarded([&] {
              ReportOptions o;
              o.title = title;
              o.source = source;
              o.sha256 = sha256;
              o.version = version;
              o.data_source = data_source;
              o.max_rows = max_rows;
              py::gil_scoped_release release;
              return report_html(*pm.model, data, o);
            });
          },
          py::arg("data").none(true), py::arg("title"), py::arg("source"), py::arg("sha256"), py::arg("version"),
          py::arg("data_source"), py::arg("max_rows"))
      .def(
          "summary_html", [](const PyModel& pm, std::size_t rules) { return report_summary_html(*pm.model, rules); },
          py::arg("rules") = 10)
      .def("rule_points",
           [](const PyModel& pm, const Dataset& d) {
             // Model::rule_points: the points of `candor evaluate --plot` and the report's rule plot.
             py::list out;
             for (const auto& p : pm.model->rule_points(d))
               out.append(py::dict(py::arg("rule") = p.rule, py::arg("probability") = p.probability,
                                   py::arg("share") = p.test_share, py::arg("decided") = p.decided,
                                   py::arg("low") = p.low, py::arg("high") = p.high));
             return out;
           })
      .def("rule_table", [](const PyModel& pm) { return numbered_rule_table(*pm.model).dump(); })
      .def("rule_table_columns", [](const PyModel& pm) { return rule_table_columns(numbered_rule_table(*pm.model)); })
      .def("attribute_importances", [](const PyModel& pm) { return attribute_importances(*pm.model); })
      .def_property_readonly("kind", [](const PyModel& pm) { return pm.model->kind_name(); })
      .def_property_readonly("class_values", [](const PyModel& pm) { return pm.model->schema.class_attribute.values; })
      .def_property_readonly("attribute_names",
                             [](const PyModel& pm) {
                               std::vector<std::string> names;
                               for (const auto& a : pm.model->schema.attributes) names.push_back(a.name);
                               return names;
                             })
      .def_property_readonly("nominal_values",
                             [](const PyModel& pm) {
                               py::list out;
                               for (const auto& a : pm.model->schema.attributes)
                                 out.append(a.is_nominal() ? py::cast(a.values) : py::none());
                               return out;
                             })
      .def_property_readonly("params_json", [](const PyModel& pm) { return pm.model->learner.dump(); })
      .def("predict_proba",
           [](const PyModel& pm, const Dataset& d) {
             return guarded([&] {
               const std::size_t k = pm.model->schema.class_attribute.values.size();
               py::array_t<double> out({d.rows(), k});
               auto r = out.mutable_unchecked<2>();
               {
                 py::gil_scoped_release release;
                 for (std::size_t i = 0; i < d.rows(); ++i) {
                   const auto p = pm.model->predict_proba(d, i);
                   for (std::size_t c = 0; c < k; ++c) r(i, c) = p[c];
                 }
               }
               return out;
             });
           })
      .def("decides",
           [](const PyModel& pm, const Dataset& d) {
             py::array_t<bool> out(d.rows());
             auto r = out.mutable_unchecked<1>();
             for (std::size_t i = 0; i < d.rows(); ++i) r(i) = pm.model->decides(d, i);
             return out;
           })
      .def("explain", [](const PyModel& pm, const Dataset& d) {
        std::vector<std::vector<std::string>> out(d.rows());
        for (std::size_t i = 0; i < d.rows(); ++i) out[i] = pm.model->explain(d, i);
        return out;
      });
}
