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

With `--ini FILE` (repeatable) the variants are the sections of those files instead (given to
houserules through HOUSERULES_VARIANTS_PATH, as the host's `--variants` does). Sections
houserules refuses are listed with its error and skipped. For every section that loads: perft
from the start (depth 3, or 2 where 3 is over a million nodes; Fairy-Stockfish's numbers from
its UCI binary when `--fsf-binary` exists, else by recursion in pyffish), seeded random games,
and per objective of the section (flag, extinction, check counting, material counting, connect,
repetition, stalemate, checkmate) biased games meant to finish by it. `--record` then writes
the text of the loaded sections, the perft numbers and the games with pyffish's answers at
every ply (plugins/fairy/tests/fsf.rs `recorded_variants_fixture_agrees` replays it):

    python3 tools/fsf-diff/fsf_diff.py --ini /path/to/variants.ini --seed 1 \
        --record plugins/fairy/tests/data/fsf_variants_fixture.json
"""
import argparse
import glob
import json
import multiprocessing
import os
import random
import re
import subprocess
import sys
import tempfile
import time

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


def sample_for_san(legal, cur, rng, captures=3, others=4):
    """pyffish takes ~4 ms a call: SAN is asked for a sample of the moves: every promotion,
    every move that shares its destination with another move of a piece of the same letter
    (disambiguation), some captures and some others."""
    board = board_of(cur)
    by_dest = {}
    for m in legal:
        if "@" in m:
            continue
        by_dest.setdefault((board.get(m[:2]), m[2:4]), []).append(m)
    pick = {m for m in legal if shogi_style(m) or m.startswith("+") or len(m) == 5 and m[4].isalpha()}
    for group in by_dest.values():
        if len({g[:2] for g in group}) > 1:
            pick.update(group)
    caps = [m for m in legal if "@" not in m and m[2:4] in board]
    pick.update(rng.sample(caps, min(captures, len(caps))))
    pick.update(rng.sample(legal, min(others, len(legal))))
    return sorted(pick)


def shogi_style(m):
    """FSF's UCI `e5e6+` is a shogi-style promotion, `e5e6-` a demotion (pieceDemotion)."""
    return m.endswith("+") or m.endswith("-")


def to_houserules(variant, cur, m, legal):
    """FSF's UCI `e5e6+` (shogi-style promotion) is houserules' `e5e6c` (promoted letter), a
    demotion `e5e6-` is `e5e6p` (the unpromoted letter, which SAN writes after `=`). Where
    that letter also names a chess-style promotion of `legal` (elgam's `a9a10w`), houserules
    writes Fairy-Stockfish's `+` too."""
    if not shogi_style(m):
        return m
    san = sf.get_san(variant, cur, m, False, sf.NOTATION_SAN)
    letter = m[:-1] + san.split("=")[1][0].lower()
    return m if m.endswith("+") and letter in legal else letter


def fsf_answer(variant, fen, moves, rng, cur=None, san_sample=(3, 4)):
    """pyffish's answer after `moves` from `fen` (`cur`: the FEN reached, if known)."""
    cur = cur or sf.get_fen(variant, fen, moves)
    stm = cur.split()[1]
    legal = sf.legal_moves(variant, cur, [])
    result = None
    if not legal:
        # From the moves, not the FEN alone: the result can depend on the move that led
        # here (a mating shogi pawn drop loses, `shogiPawnDropMateIllegal`), which a FEN
        # does not carry.
        result = value_to_result(sf.game_result(variant, fen, moves), stm)
    else:
        imm, v = sf.is_immediate_game_end(variant, cur, [])
        if not imm:
            # Ends that need the position before (two passes in a row, janggi's bikjang):
            # the FEN alone has no history. Fairy-Stockfish then lists no move.
            imm, v = sf.is_immediate_game_end(variant, fen, moves)
            if imm:
                legal = []
        opt, v2 = sf.is_optional_game_end(variant, fen, moves)
        if imm:
            result = value_to_result(v, stm)
        elif opt:
            result = value_to_result(v2, stm)
    # Standard SAN: houserules writes it for every variant (Fairy-Stockfish's default for
    # shogi-like variants is a shogi notation).
    sans = {m: sf.get_san(variant, cur, m, False, sf.NOTATION_SAN) for m in sample_for_san(legal, cur, rng, *san_sample)}
    conv = {m: (to_houserules(variant, cur, m, legal) if shogi_style(m) else m) for m in legal}
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
    moves, hr, _ = play_game(variant, fen, rng, max_plies, random_choice)
    return [(fen, moves[:i], hr[:i]) for i in range(len(moves) + 1)]


def run_houserules(cases):
    return run_batch([{"variant": v, "fen": fen, "moves": m} for v, fen, m in cases])


def run_batch(cases, variant_files=None):
    """houserules' answers to `cases` (see the batch test of plugins/fairy/tests/fsf.rs);
    `variant_files`: the variants.ini files the plugin reads besides its own."""
    with tempfile.TemporaryDirectory() as d:
        cin = os.path.join(d, "cases.json")
        cout = os.path.join(d, "answers.json")
        with open(cin, "w") as f:
            json.dump(cases, f)
        env = dict(os.environ, FSF_DIFF_IN=cin, FSF_DIFF_OUT=cout)
        if variant_files is not None:
            env["HOUSERULES_VARIANTS_PATH"] = os.pathsep.join(os.path.abspath(f) for f in variant_files)
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
        # Fairy-Stockfish's SAN marks checks of the king only, not of pseudo-royal pieces
        # (docs/fairy.md): for such variants SAN is compared without the check mark.
        plain = (lambda x: x.rstrip("+#")) if ours.get("dynamic_royals") else (lambda x: x)
        for m, s in fsf["san"].items():
            if m in sans and plain(sans[m]) != plain(s):
                d.append("SAN of %s: houserules %s / FSF %s" % (m, sans[m], s))
        if ours["check"] != fsf["check"]:
            d.append("check: houserules %s / FSF %s" % (ours["check"], fsf["check"]))
    return d


# ---------------------------------------------------------------------------------------------
# --ini: the sections of Fairy-Stockfish variants.ini files.

# The win conditions of Fairy-Stockfish's built-in variants that sections of variants.ini
# inherit from (`[x:kingofthehill]`), as the keys that set them.
BUILTIN_KEYS = {
    "kingofthehill": {"flagPiece": "k", "flagRegion": "d4 e4 d5 e5"},
    "racingkings": {"flagPiece": "k", "flagRegionWhite": "*8", "flagRegionBlack": "*8"},
    "3check": {"checkCounting": "true"},
    "5check": {"checkCounting": "true"},
    "extinction": {"extinctionValue": "loss", "extinctionPieceTypes": "kqrbnpc"},
    "giveaway": {"extinctionValue": "win", "extinctionPieceTypes": "*", "stalemateValue": "win"},
    "antichess": {"extinctionValue": "win", "extinctionPieceTypes": "*", "stalemateValue": "win"},
    "horde": {"extinctionValue": "loss", "extinctionPieceTypes": "*"},
    "atomic": {"extinctionValue": "loss", "extinctionPieceTypes": "k"},
    "nocheckatomic": {"extinctionValue": "loss", "extinctionPieceTypes": "k"},
    "threekings": {"extinctionValue": "loss", "extinctionPieceTypes": "k"},
    "connect4": {"connectN": "4"},
    "tictactoe": {"connectN": "3"},
    "gomoku": {"connectN": "5"},
    "janggi": {"materialCounting": "janggi"},
    "makruk": {"countingRule": "makruk", "nMoveRule": "0"},
    "makpong": {"countingRule": "makruk", "nMoveRule": "0"},
    "ai-wok": {"countingRule": "makruk", "nMoveRule": "0"},
    "cambodian": {"countingRule": "cambodian", "nMoveRule": "0"},
    "asean": {"countingRule": "asean"},
}

# Objectives a finished game is counted under, in the order they are reported.
OBJECTIVES = ["flag", "extinction", "check counting", "material counting", "counting", "connect",
              "repetition", "stalemate", "checkmate", "n-move"]
IMMEDIATE = ["flag", "extinction", "check counting", "connect"]


def parse_ini(texts):
    """Sections of variants.ini texts: name -> {parent, keys, text} (a later section of a name
    replaces an earlier one, as in Fairy-Stockfish and houserules)."""
    sections = {}
    for text in texts:
        cur = None
        for line in text.splitlines():
            bare = line.split("#")[0].split(";")[0].strip()
            if bare.startswith("[") and bare.endswith("]"):
                name, _, parent = bare[1:-1].partition(":")
                cur = {"parent": parent.strip() or None, "keys": {}, "lines": [line]}
                sections.pop(name.strip(), None)
                sections[name.strip()] = cur
            elif cur is not None:
                cur["lines"].append(line)
                if "=" in bare:
                    k, _, v = bare.partition("=")
                    cur["keys"][k.strip()] = v.strip()
    for sec in sections.values():
        lines = sec.pop("lines")
        # The comments and blank lines before the next section belong to it, not here.
        while lines and (not lines[-1].strip() or lines[-1].lstrip()[:1] in "#;"):
            lines.pop()
        sec["text"] = "\n".join(lines) + "\n"
    return sections


def ancestry(sections, name):
    """`name` and its parents defined in `sections`, child first (stops at a cycle)."""
    chain = []
    while name in sections and name not in chain:
        chain.append(name)
        name = sections[name]["parent"]
    return chain


def resolved_keys(sections, name):
    """The keys in force in section `name`: its parents' (built-in ones from BUILTIN_KEYS),
    then its own."""
    chain = ancestry(sections, name)
    root_parent = sections[chain[-1]]["parent"] if chain else None
    # Fairy-Stockfish's built-in variants have a king (chess's `king = k`).
    keys = {"king": "k"} if root_parent else {}
    keys.update(BUILTIN_KEYS.get(root_parent, {}))
    for n in reversed(chain):
        keys.update(sections[n]["keys"])
    return keys


def objectives(keys):
    """The ways a game of a section with `keys` can end."""
    on = lambda k: keys.get(k, "").lower() not in ("", "none", "-", "false", "0")
    out = {"stalemate"}
    if on("king"):
        out.add("checkmate")
    if any(on(k) for k in ("flagRegion", "flagRegionWhite", "flagRegionBlack")):
        out.add("flag")
    if on("extinctionValue"):
        out.add("extinction")
    if on("checkCounting"):
        out.add("check counting")
    if on("materialCounting"):
        out.add("material counting")
    if on("countingRule"):
        out.add("counting")
    if on("connectN") or on("connectNxN") or any(k.startswith("connectRegion") and on(k) for k in keys):
        out.add("connect")
    if keys.get("nFoldRule", "3").strip() not in ("0",):
        out.add("repetition")
    if keys.get("nMoveRule", "50").strip() not in ("0",):
        out.add("n-move")
    return out


def counting_expired(fen):
    """Whether a Fairy-Stockfish FEN of a `countingRule` variant shows the count past its limit
    (the limit stands in place of en passant, the count in place of the halfmove clock)."""
    fields = fen.split()
    return len(fields) >= 6 and fields[3].isdigit() and int(fields[-2]) > int(fields[3])


def counting_start(variant, fen, rng):
    """A start for games meant to end by `countingRule`: the start position without pawns,
    Black with its king only, White with its king, one of its rooks and up to two other pieces
    (the pieces' honour then counts 16 moves from the pieces on the board: about 25 plies);
    Black's king not attacked (a few draws)."""
    for _ in range(20):
        start = counting_sample(fen, rng)
        if not sf.gives_check(variant, start.replace(" w ", " b "), []):
            break
    return start


def counting_sample(fen, rng):
    """One such start (see `counting_start`), maybe with Black's king attacked."""
    placement, _, pocket = fen.split()[0].partition("[")
    rows = placement.split("/")
    board = {}
    for r, row in enumerate(rows):
        f = 0
        for ch in re.findall(r"\d+|.", row):
            if ch.isdigit():
                f += int(ch)
                continue
            board[(r, f)] = ch
            f += 1
    width = max(sum(int(c) if c.isdigit() else 1 for c in re.findall(r"\d+|.", row)) for row in rows)
    rooks = [sq for sq, ch in board.items() if ch == "R"]
    others = [sq for sq, ch in board.items() if ch.isupper() and ch not in "KPR"]
    keep = set(rng.sample(rooks, 1) if rooks else [])
    keep |= set(rng.sample(others, min(len(others), rng.randint(0 if rooks else 1, 2))))
    out = []
    for r in range(len(rows)):
        row, empty = "", 0
        for f in range(width):
            ch = board.get((r, f))
            if ch is not None and (ch in "Kk" or (r, f) in keep):
                row += (str(empty) if empty else "") + ch
                empty = 0
            else:
                empty += 1
        out.append(row + (str(empty) if empty else ""))
    return "/".join(out) + ("[]" if pocket else "") + " w - - 0 1"


def halfmove_clock(fen):
    """The halfmove clock of a Fairy-Stockfish FEN (the second-to-last number), 0 if absent."""
    nums = [f for f in fen.split()[1:] if f.isdigit()]
    return int(nums[-2]) if len(nums) >= 2 else 0


def n_move_rule(keys):
    try:
        return int(keys.get("nMoveRule", "50") or 0)
    except ValueError:
        return 50


def immediate_kind(cur, objs, keys):
    """Which objective ended the game at `cur` (a FEN Fairy-Stockfish calls an immediate end)."""
    n_move = n_move_rule(keys)
    if n_move > 0 and halfmove_clock(cur) >= 2 * n_move:
        return "material counting" if "material counting" in objs else "n-move"
    cands = [o for o in IMMEDIATE if o in objs]
    checks = re.search(r" (\d+)\+(\d+) ", cur)
    if len(cands) > 1 and "check counting" in cands and checks and "0" in checks.groups():
        return "check counting"
    return cands[0] if len(cands) == 1 else "immediate"


def ending(variant, fen, moves, objs, keys, cur=None):
    """How the game (start `fen`, `moves`; `cur` the FEN reached) has ended in Fairy-Stockfish:
    an objective name, "immediate" (an end the section's keys do not explain), or None."""
    cur = cur or sf.get_fen(variant, fen, moves)
    if sf.is_immediate_game_end(variant, cur, [])[0]:
        return immediate_kind(cur, objs, keys)
    if sf.is_immediate_game_end(variant, fen, moves)[0]:
        # Two passes in a row or janggi's bikjang: a draw that material counting may decide.
        return "material counting" if "material counting" in objs else "passes or bikjang"
    if not sf.legal_moves(variant, cur, []):
        return "checkmate" if sf.gives_check(variant, cur, []) else "stalemate"
    if sf.is_optional_game_end(variant, fen, moves)[0]:
        n_move = n_move_rule(keys)
        if n_move > 0 and halfmove_clock(cur) >= 2 * n_move:
            return "material counting" if "material counting" in objs else "n-move"
        if "counting" in objs and counting_expired(cur):
            return "counting"
        return "repetition"
    return None


def region_squares(text, files, ranks):
    """Squares of a Fairy-Stockfish region (`*8`, `a*`, `d4 e4`), as (file, rank) from 0."""
    out = set()
    for tok in text.split():
        m = re.fullmatch(r"([a-z*])(\d+|\*)", tok)
        if not m:
            continue
        fs = range(files) if m.group(1) == "*" else [ord(m.group(1)) - 97]
        rs = range(ranks) if m.group(2) == "*" else [int(m.group(2)) - 1]
        out.update((f, r) for f in fs for r in rs)
    return out


def square(name):
    return ord(name[0]) - 97, int(name[1:]) - 1


def split_move(m):
    """(from, to) square names of a UCI move (`None` from for a drop)."""
    parts = re.findall(r"[a-z]\d+", m)
    if "@" in m:
        return None, parts[-1]
    return (parts[0], parts[1]) if len(parts) >= 2 else (None, None)


class Finisher:
    """A biased move chooser meant to end a game by `target`: it looks at a sample of the
    moves for one that ends the game that way at once, and otherwise prefers moves that lead
    there (flag pieces toward their region, captures for extinction, checks for check counting,
    moves that leave the opponent few replies for stalemate and checkmate, a piece going back
    and forth for repetition, quiet moves for the n-move rule and material counting)."""

    SAMPLE = 6

    def __init__(self, target, objs, keys):
        self.target, self.objs, self.keys = target, objs, keys

    def __call__(self, variant, fen, moves, cur, legal, rng):
        board = board_of(cur)
        white = cur.split()[1] == "w"
        captures = [m for m in legal if "@" not in m and split_move(m)[1] in board]
        if self.target == "repetition":
            if len(moves) >= 2:
                a, b = split_move(moves[-2])
                back = [m for m in legal if a and split_move(m) == (b, a)]
                if back:
                    return back[0]
            quiet = [m for m in legal if m not in captures and "@" not in m]
            return rng.choice(quiet or legal)
        if self.target in ("material counting", "n-move", "counting"):
            back = tuple(reversed(split_move(moves[-2]))) if len(moves) >= 2 else None
            quiet = [m for m in legal if m not in captures and "@" not in m
                     and board.get(split_move(m)[0]) not in ("p", "P") and split_move(m) != back]
            return rng.choice(quiet or legal)
        # Few moves: look at them all (small boards, blocked positions near their end).
        sample = legal if len(legal) <= 2 * self.SAMPLE else rng.sample(legal, self.SAMPLE)
        if self.target == "extinction":
            sample = list(dict.fromkeys(captures[:self.SAMPLE] + sample))
        mate_like = self.target in ("stalemate", "checkmate")
        best, best_score = None, None
        for m in sample:
            score = rng.random()
            if sf.is_immediate_game_end(variant, cur, [m])[0]:
                if immediate_kind(sf.get_fen(variant, cur, [m]), self.objs, self.keys) == self.target:
                    return m
                continue  # another ending: not the one sought
            if mate_like:
                replies = len(sf.legal_moves(variant, cur, [m]))
                check = sf.gives_check(variant, cur, [m])
                if replies == 0 and check == (self.target == "checkmate"):
                    return m
                if replies == 0:
                    continue
                score -= replies + (5 if check and self.target == "stalemate" else 0)
            elif self.target == "check counting" and sf.gives_check(variant, cur, [m]):
                score += 10
            elif self.target == "extinction" and m in captures:
                score += 10
            elif self.target == "flag":
                score += self.flag_progress(cur, board, white, m)
            if best_score is None or score > best_score:
                best, best_score = m, score
        if best is None or rng.random() < 0.15:
            return rng.choice(legal)
        return best

    def flag_progress(self, cur, board, white, m):
        """How much closer `m` brings a flag piece of the mover to its flag region."""
        k = self.keys
        piece = k.get("flagPieceWhite" if white else "flagPieceBlack", k.get("flagPiece", "*"))
        region = k.get("flagRegionWhite" if white else "flagRegionBlack", k.get("flagRegion", ""))
        a, b = split_move(m)
        if a is None or b is None:
            return 0
        letter = board.get(a, "")
        if piece not in ("*", "") and letter.lower() != piece.lower():
            return 0
        rows = cur.split()[0].split("[")[0].split("/")
        squares = region_squares(region, 26, len(rows))
        if not squares:
            return 0
        dist = lambda s: min(max(abs(s[0] - f), abs(s[1] - r)) for f, r in squares)
        return 3 * (dist(square(a)) - dist(square(b)))


def play_game(variant, fen, rng, max_plies, choose):
    """A game from `fen` with moves picked by `choose`: (FSF moves, houserules moves, the FEN
    after each prefix of the moves)."""
    moves, hr = [], []
    fens = [sf.get_fen(variant, fen, [])]
    for _ in range(max_plies):
        cur = fens[-1]
        legal = sf.legal_moves(variant, cur, [])
        if (not legal or sf.is_optional_game_end(variant, fen, moves)[0]
                or sf.is_immediate_game_end(variant, fen, moves)[0]):
            break
        m = choose(variant, fen, moves, cur, legal, rng)
        hr.append(to_houserules(variant, cur, m, legal))
        moves.append(m)
        fens.append(sf.get_fen(variant, cur, [m]))
    return moves, hr, fens


def random_choice(variant, fen, moves, cur, legal, rng):
    """Random play that prefers captures, promotions and checks now and then, to reach hands
    and zones."""
    r = rng.random()
    board = board_of(cur)
    special = [m for m in legal if shogi_style(m) or ("@" not in m and m[2:4] in board)]
    if special and r < 0.35:
        return rng.choice(special)
    return rng.choice(legal)


def fsf_perft_uci(binary, ini_file, variant, depths):
    """Fairy-Stockfish's perft from the start position, through its UCI `go perft`."""
    proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proc.stdin.write("setoption name VariantPath value %s\nsetoption name UCI_Variant value %s\n"
                     "position startpos\n" % (ini_file, variant))
    counts = []
    for d in depths:
        proc.stdin.write("go perft %d\n" % d)
        proc.stdin.flush()
        for line in proc.stdout:
            if line.startswith("Nodes searched"):
                counts.append(int(line.split(":")[1]))
                break
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait()
    return counts


def fsf_perft_py(variant, fen, moves, depth):
    ms = sf.legal_moves(variant, fen, moves)
    if depth == 1:
        return len(ms)
    return sum(fsf_perft_py(variant, fen, moves + [m], depth - 1) for m in ms)


def section_perft(variant, binary, ini_file, limit):
    """Fairy-Stockfish's perft 1..3 from the start, or 1..2 when depth 3 is over `limit`."""
    fen = sf.start_fen(variant)
    if binary:
        counts = fsf_perft_uci(binary, ini_file, variant, [1, 2, 3])
        # The binary ignores a variant it does not know (and plays chess): its depth 1 must be
        # pyffish's move count, else pyffish counts.
        if len(counts) == 3 and counts[0] == len(sf.legal_moves(variant, fen, [])):
            return counts if counts[2] <= limit else counts[:2]
        print("FSF binary: no perft for [%s], counting in pyffish" % variant)
    counts = [fsf_perft_py(variant, fen, [], d) for d in (1, 2)]
    if counts[0] and counts[1] * counts[1] / counts[0] <= limit:
        counts.append(fsf_perft_py(variant, fen, [], 3))
        if counts[2] > limit:
            counts.pop()
    return counts


def first_line(text):
    return str(text).strip().splitlines()[0] if str(text).strip() else ""


def section_games(job):
    """The games of one section (random ones, then per objective biased ones that finish by
    it) and pyffish's answers at their every ply: (games, answers, endings, tries). The
    section's own seed (`--seed` and its name) makes its games the same whatever other
    sections load."""
    n, keys, args = job
    rng = random.Random("%d:%s" % (args.seed, n))
    objs = objectives(keys)
    fen = sf.start_fen(n)
    played = []  # (fsf moves, houserules moves, FENs, objective sought or None, start FEN)
    tries = {}
    for _ in range(args.games):
        played.append(play_game(n, fen, rng, args.max_plies, random_choice) + (None, fen))
    # The n-move rule is no objective of its own: it ends long random games anyway.
    budget = args.finish_budget
    for target in [o for o in OBJECTIVES if o in objs and o != "n-move"]:
        got = 0
        for _ in range(args.finish_tries):
            if got >= args.finish_games or budget <= 0:
                break
            # Counting needs a pawnless ending: such games start from one.
            start = counting_start(n, fen, rng) if target == "counting" else fen
            moves, hr, fens = play_game(n, start, rng, min(args.finish_plies, budget),
                                        Finisher(target, objs, keys))
            budget -= len(moves)
            tries[(n, target)] = tries.get((n, target), 0) + 1
            if ending(n, start, moves, objs, keys, fens[-1]) == target:
                got += 1
                played.append((moves, hr, fens, target, start))
    games, answers, ends = [], [], []
    for moves, hr, fens, target, start in played:
        answers.append([fsf_answer(n, start, moves[:i], rng, fens[i], (1, 2)) for i in range(len(moves) + 1)])
        ends.append(ending(n, start, moves, objs, keys, fens[-1]) or "unfinished")
        games.append((n, start, moves, hr, target, ends[-1]))
    print("  [%s] %d games, %d positions" % (n, len(games), sum(map(len, answers))), flush=True)
    return games, answers, ends, tries


def section_games_or_none(job):
    """`section_games`, or no games where pyffish itself fails in the section (it has raised
    on a move of its own legal list): the section is named, the run goes on."""
    try:
        return section_games(job)
    except Exception as e:  # pyffish's errors come as SystemError, ValueError ...
        print("  [%s] skipped: pyffish failed while playing its games: %s" % (job[0], e), flush=True)
        return [], [], [], {}


def run_ini(args):
    """The --ini run: returns the exit status."""
    t0 = time.time()
    texts = [open(f).read() for f in args.ini]
    sections = parse_ini(texts)
    joined = "\n".join(texts)
    sf.load_variant_config(joined)
    fsf_known = set(sf.variants())
    names = [n for n in sections if n in fsf_known and re.search(args.only or "", n)]
    for n in sections:
        if n not in fsf_known:
            print("FSF refuses [%s] (not in pyffish's variants after load_variant_config)" % n)
    probes = run_batch([{"variant": n, "probe": True} for n in names], args.ini)
    loaded = [n for n, p in zip(names, probes) if "error" not in p]
    refused = [(n, first_line(p["error"])) for n, p in zip(names, probes) if "error" in p]
    for n, e in refused:
        print("refused [%s]: %s" % (n, e))
    print("%d sections, %d load in houserules, %d refused (%.0fs)" %
          (len(sections), len(loaded), len(refused), time.time() - t0))
    if not loaded:
        return 1
    with tempfile.TemporaryDirectory() as d:
        ini_file = os.path.join(d, "variants.ini")
        with open(ini_file, "w") as f:
            f.write(joined)
        binary = args.fsf_binary if args.fsf_binary and os.path.exists(args.fsf_binary) else None
        perfts = {n: section_perft(n, binary, ini_file, args.perft_limit) for n in loaded}
    print("FSF perft (%s) done (%.0fs)" % ("UCI binary" if binary else "pyffish", time.time() - t0))
    jobs = [(n, resolved_keys(sections, n), args) for n in loaded]
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            done = pool.map(section_games_or_none, jobs)
    else:
        done = [section_games_or_none(j) for j in jobs]
    games, fsf, endings, tries = [], [], {}, {}
    for n, (section, answers, ends, section_tries) in zip(loaded, done):
        games += section
        fsf += answers
        for kind in ends:
            endings.setdefault(kind, {})[n] = ends.count(kind)
        tries.update(section_tries)
    print("%d games played, FSF answers done (%.0fs)" % (len(games), time.time() - t0))
    cases = [{"variant": n, "fen": fen, "moves": hr} for n, fen, _, hr, _, _ in games]
    ours_perft = run_batch([{"variant": n, "fen": sf.start_fen(n), "perft": list(range(1, len(perfts[n]) + 1))}
                            for n in loaded] + [dict(c, game=True) for c in cases], args.ini)
    ours_games = ours_perft[len(loaded):]
    bad = 0
    positions = 0
    per_section = {}
    first_mismatch = {}
    for n, o in zip(loaded, ours_perft):
        if o.get("perft") != perfts[n]:
            bad += 1
            per_section[n] = per_section.get(n, 0) + 1
            first_mismatch[n] = "perft from the start: houserules %s / FSF %s" % (
                o.get("perft", o.get("error")), perfts[n])
            print("MISMATCH perft [%s] from %s: houserules %s / FSF %s" %
                  (n, sf.start_fen(n), o.get("perft", o.get("error")), perfts[n]))
    for (n, fen, moves, hr, _, _), ours, theirs in zip(games, ours_games, fsf):
        for ply, f in enumerate(theirs):
            positions += 1
            o = ours[ply] if ply < len(ours) else ours[-1]
            diff = compare(o, f)
            if diff:
                bad += 1
                per_section[n] = per_section.get(n, 0) + 1
                first_mismatch.setdefault(n, "after %s: %s" % (" ".join(hr[:ply]) or "no move", diff[0]))
                if per_section[n] <= args.show:
                    print("MISMATCH [%s] %s moves %s:\n  %s" % (n, fen, " ".join(hr[:ply]), "\n  ".join(diff)))
            if "error" in o:
                break
    if per_section:
        print("mismatching positions per section: %s" % ", ".join("%s %d" % kv for kv in per_section.items()))
    print("perft depths: %s" % ", ".join("%s %d" % (n, len(perfts[n])) for n in loaded))
    for kind in OBJECTIVES + ["immediate", "unfinished"]:
        if kind in endings:
            print("games ending by %s: %d (%s)" % (kind, sum(endings[kind].values()),
                  ", ".join("%s %d" % kv for kv in sorted(endings[kind].items()))))
    missed = sorted(set(k for k in tries) - set((g[0], g[4]) for g in games if g[4]))
    for n, t in missed:
        print("no game of [%s] finished by %s in %d tries" % (n, t, tries[(n, t)]))
    print("%d sections loaded, %d refused; %d games, %d positions, %d mismatches (%.0fs)" %
          (len(loaded), len(refused), len(games), positions, bad, time.time() - t0))
    if args.record:
        # Sections that disagree are left out (the test would fail until the plugin is
        # fixed), unless asked for; the fixture names them with their first difference.
        if not args.record_disagreeing:
            kept = [(g, a) for g, a in zip(games, fsf) if g[0] not in first_mismatch]
            games, fsf = [g for g, _ in kept], [a for _, a in kept]
            loaded = [n for n in loaded if n not in first_mismatch]
        positions = sum(len(a) for a in fsf)
        needed = []
        for n in loaded:
            needed += [a for a in ancestry(sections, n) if a not in needed]
        data = {
            "generator": "tools/fsf-diff/fsf_diff.py " + " ".join(
                ["--ini %s" % os.path.basename(f) for f in args.ini] +
                ["--games %d --seed %d --max-plies %d --finish-games %d --finish-tries %d "
                 "--finish-plies %d --finish-budget %d --perft-limit %d" % (
                     args.games, args.seed, args.max_plies, args.finish_games, args.finish_tries,
                     args.finish_plies, args.finish_budget, args.perft_limit)]),
            "pyffish": ".".join(map(str, sf.version())),
            "source": "the sections below are from %s (Fairy-Stockfish's variants.ini, GPL-3.0, "
                      "Copyright (C) 2018-2022 Fabian Fichter): only those that load, and their parents"
                      % ", ".join(os.path.basename(f) for f in args.ini),
            "ini": "\n".join(sections[a]["text"] for a in sections if a in needed),
            "sections": [{"variant": n, "fen": sf.start_fen(n), "perft": perfts[n]} for n in loaded],
            "refused": [{"variant": n, "error": e} for n, e in refused],
            "disagreeing": [{"variant": n, "first": d} for n, d in first_mismatch.items()
                            if not args.record_disagreeing],
            "games": [{"variant": n, "fen": fen, "moves": hr, "sought": t, "ending": e, "answers": a}
                      for (n, fen, _, hr, t, e), a in zip(games, fsf)],
        }
        with open(args.record, "w") as fh:
            json.dump(data, fh, separators=(",", ":"))
        size = os.path.getsize(args.record)
        print("recorded %d sections, %d games, %d positions in %s (%.1f MB)%s" % (
            len(loaded), len(games), positions, args.record, size / 1e6,
            "; over 3 MB: use fewer --games or a smaller --max-plies" if size > 3e6 else ""))
        recorded = {}
        for g in games:
            recorded[g[5]] = recorded.get(g[5], 0) + 1
        print("recorded games by ending: %s" % ", ".join(
            "%s %d" % (k, recorded[k]) for k in OBJECTIVES + ["immediate", "unfinished"] if k in recorded))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, help="random games per variant (default 10; 5 with --ini)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, help="plies per random game (default 120; 60 with --ini)")
    ap.add_argument("--record", help="write positions + FSF answers to this fixture file")
    ap.add_argument("--ini", action="append", help="a variants.ini file: its sections instead of "
                    "the plugin's own variants (repeatable)")
    ap.add_argument("--fsf-binary", default="/work/fsf/fairy-stockfish",
                    help="Fairy-Stockfish UCI binary for perft (--ini; pyffish if it does not exist)")
    ap.add_argument("--perft-limit", type=int, default=1000000,
                    help="perft depth 3 only up to this many nodes, else depth 2 (--ini)")
    ap.add_argument("--finish-games", type=int, default=1,
                    help="games per section and objective that finish by it (--ini)")
    ap.add_argument("--finish-tries", type=int, default=3,
                    help="attempts per section and objective at such a game (--ini)")
    ap.add_argument("--finish-plies", type=int, default=200, help="plies per such attempt (--ini)")
    ap.add_argument("--finish-budget", type=int, default=1200,
                    help="plies per section for all such attempts together (--ini)")
    ap.add_argument("--record-disagreeing", action="store_true",
                    help="also record sections where houserules disagrees (the test then fails)")
    ap.add_argument("--only", help="only the sections whose name matches this regex")
    ap.add_argument("--jobs", type=int, default=1, help="sections played in parallel (--ini)")
    ap.add_argument("--show", type=int, default=3, help="mismatches printed per section")
    args = ap.parse_args()
    if args.ini:
        args.games = 5 if args.games is None else args.games
        args.max_plies = 60 if args.max_plies is None else args.max_plies
        return run_ini(args)
    args.games = 10 if args.games is None else args.games
    args.max_plies = 120 if args.max_plies is None else args.max_plies
    variants = load_variants()
    if args.only:
        variants = [v for v in variants if re.search(args.only, v)]
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
    refused = {}
    for (v, fen, m, _), o, f in zip(cases, ours, fsf):
        if "cannot be built" in o.get("error", ""):
            # A section this plugin refuses (a key it does not implement): named once.
            refused.setdefault(v, o["error"])
            continue
        s = stats.setdefault(v, {"positions": 0, "moves": 0, "finished": 0, "in_hand": 0, "promoted": 0,
                                 "check": 0, "mismatches": 0})
        s["positions"] += 1
        s["moves"] += len(f["moves"])
        s["finished"] += f["result"] is not None
        s["in_hand"] += "[]" not in f["fen"] and "[" in f["fen"]
        s["promoted"] += "+" in f["fen"].split()[0]
        s["check"] += bool(f["check"])
        diff = compare(o, f)
        if diff:
            bad += 1
            s["mismatches"] += 1
            if s["mismatches"] <= args.show:
                print("MISMATCH %s %s %s:\n  %s" % (v, fen, " ".join(m), "\n  ".join(diff)))
    for v, s in stats.items():
        print("%s: %s" % (v, s))
    for v, e in refused.items():
        print("refused %s: %s" % (v, e))
    print("%d positions in %d sections (%d refused), %d mismatches" % (
        sum(s["positions"] for s in stats.values()), len(stats), len(refused), bad))
    print("mismatching positions per section: %s" % ", ".join(
        "%s %d" % (v, s["mismatches"]) for v, s in stats.items() if s["mismatches"]))
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
