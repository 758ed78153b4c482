"""Data files read by the C++ readers that `candor fit` uses, into pandas DataFrames: a file gives the same
columns, types, missing values and warnings in Python as on the command line."""
import re
import warnings

import numpy as np

from . import _core

# The reader's messages name the CLI's options; read_data takes them as these arguments.
_ARGUMENTS = {"--delimiter": "delimiter=", "--class": "class_name=", "--missing": "missing="}


def _in_python_words(message):
    for option, argument in _ARGUMENTS.items():
        message = re.sub(re.escape(option) + r"(?![\w-])", argument, message)
    return message


def read_data(path, class_name=None, missing=("", "?", "NA"), delimiter=None):
    """Reads an ARFF or CSV (.tsv: tab-separated) file as `candor fit` reads it and returns a DataFrame: its
    attributes in file order and the class column last. Nominal columns are pandas categoricals with their
    declared values in declared order, numeric ones float64; missing values are NaN. A CSV column is numeric
    when every non-missing cell is a number; the CLI's warnings (a nearly numeric column read as nominal, ...)
    are issued as Python warnings. Rows are not dropped; a weight column or ARFF row weights come back as
    `df.attrs["weights"]`.

    class_name: the class column (default: the last); missing: the CSV cells that mean missing; delimiter: a
    CSV separator other than the file's default (one character)."""
    import pandas as pd

    try:
        got = _core.read_data(str(path), class_name or "", list(missing), delimiter or "")
    except ValueError as e:
        raise ValueError(_in_python_words(str(e))) from None
    for w in got["warnings"]:
        warnings.warn(_in_python_words(w))
    columns = {}
    for name, values, column in zip(got["names"], got["nominal"], got["columns"]):
        if values is None:
            columns[name] = np.asarray(column, dtype=np.float64)
        else:
            columns[name] = pd.Categorical.from_codes(np.asarray(column, dtype=np.int64), categories=list(values))
    frame = pd.DataFrame(columns)
    weights = np.asarray(got["weights"], dtype=np.float64)
    if (weights != 1).any():
        frame.attrs["weights"] = weights
    return frame


def read_arff(path, class_name=None):
    """Reads an ARFF file into a DataFrame (see read_data): `X = df.drop(columns="class"); y = df["class"]`."""
    return read_data(path, class_name=class_name)
