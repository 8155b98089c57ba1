#!/usr/bin/env python3
"""Registers, stack, spills and instruction counts of every CUDA kernel in a
build, checked against the kernels' budgets.

The build writes ptxas's report of each CUDA object to <object>.resources
(cmake/nvcc-resources.sh), with the processor seconds its compile took. This script reads
those reports, counts each kernel's SASS instructions with cuobjdump (found
on PATH or in the CUDA toolkit, else installed from PyPI into a virtual
environment under the build directory; without it the column reads n/a),
prints one table, and exits 1 when a budget is exceeded:

  light kernels (analytic and primitive routes, broad phase, contacts, step):
      at most 128 registers and 1 KiB of stack;
  heavy kernels (GJK/MPR pairs, time-of-impact sweeps, convex shapes on
      triangles, mesh vertices against surfaces, mesh features against
      SDFs): at most 240 registers (with 256-thread blocks every
      count from 129 to 255 gives one block per SM: the bound stops growth;
      cuda/launch.h's CC_HEAVY_REGISTERS caps them there);
  every kernel and every function it calls: no spills;
  every translation unit: at most 90 s of processor time to compile, every
      architecture of the build included, on one core of this machine. The
      build's own times are taken with its other job beside each unit, and
      two jobs on this machine's two cores slow each other by up to a fifth
      (the same unit read 74 and 87 s in two builds of one commit); a unit
      over the budget there is compiled again on its own (the build's
      command from Ninja, into a scratch file), and that time is its time.

A heavy unit compiled once per architecture (cuda/arch_units.h) has a row
per copy, each read for its own architecture.

Usage: scripts/kernel-resources.py [BUILD_DIR] [--arch sm_90] [--markdown]
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

LIGHT = {"registers": 128, "stack": 1024}
HEAVY = {"registers": 240, "stack": None}
COMPILE_SECONDS = 90.0

# Kernels allowed the heavy budget: the routes that run the convex query or
# a BVH walk per thread. Template arguments name the mesh item family
# (kernels/mesh/narrowphase.h: 1 convex shapes on triangles, 2 vertices,
# 3 features against SDFs: a search along each edge).
HEAVY_KERNELS = [
    r"^cc_narrowphase_convex_kernel$",
    r"^cc_toi_(analytic|convex)_kernel$",
    r"^cc_mesh_(items|emit)_kernel<1>$",
    r"^cc_mesh_(items|emit)_kernel<2>$",
    r"^cc_mesh_(items|emit)_kernel<3>$",
]


def demangle(names):
    if not names:
        return {}
    tool = shutil.which("c++filt")
    if not tool:
        return {n: n for n in names}
    out = subprocess.run([tool], input="\n".join(names), capture_output=True, text=True).stdout.split("\n")
    return dict(zip(names, out))


def short_name(demangled):
    """'void cc_x_kernel<1>(cc_pass_view, int)' -> 'cc_x_kernel<1>'; a kernel
    of internal linkage loses its unit's prefix ('_INTERNAL_..._cu_...::')."""
    name = demangled.split("(")[0]
    if name.startswith("void "):
        name = name[5:]
    name = re.sub(r"^_INTERNAL_\w+::", "", name.strip())
    return re.sub(r"\(\w+\)(\d+)", r"\1", name).strip()


def report_arch(path, arch):
    """The architecture to read a report for: `arch` where the unit has
    code for it, else the unit's own (a heavy unit's copy for one
    architecture, cuda/arch_units.h)."""
    found = set(re.findall(r"for '(sm_\d+)'", open(path).read()))
    if arch in found or len(found) != 1:
        return arch
    return found.pop()


