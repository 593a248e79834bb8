"""The conformance matrix as JSON, Markdown and one self-contained HTML page (inline SVG plots)."""
from __future__ import annotations

import html as _html
import platform

import mxgold

from . import NOT_RUN
from ._inputs import BLOCK_CLASSES, CAST_CLASSES


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def result(recs: list, *, seed: int, n_random: int, n_probe: int, sabotage: dict,
           seconds: float) -> dict:
    bad = []
    for r in recs:
        for m in r.get("modes", []):
            if m["status"] == "run" and m["total"]["mismatch"]:
                bad.append(f"{r['name']}:{m['name']}")
    return {"mxgold": mxgold.__version__, "seed": seed, "random": n_random, "probe": n_probe,
            "sabotage": sabotage, "cpu": _cpu(), "python": platform.python_version(),
            "seconds": round(seconds, 1), "implementations": recs, "not_run": NOT_RUN,
            "mismatching_modes": bad}


def merge(results: list) -> dict:
    """One result from several runs with the same inputs (seed and counts)."""
    first = results[0]
    for r in results[1:]:
        for k in ("seed", "random", "probe", "sabotage", "mxgold"):
            if r.get(k) != first.get(k):
                raise ValueError(f"--merge: the runs differ in {k} ({first.get(k)!r} and "
                                 f"{r.get(k)!r})")
    recs = [i for r in results for i in r["implementations"]]
    names = [i["adapter"] for i in recs]
    if len(set(names)) != len(names):
        raise ValueError("--merge: an implementation appears in more than one run")
    from . import ADAPTERS

    recs.sort(key=lambda i: ADAPTERS.index(i["adapter"]) if i["adapter"] in ADAPTERS else 99)
    out = result(recs, seed=first["seed"], n_random=first["random"], n_probe=first["probe"],
                 sabotage=first["sabotage"], seconds=sum(r["seconds"] for r in results))
    out["python"] = " / ".join(sorted({r["python"] for r in results}))
    return out


def _unit(m: dict) -> str:
    return "values" if m["kind"] == "cast" else "blocks"


def summary(res: dict) -> str:
    lines = []
    for r in res["implementations"]:
        if r["status"] != "run":
            lines.append(f"{r['name']:12} {r['status']}")
            continue
        for m in r["modes"]:
            if m["status"] != "run":
                lines.append(f"{r['name']:12} {m['name']:22} not run: {m['reason']}")
                continue
            t = m["total"]
            verdict = "pass" if not t["mismatch"] else f"{t['mismatch']} MISMATCHES"
            exc = f", {t['exceptions']} documented exceptions" if t["exceptions"] else ""
            lines.append(f"{r['name']:12} {m['name']:22} {m['profile']:14} {t['n']:>9} "
                         f"{_unit(m):6} {verdict}{exc}")
    lines.append(f"mismatching modes: {len(res['mismatching_modes'])}")
    lines.append("key=value: conform_modes_mismatching=%d conform_seconds=%.1f"
                 % (len(res["mismatching_modes"]), res["seconds"]))
    return "\n".join(lines)


def _cell(c: dict | None) -> str:
    if c is None:
        return "·"
    if c["mismatch"]:
        return f"**{c['mismatch']}**/{c['n']}"
    return f"pass ({c['n']})" if not c["exceptions"] else f"pass ({c['n']}, {c['exceptions']} exc.)"


def _ocp_cell(m: dict) -> str:
    t = m["total"]
    return "yes" if not t["ocp_mismatch"] else f"no ({t['ocp_mismatch']})"


def _first(d: dict) -> str:
    where = f"{d['format']} from {d['input']}, class {d['class']}, item {d['index']}"
    if "elements" in d:
        parts = []
        if "scale" in d and d["scale"]["lib"] != d["scale"]["mxgold"]:
            parts.append(f"scale library {d['scale']['lib']} mxgold {d['scale']['mxgold']} "
                         f"(amax {d.get('amax', '?')})")
        for e in d["elements"]:
            parts.append(f"element {e['i']} in {e['in']}: library {e['lib']} mxgold "
                         f"{e['mxgold']}")
        return f"{where}: " + "; ".join(parts)
    return f"{where}: in {d['in']}: library {d['lib']} mxgold {d['mxgold']}"


