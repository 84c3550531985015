#!/usr/bin/env python3
"""Fairy-Stockfish against a uniform random mover: the reference figure for the engine sweep
`engine_beats_random` (tests/tests/engine_sweeps.rs), under the same conditions: colours
alternating (the engine White in even games), a ply limit (400), no claimed draws.

    pip install pyffish
    # build the engine as DEVELOPERS.md says (pyffish's sources, -DNDEBUG), then:
    python3 tools/fsf-random/vs_random.py --engine ./fsf --ini proletariat.ini \
        --variant proletariat --nodes 1000 --games 20

The random mover draws from pyffish's legal moves (`random.Random(seed + game)`); the engine
gets `position fen ... moves ...` and `go nodes N`. A game with no legal move ends by
pyffish's `game_result`; one with insufficient material for both sides is a draw. The ini
for proletariat (every piece but king and pawn moves as a pawn, `fmWfcF`) is in
`tools/fsf-gallery/generate.py`. Prints one line a game and the engine's score.
"""
import argparse
import os
import random
import sys

import pyffish as sf

# The UCI driver of the chasing-rule differential (its `Engine`: start, `send`, `wait`).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fsf-diff"))
from chased import Engine  # noqa: E402


class Player(Engine):
    """The engine as a player: a variant, then a best move per position."""

    def __init__(self, path, ini, variant):
        super().__init__(path, ini)
        self.send("setoption name Hash value 16")
        self.variant(variant)

    def ready(self):
        self.send("isready")
        self.wait("readyok")

    def best(self, fen, moves, nodes):
        self.send(f"position fen {fen} moves {' '.join(moves)}")
        self.send(f"go nodes {nodes}")
        return self.wait("bestmove")[-1].split()[1]


def play(engine, variant, start, nodes, engine_white, rng, max_plies):
    """The engine's score (1, 0.5, 0) and how the game ended."""
    moves = []
    for ply in range(max_plies):
        legal = sf.legal_moves(variant, start, moves)
        if not legal:
            value = sf.game_result(variant, start, moves)
            if value == 0:
                return 0.5, "no move, draw"
            mover_wins = value > 0
            engine_to_move = (ply % 2 == 0) == engine_white
            return (1.0 if mover_wins == engine_to_move else 0.0), "no move, decided"
        white_short, black_short = sf.has_insufficient_material(variant, start, moves)
        if white_short and black_short:
            return 0.5, "insufficient material"
        if (ply % 2 == 0) == engine_white:
            moves.append(engine.best(start, moves, nodes))
        else:
            moves.append(rng.choice(legal))
    return 0.5, "ply limit"


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("--engine", required=True, help="the Fairy-Stockfish executable")
    a.add_argument("--ini", help="a variants.ini to load (VariantPath and pyffish)")
    a.add_argument("--variant", default="chess")
    a.add_argument("--nodes", type=int, default=1000)
    a.add_argument("--games", type=int, default=20)
    a.add_argument("--seed", type=int, default=1000)
    a.add_argument("--plies", type=int, default=400)
    args = a.parse_args()
    if args.ini:
        with open(args.ini) as f:
            sf.load_variant_config(f.read())
    engine = Player(args.engine, args.ini, args.variant)
    start = sf.start_fen(args.variant)
    total = 0.0
    for g in range(args.games):
        engine.send("ucinewgame")
        engine.ready()
        score, why = play(engine, args.variant, start, args.nodes, g % 2 == 0,
                          random.Random(args.seed + g), args.plies)
        total += score
        print(f"game {g}: engine {'White' if g % 2 == 0 else 'Black'}, {score}, {why}",
              flush=True)
    print(f"engine score {100 * total / args.games:.1f}% over {args.games} games")
    engine.send("quit")


if __name__ == "__main__":
    main()