def parse_report(path, arch):
    """Kernels of one object for one architecture, plus the worst spill of any
    function (kernels and the functions they call)."""
    kernels = {}
    spills = []
    seconds = None
    current_entry = None
    current_function = None
    lines = open(path).read().split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"compile-seconds: ([0-9.]+)", line)
        if m:
            seconds = float(m.group(1))
            continue
        m = re.search(r"Compiling entry function '([^']+)' for '(sm_\d+)'", line)
        if m:
            current_entry = m.group(1) if m.group(2) == arch else None
            continue
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            current_function = m.group(1)
            continue
        m = re.match(r"\s+(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and current_function:
            frame, stores, loads = (int(x) for x in m.groups())
            if current_entry and current_function == current_entry:
                kernels.setdefault(current_entry, {})["frame"] = frame
            if (stores or loads) and current_entry:
                spills.append((current_entry, current_function, stores, loads))
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and current_entry:
            k = kernels.setdefault(current_entry, {})
            k["registers"] = int(m.group(1))
            s = re.search(r"(\d+) bytes cumulative stack size", line)
            k["stack"] = int(s.group(1)) if s else k.get("frame", 0)
    return kernels, spills, seconds


def compile_alone(build_dir, obj):
    """Compiles obj again, alone, into a scratch file with the build's own
    command (from Ninja); returns its processor seconds, or None when the
    command cannot be had (another generator) or fails."""
    ninja = shutil.which("ninja")
    if not ninja or not os.path.exists(os.path.join(build_dir, "build.ninja")):
        return None
    rel = os.path.relpath(obj, build_dir)
    r = subprocess.run([ninja, "-C", build_dir, "-t", "commands", rel], capture_output=True, text=True)
    lines = [l for l in r.stdout.split("\n") if l.strip()]
    if r.returncode != 0 or not lines or " -o " not in lines[-1]:
        return None
    scratch = os.path.join(build_dir, "kernel-resources-scratch")
    os.makedirs(scratch, exist_ok=True)
    out = os.path.join(os.path.abspath(scratch), "unit.o")
    cmd = lines[-1]
    for flag in ("-o", "-MF"):
        cmd = re.sub(r"(\s%s\s+)\S+" % flag, lambda m: m.group(1) + (out if flag == "-o" else out + ".d"), cmd)
    done = subprocess.run(cmd, shell=True, cwd=build_dir, capture_output=True, text=True)
    seconds = None
    if done.returncode == 0 and os.path.exists(out + ".resources"):
        seconds = parse_report(out + ".resources", "sm_90")[2]
    shutil.rmtree(scratch, ignore_errors=True)
    return seconds


def find_cuobjdump(build_dir):
    for candidate in [shutil.which("cuobjdump"), "/usr/local/cuda/bin/cuobjdump"]:
        if candidate and os.path.exists(candidate) and (shutil.which("nvdisasm") or os.path.exists("/usr/local/cuda/bin/nvdisasm")):
            return candidate, None
    venv = os.path.join(build_dir, "tools-venv")
    found = glob.glob(os.path.join(venv, "lib", "python*", "site-packages", "nvidia", "*", "bin", "cuobjdump"))
    if not found:
        try:
            subprocess.run([sys.executable, "-m", "venv", venv], check=True, capture_output=True)
            subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "nvidia-cuda-cuobjdump",
                            "nvidia-cuda-nvdisasm"], check=True, capture_output=True, timeout=300)
        except (subprocess.SubprocessError, OSError) as e:
            print(f"kernel-resources: no cuobjdump (pip install failed: {e}); instruction counts are n/a",
                  file=sys.stderr)
            return None, None
        found = glob.glob(os.path.join(venv, "lib", "python*", "site-packages", "nvidia", "*", "bin", "cuobjdump"))
    if not found:
        return None, None
    return found[0], os.path.dirname(found[0])


