#!/usr/bin/env python3
"""scikit-learn's bundled classification data sets as ARFF files, with the INDEX.tsv bench/peers.py reads: the
data a new user tries first, none of them in the shared corpus.

    bench/sklearn_sets.py --out DIR
    CANDOR_DATASETS=DIR bench/peers.py --datasets breast_cancer,digits,iris,wine --out new_user.csv

Every attribute is numeric; the class values are c0, c1, ... (the bundled targets' codes).
"""
import argparse
import os

from sklearn import datasets

from bench_files import write_text

SETS = {"breast_cancer": datasets.load_breast_cancer, "digits": datasets.load_digits, "iris": datasets.load_iris,
        "wine": datasets.load_wine}


def arff(name, X, y):
    classes = sorted(set(int(c) for c in y))
    lines = [f"@relation {name}"]
    lines += [f"@attribute x{j} numeric" for j in range(X.shape[1])]
    lines.append("@attribute class {" + ",".join(f"c{c}" for c in classes) + "}")
    lines.append("@data")
    lines += [",".join(repr(float(v)) for v in row) + f",c{int(c)}" for row, c in zip(X, y)]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="folder for the ARFF files and INDEX.tsv")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    index = ["name\trows\tattributes"]
    for name, load in SETS.items():
        X, y = load(return_X_y=True)
        write_text(os.path.join(args.out, f"{name}.arff"), arff(name, X, y))
        index.append(f"{name}\t{X.shape[0]}\t{X.shape[1]}")
    write_text(os.path.join(args.out, "INDEX.tsv"), "\n".join(index) + "\n")


if __name__ == "__main__":
    main()
