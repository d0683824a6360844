"""Leave-one-set-out study: can a scored model beat / help the offline review reader?

Run from the repository root: PYTHONPATH=src nice .venv/bin/python scripts/revml_study.py
(REVML_NOSPAN=1: the pure n-gram model, no rule-located clause windows; REVML_OUT: where the table goes).
A study, not part of the product (docs/revml_notes.md).
Reads every review set in src/matjip/eval/ EXCEPT review_test19 (held out, never opened).
numpy only (scikit-learn is not in the venv). Deterministic (fixed seed, full-batch Adam).
"""

from __future__ import annotations

import json
import os
import pickle
import re
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

SRC = Path(__file__).resolve().parents[1] / "src"
EVAL = SRC / "matjip" / "eval"
CACHE = Path("/tmp/revml_rules_cache.pkl")  # the rule reader's reads, cached between runs
SETS = ["review_set", "review_dev2", "review_dev3"] + [f"review_test{i}" for i in range(3, 19)]
assert all("test19" not in s for s in SETS)
TEST = [f"review_test{i}" for i in range(14, 19)]
FIELDS = ("convenience", "atmosphere", "occasion")
MEAL = {"점심", "저녁"}


def load_all():
    from matjip.eval.review_eval import load

    items = []
    for s in SETS:
        for it in load("all", EVAL / f"{s}.jsonl"):
            items.append((s, it))
    return items


def rule_reads(items):
    if CACHE.exists():
        return pickle.loads(CACHE.read_bytes())
    from matjip.ingest.enrich import get_enricher
    from matjip.settings import Settings

    enr = get_enricher("offline", Settings())
    t = time.time()
    res = enr.enrich_many([it.document() for _, it in items])
    print(f"rule reader: {len(items)} items in {time.time() - t:.1f}s", file=sys.stderr)
    out = []
    for (_, it), r in zip(items, res, strict=True):
        d = {}
        for f in FIELDS:
            pred = set(r.values(f)) - MEAL
            ev = {}
            for kind, lst in (("for", r.evidence), ("against", r.against)):
                for e in lst:
                    if e.field != f or e.value in MEAL:
                        continue
                    txt = it.text
                    if e.start is not None and e.end is not None and e.source.startswith("reviews"):
                        win = txt[max(0, e.start - 6) : e.end + 12]
                    else:
                        win = e.span
                    ev.setdefault(e.value, []).append((kind, win))
            d[f] = (pred, ev)
        out.append(d)
    CACHE.write_bytes(pickle.dumps(out))
    return out


def ngrams(s: str, ns=(2, 3)):
    s = re.sub(r"\s+", " ", s)
    return {s[i : i + n] for n in ns for i in range(len(s) - n + 1)}


H = 1024  # hashed span-window features per value


def hsh(g: str) -> int:
    return (int.from_bytes(g.encode("utf-8"), "little") * 2654435761) % H  # deterministic, not hash()


class Data:
    def __init__(self, items, rules):
        self.sets = np.array([s for s, _ in items])
        self.texts = [it.text for _, it in items]
        self.grams = [ngrams(t) for t in self.texts]
        # candidate values per field: gold-true anywhere or read by the rules anywhere
        self.vals = []
        for f in FIELDS:
            vs = set()
            for (_, it), r in zip(items, rules, strict=True):
                vs |= {v for v, p in it.gold[f].items() if p} | r[f][0]
            for v in sorted(vs - MEAL):
                self.vals.append((f, v))
        V = len(self.vals)
        n = len(items)
        self.Y = np.zeros((n, V), np.float32)
        self.R = np.zeros((n, V), np.float32)  # rule reader's read
        self.A = np.zeros((n, V), np.float32)  # rule reader saw evidence against
        self.E = np.zeros((n, V), np.float32)  # rule reader saw evidence for (kept or not)
        trip = []  # (item, value, hashed n-gram of the rule's clause window)
        self.gold_out = np.zeros((n, 3), np.int32)  # gold positives outside candidate vals
        idx = {fv: j for j, fv in enumerate(self.vals)}
        for i, ((_, it), r) in enumerate(zip(items, rules, strict=True)):
            for f in FIELDS:
                for v, p in it.gold[f].items():
                    if p and v not in MEAL:
                        self.Y[i, idx[(f, v)]] = 1
                pred, ev = r[f]
                for v in pred:
                    self.R[i, idx[(f, v)]] = 1
                for v, lst in ev.items():
                    if (f, v) not in idx:
                        continue
                    j = idx[(f, v)]
                    for kind, win in lst:
                        (self.E if kind == "for" else self.A)[i, j] = 1
                        for g in ngrams(win, (1, 2, 3)):
                            trip.append((i, j, hsh(kind[0] + g)))
        if os.environ.get("REVML_NOSPAN"):  # pure n-gram model: no rule-located clause windows
            trip = []
        t = np.array(sorted(set(trip)), np.int64).reshape(-1, 3)
        self.ti, self.tj, self.th = t[:, 0], t[:, 1], t[:, 2]
        self.field_of = np.array([FIELDS.index(f) for f, _ in self.vals])


