"""Summarises a scripts/peers.sh run (OUT/runs) as the tables of docs/peers.md.

Reads only the JSON the tools wrote; imports nothing of theirs. A fixture is
positive or negative by its CASE.md title (else its pos-/neg- name); a tool
flags it when it reports a finding at high or critical severity in one of
its files (the peers ran once over all fixtures: a finding belongs to the
fixture whose folder holds its file, the deepest one). On the real-code
targets the labels are per agent (bench/real/labels) while the peers report
per file and line, so that comparison is by file: the files holding a
labelled agent with a true verdict (rule-of-two or missing-approval)
against the files whose labelled agents are all false.
"""
import glob, json, os, sys
from collections import defaultdict

import yaml

out, root = sys.argv[1], sys.argv[2]
HIGH = {"critical", "high"}
PEERS = ["ziran", "agent-audit-kit"]


def load(path):
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return None
    i = text.find("{")
    try:
        return json.loads(text[i:]) if i >= 0 else None
    except ValueError:
        return None


def meta(name):
    m = {"secs": 0.0, "rcs": []}
    for p in glob.glob(os.path.join(out, "runs", name + ".meta")):
        target, kind, rc, secs = open(p).read().strip().split("\t")
        m["secs"] += float(secs)
        m["rcs"].append(int(rc))
    return m


def peer_findings(tool, slug, tree):
    """[(severity, path relative to tree)] of one peer run, None when it wrote no report."""
    if tool == "ziran":
        d = load(os.path.join(out, "runs", f"ziran@{slug}.out"))
        if d is None:
            return None
        return [(str(f.get("severity", "")).lower(), os.path.relpath(f["file"], tree) if f.get("file") else "") for f in d.get("findings", [])]
    d = load(os.path.join(out, "runs", f"agent-audit-kit@{slug}.json"))
    if d is None:
        return None
    return [(str(f.get("severity", "")).lower(), f.get("filePath") or "") for f in d.get("findings", [])]


def radar(slug):
    """agents found, vulnerabilities, seconds over the Agentic Radar runs of a target."""
    agents = vulns = 0
    secs = 0.0
    for p in glob.glob(os.path.join(out, "runs", f"agentic-radar-*@{slug}.meta")):
        secs += float(open(p).read().strip().split("\t")[3])
        d = load(p[: -len(".meta")] + ".json")
        for n in (d or {}).get("nodes", []):
            agents += n.get("node_type") == "agent"
            vulns += len(n.get("vulnerabilities") or [])
    return agents, vulns, secs


def acg(name):
    d = load(os.path.join(out, "runs", name + ".out"))
    if d is None:
        return None, 0
    return [(f["severity"], f["location"]["file"]) for f in d.get("findings", [])], len(d.get("agents", []))


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


def tally(s, pol, flagged):
    if pol is not None:
        s[{(True, True): "tp", (True, False): "fn", (False, True): "fp", (False, False): "tn"}[(pol, flagged)]] += 1


def pr(s):
    p = s["tp"] / (s["tp"] + s["fp"]) if s["tp"] + s["fp"] else 0
    r = s["tp"] / (s["tp"] + s["fn"]) if s["tp"] + s["fn"] else 0
    return f"{p:.2f}", f"{r:.2f}"


# Fixtures.
fixtures = [l.strip() for l in open(os.path.join(out, "fixtures.txt")) if l.strip()]
ftree = os.path.join(out, "trees", "fixtures")
fx = {t: defaultdict(float) for t in ["acg"] + PEERS}
for rel in fixtures:
    fs, agents = acg("acg@fixture_" + rel.replace("/", "_"))
    s = fx["acg"]
    s["secs"] += meta("acg@fixture_" + rel.replace("/", "_"))["secs"]
    if fs is None:
        s["failed"] += 1
        continue
    s["agents"] += agents
    s["findings"] += len(fs)
    high = [f for f in fs if f[0] in HIGH]
    s["high"] += len(high)
    tally(s, polarity(rel), bool(high))


def owner(path):
    best = None
    for rel in fixtures:
        if path == rel or path.startswith(rel + "/"):
            if best is None or len(rel) > len(best):
                best = rel
    return best


for t in PEERS:
    s = fx[t]
    s["secs"] = meta(f"{t}@fixtures")["secs"]
    fs = peer_findings(t, "fixtures", ftree)
    if fs is None:
        s["failed"] += 1
        continue
    s["findings"] = len(fs)
    flagged = defaultdict(int)
    for sev, path in fs:
        if sev in HIGH:
            s["high"] += 1
            o = owner(path)
            if o:
                flagged[o] += 1
    for rel in fixtures:
        tally(s, polarity(rel), flagged[rel] > 0)
