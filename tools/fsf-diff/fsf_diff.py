#!/usr/bin/env python3
"""Differential tester: houserules' Fairy-Stockfish plugin against Fairy-Stockfish (pyffish).

Plays seeded random games in pyffish for every variant of plugins/fairy/variants/*.ini, plus
scripted games that end by stalemate, repetition and perpetual check, and records every
position on the way (start FEN + moves). For each position it asks pyffish for the legal
moves (UCI), their SAN, the FEN, check and the result, and asks houserules the same through
the batch mode of the plugin's integration test (`cargo test --release -p houserules-fairy
--test fsf -- --ignored batch`, which loads the BUILT plugin through the host library).
Any difference is printed; the exit status is 1 if there is one.

    python3 tools/fsf-diff/fsf_diff.py --games 20 --seed 1
    python3 tools/fsf-diff/fsf_diff.py --games 4 --seed 7 --record plugins/fairy/tests/data/fsf_fixture.json

`--record FILE` also writes the positions with pyffish's answers (a fixture checked by
`cargo test` without Python). Requires `pip install pyffish`.
"""
import argparse
import glob
import json
import os
import random
import subprocess
import sys
import tempfile

import pyffish as sf

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# Scripted games: (variant, start FEN, moves). Each ends in a result worth checking.
SCRIPTED = [
    # Stalemate (stalemateValue = loss): Black to move, no move, not in check.
    ("mixedchess_v5", "k7/8/1K6/4B3/8/8/8/8[] b - - 0 1", []),
    # Perpetual check by White: White loses the 4-fold repetition.
    ("mixedchess_v5", "R6k/8/8/8/8/8/8/4K3[] b - - 0 1",
     ["h8h7", "a8a7", "h7h8", "a7a8"] * 3),
    # Perpetual check by Black: Black loses.
    ("mixedchess_v5", "4k3/8/8/8/8/8/8/r6K[] w - - 0 1",
     ["h1h2", "a1a2", "h2h1", "a2a1"] * 3),
    # Quiet 4-fold repetition: absolute value, a loss for White whoever is to move.
    ("mixedchess_v5", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1",
     ["e1d1", "e8d8", "d1e1", "d8e8"] * 3),
    ("mixedchess_v5", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1",
     ["e1d1", "e8d8", "d1e1", "d8e8"] * 3 + ["e1d1"]),
    # Connect-5 for Black (the side that just moved) in tictacrook.
    ("tictacrook_v1", "8/8/8/8/8/8/8/8[PPPPPPPPpppppppp] w - - 0 1",
     ["P@a2", "P@a1", "P@b2", "P@b1", "P@c2", "P@c1", "P@d2", "P@d1", "P@h8", "P@e1"]),
    # tictacrook: threefold repetition (nFoldRule defaults to 3, a draw).
    ("tictacrook_v1", "pp1pp1pp/8/8/8/8/8/8/PP1PP1PP[] w - - 0 1",
     ["a1a4", "a8a5", "a4a1", "a5a8"] * 2),
]


def load_variants():
    text = ""
    for f in sorted(glob.glob(os.path.join(ROOT, "plugins", "fairy", "variants", "*.ini"))):
        text += open(f).read() + "\n"
    sf.load_variant_config(text)
    names = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            names.append(line[1:-1].split(":")[0])
    return names


def value_to_result(value, stm):
    if value == 0:
        return "1/2-1/2"
    white_wins = (value > 0) == (stm == "w")
    return "1-0" if white_wins else "0-1"


def board_of(fen):
    """Square name -> piece letter, from a FEN's board field (pocket and `+` ignored)."""
    board = fen.split()[0].split("[")[0].replace("+", "")
    rows = board.split("/")
    out = {}
    for i, row in enumerate(rows):
        rank = len(rows) - i
        f = 0
        num = ""
        for ch in row + " ":
            if ch.isdigit():
                num += ch
                continue
            if num:
                f += int(num)
                num = ""
            if ch == " ":
                break
            out["%s%d" % (chr(97 + f), rank)] = ch
            f += 1
    return out


def sample_for_san(legal, cur, rng):
    """pyffish takes ~10 ms a call: SAN is asked for a sample of the moves: every promotion,
    every move that shares its destination with another move of a piece of the same letter
    (disambiguation), some captures and some others."""
    board = board_of(cur)
    by_dest = {}
    for m in legal:
        if "@" in m:
            continue
        by_dest.setdefault((board.get(m[:2]), m[2:4]), []).append(m)
    pick = {m for m in legal if m.endswith("+") or len(m) == 5 and m[4].isalpha()}
    for group in by_dest.values():
        if len({g[:2] for g in group}) > 1:
            pick.update(group)
    caps = [m for m in legal if "@" not in m and m[2:4] in board]
    pick.update(rng.sample(caps, min(3, len(caps))))
    pick.update(rng.sample(legal, min(4, len(legal))))
    return sorted(pick)


def to_houserules(variant, cur, m):
    """FSF's UCI `e5e6+` (shogi-style promotion) is houserules' `e5e6c` (promoted letter)."""
    if not m.endswith("+"):
        return m
    san = sf.get_san(variant, cur, m)
    return m[:-1] + san.split("=")[1][0].lower()