def _rows(res: dict, kind: str):
    for r in res["implementations"]:
        for m in r.get("modes", []):
            if m["kind"] == kind:
                yield r, m


def _esc(s: str) -> str:
    return s.replace("|", "\\|")


def markdown(res: dict) -> str:
    out = ["# Conformance matrix", "",
           "<!-- written by `ci/conform.sh` (python -m mxgold.conform); do not edit by hand -->",
           "",
           f"mxgold {res['mxgold']}; seed {res['seed']}, {res['random']} random blocks per "
           f"format x input x mode (cast modes: {32 * res['random']} random values), "
           f"{res['probe']} blocks per probe class; run on {res['cpu']}, Python {res['python']}, "
           f"{res['seconds']} s.", ""]
    if res["sabotage"]:
        out += [f"**Sabotage run** ({res['sabotage']}): not a conformance result.", ""]
    out += ["Each cell: `pass (n)` = all n blocks (values, for casts) bit for bit equal to the "
            "profile; `**k**/n` = k differ. `OCP` = equal to the `ocp` profile (OCP MX v1.0 "
            "strict) on every input. How each comparison works: `docs/thirdparty.md`; what "
            "decided each profile: `docs/profiles.md`.", ""]
    out += ["## Implementations", "",
            "| implementation | version (tested) | mode | code path | profile | inputs | OCP strict |",
            "|---|---|---|---|---|---|---|"]
    for r in res["implementations"]:
        if r["status"] != "run":
            out.append(f"| {r['name']} | not installed (tested {r['tested']}) | | | | | |")
            continue
        for m in r["modes"]:
            st = _ocp_cell(m) if m["status"] == "run" else f"not run: {m['reason']}"
            out.append(f"| {r['name']} | {r['version']} ({r['tested']}) | {m['name']} | "
                       f"{_esc(m['path'])} | `{m['profile']}` | {', '.join(m['inputs'])} | {st} |")
    for nr in res["not_run"]:
        out.append(f"| {nr['name']} | not run | | {_esc(nr['path'])} | `{nr['profile']}` | | "
                   f"not run: {_esc(nr['reason'])} |")
    for kind, classes, title in (("block", BLOCK_CLASSES, "Block quantization"),
                                 ("cast", CAST_CLASSES, "Scalar casts")):
        rows = list(_rows(res, kind))
        if not rows:
            continue
        out += ["", f"## {title}", "",
                "| implementation · mode | " + " | ".join(classes) + " | all |",
                "|---|" + "---|" * (len(classes) + 1)]
        for r, m in rows:
            if m["status"] != "run":
                continue
            cells = [_cell(m["classes"].get(c)) for c in classes]
            out.append(f"| {r['name']} · {m['name']} | " + " | ".join(cells)
                       + f" | {_cell(m['total'])} |")
    for title, classes in (("Probe classes of block quantization", BLOCK_CLASSES),
                           ("Probe classes of casts", CAST_CLASSES)):
        out += ["", f"## {title}", ""]
        out += [f"- `{c}`: {d}" for c, d in classes.items()]
    mism = [(r, m) for r in res["implementations"] for m in r.get("modes", [])
            if m["status"] == "run" and (m["total"]["mismatch"] or m["total"]["exceptions"])]
    if mism:
        out += ["", "## Mismatches and documented exceptions (first diverging input)", ""]
        for r, m in mism:
            t = m["total"]
            if t["first"]:
                out.append(f"- {r['name']} · {m['name']} (`{m['profile']}`): {t['mismatch']} "
                           f"mismatches; first: {_first(t['first'])}")
            if t["exception_first"]:
                out.append(f"- {r['name']} · {m['name']}: {t['exceptions']} documented "
                           f"exceptions ({t['exception_first']['why']}); first: "
                           f"{_first(t['exception_first'])}")
    if res.get("rtl"):
        out += ["", "## Third-party RTL (co-simulation, `sim/thirdparty/`)", "",
                "Run by each adapter's `run.sh` against the upstream commit named (the "
                "third-party source is not committed; `docs/rtl.md` says how to run them). "
                "These rows are the committed record of those runs (`sim/thirdparty/RESULTS.md`), "
                "not re-run by the conformance runner.", ""]
        for prev, line in zip([""] + res["rtl"], res["rtl"]):
            if prev.startswith("|") and not line.startswith("|"):
                out.append("")  # a note after the table starts a list of its own
            out.append(line)
    out += ["", "## Where each implementation departs from OCP MX v1.0 strict", ""]
    for r in res["implementations"]:
        for m in r.get("modes", []):
            if m["status"] == "run" and m["total"]["ocp_first"]:
                out.append(f"- {r['name']} · {m['name']}: {m['total']['ocp_mismatch']} of "
                           f"{m['total']['n']}; first: {_first(m['total']['ocp_first'])}")
    return "\n".join(out) + "\n"


