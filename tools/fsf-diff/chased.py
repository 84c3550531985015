#!/usr/bin/env python3
"""Records Fairy-Stockfish's chased pieces (`chasingRule = axf`) along random games.

For each game of each variant: the moves (UCI) and, after every move, the squares the
Fairy-Stockfish UCI engine's `d` command lists as `Chased:` (its `Position::chased()`).
pyffish plays the random legal moves. The output is the fixture
plugins/fairy/tests/data/xiangqi_chased.json, read by plugins/fairy/tests/chase.rs.

    python3 tools/fsf-diff/chased.py --engine /work/fsf/fairy-stockfish \
        --ini /work/shared/data/fsf-variants.ini --variants xiangqi crowdedxiangqi \
        --games 60 --plies 80 --seed 1 --out plugins/fairy/tests/data/xiangqi_chased.json

The fixture's `xiangqihouse` games (drops) were recorded apart and appended to its games, with
their section to its `ini`: `--variants xiangqihouse --games 20 --plies 100 --seed 5`.
"""
import argparse
import json
import random
import re
import subprocess

import pyffish


class Engine:
    def __init__(self, path, ini):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        if ini:
            self.send(f"setoption name VariantPath value {ini}")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine ended")
            lines.append(line.rstrip("\n"))
            if line.startswith(token):
                return lines

    def variant(self, name):
        self.send(f"setoption name UCI_Variant value {name}")
        self.send("isready")
        self.wait("readyok")

    def chased(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send("d")
        for line in self.wait("Chased:"):
            if line.startswith("Chased:"):
                return sorted(line[len("Chased:"):].split())
        return []


def occupied(fen):
    """The occupied squares of a FEN's board (`a1` style names)."""
    rows = fen.split()[0].split("[")[0].split("/")
    out = set()
    for i, row in enumerate(rows):
        rank = len(rows) - i
        f = 0
        for n, c in re.findall(r"(\d+)|(.)", row):
            if n:
                f += int(n)
            elif c not in "+~":
                out.add(f"{chr(97 + f)}{rank}")
                f += 1
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", required=True)
    ap.add_argument("--ini")
    ap.add_argument("--variants", nargs="+", default=["xiangqi"])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--plies", type=int, default=80)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    ini_text = open(a.ini).read() if a.ini else ""
    if ini_text:
        pyffish.load_variant_config(ini_text)
    eng = Engine(a.engine, a.ini)
    rng = random.Random(a.seed)
    # Only the sections played (their parents are built-ins of both programs).
    sections = [m.group(0).strip() for v in a.variants
                for m in [re.search(rf"^\[{re.escape(v)}(:[^\]]*)?\]\n(?:[^\[\n#][^\n]*\n|\n)*",
                                    ini_text, re.M)] if m]
    out = {"ini": "\n\n".join(sections) + "\n" if sections else "", "games": []}
    chases = 0
    for v in a.variants:
        eng.variant(v)
        start = pyffish.start_fen(v)
        for _ in range(a.games):
            moves, marks = [], []
            for _ in range(a.plies):
                legal = pyffish.legal_moves(v, start, moves)
                if not legal:
                    break
                # Quiet moves more often than captures: longer games, more chases.
                occ = occupied(pyffish.get_fen(v, start, moves))
                quiet = [m for m in legal if re.findall(r"[a-z]\d+", m)[-1] not in occ]
                pick = quiet if quiet and rng.random() < 0.8 else legal
                moves.append(rng.choice(sorted(pick)))
                marks.append(eng.chased(moves))
                chases += bool(marks[-1])
            out["games"].append({"variant": v, "moves": moves, "chased": marks})
    with open(a.out, "w") as f:
        json.dump(out, f, indent=0)
    print(f"{len(out['games'])} games, {sum(len(g['moves']) for g in out['games'])} plies, "
          f"{chases} with chased pieces")


if __name__ == "__main__":
    main()
