#!/usr/bin/env python3
"""scikit-learn's bundled classification data sets as ARFF files, with the INDEX.tsv bench/peers.py reads: the
data a new user tries first, none of them in the shared corpus. With --generated, four sets of scikit-learn's
make_classification too (classes of Gaussian clusters in rotated subspaces; docs/defaults.md, "On data the
corpus does not hold").

    bench/sklearn_sets.py --out DIR [--generated]
    CANDOR_DATASETS=DIR bench/peers.py --datasets breast_cancer,digits,iris,wine --out new_user.csv
    CANDOR_DATASETS=DIR bench/peers.py --datasets mc_bin_1000,mc_bin_3000,mc_3c_800,mc_5c_2000

Every attribute is numeric; the class values are c0, c1, ... (the targets' codes).
"""
import argparse
import os
import sys

from sklearn import datasets
from sklearn.datasets import make_classification

from bench_files import write_text

SETS = {"breast_cancer": datasets.load_breast_cancer, "digits": datasets.load_digits, "iris": datasets.load_iris,
        "wine": datasets.load_wine}
GENERATED = {
    "mc_bin_1000": dict(n_samples=1000, n_features=20, n_informative=5, n_redundant=5, n_classes=2, flip_y=0.05,
                        random_state=1),
    "mc_bin_3000": dict(n_samples=3000, n_features=10, n_informative=4, n_redundant=2, n_classes=2, flip_y=0.1,
                        class_sep=0.8, random_state=2),
    "mc_3c_800": dict(n_samples=800, n_features=15, n_informative=6, n_redundant=3, n_classes=3,
                      n_clusters_per_class=2, random_state=3),
    "mc_5c_2000": dict(n_samples=2000, n_features=30, n_informative=10, n_redundant=5, n_classes=5, random_state=4),
}


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
    ap.add_argument("--generated", action="store_true", help="also the four make_classification sets")
    args = ap.parse_args()
    index = ["name\trows\tattributes"]
    sets = [(name, load(return_X_y=True)) for name, load in SETS.items()]
    if args.generated:
        sets += [(name, make_classification(**spec)) for name, spec in GENERATED.items()]
    try:
        os.makedirs(args.out, exist_ok=True)
        for name, (X, y) in sets:
            write_text(os.path.join(args.out, f"{name}.arff"), arff(name, X, y))
            index.append(f"{name}\t{X.shape[0]}\t{X.shape[1]}")
        write_text(os.path.join(args.out, "INDEX.tsv"), "\n".join(index) + "\n")
    except OSError as e:
        print(f"bench/sklearn_sets.py: {e.filename or args.out}: {e.strerror}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
