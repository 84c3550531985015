#!/usr/bin/env python3
"""Differential fixtures for the v1 presets against Fairy-Stockfish (pyffish).

For the presets Fairy-Stockfish can express exactly, plays seeded random games in pyffish
and records positions with FSF's legal moves (UCI, sorted) and, where the game is over,
FSF's result from the side to move's point of view (1 win, 0 draw, -1 loss). The Rust test
`fsf_fixtures` in plugins/presets-v1 replays every record through houserules (chess variant
+ the preset) and compares, so `cargo test` needs no Python.

    python3 tools/fsf-presets/gen_fixtures.py --games 12 --seed 1 \
        --out plugins/presets-v1/tests/data/fsf_presets.json

Presets and their Fairy-Stockfish form:

* bishops-ignore-color: the bishop is a custom piece `BW` (slides diagonally, steps
  orthogonally). Castling, en passant and promotion as in chess.
* last-piece-standing: no royal piece (the king letter is a commoner), every piece type
  counts for extinction (`extinctionPieceTypes = *`, `extinctionValue = loss`), no legal
  move loses (`stalemateValue = loss`), no castling (FSF's castling needs a king piece; the
  preset keeps chess castling, so the comparison starts from positions without rights).

Where the semantics differ they are left out: capture-to-win has no FSF form (FSF has no
"first capture wins"); pawns-move-backward needs per-piece "has moved" tracking that FSF's
custom pawns do not have (their double step depends on the rank), so the two agree only
while no pawn has returned to its home rank — not recorded here.

Requires `pip install pyffish`.
"""
import argparse
import json
import random

import pyffish as sf

CONFIG = """
[bwchess:chess]
bishop = -
customPiece1 = b:BW
promotionPieceTypes = qrbn

[annihilation:chess]
king = -
commoner = k
castling = false
extinctionValue = loss
extinctionPieceTypes = *
stalemateValue = loss
"""

CASES = [
    ("bishops-ignore-color", "bwchess",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("last-piece-standing", "annihilation",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"),
]


def occupied(fen):
    """Squares holding a piece in a FEN's board field."""
    squares = set()
    for i, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                squares.add("abcdefgh"[f] + str(8 - i))
                f += 1
    return squares


def result_value(variant, fen):
    """FSF's result with no legal move, from the side to move's view: 1, 0 or -1."""
    r = sf.game_result(variant, fen, [])
    return 0 if r == 0 else (1 if r > 0 else -1)


def record(variant, fen, moves):
    legal = sorted(sf.legal_moves(variant, fen, moves))
    cur = sf.get_fen(variant, fen, moves)
    rec = {"fen": cur, "legal": legal}
    if not legal:
        rec["result"] = result_value(variant, cur)
    return rec


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--plies", type=int, default=120)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    sf.load_variant_config(CONFIG)
    rng = random.Random(a.seed)
    out = {"fsf_version": sf.version(), "config": CONFIG, "cases": []}
    for preset, variant, start in CASES:
        records = []
        seen = set()
        for _ in range(a.games):
            moves = []
            for _ in range(a.plies):
                rec = record(variant, start, moves)
                if rec["fen"] not in seen:
                    seen.add(rec["fen"])
                    records.append(rec)
                if not rec["legal"]:
                    break
                # Prefer captures so that games reach sparse endings and results.
                occ = occupied(rec["fen"])
                caps = [m for m in rec["legal"] if m[2:4] in occ]
                pool = caps if caps and rng.random() < 0.6 else rec["legal"]
                moves.append(rng.choice(pool))
        out["cases"].append({"preset": preset, "variant": variant, "records": records})
        print(f"{preset}: {len(records)} positions")
    with open(a.out, "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
