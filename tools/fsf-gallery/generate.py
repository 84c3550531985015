#!/usr/bin/env python3
"""Records Fairy-Stockfish's answers for the gallery presets it expresses exactly.

Writes `plugins/<pack>/tests/data/fsf-<section>.json`: random games (seeded, so the output is
reproducible for one pyffish version), and for the sections of ENGINE_GAMES also games of the
houserules engine against a random mover (a built `target/release/houserules` or `HOUSERULES`),
with Fairy-Stockfish's answers at every ply: the FEN, the sorted legal moves and the result if
the game is over there. The Rust test
`fsf_fixtures` replays each game through the houserules pipeline (no Python needed) and
compares.

    pip install pyffish
    python3 tools/fsf-gallery/generate.py            # all sections
    python3 tools/fsf-gallery/generate.py berolina   # one section
    python3 tools/fsf-gallery/generate.py --seed 2   # other games: fresh positions for
                                                     # `cargo test` (then restore the files)

Sections (section -> Fairy-Stockfish variant, houserules presets):
    berolina        berolina (built in)              berolina-pawns (scope both)
    extinction-pawn chess + extinctionPieceTypes = p extinction-chess (target pawn)
    suicide         giveaway, promotion to q/r/b/n   suicide-chess
    coregal         coregal (built in)               coregal
  presets-thress:
    proletariat     chess, N B R Q as custom pieces `fmWfcF` (a pawn's step and
                    captures, no double step; stranded on the last rank)
                                                     proletariat
    short-stop      chess, R B Q as custom pieces W, F, WF (one step), no castling, no
                    double step                      short-stop
    early-promotion chess, promotion regions ranks 6-8 / 1-3
                                                     early-promotion (rank 6)
"""

import json
import os
import random
import subprocess
import sys
import tempfile

import pyffish as sf

CONFIG = """
[extinction-pawn:chess]
extinctionValue = loss
extinctionPieceTypes = p

[suicide-qrbn:giveaway]
promotionPieceTypes = nbrq

[proletariat:chess]
knight = -
bishop = -
rook = -
queen = -
customPiece1 = n:fmWfcF
customPiece2 = b:fmWfcF
customPiece3 = r:fmWfcF
customPiece4 = q:fmWfcF
promotionPieceTypes = nbrq
castlingRookPiece = r

[short-stop:chess]
bishop = -
rook = -
queen = -
customPiece1 = b:F
customPiece2 = r:W
customPiece3 = q:WF
promotionPieceTypes = nbrq
castling = false
doubleStep = false

[early-promotion:chess]
promotionRegionWhite = *6 *7 *8
promotionRegionBlack = *1 *2 *3
"""

SECTIONS = {
    # section: (fsf variant, presets, games, max plies, pack)
    "berolina": ("berolina", ["berolina-pawns"], 30, 70, "presets-gallery"),
    "extinction-pawn": ("extinction-pawn", ["extinction-chess"], 30, 90, "presets-gallery"),
    "suicide": ("suicide-qrbn", ["suicide-chess"], 30, 90, "presets-gallery"),
    "coregal": ("coregal", ["coregal"], 20, 70, "presets-gallery"),
    "proletariat": ("proletariat", ["proletariat"], 40, 120, "presets-thress"),
    "short-stop": ("short-stop", ["short-stop"], 30, 100, "presets-thress"),
    "early-promotion": ("early-promotion", ["early-promotion"], 30, 100, "presets-thress"),
}

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

# Variants without castling: Fairy-Stockfish keeps the start's `KQkq` in its FENs, houserules
# writes `-` (the rights are void); the recorded FENs get `-`.
NO_CASTLING = {"short-stop"}


def recorded_fen(section, fen):
    """The FEN as recorded for `section` (see NO_CASTLING)."""
    if section not in NO_CASTLING:
        return fen
    fields = fen.split(" ")
    fields[2] = "-"
    return " ".join(fields)


def result_of(variant, fen, legal):
    """The result from White's point of view (1-0, 0-1, 1/2-1/2) or None."""
    end, value = sf.is_immediate_game_end(variant, fen, [])
    if not end:
        if legal:
            return None
        value = sf.game_result(variant, fen, [])
    white_to_move = fen.split()[1] == "w"
    if value == 0:
        return "1/2-1/2"
    stm_wins = value > 0
    return "1-0" if stm_wins == white_to_move else "0-1"


def board_of(fen):
    """Square name -> piece letter, from the board field of a FEN."""
    board = {}
    rows = fen.split()[0].split("[")[0].split("/")
    for r, row in enumerate(rows):
        f = 0
        digits = ""
        for ch in row + " ":
            if ch.isdigit():
                digits += ch
                continue
            if digits:
                f += int(digits)
                digits = ""
            if ch in " +":
                continue
            board["abcdefgh"[f] + str(8 - r)] = ch
            f += 1
    return board


