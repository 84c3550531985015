#!/usr/bin/env python3
"""Ply-by-ply differential of `houserules analyze` against python-chess on random games.

python-chess plays seeded random games (uniform legal moves, from the standard start and from
Chess960 starts) and writes them as PGN in its own SAN. `houserules analyze --jsonl` replays
the file; for every ply the two must agree on the SAN (check marks included), the coordinate
form (python-chess's UCI form; for a Chess960 castle, king takes rook, which houserules writes
only where the king-target form is another move's, so castles there are compared by their
squares), the FEN after the move, and at the end of each game on the result by the rules.

    python3 tools/pgn-check/random_plies.py --games 2000 --seed 1 \\
        [--houserules target/release/houserules] [--chess960 0.3] [--max-plies 300]

Exits 1 on any disagreement (the first ten are printed), 0 otherwise, with the counts.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

import chess

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import TERMINATION  # noqa: E402  (houserules' names of python-chess's endings)


def random_game(rng, chess960, max_plies):
    """A random game: its start board and, per ply, python-chess's SAN, UCI move and FEN."""
    if chess960:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
    else:
        board = chess.Board()
    start = board.copy()
    plies = []
    while len(plies) < max_plies and board.outcome() is None:
        move = rng.choice(list(board.legal_moves))
        san = board.san(move)
        castle = board.is_castling(move)
        board.push(move)
        plies.append({"san": san, "uci": move.uci(), "castle": castle, "fen": board.fen()})
    o = board.outcome()
    result = {
        "result": o.result() if o else "*",
        "termination": TERMINATION.get(o.termination, "other") if o else "unfinished",
    }
    return start, plies, result


def pgn_of(start, plies, result, chess960):
    tags = ['[Event "random"]', f'[Result "{result}"]']
    if chess960:
        tags += ['[Variant "Chess960"]', f'[FEN "{start.fen()}"]', '[SetUp "1"]']
    moves = []
    for i, p in enumerate(plies):
        if i % 2 == 0:
            moves.append(f"{i // 2 + 1}.")
        moves.append(p["san"])
    moves.append(result)
    return "\n".join(tags) + "\n\n" + " ".join(moves) + "\n\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--chess960", type=float, default=0.3, help="share of Chess960 games")
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    ap.add_argument("--houserules", default=os.path.join(root, "target", "release", "houserules"))
    a = ap.parse_args()
    rng = random.Random(a.seed)
    games = []
    for _ in range(a.games):
        is960 = rng.random() < a.chess960
        games.append((is960,) + random_game(rng, is960, a.max_plies))
    with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
        for is960, start, plies, want in games:
            f.write(pgn_of(start, plies, want["result"], is960))
        path = f.name
    try:
        out = subprocess.run([a.houserules, "analyze", "--jsonl", "--no-isolate", path],
                             capture_output=True, text=True).stdout.splitlines()
    finally:
        os.unlink(path)
    problems = []
    compared = 0
    if len(out) != len(games):
        problems.append(f"{len(out)} reports for {len(games)} games")
    for k, (line, (is960, _, plies, want)) in enumerate(zip(out, games)):
        r = json.loads(line)
        got = r.get("plies") or []
        if r["errors"] or len(got) != len(plies):
            problems.append(f"game {k + 1}: {len(got)} plies of {len(plies)}, errors {r['errors'][:1]}")
            continue
        for i, (g, p) in enumerate(zip(got, plies)):
            compared += 1
            move_ok = g["move"] == p["uci"] or (
                p["castle"] and is960 and g["move"][:2] == p["uci"][:2])
            if g["san"] != p["san"] or not move_ok or g["fen"] != p["fen"]:
                problems.append(f"game {k + 1} ply {i + 1}: houserules {g['san']} {g['move']} "
                                f"{g['fen']} / python-chess {p['san']} {p['uci']} {p['fen']}")
                break
        res = r["result"]
        if (res["computed"], res["termination"]) != (want["result"], want["termination"]):
            problems.append(f"game {k + 1}: result {res['computed']} {res['termination']} / "
                            f"python-chess {want['result']} {want['termination']}")
    n960 = sum(1 for g in games if g[0])
    print(f"{len(games)} games ({n960} Chess960), {compared} plies compared, "
          f"{len(problems)} disagreements")
    for p in problems[:10]:
        print("  " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
