#!/usr/bin/env python3
"""python-chess side of the replay benchmark: chess.pgn.read_game (which parses and replays
every move) for each game of a file, then the final position's outcome, as
`houserules analyze` does. Prints games, plies, seconds, games/s and plies/s."""

import sys
import time

import chess
import chess.pgn


def main(path):
    games = plies = 0
    start = time.perf_counter()
    with open(path, encoding="utf-8-sig") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            board = game.end().board()
            board.outcome()
            games += 1
            plies += board.ply() - game.board().ply()
    secs = time.perf_counter() - start
    print(f"python-chess {chess.__version__}: {games} games, {plies} plies in {secs:.2f} s: "
          f"{games / secs:.0f} games/s, {plies / secs:.0f} plies/s")


if __name__ == "__main__":
    main(sys.argv[1])