def text_matrix(d: Data, tr, rows, top=6000):
    df = Counter()
    for i in tr:
        df.update(d.grams[i])
    vocab = {g: k for k, (g, c) in enumerate(df.most_common(top)) if c >= 3}
    X = np.zeros((len(rows), len(vocab)), np.float32)
    for r, i in enumerate(rows):
        ks = [vocab[g] for g in d.grams[i] if g in vocab]
        if ks:
            X[r, ks] = 1.0 / np.sqrt(len(ks))
    return X, vocab


def fit(d: Data, tr, hybrid: bool, iters=150, lr=0.05, l2=1e-4):
    """Multi-label logistic regression: shared text weights W (D×V) + per-value span weights U (V×H)
    + per-value rule-flag weights (hybrid only). Full-batch Adam, deterministic."""
    tr = np.asarray(tr)
    X, vocab = text_matrix(d, tr, tr)
    n, V = len(tr), len(d.vals)
    pos = {i: r for r, i in enumerate(tr)}
    m = np.isin(d.ti, tr)
    ti = np.array([pos[i] for i in d.ti[m]], np.int64)
    tj, th = d.tj[m], d.th[m]
    flat = tj * H + th
    Y = d.Y[tr]
    F = np.stack([d.R[tr], d.A[tr], d.E[tr]], -1) if hybrid else None
    P = {
        "W": np.zeros((X.shape[1], V), np.float32),
        "b": np.zeros(V, np.float32),
        "U": np.zeros(V * H, np.float32),
        "c": np.zeros((V, 3), np.float32),
    }
    mom = {k: np.zeros_like(v) for k, v in P.items()}
    vel = {k: np.zeros_like(v) for k, v in P.items()}
    prior = Y.mean(0).clip(1e-4, 1 - 1e-4)
    P["b"][:] = np.log(prior / (1 - prior))
    for it in range(1, iters + 1):
        Z = X @ P["W"] + P["b"]
        np.add.at(Z, (ti, tj), P["U"][flat]) if len(ti) else None
        if hybrid:
            Z += (F * P["c"][None]).sum(-1)
        G = (1 / (1 + np.exp(-Z)) - Y) / n
        g = {
            "W": X.T @ G + l2 * P["W"],
            "b": G.sum(0),
            "U": np.bincount(flat, weights=G[ti, tj], minlength=V * H).astype(np.float32) + l2 * P["U"],
            "c": (G[..., None] * F).sum(0) if hybrid else np.zeros((V, 3), np.float32),
        }
        for k in P:
            mom[k] = 0.9 * mom[k] + 0.1 * g[k]
            vel[k] = 0.999 * vel[k] + 0.001 * g[k] ** 2
            P[k] -= lr * (mom[k] / (1 - 0.9**it)) / (np.sqrt(vel[k] / (1 - 0.999**it)) + 1e-8)
    return P, vocab, hybrid


def predict(d: Data, model, rows):
    P, vocab, hybrid = model
    rows = np.asarray(rows)
    X = np.zeros((len(rows), len(vocab)), np.float32)
    for r, i in enumerate(rows):
        ks = [vocab[g] for g in d.grams[i] if g in vocab]
        if ks:
            X[r, ks] = 1.0 / np.sqrt(len(ks))
    Z = X @ P["W"] + P["b"]
    pos = {i: r for r, i in enumerate(rows)}
    m = np.isin(d.ti, rows)
    if m.any():
        ti = np.array([pos[i] for i in d.ti[m]])
        np.add.at(Z, (ti, d.tj[m]), P["U"][d.tj[m] * H + d.th[m]])
    if hybrid:
        Z += (np.stack([d.R[rows], d.A[rows], d.E[rows]], -1) * P["c"][None]).sum(-1)
    return 1 / (1 + np.exp(-Z))


def prf(pred, Y, d: Data, extra_fn):
    """per field (tp, fp, fn); extra_fn: gold positives outside the candidate values (always missed)."""
    out = []
    for fi in range(3):
        c = d.field_of == fi
        p, y = pred[:, c] > 0, Y[:, c] > 0
        out.append(((p & y).sum(), (p & ~y).sum(), (~p & y).sum() + extra_fn[fi]))
    return np.array(out)


def f1(c):
    tp, fp, fn = c
    return 2 * tp / max(1, 2 * tp + fp + fn)


