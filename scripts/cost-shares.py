#!/usr/bin/env python3
"""What each feature of the module costs, from the callgrind files that
scripts/bench-cost.sh --callgrind (and so `ctest -R bench.cost-sqlite`)
leaves in its work directory: callgrind.<TU>.clang, .tidy-pp and .hotpath.

For each feature, the instructions of the hotpath run spent in its entry
points, inclusive of what they call (callgrind_annotate --inclusive=yes),
and that as a share of clang -fsyntax-only's instructions: what the feature
adds to the hotpath/clang ratio. The entry points do not call one another,
so the shares add up; "the rest" is what the module adds to clang-tidy's own
run (hotpath - tidy-pp) that no entry point holds (loading the module, the
callbacks' dispatch, what clang-tidy does for the module's matcher).

Usage: scripts/cost-shares.py [--work DIR] [--tu TU] [--markdown]
  --work DIR  bench-cost.sh's work directory (default build/bench-cost)
  --tu TU     the TU's label (default sqlite-check, the worst case CI gates)
  --markdown  the table as docs/robustness.md has it
Exit status: 0; 2 when a callgrind file is missing or unreadable.
"""
import argparse
import os
import re
import subprocess
import sys

# (feature, entry points): regular expressions on callgrind_annotate's
# function names (after "file:"), matched from the start. None of these
# calls another, so each instruction is counted once.
FEATURES = [
    ("call-site walk (every body, once per TU)",
     [r"hotpath::CallSiteIndex::indexDefinitions\("]),
    ("definitions (declaration contexts)", [r"hotpath::collectDefinitions\("]),
    ("check-split: shape reading of every definition",
     [r"hotpath::CheckSplitCheck::shapeOf\("]),
    ("heat (call graph, chains)",
     [r"hotpath::HeatModel::(function|callIsHot|indexedFunction)\("]),
    ("check-split: planning and writing the fixes", [r"hotpath::CheckSplitCheck::fix\("]),
    ("hook-gate: hooks and their calls",
     [r"hotpath::HookRecogniser::anyHook\(", r"hotpath::HookGateCheck::gateHook\(",
      r"hotpath::(anonymous namespace)::findCandidates\(", r"hotpath::findCandidates\("]),
    ("noop-assert: findings", [r"hotpath::NoopAssertCheck::run\("]),
    ("#if layout recorder (PP callbacks)",
     [r"hotpath::SourceLayoutRecorder::(If|Ifdef|Ifndef|Elif|Elifdef|Elifndef|Else|Endif|"
      r"includeDirective)\("]),
    ("macro definitions and expansions, includes (PP callbacks)",
     [r"hotpath::\(anonymous namespace\)::PreprocessorRecorder::"
      r"(MacroDefined|MacroExpands|inclusion)\(",
      r"hotpath::CallSiteIndex::recordMacroExpansion\("]),
    ("noop-assert: assert definitions and uses (PP callbacks)",
     [r"hotpath::NoopAssertPPCallbacks::(MacroDefined|MacroExpands|SourceRangeSkipped)\("]),
    ("hook-gate: error-injection macros (PP callbacks)",
     [r"hotpath::\(anonymous namespace\)::ErrorInjectionRecorder::MacroExpands\("]),
    ("diagnostics: clang-tidy's NOLINT scan of the file of a finding, notes",
     [r"hotpath::HotpathCheck::emit\("]),
    ("freeing the TU's records", [r"hotpath::TUContext::~TUContext\("]),
]

LINE = re.compile(r"^\s*([\d,]+) \([ \d.%]+\)\s+(?:[^:\s]*:)?(.*?)(?: \[[^\]]*\])?$")


def total(path):
    """The run's instructions: callgrind's summary line."""
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise ValueError("no summary line")


def inclusive(path):
    """{function name: inclusive instructions}, recursion cycles left out."""
    out = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", path],
                         capture_output=True, text=True, check=True).stdout
    costs = {}
    for line in out.splitlines():
        m = LINE.match(line)
        # Recursion cycles and lambdas (whose names start with their
        # function's, which counts them already) are left out.
        if (not m or "PROGRAM TOTALS" in line or re.search(r"'\d+$", m.group(2))
                or "::{lambda" in m.group(2)):
            continue
        name = m.group(2)
        costs[name] = costs.get(name, 0) + int(m.group(1).replace(",", ""))
    return costs


def shares(costs):
    rows = []
    for feature, patterns in FEATURES:
        regexes = [re.compile(p) for p in patterns]
        n = sum(c for name, c in costs.items() if any(r.match(name) for r in regexes))
        rows.append((feature, n))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--work", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build", "bench-cost"))
    ap.add_argument("--tu", default="sqlite-check")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    files = {run: os.path.join(args.work, "callgrind.%s.%s" % (args.tu, run))
             for run in ("clang", "tidy-pp", "hotpath")}
    try:
        ir = {run: total(path) for run, path in files.items()}
        costs = inclusive(files["hotpath"])
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        print("cost-shares: cannot read the callgrind files of %s in %s (%s); run "
              "scripts/bench-cost.sh --only %s --callgrind first" % (args.tu, args.work, e,
                                                                     args.tu), file=sys.stderr)
        return 2
    clang = ir["clang"]
    module = ir["hotpath"] - ir["tidy-pp"]
    rows = shares(costs)
    rows.append(("the rest of what the module adds (loading, callback dispatch, ...)",
                 module - sum(n for _, n in rows)))

    def share(n):
        return 100.0 * n / clang

    if args.markdown:
        print("| feature | instructions | share of clang's |")
        print("| --- | --- | --- |")
        for feature, n in rows:
            print("| %s | %.1f M | %.2f%% |" % (feature, n / 1e6, share(n)))
        print("| **the module in all** (hotpath - tidy-pp) | **%.1f M** | **%.2f%%** |"
              % (module / 1e6, share(module)))
    else:
        print("%s: clang %d, tidy-pp %d, hotpath %d instructions; hotpath/clang %.3f, "
              "tidy-pp/clang %.3f" % (args.tu, clang, ir["tidy-pp"], ir["hotpath"],
                                      ir["hotpath"] / clang, ir["tidy-pp"] / clang))
        for feature, n in rows:
            print("  %7.1f M  %5.2f%%  %s" % (n / 1e6, share(n), feature))
        print("  %7.1f M  %5.2f%%  the module in all (hotpath - tidy-pp)"
              % (module / 1e6, share(module)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
