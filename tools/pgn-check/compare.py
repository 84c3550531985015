#!/usr/bin/env python3
"""Independent check of `houserules analyze` with python-chess.

For every game of the given PGN files, python-chess (`chess.pgn.read_game` and its own
replay) gives the number of plies, the final FEN and the result by the rules
(`Board.outcome()`: checkmate, stalemate, insufficient material, 75-move rule, fivefold
repetition; claims are not results). `houserules analyze --jsonl --no-plies` replays the
same files; the two must agree on plies, final FEN and computed result for every game that
python-chess can play (games of variants python-chess or houserules lacks are listed as
skipped).

    python3 tools/pgn-check/compare.py tests/data/records/python-chess/*.pgn \
        [--houserules target/release/houserules] [--expected OUT.tsv]

`--expected` writes python-chess's answers as a TSV file (file, game index, plies, result,
termination, final FEN) that the Rust tests read (tests/data/records/python-chess.tsv), so
the comparison also runs where Python is not installed.
"""

import argparse
import json
import os
import subprocess
import sys

import chess
import chess.pgn

TERMINATION = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient-material",
    chess.Termination.SEVENTYFIVE_MOVES: "n-move-rule",
    chess.Termination.FIVEFOLD_REPETITION: "n-fold-repetition",
}


def python_chess_games(path):
    out = []
    with open(path, encoding="utf-8-sig") as f:
        while True:
            try:
                game = chess.pgn.read_game(f)
            except ValueError as e:  # unsupported variant
                out.append({"skip": str(e)})
                continue
            if game is None:
                break
            if game.errors:
                out.append({"skip": "python-chess: " + str(game.errors[0])})
                continue
            board = game.end().board()
            o = board.outcome()
            out.append(
                {
                    "plies": len(list(game.mainline_moves())),
                    "fen": board.fen(),
                    "result": o.result() if o else "*",
                    "termination": TERMINATION.get(o.termination, str(o.termination)) if o else "unfinished",
                }
            )
    return out


def houserules_games(exe, path):
    p = subprocess.run(
        [exe, "analyze", "--jsonl", "--no-plies", path],
        capture_output=True,
        text=True,
    )
    return [json.loads(line) for line in p.stdout.splitlines() if line.strip()], p.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--houserules", default=os.path.join("target", "release", "houserules"))
    ap.add_argument("--expected", help="write python-chess's answers to this TSV file")
    args = ap.parse_args()
    rows = []
    compared = mismatches = skipped = 0
    print(f"python-chess {chess.__version__}")
    for path in args.files:
        ours, code = houserules_games(args.houserules, path)
        theirs = python_chess_games(path)
        name = os.path.basename(path)
        if len(ours) != len(theirs):
            print(f"{name}: houserules read {len(ours)} games, python-chess {len(theirs)}")
            mismatches += 1
        for i, (a, b) in enumerate(zip(ours, theirs), start=1):
            if "skip" in b:
                skipped += 1
                print(f"{name} #{i}: skipped ({b['skip']})")
                continue
            compared += 1
            rows.append((name, i, b["plies"], b["result"], b["termination"], b["fen"]))
            got = (a["ply_count"], a.get("final_fen"), a["result"]["computed"], a["result"]["termination"])
            want = (b["plies"], b["fen"], b["result"], b["termination"])
            ok = got == want
            if not ok:
                mismatches += 1
            print(
                f"{name} #{i}: {b['plies']} plies, declared {a['result']['declared']}, "
                f"computed {a['result']['computed']} ({a['result']['termination']}) "
                f"python-chess {b['result']} ({b['termination']}), "
                f"FEN {'same' if a.get('final_fen') == b['fen'] else 'DIFFERENT'}: "
                f"{'agree' if ok else 'MISMATCH ' + repr((got, want))}"
                f"{'' if a['result']['agrees'] else ' [declared result disagrees]'}"
            )
    print(f"{compared} games compared, {mismatches} mismatches, {skipped} skipped")
    if args.expected:
        with open(args.expected, "w") as f:
            f.write("# file\tgame\tplies\tresult\ttermination\tfinal FEN (python-chess "
                    + chess.__version__ + ", tools/pgn-check/compare.py)\n")
            for r in rows:
                f.write("\t".join(str(x) for x in r) + "\n")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
