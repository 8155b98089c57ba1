"""What the scripts that compare cuContact with MuJoCo 4 share.

MuJoCo is imported when it is installed, else from a virtual environment
made (once, under a lock, since tests run side by side) in
~/.cache/cucontact/mujoco-venv or $CUCONTACT_MUJOCO_VENV, from which the
calling script runs itself again. Exit status 77 means MuJoCo could not be
installed (callers treat it as skipped). The cucontact tool is the one
given, else the build folder's, else the one on PATH."""
import os
import shutil
import subprocess
import sys

SKIPPED = 77
DEFAULT_VENV = os.path.join(os.path.expanduser("~"), ".cache", "cucontact", "mujoco-venv")


def ensure_mujoco(script, name):
    """Imports mujoco, or re-runs script (a path) with sys.argv from a virtual environment that has it."""
    try:
        import mujoco  # noqa: F401
        return
    except ImportError:
        pass
    if os.environ.get("CUCONTACT_COMPARE_IN_VENV"):
        print(f"{name}: skipped: MuJoCo is not importable even in its virtual environment", file=sys.stderr)
        sys.exit(SKIPPED)
    venv = os.environ.get("CUCONTACT_MUJOCO_VENV", DEFAULT_VENV)
    python = os.path.join(venv, "bin", "python")
    try:
        import fcntl
        os.makedirs(os.path.dirname(venv) or ".", exist_ok=True)
        lock = open(venv + ".lock", "w")
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(python):
            print(f"{name}: installing MuJoCo from PyPI into {venv}", file=sys.stderr)
            subprocess.run([sys.executable, "-m", "venv", venv], check=True, stdout=subprocess.DEVNULL)
        probe = subprocess.run([python, "-c", "import mujoco"], stderr=subprocess.DEVNULL)
        if probe.returncode != 0:
            subprocess.run([python, "-m", "pip", "install", "--quiet", "mujoco>=4,<5"], check=True)
        lock.close()
    except (subprocess.CalledProcessError, OSError) as e:
        print(f"{name}: skipped: MuJoCo cannot be installed ({e})", file=sys.stderr)
        sys.exit(SKIPPED)
    env = dict(os.environ, CUCONTACT_COMPARE_IN_VENV="1")
    sys.exit(subprocess.run([python, os.path.abspath(script)] + sys.argv[1:], env=env).returncode)


def find_cucontact(given, name):
    """The cucontact tool: `given`, else build/tools/cucontact/cucontact, else PATH's."""
    if given:
        return given
    here = os.path.dirname(os.path.abspath(__file__))
    for p in (os.path.join(here, "..", "build", "tools", "cucontact", "cucontact"), shutil.which("cucontact")):
        if p and os.path.exists(p):
            return os.path.abspath(p)
    raise SystemExit(f"{name}: no cucontact tool found; build it (scripts/build.sh) or pass --cucontact PATH")
