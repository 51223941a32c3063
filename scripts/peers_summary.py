"""Summarises a scripts/peers.sh run (OUT/runs) as the tables of docs/peers.md.

Reads only the JSON the tools wrote; imports nothing of theirs. A fixture is
positive or negative by its CASE.md title; a tool flags it when it reports a
finding at high or critical severity (Agentic Radar has no severities: any
vulnerability on a node). On the real-code targets the labels are per agent
(bench/real/labels) while the peers report per file and line, so the
comparison there is by file: files holding a labelled agent with a true
verdict (rule-of-two or missing-approval) against files whose labelled
agents are all false.
"""
import glob, json, os, sys
from collections import defaultdict

import yaml

out, root = sys.argv[1], sys.argv[2]
HIGH = {"critical", "high"}
TOOLS = ["acg", "ziran", "agent-audit-kit", "agentic-radar"]


def load(path):
    try:
        with open(path) as f:
            text = f.read()
        i = text.find("{")
        return json.loads(text[i:]) if i >= 0 else None
    except (OSError, ValueError):
        return None


def findings(tool, base, tree):
    """(severity, file relative to the tree) of one run; None when it failed."""
    if tool == "acg":
        d = load(base + ".out")
        if d is None:
            return None, 0
        return [(f["severity"], f["location"]["file"]) for f in d.get("findings", [])], len(d.get("agents", []))
    if tool == "ziran":
        d = load(base + ".out")
        if d is None:
            return None, 0
        return [(f.get("severity", ""), os.path.relpath(f["file"], tree) if f.get("file") else "") for f in d.get("findings", [])], 0
    if tool == "agent-audit-kit":
        d = load(base + ".json")
        if d is None:
            return None, 0
        return [(f.get("severity", ""), f.get("filePath", "")) for f in d.get("findings", [])], 0
    # agentic-radar: one run per framework; a run that finds no workflow exits 1
    fs, agents, ran = [], 0, False
    for g in glob.glob(base.replace("agentic-radar@", "agentic-radar-*@") + ".json"):
        d = load(g)
        if d is None:
            continue
        ran = True
        for n in d.get("nodes", []):
            if n.get("node_type") == "agent":
                agents += 1
            for v in n.get("vulnerabilities") or []:
                fs.append(("high", ""))
    return fs, agents


def meta(base):
    m = {}
    for p in glob.glob(base + ".meta") + glob.glob(base.replace("agentic-radar@", "agentic-radar-*@") + ".meta"):
        target, kind, rc, secs = open(p).read().strip().split("\t")
        m.setdefault("secs", 0.0)
        m["secs"] += float(secs)
        m["target"], m["kind"] = target, kind
        m.setdefault("rcs", []).append(int(rc))
    return m


targets = sorted({open(p).read().split("\t")[0] + "\t" + open(p).read().split("\t")[1] for p in glob.glob(out + "/runs/acg@*.meta")})


def polarity(rel):
    try:
        head = open(os.path.join(root, "testdata", rel, "CASE.md")).readline().lower()
    except OSError:
        return None
    if "(positive" in head:
        return True
    if "(negative" in head:
        return False
    base = os.path.basename(rel)
    return True if base.startswith("pos-") else False if base.startswith("neg-") else None


def labelled_files(repo):
    path = os.path.join(root, "bench/real/labels", repo.replace("/", "__") + ".yaml")
    pos, neg = set(), set()
    try:
        doc = yaml.safe_load(open(path))
    except OSError:
        return pos, neg
    verdict = defaultdict(list)
    for a in doc.get("agents") or []:
        files = [a["file"]] + list(a.get("also") or [])
        for f in files:
            f = str(f).rsplit(":", 1)[0]
            for rule in ("rule_of_two", "missing_approval"):
                v = str(a.get(rule, "")).split(":", 1)[0].strip().lower()
                verdict[f].append(v)
    for f, vs in verdict.items():
        if "true" in vs:
            pos.add(f)
        elif vs and all(v == "false" for v in vs):
            neg.add(f)
    return pos, neg


fx = {t: defaultdict(float) for t in TOOLS}
rp = {t: defaultdict(float) for t in TOOLS}
for line in targets:
    target, kind = line.split("\t")
    slug = target.replace("/", "_")
    tree = os.path.join(out, "trees", "fixtures" if kind == "fixture" else "repos", target if kind == "fixture" else target.replace("/", "+"))
    pol = polarity(target) if kind == "fixture" else None
    pos, neg = labelled_files(target) if kind == "repo" else (set(), set())
    for t in TOOLS:
        base = os.path.join(out, "runs", f"{t}@{slug}")
        m = meta(base)
        fs, agents = findings(t, base, tree)
        s = fx[t] if kind == "fixture" else rp[t]
        s["targets"] += 1
        s["secs"] += m.get("secs", 0)
        s["agents"] += agents
        if fs is None:
            s["failed"] += 1
            continue
        high = [f for f in fs if f[0].lower() in HIGH]
        s["findings"] += len(fs)
        s["high"] += len(high)
        if kind == "fixture" and pol is not None:
            flagged = len(high) > 0
            s[{(True, True): "tp", (True, False): "fn", (False, True): "fp", (False, False): "tn"}[(pol, flagged)]] += 1
        if kind == "repo":
            files = {f[1] for f in high if f[1]}
            s["files_true"] += len(files & pos)
            s["files_false"] += len(files & neg)
            s["files_other"] += len(files - pos - neg)
            s["label_true"] += len(pos)
            s["label_false"] += len(neg)

def row(t, s, cols):
    return "| " + t + " | " + " | ".join(c(s) for c in cols) + " |"

n = lambda k: (lambda s: str(int(s[k])))
print("Fixtures (CASE.md: positive or negative)\n")
print("| tool | fixtures | failed runs | agents found | findings | high+ | TP | FP | FN | TN | precision | recall | time (s) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for t in TOOLS:
    s = fx[t]
    prec = s["tp"] / (s["tp"] + s["fp"]) if s["tp"] + s["fp"] else 0
    rec = s["tp"] / (s["tp"] + s["fn"]) if s["tp"] + s["fn"] else 0
    print(row(t, s, [n("targets"), n("failed"), n("agents"), n("findings"), n("high"), n("tp"), n("fp"), n("fn"), n("tn"),
                     lambda s: f"{prec:.2f}", lambda s: f"{rec:.2f}", lambda s: f"{s['secs']:.0f}"]))
print("\nReal-code targets (bench/real/manifest.yaml)\n")
print("| tool | targets | failed runs | agents found | findings | high+ | flagged files with a true label | flagged files with only false labels | flagged unlabelled files | time (s) |")
print("|---|---|---|---|---|---|---|---|---|---|")
for t in TOOLS:
    s = rp[t]
    print(row(t, s, [n("targets"), n("failed"), n("agents"), n("findings"), n("high"),
                     lambda s: f"{int(s['files_true'])} of {int(s['label_true'])}", lambda s: f"{int(s['files_false'])} of {int(s['label_false'])}",
                     n("files_other"), lambda s: f"{s['secs']:.0f}"]))
json.dump({"fixtures": fx, "repos": rp}, open(os.path.join(out, "summary.json"), "w"), indent=1)
