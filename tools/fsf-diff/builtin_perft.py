#!/usr/bin/env python3
"""Records Fairy-Stockfish's own answer for every section of
plugins/fairy/variants/fsf-builtins.ini: the start FEN and perft of the C++ built-in variant of
the same name (not of the ini section) into plugins/fairy/tests/data/builtin-perft.json, which
the fairy plugin's test tests/builtins.rs replays without Python.

Needs the Fairy-Stockfish UCI binary (built as docs/fairy.md and the helpers' brief describe,
with -DLARGEBOARDS -DALLVARS) and pyffish (`pip install pyffish`, same version, 0.0.90):

    python3 tools/fsf-diff/builtin_perft.py [--engine /work/fsf/fairy-stockfish] [--depth 3]
    python3 tools/fsf-diff/builtin_perft.py --check-ini

For each section: `setoption name UCI_Variant value NAME`, `position startpos`, `d` (the FEN
Fairy-Stockfish writes for its start position) and `go perft D` for D = 1, 2, 3. A depth whose
count exceeds 1,000,000 nodes is not recorded and ends that variant (the cargo test replays
every recorded depth in a debug build). pyffish.start_fen(NAME) is recorded too: the start
FEN as the C++ defines it (it may use short forms such as `w 0 1`).

--check-ini checks the translation instead: it loads the ini into Fairy-Stockfish (VariantPath)
with every section renamed `hr-NAME` (a built-in name cannot be redefined) and compares start
FEN and perft of each section with the built-in's; with --games N it also plays N seeded random
games per section in pyffish (the ini loaded by load_variant_config) and compares, at every ply,
legal moves, FEN, check, immediate and optional game ends and the result. It writes nothing and
exits 1 on a difference. Both modes list the built-ins that have no section.

    python3 tools/fsf-diff/builtin_perft.py --check-ini --games 3
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import pyffish as sf

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
INI = os.path.join(ROOT, "plugins", "fairy", "variants", "fsf-builtins.ini")
OUT = os.path.join(ROOT, "plugins", "fairy", "tests", "data", "builtin-perft.json")
LIMIT = 1_000_000


class Engine:
    """One Fairy-Stockfish UCI process."""

    def __init__(self, path, variant_path=None):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.until(lambda l: l == "uciok")
        if variant_path:
            self.send(f"setoption name VariantPath value {variant_path}")
        self.sync()

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, pred):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("Fairy-Stockfish exited")
            line = line.strip()
            if pred(line):
                return line

    def sync(self):
        self.send("isready")
        self.until(lambda l: l == "readyok")

    def start(self, variant):
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("position startpos")
        self.send("d")
        return self.until(lambda l: l.startswith("Fen: "))[5:]

    def perft(self, depth):
        self.send(f"go perft {depth}")
        return int(self.until(lambda l: l.startswith("Nodes searched: ")).split()[-1])

    def variants(self):
        """The UCI_Variant choices."""
        self.send("uci")
        line = self.until(lambda l: l.startswith("option name UCI_Variant "))
        self.until(lambda l: l == "uciok")
        return line.split(" var ")[1:]

    def close(self):
        self.send("quit")
        self.p.wait()


def perfts(engine, variant, depth):
    fen = engine.start(variant)
    counts = []
    for d in range(1, depth + 1):
        n = engine.perft(d)
        if n > LIMIT:
            break
        counts.append(n)
    engine.sync()
    return fen, counts


def sections(text):
    return re.findall(r"^\[([^\]:]+)(?::([^\]]+))?\]", text, re.M)


def missing(names, engine):
    known = {v for v in set(engine.variants()) | set(sf.variants()) if not v.startswith("hr-")}
    return sorted(known - set(names) - {"chess"})


def record(args, text):
    eng = Engine(args.engine)
    out = []
    names = [n for n, _ in sections(text)]
    for name in names:
        fen, counts = perfts(eng, name, args.depth)
        out.append({"variant": name, "start_fen": sf.start_fen(name), "fen": fen,
                    "perft": counts})
        print(out[-1]["variant"], fen, counts, flush=True)
    print("built-ins without a section:", " ".join(missing(names, eng)))
    eng.close()
    with open(OUT, "w") as f:
        json.dump({"generator": "tools/fsf-diff/builtin_perft.py",
                   "engine": "Fairy-Stockfish built-in variants (UCI_Variant), pyffish "
                             + ".".join(map(str, sf.version())),
                   "node_limit": LIMIT, "sections": out}, f, indent=1)
        f.write("\n")


def renamed_ini(text):
    """The ini with every section (and every parent that is a section) renamed `hr-NAME`."""
    names = {n for n, _ in sections(text)}

    def rename(m):
        parent = m.group(2)
        if parent is not None and parent in names:
            parent = "hr-" + parent
        return f"[hr-{m.group(1)}" + (f":{parent}" if parent else "") + "]"

    return re.sub(r"^\[([^\]:]+)(?::([^\]]+))?\]", rename, text, flags=re.M)


def state(variant, fen, moves):
    """What pyffish says of a position: legal moves, check, game ends."""
    legal = sorted(sf.legal_moves(variant, fen, moves))
    return {"fen": sf.get_fen(variant, fen, moves), "legal": legal,
            "check": sf.gives_check(variant, fen, moves),
            "immediate": sf.is_immediate_game_end(variant, fen, moves),
            "optional": sf.is_optional_game_end(variant, fen, moves),
            "material": sf.has_insufficient_material(variant, fen, moves),
            "result": sf.game_result(variant, fen, moves) if not legal else None}


def random_games(name, games, plies):
    """Differences between the built-in and `hr-NAME` along seeded random games."""
    import random
    rng = random.Random(name)
    fen = sf.start_fen(name)
    for g in range(games):
        moves = []
        for ply in range(plies + 1):
            want, got = state(name, fen, moves), state("hr-" + name, fen, moves)
            if want != got:
                keys = [k for k in want if want[k] != got[k]]
                return f"game {g} ply {ply} {moves}: {keys}: {[want[k] for k in keys]} / " \
                       f"{[got[k] for k in keys]}"
            if not want["legal"] or want["immediate"][0]:
                break
            moves.append(rng.choice(want["legal"]))
    return None


def check_ini(args, text):
    renamed = renamed_ini(text)
    if args.games:
        sf.load_variant_config(renamed)
    with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
        f.write(renamed)
        path = f.name
    eng = Engine(args.engine, variant_path=path)
    bad = 0
    for name, _ in sections(text):
        want = perfts(eng, name, args.depth)
        got = perfts(eng, "hr-" + name, args.depth)
        diff = None if want == got else f"{got}"
        if diff is None and args.games:
            diff = random_games(name, args.games, args.plies)
        bad += diff is not None
        print(("same " if diff is None else "DIFF ") + name, want, diff or "", flush=True)
    print("built-ins without a section:", " ".join(missing([n for n, _ in sections(text)], eng)))
    eng.close()
    os.unlink(path)
    print(f"{bad} section(s) differ from the built-in")
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default="/work/fsf/fairy-stockfish")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--check-ini", action="store_true")
    ap.add_argument("--games", type=int, default=0,
                    help="with --check-ini: also compare N seeded random games per section "
                         "in pyffish (legal moves, FEN, check, game ends, result at each ply)")
    ap.add_argument("--plies", type=int, default=80)
    args = ap.parse_args()
    text = open(INI).read()
    if args.check_ini:
        sys.exit(check_ini(args, text))
    record(args, text)


if __name__ == "__main__":
    main()
