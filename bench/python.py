#!/usr/bin/env python3
"""bench/python.py -- the Python binding against the C library, measured in one run.

  python bench/python.py [--bin build/bin] [--mib 256] [--exact-mib 8]

1. fast quantize: mxgold.quantize(x, "e4m3", engine="fast") on an FP32 array of MIB MiB
   (256: 64 Mi elements), against bench-kernels' quantize_e4m3_gbs on the same size;
2. exact quantize: engine="exact" on EXACT_MIB MiB, against bench-golden's
   golden_quantize_elements_per_s (E4M3, block 32, OCP);
3. peak memory: the growth of the peak resident set during each quantize, in a fresh
   process, less the output arrays.
Goals (issue 12): ratios >= 0.8, extra memory <= 16 MiB.  Not a test; ends with key=value lines.
"""
import argparse
import os
import platform
import re
import subprocess
import sys
import time

import numpy as np

import mxgold

HERE = os.path.dirname(os.path.abspath(__file__))


def cpu_name():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def inputs(n):
    """Normal FP32 values of random sign and mantissa, exponents 100..131 (as bench-kernels)."""
    rng = np.random.default_rng(0x2143FEDC)
    bits = rng.integers(0, 2**32, size=n, dtype=np.uint32) & np.uint32(0x807FFFFF)
    bits |= (rng.integers(100, 132, size=n, dtype=np.uint32) << np.uint32(23))
    return bits.view(np.float32)


def best_of(k, fn):
    best = float("inf")
    for _ in range(k):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def keyvals(text):
    return dict(re.findall(r"^([a-z0-9_]+)=([-0-9.]+)$", text, re.M))


def peak_growth(engine, n):
    """Peak RSS growth (bytes) of one quantize in a fresh process, and its output bytes.  The
    peak (VmHWM) is reset after the input is made (Linux: clear_refs 5)."""
    code = f"""
import importlib.util, mxgold
spec = importlib.util.spec_from_file_location("bench_python", {os.path.abspath(__file__)!r})
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
x = bench.inputs({n})
mxgold.quantize(x[:64], "e4m3", engine="{engine}")   # imports and first-call allocations
def kb(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1])
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")
before = kb("VmRSS:")
q = mxgold.quantize(x, "e4m3", engine="{engine}")
after = kb("VmHWM:")
out = q._codes_b.nbytes + q._scales_b.nbytes + (q._flags_b.nbytes if q._flags_b is not None else 0)
print((after - before) * 1024, out)
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    grow, out = map(int, r.stdout.split())
    return grow, out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", default=os.path.join(HERE, "..", "build", "bin"),
                   help="directory of bench-kernels and bench-golden (default: build/bin)")
    p.add_argument("--mib", type=int, default=256, help="FP32 MiB for the fast engine (256)")
    p.add_argument("--exact-mib", type=int, default=8, help="FP32 MiB for the exact engine (8)")
    a = p.parse_args()
    for tool in ("bench-kernels", "bench-golden"):
        if not os.access(os.path.join(a.bin, tool), os.X_OK):
            sys.exit(f"bench/python.py: {tool} is not in {a.bin} (build the project first)")
    print(f"bench/python.py: {cpu_name()}, mxgold {mxgold.__version__}, "
          f"kernels {mxgold.version()['kernels']}, numpy {np.__version__}")

    # 1. fast: the C figure first, then ours, on the same size and input shape
    c = subprocess.run([os.path.join(a.bin, "bench-kernels"), str(a.mib)], capture_output=True,
                       text=True, check=True).stdout
    c_gbs = float(keyvals(c)["quantize_e4m3_gbs"])
    n = a.mib * 1024 * 1024 // 4 // 32 * 32
    x = inputs(n)
    # bench-kernels writes into buffers it reuses: out= is the same call in Python; a call
    # without out= also pays for the fresh pages of its outputs (the kernel faults them in)
    q = mxgold.quantize(x, "e4m3", engine="fast")
    t_out = best_of(3, lambda: mxgold.quantize(x, "e4m3", engine="fast", out=q))
    t_new = best_of(3, lambda: mxgold.quantize(x, "e4m3", engine="fast"))
    py_gbs = n * 5 / t_out / 1e9  # bench-kernels' bytes: 4 in + 1 out per element
    py_new = n * 5 / t_new / 1e9
    print(f"fast quantize e4m3, {n} elements: C {c_gbs:.2f} GB/s; Python with out= "
          f"{py_gbs:.2f} GB/s, ratio {py_gbs / c_gbs:.3f}; Python, fresh outputs "
          f"{py_new:.2f} GB/s, ratio {py_new / c_gbs:.3f}")

    # 2. exact
    g = subprocess.run([os.path.join(a.bin, "bench-golden")], capture_output=True, text=True,
                       check=True).stdout
    c_eps = float(keyvals(g)["golden_quantize_elements_per_s"])
    ne = a.exact_mib * 1024 * 1024 // 4 // 32 * 32
    xe = inputs(ne)
    te = best_of(1, lambda: mxgold.quantize(xe, "e4m3", engine="exact"))
    py_eps = ne / te
    print(f"exact quantize e4m3, {ne} elements: C {c_eps:.0f} elements/s, Python {py_eps:.0f} "
          f"elements/s, ratio {py_eps / c_eps:.3f}")

    # 3. memory
    gf, of = peak_growth("fast", n)
    ge, oe = peak_growth("exact", ne)
    print(f"peak growth during quantize: fast {gf / 2**20:.1f} MiB for {of / 2**20:.1f} MiB of "
          f"outputs (extra {(gf - of) / 2**20:.1f} MiB); exact {ge / 2**20:.1f} MiB for "
          f"{oe / 2**20:.1f} MiB (extra {(ge - oe) / 2**20:.1f} MiB)")

    print("key=value")
    print(f"cpu={cpu_name().replace(' ', '_')}")
    print(f"fast_elements={n}")
    print(f"c_quantize_e4m3_gbs={c_gbs:.3f}")
    print(f"py_quantize_e4m3_gbs={py_gbs:.3f}")
    print(f"py_fast_vs_c={py_gbs / c_gbs:.3f}")
    print(f"py_quantize_e4m3_fresh_outputs_gbs={py_new:.3f}")
    print(f"py_fast_fresh_outputs_vs_c={py_new / c_gbs:.3f}")
    print(f"c_golden_quantize_elements_per_s={c_eps:.0f}")
    print(f"py_exact_quantize_elements_per_s={py_eps:.0f}")
    print(f"py_exact_vs_c={py_eps / c_eps:.3f}")
    print(f"fast_extra_mib={(gf - of) / 2**20:.1f}")
    print(f"exact_extra_mib={(ge - oe) / 2**20:.1f}")


if __name__ == "__main__":
    main()