ra_agents, ra_vulns, ra_secs = radar("fixtures")

# Real-code targets.
targets = [l.rstrip("\n").split("\t") for l in open(os.path.join(out, "targets.tsv"))]


def labelled_files(repo):
    path = os.path.join(root, "bench/real/labels", repo.replace("/", "__") + ".yaml")
    pos, neg, n = set(), set(), 0
    try:
        doc = yaml.safe_load(open(path))
    except OSError:
        return pos, neg, n
    verdict = defaultdict(list)
    for a in doc.get("agents") or []:
        n += 1
        for f in [a["file"]] + list(a.get("also") or []):
            f = str(f).rsplit(":", 1)[0]
            for rule in ("rule_of_two", "missing_approval"):
                verdict[f].append(str(a.get(rule, "")).split(":", 1)[0].strip().lower())
    for f, vs in verdict.items():
        if "true" in vs:
            pos.add(f)
        elif vs and all(v == "false" for v in vs):
            neg.add(f)
    return pos, neg, n


rp = {t: defaultdict(float) for t in ["acg"] + PEERS + ["agentic-radar"]}
labels_true = labels_false = labelled_agents = 0
for repo, commit, paths, fws in targets:
    slug = repo.replace("/", "_")
    if not glob.glob(os.path.join(out, "runs", f"acg@{slug}.meta")):
        continue
    tree = os.path.join(out, "trees", "repos", repo.replace("/", "+"))
    pos, neg, n = labelled_files(repo)
    labels_true += len(pos)
    labels_false += len(neg)
    labelled_agents += n
    runs = {"acg": acg(f"acg@{slug}")}
    for t in PEERS:
        runs[t] = (peer_findings(t, slug, tree), 0)
    for t, (fs, agents) in runs.items():
        s = rp[t]
        s["targets"] += 1
        s["secs"] += meta(f"{t}@{slug}")["secs"]
        if fs is None:
            s["failed"] += 1
            continue
        s["agents"] += agents
        s["findings"] += len(fs)
        files = {p for sev, p in fs if sev in HIGH and p}
        s["high"] += sum(1 for sev, _ in fs if sev in HIGH)
        s["true"] += len(files & pos)
        s["false"] += len(files & neg)
        s["other"] += len(files - pos - neg)
    a, v, secs = radar(slug)
    s = rp["agentic-radar"]
    s["targets"] += 1
    s["agents"] += a
    s["findings"] += v
    s["secs"] += secs

print("Fixtures\n")
print("| tool | runs failed | agents found | findings | high or critical | TP | FP | FN | TN | precision | recall | time (s) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for t in ["acg"] + PEERS:
    s = fx[t]
    p, r = pr(s)
    print(f"| {t} | {int(s['failed'])} | {int(s['agents']) if t == 'acg' else '-'} | {int(s['findings'])} | {int(s['high'])} | {int(s['tp'])} | {int(s['fp'])} | {int(s['fn'])} | {int(s['tn'])} | {p} | {r} | {s['secs']:.0f} |")
print(f"| agentic-radar (langgraph, crewai, openai-agents folders) | - | {ra_agents} | {ra_vulns} | - | - | - | - | - | - | - | {ra_secs:.0f} |")
print(f"\n{len(fixtures)} fixtures, {sum(1 for r in fixtures if polarity(r) is True)} positive, {sum(1 for r in fixtures if polarity(r) is False)} negative.\n")
print("Real-code targets\n")
print(f"{int(rp['acg']['targets'])} targets, {labelled_agents} labelled agents; {labels_true} files hold an agent with a true verdict, {labels_false} files only agents with false verdicts.\n")
print("| tool | runs failed | agents found | findings | high or critical | files flagged: true label | only false labels | unlabelled | time (s) |")
print("|---|---|---|---|---|---|---|---|---|")
for t in ["acg"] + PEERS + ["agentic-radar"]:
    s = rp[t]
    print(f"| {t} | {int(s['failed'])} | {int(s['agents']) if t in ('acg', 'agentic-radar') else '-'} | {int(s['findings'])} | {int(s['high']) if t != 'agentic-radar' else '-'} | {int(s['true'])} | {int(s['false'])} | {int(s['other'])} | {s['secs']:.0f} |")
json.dump({"fixtures": fx, "repos": rp}, open(os.path.join(out, "summary.json"), "w"), indent=1)