def _svg(m: dict, classes: dict) -> str:
    """Bars per probe class: items differing from the profile (red) and from ocp (grey), on a
    log scale of items."""
    import math

    names = [c for c in classes if c in m["classes"]]
    w, h, bw = 26 * len(names) + 60, 170, 10
    top = max([m["classes"][c]["n"] for c in names] + [1])
    scale = 110 / math.log10(top + 1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
             f'role="img" aria-label="mismatches by probe class">',
             f'<line x1="40" y1="120" x2="{w - 10}" y2="120" stroke="#444"/>']
    for i, c in enumerate(names):
        x = 44 + 26 * i
        for j, (key, color) in enumerate((("mismatch", "#c62828"), ("ocp_mismatch", "#9e9e9e"))):
            v = m["classes"][c][key]
            bh = scale * math.log10(v + 1)
            parts.append(f'<rect x="{x + j * bw}" y="{120 - bh:.1f}" width="{bw - 1}" '
                         f'height="{bh:.1f}" fill="{color}"><title>{_html.escape(c)}: '
                         f'{key.replace("_", " ")} {v} of {m["classes"][c]["n"]}</title></rect>')
        parts.append(f'<text x="{x + 8}" y="128" font-size="9" transform="rotate(60 {x + 8} 128)"'
                     f'>{_html.escape(c)}</text>')
    parts.append('<text x="2" y="14" font-size="10">log items</text>')
    parts.append("</svg>")
    return "".join(parts)


def html(res: dict) -> str:
    import re

    md = markdown(res)
    body = []
    in_table = False
    for line in md.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            if set("".join(cells)) <= set("-"):
                continue
            tag = "th" if not in_table else "td"
            if not in_table:
                body.append("<table>")
                in_table = True
            body.append("<tr>" + "".join(f"<{tag}>{_inline(c)}</{tag}>" for c in cells)
                        + "</tr>")
            continue
        if in_table:
            body.append("</table>")
            in_table = False
        if line.startswith("# "):
            body.append(f"<h1>{_inline(line[2:])}</h1>")
        elif line.startswith("## "):
            body.append(f"<h2>{_inline(line[3:])}</h2>")
        elif line.startswith("- "):
            body.append(f"<p class=li>{_inline(line[2:])}</p>")
        elif line.startswith("<!--") or not line.strip():
            continue
        else:
            body.append(f"<p>{_inline(line)}</p>")
    if in_table:
        body.append("</table>")
    body.append("<h2>Mismatches by probe class</h2><p>Red: items that differ from the profile; "
                "grey: items that differ from <code>ocp</code> (log scale).</p>")
    for r in res["implementations"]:
        for m in r.get("modes", []):
            if m["status"] == "run":
                classes = BLOCK_CLASSES if m["kind"] == "block" else CAST_CLASSES
                body.append(f"<figure><figcaption>{_html.escape(r['name'])} · "
                            f"{_html.escape(m['name'])} (<code>{_html.escape(m['profile'])}"
                            f"</code>)</figcaption>{_svg(m, classes)}</figure>")
    css = ("body{font-family:sans-serif;margin:1.5em;max-width:110em}table{border-collapse:"
           "collapse;font-size:12px}td,th{border:1px solid #bbb;padding:2px 5px;vertical-align:"
           "top}th{background:#eee}figure{display:inline-block;margin:0 1em 1em 0}"
           "figcaption{font-size:12px}p.li{margin:.2em 0 .2em 1em;font-size:13px}"
           "strong{color:#c62828}")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>mxgold conformance matrix</title>"
            f"<style>{css}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def _inline(s: str) -> str:
    import re

    s = _html.escape(s.replace("\\|", "|"), quote=False)
    s = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", s)
    s = re.sub(r"`(.+?)`", r"<code>\1</code>", s)
    return s
