"""Cost of a Python `simulate` against the CLI's `softfit simulate` on the same scene.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead_bench.py \
        --cli build/softfit [--scene data/scenes/bunny_bounce.json] [--repeats 7]

Each repeat runs, alternating, one process of each kind and records its CPU time
(user + sys of the child, from os.wait4, so other users' load does not count):
  cli     softfit simulate SCENE -o TMP -q      (load, build, simulate, write VTU frames)
  python  python3 -c "softfit.Scene(SCENE).simulate()"   (load, build, simulate to numpy)
  import  python3 -c "import softfit"           (the interpreter + numpy + module load alone)
and, inside the python process, the CPU time of scene.simulate() alone. Prints the
medians and the python/cli ratio. OPENBLAS_NUM_THREADS=1 and OMP_NUM_THREADS=1 (set here
unless given) keep idle worker threads from spinning into the CPU time of either side.
"""
import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]

PY_RUN = """
import sys, time, softfit
t0 = time.process_time()
scene = softfit.Scene(sys.argv[1])
t1 = time.process_time()
run = scene.simulate()
t2 = time.process_time()
print("%.6f %.6f" % (t1 - t0, t2 - t1))
"""


def child_cpu(command, env):
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out = process.stdout.read()
    process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise SystemExit("failed: %s" % " ".join(command))
    return usage.ru_utime + usage.ru_stime, out.decode()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cli", default=str(ROOT / "build/softfit"))
    parser.add_argument("--scene", default=str(ROOT / "data/scenes/bunny_bounce.json"))
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    env = dict(os.environ)
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    env.setdefault("OMP_NUM_THREADS", "1")
    times = {"cli": [], "python": [], "import": [], "load": [], "simulate": []}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.repeats):
            times["cli"].append(child_cpu([args.cli, "simulate", args.scene, "-o", tmp, "-q"], env)[0])
            cpu, out = child_cpu([sys.executable, "-c", PY_RUN, args.scene], env)
            times["python"].append(cpu)
            load, simulate = map(float, out.split())
            times["load"].append(load)
            times["simulate"].append(simulate)
            times["import"].append(child_cpu([sys.executable, "-c", "import softfit"], env)[0])
    median = {k: statistics.median(v) for k, v in times.items()}
    print("scene %s, %d repeats, CPU seconds (median; min..max)" % (args.scene, args.repeats))
    for key, label in (("cli", "CLI process (softfit simulate -q)"), ("python", "python process (Scene + simulate)"),
                       ("import", "python process, import softfit only"), ("load", "  in python: Scene(path)"),
                       ("simulate", "  in python: simulate()")):
        print("  %-38s %.3f  (%.3f..%.3f)" % (label, median[key], min(times[key]), max(times[key])))
    print("python / cli, whole processes:                  %.3f" % (median["python"] / median["cli"]))
    print("python (load + simulate, no interpreter) / cli: %.3f" %
          ((median["load"] + median["simulate"]) / median["cli"]))


if __name__ == "__main__":
    main()