def fsf_answer(variant, fen, moves, rng):
    cur = sf.get_fen(variant, fen, moves)
    stm = cur.split()[1]
    legal = sf.legal_moves(variant, cur, [])
    result = None
    if not legal:
        result = value_to_result(sf.game_result(variant, cur, []), stm)
    else:
        imm, v = sf.is_immediate_game_end(variant, cur, [])
        opt, v2 = sf.is_optional_game_end(variant, fen, moves)
        if imm:
            result = value_to_result(v, stm)
        elif opt:
            result = value_to_result(v2, stm)
    sans = {m: sf.get_san(variant, cur, m) for m in sample_for_san(legal, cur, rng)}
    conv = {m: (m[:-1] + sans[m].split("=")[1][0].lower() if m.endswith("+") else m) for m in legal}
    return {
        "fen": cur,
        "moves": sorted(conv.values()),
        "san": {conv[m]: s for m, s in sans.items()},
        "check": bool(sf.gives_check(variant, cur, [])),
        "result": result,
    }


def random_game(variant, rng, max_plies):
    """A random game: positions (fen, FSF moves, houserules moves) until the game ends."""
    fen = sf.start_fen(variant)
    moves = []
    hr = []
    cases = [(fen, [], [])]
    for _ in range(max_plies):
        legal = sf.legal_moves(variant, fen, moves)
        if not legal:
            break
        if sf.is_optional_game_end(variant, fen, moves)[0]:
            break
        # Prefer captures, promotions and checks now and then, to reach hands and zones.
        r = rng.random()
        board = board_of(sf.get_fen(variant, fen, moves))
        special = [m for m in legal if m.endswith("+") or ("@" not in m and m[2:4] in board)]
        if special and r < 0.35:
            m = rng.choice(special)
        else:
            m = rng.choice(legal)
        hr = hr + [to_houserules(variant, sf.get_fen(variant, fen, moves), m)]
        moves = moves + [m]
        cases.append((fen, list(moves), list(hr)))
    return cases


def run_houserules(cases):
    with tempfile.TemporaryDirectory() as d:
        cin = os.path.join(d, "cases.json")
        cout = os.path.join(d, "answers.json")
        with open(cin, "w") as f:
            json.dump([{"variant": v, "fen": fen, "moves": m} for v, fen, m in cases], f)
        env = dict(os.environ, FSF_DIFF_IN=cin, FSF_DIFF_OUT=cout)
        subprocess.run(
            ["cargo", "test", "--release", "-q", "-p", "houserules-fairy", "--test", "fsf", "--",
             "--ignored", "--exact", "batch"],
            cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
        with open(cout) as f:
            return json.load(f)


def compare(ours, fsf):
    if "error" in ours:
        return ["houserules error: " + ours["error"]]
    d = []
    if ours["fen"] != fsf["fen"]:
        d.append("FEN: houserules %s / FSF %s" % (ours["fen"], fsf["fen"]))
    if ours["result"] != fsf["result"]:
        d.append("result: houserules %s (%s) / FSF %s" % (ours["result"], ours.get("termination"), fsf["result"]))
    if fsf["result"] is None or fsf["moves"]:
        sans = dict((m, s) for m, s in ours["moves"])
        a, b = set(sans), set(fsf["moves"])
        if a != b:
            d.append("moves: only houserules %s, only FSF %s" % (sorted(a - b)[:8], sorted(b - a)[:8]))
        for m, s in fsf["san"].items():
            if m in sans and sans[m] != s:
                d.append("SAN of %s: houserules %s / FSF %s" % (m, sans[m], s))
        if ours["check"] != fsf["check"]:
            d.append("check: houserules %s / FSF %s" % (ours["check"], fsf["check"]))
    return d


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10, help="random games per variant")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=120)
    ap.add_argument("--record", help="write positions + FSF answers to this fixture file")
    args = ap.parse_args()
    variants = load_variants()
    rng = random.Random(args.seed)
    cases = []
    for v in variants:
        for _ in range(args.games):
            cases += [(v, fen, m, h) for fen, m, h in random_game(v, rng, args.max_plies)]
    for v, fen, moves in SCRIPTED:
        cases += [(v, fen, moves[:i], moves[:i]) for i in range(len(moves) + 1)]
    fsf = [fsf_answer(v, fen, m, rng) for v, fen, m, _ in cases]
    ours = run_houserules([(v, fen, h) for v, fen, _, h in cases])
    bad = 0
    stats = {}
    for (v, fen, m, _), o, f in zip(cases, ours, fsf):
        s = stats.setdefault(v, {"positions": 0, "moves": 0, "finished": 0, "in_hand": 0, "promoted": 0, "check": 0})
        s["positions"] += 1
        s["moves"] += len(f["moves"])
        s["finished"] += f["result"] is not None
        s["in_hand"] += "[]" not in f["fen"] and "[" in f["fen"]
        s["promoted"] += "+" in f["fen"].split()[0]
        s["check"] += bool(f["check"])
        diff = compare(o, f)
        if diff:
            bad += 1
            if bad <= 30:
                print("MISMATCH %s %s %s:\n  %s" % (v, fen, " ".join(m), "\n  ".join(diff)))
    for v, s in stats.items():
        print("%s: %s" % (v, s))
    print("%d positions, %d mismatches" % (len(cases), bad))
    if args.record:
        data = {"generator": "tools/fsf-diff/fsf_diff.py --games %d --seed %d" % (args.games, args.seed),
                "pyffish": ".".join(map(str, sf.version())),
                "cases": [{"variant": v, "fen": fen, "moves": h, "fsf": f} for (v, fen, _, h), f in zip(cases, fsf)]}
        with open(args.record, "w") as fh:
            json.dump(data, fh, separators=(",", ":"))
        print("recorded %d cases in %s" % (len(cases), args.record))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