def tune(d, prob, rows):
    """Thresholds per field from out-of-fold probabilities on training sets only:
    t_model (model alone) and (t_veto, t_add) for rules+model, each maximising F1."""
    grid = np.round(np.arange(0.05, 0.96, 0.05), 2)
    Y, R = d.Y[rows], d.R[rows]
    best = []
    for fi in range(3):
        c = d.field_of == fi
        y, r, p = Y[:, c] > 0, R[:, c] > 0, prob[:, c]

        def sc(pr, y=y):
            return f1(((pr & y).sum(), (pr & ~y).sum(), (~pr & y).sum()))

        tm = max(grid, key=lambda t: sc(p >= t))
        tv, ta = max(
            ((v, a) for v in grid for a in grid if a >= v),
            key=lambda va: sc((r & (p >= va[0])) | (~r & (p >= va[1]))),
        )
        best.append((tm, tv, ta))
    return best


def main():
    items = load_all()
    print(f"{len(items)} items from {len(SETS)} sets", file=sys.stderr)
    rules = rule_reads(items)
    d = Data(items, rules)
    print(f"{len(d.vals)} candidate values, {len(d.ti)} span-window n-grams", file=sys.stderr)
    allsets = np.array(SETS)
    table = {}
    tot = {k: np.zeros((3, 3), int) for k in ("rules", "model", "hybridmodel", "veto/add", "veto/add-h")}
    for ts in TEST:
        t0 = time.time()
        te = np.where(d.sets == ts)[0]
        tr = np.where(d.sets != ts)[0]
        trsets = [s for s in allsets if s != ts]
        # inner OOF on training sets: two group folds (alternate sets)
        oof = {h: np.zeros((len(tr), len(d.vals)), np.float32) for h in (False, True)}
        for k in range(2):
            inner_te_sets = set(trsets[k::2])
            mask = np.isin(d.sets[tr], list(inner_te_sets))
            for h in (False, True):
                mdl = fit(d, tr[~mask], h)
                oof[h][mask] = predict(d, mdl, tr[mask])
        th_text = tune(d, oof[False], tr)
        th_hyb = tune(d, oof[True], tr)
        m_text, m_hyb = fit(d, tr, False), fit(d, tr, True)
        p_text, p_hyb = predict(d, m_text, te), predict(d, m_hyb, te)
        Y, R = d.Y[te], d.R[te] > 0
        extra = np.zeros(3, int)
        items_te = [items[i][1] for i in te]
        fvals = {f: {v for (ff, v) in d.vals if ff == f} for f in FIELDS}
        for it in items_te:
            for fi, f in enumerate(FIELDS):
                extra[fi] += sum(
                    1 for v, p in it.gold[f].items() if p and v not in MEAL and v not in fvals[f]
                )
        thr = lambda th, k: np.array([th[fi][k] for fi in d.field_of])  # noqa: E731
        preds = {
            "rules": R,
            "model": p_text >= thr(th_text, 0),
            "hybridmodel": p_hyb >= thr(th_hyb, 0),
            "veto/add": (R & (p_text >= thr(th_text, 1))) | (~R & (p_text >= thr(th_text, 2))),
            "veto/add-h": (R & (p_hyb >= thr(th_hyb, 1))) | (~R & (p_hyb >= thr(th_hyb, 2))),
        }
        for k, p in preds.items():
            c = prf(p, Y, d, extra)
            table[(ts, k)] = c
            tot[k] += c
        print(ts, "thresholds text", th_text, "hyb", th_hyb, f"{time.time() - t0:.0f}s", file=sys.stderr)
        for k in preds:
            c = table[(ts, k)]
            print(
                ts,
                k,
                " ".join(
                    f"{FIELDS[fi][:4]} P{c[fi][0] / max(1, c[fi][0] + c[fi][1]):.3f} R{c[fi][0] / max(1, c[fi][0] + c[fi][2]):.3f}"
                    for fi in range(3)
                ),
                flush=True,
            )
    print("\nPOOLED test14..18 (tp, fp, fn per field)")
    for k, c in tot.items():
        row = []
        for fi in range(3):
            tp, fp, fn = c[fi]
            row.append(
                f"{FIELDS[fi]} P {tp / max(1, tp + fp):.3f} R {tp / max(1, tp + fn):.3f} ({tp},{fp},{fn})"
            )
        tp, fp, fn = c.sum(0)
        row.append(f"micro P {tp / max(1, tp + fp):.3f} R {tp / max(1, tp + fn):.3f}")
        print(k, " | ".join(row), flush=True)
    out = {f"{a}|{b}": v.tolist() for (a, b), v in table.items()}
    Path(os.environ.get("REVML_OUT", "/tmp/revml_table.json")).write_text(json.dumps(out))


if __name__ == "__main__":
    main()
