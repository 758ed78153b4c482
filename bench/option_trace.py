"""Where a fit reads its options: a gdb script that counts, from the moment `candor fit` starts its fit
(run_fit), the calls into the option code (validate, the learner lookups, every LearnerParams::resolved_*, the
group checks, rule settings, the provenance record) and groups them by the first caller outside that code.

    gdb -q -batch -x bench/option_trace.py -ex run --args build/candor fit data/corpus/credit-a.arff -o /tmp/m.json --threads 1

Prints "calls N FUNCTION" for each function of the option code, then "from N CALLER" for each place outside
it that asked. A fit that resolves its options once asks from validate, resolve_rule_settings (a rule fit's
settings), the learner's own fit (its own options) and params_to_json (the options a model records), and from
nowhere else. Needs a build with symbols (any: the names are the exported ones)."""
import collections
import re

import gdb

OPTION_CODE = ["candor::validate(candor::LearnerParams const&)", "candor::params_to_json", "candor::reads_option_group",
               "candor::search_defaults", "candor::rule_learner", "candor::find_learner", "candor::resolve_rule_settings",
               "candor::with_rule_settings", "candor::use_rule_settings", "candor::model_options"]
INSIDE = re.compile(r"resolved_|rule_learner|search_defaults|reads_option_group|LearnerEntries|find_learner|std::|"
                    r"lambda|__invoke|_M_invoke")
calls, callers, fitting = collections.Counter(), collections.Counter(), [False]


def short(frame):
    return re.sub(r"\(.*", "", str(frame.name()) if frame else "?").replace("candor::", "")


class Count(gdb.Breakpoint):
    def stop(self):
        if fitting[0]:
            frame = gdb.newest_frame()
            calls[short(frame)] += 1
            caller = frame.older()
            while caller is not None and INSIDE.search(str(caller.name())):
                caller = caller.older()
            callers[short(caller)] += 1
        return False


class Start(gdb.Breakpoint):
    def stop(self):
        fitting[0] = True
        return False


def report(_):
    for name, n in sorted(calls.items()):
        print(f"calls {n} {name}")
    for name, n in sorted(callers.items(), key=lambda kv: -kv[1]):
        print(f"from {n} {name}")
    print(f"total {sum(calls.values())}")


resolved = gdb.execute("info functions ^candor::LearnerParams::resolved_", to_string=True)
names = OPTION_CODE + [m.group(1) for m in re.finditer(r"(candor::LearnerParams::resolved_\w+(\[abi:cxx11\])?\(\) const)",
                                                       resolved)]
for name in sorted(set(names)):
    Count(name, internal=True)
Start("candor::cli::(anonymous namespace)::run_fit", internal=True)
gdb.events.exited.connect(report)
