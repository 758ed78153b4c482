#!/usr/bin/python3
"""Checks the include structure of src/candor between folders.

    tests/tools/folder_layers.py SRC_CANDOR_DIR

1. Layers: no folder of the core includes experiments/ or studies/ (candor_experiments builds on the core
   library, never the other way round), and experiments/, the framework, includes nothing of studies/, the
   experiments built on it.
2. Cycles: the strongly connected components of the folder include graph (Tarjan's algorithm) must be
   exactly KNOWN_CYCLES. A new cycle, or a known one that grew, fails; so does a known one that has gone,
   so that the list only shrinks. Each failure names the includes behind the edges.
3. Learners: learn/, what the learners share (the registry, the options, fit, covering), includes nothing of
   learners/ (learners/<folder>/, one per learner), so that a learner is added or removed with its folder alone.
4. No learner's folder includes another's: what two learners share (the base learners, the tree options,
   the gradient search's options) is a component in learn/, which each composes.
5. The public API: the headers of include/candor/ include no private header (one of src/candor/<folder>/), and
   neither do its users outside the tree, the Python extension (python/src/) and examples/cpp/.
Exit 0 when all five hold, 1 otherwise.
"""
import os
import re
import sys
from collections import defaultdict

# Folder cycles that remain, each to be broken by later work (ARCHITECTURE.md). None is left: the list stays
# so that a cycle that returns must be named here, with its reason.
KNOWN_CYCLES = []
UPPER_LAYER = "experiments"
TOP_LAYER = "studies"

INCLUDE = re.compile(r'\s*#\s*include\s+"candor/([a-z_0-9]+)/([^"]+)"')


def folder_graph(root):
    edges = defaultdict(set)
    because = defaultdict(list)
    for folder, _, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith((".hpp", ".cpp")):
                continue
            path = os.path.join(folder, name)
            source = os.path.relpath(path, root).split(os.sep)[0]
            with open(path, encoding="utf-8") as f:
                for line in f:
                    m = INCLUDE.match(line)
                    if m and m.group(1) != source:
                        edges[source].add(m.group(1))
                        because[(source, m.group(1))].append(f"{os.path.relpath(path, root)} -> {m.group(1)}/{m.group(2)}")
    return edges, because


def shared_learn_includes(root):
    """The includes of a learner folder (candor/learners/<folder>/...) from learn/."""
    learn = os.path.join(root, "learn")
    found = []
    for folder, _, files in os.walk(learn):
        for name in sorted(files):
            if not name.endswith((".hpp", ".cpp", ".in")):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                for line in f:
                    if re.match(r'\s*#\s*include\s+"candor/learners/', line):
                        found.append(f"{os.path.relpath(path, root)}: {line.strip()}")
    return found


def learner_folder_includes(root):
    """The includes of one learner folder (learners/<a>/...) from another (learners/<b>/...)."""
    learn = os.path.join(root, "learners")
    found = []
    for folder in sorted(os.listdir(learn)) if os.path.isdir(learn) else []:
        path = os.path.join(learn, folder)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if not name.endswith((".hpp", ".cpp")):
                continue
            with open(os.path.join(path, name), encoding="utf-8") as f:
                for line in f:
                    m = re.match(r'\s*#\s*include\s+"candor/learners/([a-z_0-9]+)/', line)
                    if m and m.group(1) != folder:
                        found.append(f"learners/{folder}/{name}: {line.strip()}")
    return found


def private_includes_of_public_users(root):
    """The includes of a private header (candor/<folder>/...) from the public API and the programs built on it."""
    top = os.path.dirname(os.path.dirname(os.path.abspath(root)))
    found = []
    for place in ("include/candor", "python/src", "examples/cpp"):
        folder = os.path.join(top, place)
        for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
            if not name.endswith((".hpp", ".cpp")):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                for line in f:
                    if INCLUDE.match(line):
                        found.append(f"{place}/{name}: {line.strip()}")
    return found


def strongly_connected(edges):
    nodes = sorted(set(edges) | {w for targets in edges.values() for w in targets})
    index, low, stack, on_stack, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(component)

    for v in nodes:
        if v not in index:
            visit(v)
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    edges, because = folder_graph(sys.argv[1])
    problems = []
    for source in sorted(edges):
        if source not in (UPPER_LAYER, TOP_LAYER) and UPPER_LAYER in edges[source]:
            problems.append(f"{source}/ includes {UPPER_LAYER}/, the layer above the core: "
                            + "; ".join(because[(source, UPPER_LAYER)]))
        if source != TOP_LAYER and TOP_LAYER in edges[source]:
            problems.append(f"{source}/ includes {TOP_LAYER}/, the top layer: "
                            + "; ".join(because[(source, TOP_LAYER)]))
    found = strongly_connected(edges)
    for component in found:
        if component not in KNOWN_CYCLES:
            inside = [f"{a} -> {b}: {because[(a, b)][0]}" for a in sorted(component) for b in sorted(edges[a])
                      if b in component]
            problems.append("folders include each other in a cycle not in KNOWN_CYCLES: "
                            + ", ".join(sorted(component)) + " (" + "; ".join(inside[:12])
                            + ("; ..." if len(inside) > 12 else "") + ")")
    for component in KNOWN_CYCLES:
        if component not in found:
            problems.append("the known cycle " + ", ".join(sorted(component)) + " is gone or changed: "
                            "remove or update it in KNOWN_CYCLES")
    for include in shared_learn_includes(sys.argv[1]):
        problems.append("learn/ includes a learner's folder of learners/ (learners register themselves, "
                        "learn/learner.hpp): " + include)
    for include in learner_folder_includes(sys.argv[1]):
        problems.append("a learner's folder includes another learner's folder (what two learners share is a "
                        "component in learn/): " + include)
    for include in private_includes_of_public_users(sys.argv[1]):
        problems.append("the public API or a program on it includes a private header (the public headers are "
                        "include/candor/): " + include)
    for p in problems:
        print("folder_layers: " + p, file=sys.stderr)
    if not problems:
        print(f"folder_layers: {len(edges)} folders; no include of {UPPER_LAYER}/ or {TOP_LAYER}/ from below; "
              + ("cycles as known: " + "; ".join(", ".join(sorted(c)) for c in found) if found else "no cycle"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