def instruction_counts(cuobjdump, tool_dir, obj, arch):
    env = dict(os.environ)
    if tool_dir:
        env["PATH"] = tool_dir + os.pathsep + env.get("PATH", "")
    r = subprocess.run([cuobjdump, "-sass", "-arch", arch, obj], capture_output=True, text=True, env=env)
    counts = {}
    name = None
    for line in r.stdout.split("\n"):
        m = re.match(r"\s+Function : (\S+)", line)
        if m:
            name = m.group(1)
            counts[name] = 0
            continue
        if name and re.match(r"\s+/\*[0-9a-f]{4,}\*/\s+\S", line):
            counts[name] += 1
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build_dir", nargs="?", default="build")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("--no-instructions", action="store_true", help="skip cuobjdump")
    args = ap.parse_args()

    reports = sorted(glob.glob(os.path.join(args.build_dir, "**", "*.resources"), recursive=True))
    if not reports:
        print(f"kernel-resources: no *.resources in {args.build_dir}: build the CUDA backend first "
              "(scripts/build.sh with nvcc on PATH)", file=sys.stderr)
        return 2
    tool = (None, None) if args.no_instructions else find_cuobjdump(args.build_dir)
    rows, breaches, unit_times = [], [], []
    for report in reports:
        obj = report[: -len(".resources")]
        unit = re.sub(r".*/cuda/", "cuda/", obj).replace(".o", "")
        arch = report_arch(report, args.arch)
        copy = re.search(r"cucontact_heavy_arch(\d+)\.dir", obj)
        if copy and copy.group(1) != "0":
            unit += f" (sm_{copy.group(1)} copy)"
        kernels, spills, seconds = parse_report(report, arch)
        if seconds is not None and seconds > COMPILE_SECONDS:
            alone = compile_alone(args.build_dir, obj)
            print(f"kernel-resources: {unit} took {seconds:.0f} s in the build; compiled again alone: "
                  + (f"{alone:.0f} s" if alone is not None else "not possible (no Ninja command), the build's time stands"))
            if alone is not None:
                seconds = alone
        if seconds is not None:
            unit_times.append((unit, seconds))
            if seconds > COMPILE_SECONDS:
                breaches.append(f"{unit}: compiled in {seconds:.0f} s, over the {COMPILE_SECONDS:.0f} s budget")
        counts = instruction_counts(tool[0], tool[1], obj, arch) if tool[0] and os.path.exists(obj) else {}
        names = demangle(list(kernels) + [s[1] for s in spills])
        for entry, fn, stores, loads in spills:
            breaches.append(f"{short_name(names[entry])}: {short_name(names[fn])} spills {stores} B / {loads} B")
        for mangled, k in kernels.items():
            name = short_name(names[mangled])
            heavy = any(re.search(p, name) for p in HEAVY_KERNELS)
            budget = HEAVY if heavy else LIGHT
            spilled = sum(s[2] + s[3] for s in spills if s[0] == mangled)
            rows.append((unit, name, "heavy" if heavy else "light", k.get("registers", 0), k.get("stack", 0), spilled,
                         counts.get(mangled)))
            if k.get("registers", 0) > budget["registers"]:
                breaches.append(f"{name}: {k['registers']} registers, over the {budget['registers']} of a "
                                f"{'heavy' if heavy else 'light'} kernel")
            if budget["stack"] is not None and k.get("stack", 0) > budget["stack"]:
                breaches.append(f"{name}: {k['stack']} B of stack, over the {budget['stack']} B of a light kernel")

    header = ["translation unit", "kernel", "budget", "registers", "stack [B]", "spills [B]", "instructions"]
    table = [[u, n, b, str(r), str(s), str(sp), "n/a" if c is None else str(c)] for u, n, b, r, s, sp, c in rows]
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
        for t in table:
            print("| " + " | ".join(f"`{x}`" if i < 2 else x for i, x in enumerate(t)) + " |")
    else:
        widths = [max(len(h), *(len(t[i]) for t in table)) for i, h in enumerate(header)]
        print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
        for t in table:
            print("  ".join(x.ljust(w) if i < 3 else x.rjust(w) for i, (x, w) in enumerate(zip(t, widths))))
    longest = max(unit_times, key=lambda u: u[1]) if unit_times else None
    total = sum(t for _, t in unit_times)
    print(f"\n{len(rows)} kernels for {args.arch} (a heavy unit's copy for another architecture: for its own) "
          f"in {len(unit_times)} translation units; "
          f"compile time {total:.0f} processor s in all, longest {longest[0]} {longest[1]:.0f} s" if longest else "")
    if breaches:
        print("\nOVER BUDGET:")
        for b in breaches:
            print("  " + b)
        return 1
    print("every kernel within its budget")
    return 0


if __name__ == "__main__":
    sys.exit(main())