def pick(rng, board, legal):
    """A random move, biased towards captures, pawn moves and promotions (to reach en
    passant, promotion and extinction positions)."""
    interesting = [m for m in legal
                   if len(m) == 5 or m[2:4] in board or board.get(m[:2], "").lower() == "p"]
    if interesting and rng.random() < 0.5:
        return rng.choice(interesting)
    return rng.choice(legal)


# Sections that also get games of the houserules engine against a random mover (so that
# games end: random games in these rule sets almost never do), half with the engine as White:
# section -> games. Fairy-Stockfish still gives every answer; the moves only choose the path
# (and each must be one of its legal moves, or the generator stops).
ENGINE_GAMES = {"proletariat": 16, "short-stop": 10, "early-promotion": 10}


def engine_games(section, seed=1):
    """The moves (coordinate form) of the engine-against-random games of `section`, played
    by the houserules binary (`HOUSERULES`, default `target/release/houserules`)."""
    exe = os.environ.get("HOUSERULES", os.path.join(ROOT, "target", "release", "houserules"))
    presets = SECTIONS[section][1]
    games = []
    half = ENGINE_GAMES[section] // 2
    # Seed 1 (the files in the repository) plays with seeds 7 and 9; seed k 100 (k - 1) on.
    for white, black, play_seed in (("engine:nodes=500", "random", 7 + 100 * (seed - 1)),
                                    ("random", "engine:nodes=500", 9 + 100 * (seed - 1))):
        with tempfile.NamedTemporaryFile(suffix=".pgn") as pgn:
            play = [exe, "play", "--white", white, "--black", black, "--seed", str(play_seed),
                    "--games", str(half), "--max-plies", "300", "-q", "--out", pgn.name]
            for p in presets:
                play += ["--preset", p]
            subprocess.run(play, check=True, stderr=subprocess.DEVNULL)
            out = subprocess.run([exe, "analyze", "--jsonl", pgn.name], check=True,
                                 capture_output=True, text=True).stdout
        for line in out.splitlines():
            games.append([p["move"] for p in json.loads(line)["plies"]])
    return games


def game(section, variant, choose, max_plies):
    """A game from the start with Fairy-Stockfish's answers at every ply (one position at a
    time: pyffish's cost is per call, not per move); `choose(fen, legal)` gives the move
    played there, None to stop."""
    fen, moves, plies = START, [], []
    for _ in range(max_plies):
        legal = sorted(sf.legal_moves(variant, fen, []))
        res = result_of(variant, fen, legal)
        plies.append({"fen": recorded_fen(section, fen), "legal": " ".join(legal) if res is None else "",
                      "result": res})
        if res is not None:
            break
        m = choose(fen, legal)
        if m is None:
            break
        moves.append(m)
        fen = sf.get_fen(variant, fen, [m])
    return {"start": recorded_fen(section, START), "moves": " ".join(moves[:len(plies) - 1]),
            "plies": plies}


def replaying(section, moves):
    """A `choose` for `game` that plays `moves` in order (each must be legal for
    Fairy-Stockfish, or the generator stops)."""
    rest = iter(moves)

    def choose(fen, legal):
        m = next(rest, None)
        if m is not None and m not in legal:
            sys.exit(f"{section}: houserules played {m}, not legal for Fairy-Stockfish in {fen}")
        return m
    return choose


def record(section, seed=1):
    variant, presets, games, max_plies, _ = SECTIONS[section]
    rng = random.Random(f"{section}-{seed}")
    out = {"fsf_version": ".".join(map(str, sf.version())), "variant": variant,
           "presets": presets, "games": []}
    for _ in range(games):
        choose = lambda fen, legal: pick(rng, board_of(fen), legal)
        out["games"].append(game(section, variant, choose, max_plies))
    if section in ENGINE_GAMES:
        for moves in engine_games(section, seed):
            out["games"].append(game(section, variant, replaying(section, moves), len(moves) + 1))
    return out


def main():
    sf.load_variant_config(CONFIG)
    args = sys.argv[1:]
    seed = 1
    if "--seed" in args:
        i = args.index("--seed")
        seed = int(args[i + 1])
        del args[i:i + 2]
    for section in args or SECTIONS:
        data = os.path.join(ROOT, "plugins", SECTIONS[section][4], "tests", "data")
        os.makedirs(data, exist_ok=True)
        rec = record(section, seed)
        n = sum(len(g["plies"]) for g in rec["games"])
        ends = sum(1 for g in rec["games"] if g["plies"][-1]["result"])
        path = os.path.join(data, f"fsf-{section}.json")
        with open(path, "w") as f:
            json.dump(rec, f, separators=(",", ":"))
            f.write("\n")
        print(f"{section}: {len(rec['games'])} games, {n} positions, {ends} decided -> {path}")


if __name__ == "__main__":
    main()
