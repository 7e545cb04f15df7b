"""Ctrl-C (SIGINT) during a long simulate / trajectory_gradient / fit raises
KeyboardInterrupt promptly; the GIL is released meanwhile (another thread runs)."""
import os
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import os, signal, sys, threading, time
    import numpy as np
    import softfit
    sys.path.insert(0, os.path.dirname(sys.argv[1]))
    from conftest import SMALL_SCENE
    scene = softfit.scene_from_dict(SMALL_SCENE)
    scene.steps = 100000  # minutes of work
    ticks = []
    def ticker():  # runs only while simulate has released the GIL
        while len(ticks) < 20:
            ticks.append(time.time()); time.sleep(0.01)
    threading.Thread(target=ticker, daemon=True).start()
    threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    start = time.time()
    try:
        if sys.argv[2] == "simulate":
            scene.simulate()
        elif sys.argv[2] == "trajectory_gradient":  # the forward pass of the adjoint
            scene.trajectory_gradient("E", np.zeros((scene.steps + 1, scene.node_count, 3)))
        else:  # a fit whose one observed frame is far away: a long first evaluation
            import json, tempfile
            folder = tempfile.mkdtemp()
            frames = [{"frame": scene.steps, "positions": scene.initial_x.tolist()}]
            open(os.path.join(folder, "displacements.json"), "w").write(json.dumps({"frames": frames}))
            softfit.fit(scene, folder, "E")
    except KeyboardInterrupt:
        print("interrupted after %.2f s, ticks %d" % (time.time() - start, len(ticks)))
        sys.exit(0)
    sys.exit(1)
""")


@pytest.mark.parametrize("what", ["simulate", "trajectory_gradient", "fit"])
def test_ctrl_c_stops_a_long_run(tmp_path, what):
    script = tmp_path / "interrupt.py"
    script.write_text(SCRIPT)
    run = subprocess.run([sys.executable, str(script), os.path.join(os.path.dirname(__file__), "conftest.py"), what],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "interrupted after" in run.stdout
    seconds = float(run.stdout.split("after ")[1].split(" s")[0])
    ticks = int(run.stdout.split("ticks ")[1])
    assert seconds < 5.0
    assert ticks >= 10, "another Python thread did not run during simulate: the GIL was held"
