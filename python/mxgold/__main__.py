"""python -m mxgold: the package's version and tables, and format planning (python -m mxgold plan);
the mxgold command does the rest."""
import argparse
import sys

import mxgold


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["plan"]:
        from ._plan import main as plan
        return plan(argv[1:])
    p = argparse.ArgumentParser(prog="python -m mxgold",
                                description="mxgold's Python package: versions and tables. "
                                "Vectors and verification: the mxgold command.",
                                epilog="python -m mxgold plan FILE... --target-bits BITS: one "
                                "element format per tensor for a target of bits per element "
                                "(python -m mxgold plan --help)")
    p.add_argument("--version", action="store_true", help="print the version (as mxgold --version)")
    p.add_argument("what", nargs="?", choices=["formats", "profiles", "info"],
                   help="formats: the formats table; profiles: the profiles; info: versions")
    a = p.parse_args(argv)
    if a.version:
        v = mxgold.version()
        print(f"mxgold {v['package']} (libmxgold {v['library']}, MPFR {v['mpfr']})")
    elif a.what == "formats":
        mxgold.format_table()
    elif a.what == "profiles":
        for name, d in mxgold.profiles().items():
            proof = {"run": "proven by a run", "source": "not run: from the source",
                     "spec": "the specification"}[d["proof"]]
            print(f"{name:14} {d['rounding']:4} {d['doc']}\n{'':19}{d['source']} [{proof}]")
    elif a.what == "info":
        for k, v in mxgold.version().items():
            print(f"{k}: {v}")
    else:
        p.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
