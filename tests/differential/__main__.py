"""Run any seed range of the differential test and print a summary of divergences by category.

    python -m tests.differential 0:10000            (make difftest SEEDS=0:10000)
    python -m tests.differential 42 --show          (the program, both records, the first difference)
    python -m tests.differential 0:300 --write-known   (rewrite known_divergences.SEEDS from this run)

Options: --batch N (programs per subprocess pair, default 500), --nice N, --examples N (reports printed per
category), --json FILE (every divergence with its category, for later study). Exit status 1 when any
program diverges. A program that differs is run again in TF (harness.rerun_tf); when TF's own answer
varies and graphlab's is one of them it is listed as racy_in_tensorflow, not as a divergence.
"""
import argparse
import collections
import json
import os
import sys
import time

from . import harness, known_divergences


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tests.differential")
    ap.add_argument("seeds", help="a seed or a range lo:hi")
    ap.add_argument("--show", action="store_true", help="print every program and its records")
    ap.add_argument("--batch", type=int, default=500)
    ap.add_argument("--nice", type=int, default=0)
    ap.add_argument("--examples", type=int, default=1)
    ap.add_argument("--json", help="write every divergence (seed, category, differences) here")
    ap.add_argument("--write-known", action="store_true",
                    help="rewrite the SEEDS table of known_divergences.py from this run")
    args = ap.parse_args(argv)
    seeds = harness.parse_range(args.seeds)
    by_category = collections.defaultdict(list)
    present = collections.Counter()  # programs showing a category among any of their differences
    reports = {}
    racy = []  # programs whose TF answer varies between runs, graphlab's among them: not divergences
    total = {"tf": 0.0, "graphlab": 0.0}
    tf_program_seconds = gl_program_seconds = 0.0
    count = 0
    started = time.perf_counter()
    for lo in range(seeds.start, seeds.stop, args.batch):
        batch = harness.jobs(range(lo, min(lo + args.batch, seeds.stop)))
        results, seconds = harness.run_both(batch, nice=args.nice)
        for k in total:
            total[k] += seconds[k]
        differing = [job for job in batch
                     if harness.differences(results["graphlab"][job["seed"]], results["tf"][job["seed"]])]
        reruns = harness.rerun_tf(differing, nice=args.nice)  # only differing programs: is TF's answer racy?
        for job in batch:
            count += 1
            ours, theirs = results["graphlab"][job["seed"]], results["tf"][job["seed"]]
            tf_program_seconds += theirs.get("seconds", 0.0)
            gl_program_seconds += ours.get("seconds", 0.0)
            found = harness.compare(job, ours, theirs, reruns.get(job["seed"]))
            if args.show:
                print(job["source"])
                print("graphlab:  ", json.dumps(ours))
                print("tensorflow:", json.dumps(theirs))
            if found and not harness.is_divergence(found[0]):
                racy.append(job["seed"])
                if args.show:
                    print(found[1])
            elif found:
                category, text = found
                by_category[category].append(job["seed"])
                present.update(set(harness.categories(job["features"], harness.differences(ours, theirs),
                                                      ours, theirs)))
                reports[job["seed"]] = (category, text, harness.differences(ours, theirs))
                if args.show:
                    print(text)
            elif args.show:
                print("seed %d: same as TensorFlow" % job["seed"])
        print("... %d programs, %d diverge (%.0f s)" % (count, len(reports), time.perf_counter() - started),
              file=sys.stderr, flush=True)
    print("\n%d programs (seeds %d:%d), %d diverge from TensorFlow, %d racy in TensorFlow"
          % (count, seeds.start, seeds.stop, len(reports), len(racy)))
    print("time per 100 programs: TensorFlow %.2f s, graphlab %.2f s (programs only; with start-up %.2f / %.2f s)"
          % (100 * tf_program_seconds / max(count, 1), 100 * gl_program_seconds / max(count, 1),
             100 * total["tf"] / max(count, 1), 100 * total["graphlab"] / max(count, 1)))
    print("programs by category (the most severe of each program's differences; in brackets: programs "
          "with a difference of that category at all)")
    for category, members in sorted(by_category.items(), key=lambda kv: -len(kv[1])):
        reason = known_divergences.CATEGORIES.get(category, "(new category)")
        print("%6d (%d)  %-28s %s" % (len(members), present[category], category, reason))
        print("        seeds: %s%s" % (" ".join(map(str, members[:20])), " ..." if len(members) > 20 else ""))
    if racy:
        print("%6d      %-28s %s (not counted as divergences)" % (
            len(racy), harness.RACY, known_divergences.CATEGORIES[harness.RACY]))
        print("        seeds: %s" % " ".join(map(str, racy)))
    for category in sorted(set(present) - set(by_category)):
        print("%6d (%d)  %-28s %s" % (0, present[category], category,
                                       known_divergences.CATEGORIES.get(category, "(new category)")))
    for category, members in sorted(by_category.items()):
        for seed in members[:args.examples]:
            print("\n" + "=" * 100 + "\n" + reports[seed][1])
    if args.json:
        with open(args.json, "w") as f:
            json.dump({str(s): {"category": c, "differences": d} for s, (c, _, d) in reports.items()}, f)
    if args.write_known:
        known_divergences.rewrite(seeds, {s: c for s, (c, _, _) in reports.items()})
    return 1 if reports else 0


if __name__ == "__main__":
    sys.exit(main())
