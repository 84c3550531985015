#!/usr/bin/env python3
"""Records Fairy-Stockfish's perft (pyffish, by recursion over legal_moves) for every section
of plugins/fairy/tests/data/betza-sections.ini into betza-perft.json beside it; the fairy
plugin's test `betza_sections_match_fairy_stockfish` replays it without Python.

    pip install pyffish && python3 tools/fsf-diff/betza_perft.py [DEPTH]
"""
import json, os, re, sys
import pyffish as sf

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "plugins", "fairy", "tests", "data")
INI = os.path.join(DATA, "betza-sections.ini")


def perft(v, fen, moves, d):
    ms = sf.legal_moves(v, fen, moves)
    if d == 1:
        return len(ms)
    return sum(perft(v, fen, moves + [m], d - 1) for m in ms)


def main():
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    text = open(INI).read()
    sf.load_variant_config(text)
    out = []
    for name in re.findall(r"^\[([^\]:]+)", text, re.M):
        fen = sf.start_fen(name)
        out.append({"variant": name, "fen": fen,
                    "perft": [perft(name, fen, [], d) for d in range(1, depth + 1)]})
        print(out[-1])
    with open(os.path.join(DATA, "betza-perft.json"), "w") as f:
        json.dump({"generator": "tools/fsf-diff/betza_perft.py", "sections": out}, f, indent=1)


if __name__ == "__main__":
    main()
