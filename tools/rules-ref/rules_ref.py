#!/usr/bin/env python3
"""An independent, deliberately plain implementation of chess and of the movement, geometry
and royalty presets as RULINGS.md states them (issue #16's perft-differential reference).

It shares nothing with the Rust generator: no Betza, no bitboards. A board is 64 cells,
every piece has a list of movement *features* written out by hand below (a knight leaps, a
rook slides, a pawn pushes ...), presets edit those lists in pipeline order, moves are found by
walking squares one at a time, and legality is "make the move, then look whether any capture
of the other side lands on one of my royals". Slow and obviously correct is the point.

    python3 tools/rules-ref/rules_ref.py record      # writes tests/data/preset-perft.json
    python3 tools/rules-ref/rules_ref.py record 7    # other random positions (seed 7): run
                                                     # `cargo test`, then restore the file
    python3 tools/rules-ref/rules_ref.py perft knights-leap-twice wrap-board 3

The recorded file is replayed by `cargo test` (tests/tests/model.rs) without Python.
"""
import json
import os
import random
import sys
import time

W, B = 0, 1
FILES = "abcdefgh"
ORTH = [(0, 1), (1, 0), (0, -1), (-1, 0)]
DIAG = [(1, 1), (1, -1), (-1, -1), (-1, 1)]
ALL8 = ORTH + DIAG
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
PROMO = "QRBN"

LAYOUTS = {
    "classic": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "dual-classic": "rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR",
    "knightmate": "rnbnkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBNKBNR",
}


def sq(f, r):
    return r * 8 + f


def name(s):
    return FILES[s % 8] + str(s // 8 + 1)


class Rules:
    """Which features each role has (per colour), and the board-wide rules."""

    def __init__(self):
        pawn = [("push",), ("capture_diag", True), ("double",)]
        base = {
            "P": pawn,
            "N": [("leap", KNIGHT)],
            "B": [("slide", DIAG)],
            "R": [("slide", ORTH)],
            "Q": [("slide", ALL8)],
            "K": [("leap", ALL8)],
        }
        # features[color][role]
        self.features = [{k: list(v) for k, v in base.items()} for _ in (W, B)]
        self.royal = {"K"}
        self.immune = set()
        self.check_all = False
        self.wrap = False
        self.bounce = 0  # reflections for bishop and queen diagonals
        self.bounce_roles = set()
        self.promo_rank = 8  # from the owner's side
        self.castling = True
        self.slide_limit = None
        self.no_initial = False  # short-stop: no double steps
        self.track_moved = False  # pawns-move-backward: moved pawns never double-step
        self.layout = "classic"
        self.layout_chosen = False

    def add(self, role, feature):
        for c in (W, B):
            self.features[c][role].append(feature)

    def set(self, role, features, colors=(W, B)):
        for c in colors:
            self.features[c][role] = list(features)


def preset_knights_leap_twice(r):
    r.add("N", ("double_leap", KNIGHT, KNIGHT))


def preset_bishops_ignore_color(r):
    r.add("B", ("leap", ORTH))


def preset_pawns_move_backward(r):
    r.add("P", ("backward",))
    r.track_moved = True


def preset_double_pawn_sprint(r):
    r.add("P", ("sprint",))


def preset_pawn_diagonal_no_capture(r):
    r.add("P", ("diag_quiet",))


def preset_rook_warp(r):
    r.add("R", ("warp",))


def preset_wrap_board(r):
    r.wrap = True


def preset_bouncing(n):
    def f(r):
        r.bounce = n
        r.bounce_roles = {"B", "Q"}
    return f


def preset_berolina(sideways, colors=(W, B)):
    def f(r):
        feats = [("berolina_push",), ("berolina_double",), ("capture_forward", True)]
        if sideways:
            feats.append(("capture_sideways",))
        r.set("P", feats, colors)
    return f


def preset_knightmate(r):
    r.royal = {"N"}
    layout(r, "knightmate")


def preset_coregal(r):
    r.royal = {"K", "Q"}


def preset_dual_king(r):
    layout(r, "dual-classic")


def preset_weak_dual_king(r):
    r.royal = {"K"}
    r.check_all = True
    layout(r, "dual-classic")


def preset_god_kings(r):
    r.royal.discard("K")
    r.immune.add("K")
    r.set("K", [("slide", ALL8, 2)])


def preset_early_promotion(r):
    r.promo_rank = 6


def preset_proletariat(r):
    for role in "NBRQ":
        r.set(role, [("push",), ("capture_diag", False)])


def preset_short_stop(r):
    r.slide_limit = 1
    r.no_initial = True
    r.castling = False


def preset_trans_rights(r):
    r.set("K", [("slide", ALL8)])
    r.set("Q", [("leap", ALL8)])


def layout(r, name_):
    # The first preset (in pipeline order) with a preferred layout chooses it.
    if not r.layout_chosen:
        r.layout = name_
        r.layout_chosen = True


PRESETS = {
    "knights-leap-twice": preset_knights_leap_twice,
    "bishops-ignore-color": preset_bishops_ignore_color,
    "pawns-move-backward": preset_pawns_move_backward,
    "double-pawn-sprint": preset_double_pawn_sprint,
    "pawn-diagonal-no-capture": preset_pawn_diagonal_no_capture,
    "rook-warp": preset_rook_warp,
    "wrap-board": preset_wrap_board,
    "bouncing-pieces": preset_bouncing(1),
    "bouncing-pieces-2": preset_bouncing(2),
    "berolina-pawns": preset_berolina(False),
    "berolina-pawns-2": preset_berolina(True),
    "berolina-pawns:scope=white": preset_berolina(False, (W,)),
    "knightmate-rules": preset_knightmate,
    "coregal": preset_coregal,
    "dual-king": preset_dual_king,
    "weak-dual-king": preset_weak_dual_king,
    "god-kings": preset_god_kings,
    "early-promotion": preset_early_promotion,
    "proletariat": preset_proletariat,
    "short-stop": preset_short_stop,
    "trans-rights": preset_trans_rights,
}

# Pairs the host refuses (the presets' `incompatible_with`).
INCOMPATIBLE = [
    {"rook-warp", "wrap-board"},
    {"pawns-move-backward", "double-pawn-sprint"},
    {"bouncing-pieces", "wrap-board"},
    {"bouncing-pieces-2", "wrap-board"},
    {"bouncing-pieces", "bouncing-pieces-2"},
    {"berolina-pawns", "berolina-pawns-2"},
    {"knightmate-rules", "coregal"},
    {"knightmate-rules", "weak-dual-king"},
    {"coregal", "weak-dual-king"},
    {"god-kings", "coregal"},
    {"god-kings", "weak-dual-king"},
    {"short-stop", "double-pawn-sprint"},
]


def compatible(ids):
    base = [i.split(":")[0] for i in ids]
    return not any(pair <= set(base) for pair in INCOMPATIBLE)


def rules_of(ids):
    r = Rules()
    for i in ids:
        PRESETS[i](r)
    return r


class Pos:
    def __init__(self, cells, side, castling, ep, moved):
        self.cells = cells  # 64 entries: None or (color, role)
        self.side = side
        self.castling = castling  # set of (color, rook square)
        self.ep = ep  # None or (passed square, victim square)
        self.moved = moved  # squares of pawns that have moved (pawns-move-backward)

    def copy(self):
        return Pos(list(self.cells), self.side, set(self.castling), self.ep, set(self.moved))


def start(r):
    cells = [None] * 64
    rows = LAYOUTS[r.layout].split("/")
    for i, row in enumerate(rows):
        rank = 7 - i
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                cells[sq(f, rank)] = (W if ch.isupper() else B, ch.upper())
                f += 1
    castling = {(W, 0), (W, 7), (B, 56), (B, 63)}
    return Pos(cells, W, castling, None, set())


class Gen:
    """Moves under one set of rules. A move is (from, to, promotion, kind) with kind one of
    'normal', 'ep', 'castle', 'double:<passed square>' (a move that may be taken en passant
    on the square it passed)."""

    def __init__(self, r):
        self.r = r

    # -- geometry ---------------------------------------------------------------------
    def step(self, s, df, dr):
        f, rk = s % 8 + df, s // 8 + dr
        if rk < 0 or rk > 7:
            return None
        if self.r.wrap:
            f %= 8
        elif f < 0 or f > 7:
            return None
        return sq(f, rk)

    def ray(self, s, df, dr, bounce):
        """Squares of a ray in order (wrapped files, bounced diagonals)."""
        out = []
        cur, used = s, 0
        while True:
            f, rk = cur % 8 + df, cur // 8 + dr
            if self.r.wrap:
                f %= 8
            off_f, off_r = f < 0 or f > 7, rk < 0 or rk > 7
            if off_f or off_r:
                if not bounce or (off_f and off_r) or used >= self.r.bounce:
                    break
                if off_r and self.r.bounce < 2:
                    break
                used += 1
                if off_f:
                    df = -df
                else:
                    dr = -dr
                continue
            t = sq(f, rk)
            if t == s or t in out:
                break
            out.append(t)
            cur = t
        return out

    def fwd(self, c):
        return 1 if c == W else -1

    # -- pseudo-legal moves --------------------------------------------------------------
    def pseudo(self, p, c, captures_only=False):
        moves = []
        for s in range(64):
            pc = p.cells[s]
            if pc is None or pc[0] != c:
                continue
            self.piece_moves(p, s, c, pc[1], moves, captures_only)
        if not captures_only:
            self.castles(p, c, moves)
        return moves

    def target(self, p, c, t):
        """'empty', 'enemy' (capturable) or None."""
        x = p.cells[t]
        if x is None:
            return "empty"
        if x[0] != c and x[1] not in self.r.immune:
            return "enemy"
        return None

    def add(self, p, c, role, s, t, kind, out, promote_ok=True):
        if role == "P" and promote_ok:
            own_rank = t // 8 + 1 if c == W else 8 - t // 8
            if own_rank >= self.r.promo_rank:
                for q in PROMO:
                    out.append((s, t, q, kind))
                return
        out.append((s, t, None, kind))

    def piece_moves(self, p, s, c, role, out, captures_only):
        r = self.r
        fw = self.fwd(c)
        own = set()

        def put(t, cap, kind="normal", pawn=False):
            if (captures_only and not cap) or (t, kind == "ep") in own:
                return
            own.add((t, kind == "ep"))
            self.add(p, c, role, s, t, kind, out, promote_ok=pawn)

        ep_sq = p.ep[0] if (p.ep and p.side == c) else None
        ep_takers = set()
        for feat in r.features[c][role]:
            if feat[0] == "capture_diag" and feat[1]:
                ep_takers |= {self.step(s, -1, fw), self.step(s, 1, fw)}
            if feat[0] == "capture_forward" and feat[1]:
                ep_takers.add(self.step(s, 0, fw))
        ep_takers.discard(None)
        is_pawn = role == "P"
        for feat in r.features[c][role]:
            kind = feat[0]
            if kind == "leap":
                for df, dr in feat[1]:
                    t = self.step(s, df, dr)
                    if t is not None and self.target(p, c, t):
                        put(t, self.target(p, c, t) == "enemy")
            elif kind == "slide":
                limit = feat[2] if len(feat) > 2 else None
                if r.slide_limit is not None:
                    limit = r.slide_limit if limit is None else min(limit, r.slide_limit)
                for df, dr in feat[1]:
                    bounce = role in r.bounce_roles and df != 0 and dr != 0 and r.bounce > 0
                    for i, t in enumerate(self.ray(s, df, dr, bounce)):
                        if limit is not None and i >= limit:
                            break
                        x = self.target(p, c, t)
                        if x:
                            put(t, x == "enemy")
                        if p.cells[t] is not None:
                            break
            elif kind == "double_leap":
                for df, dr in feat[1]:
                    m = self.step(s, df, dr)
                    if m is None or p.cells[m] is not None:
                        continue
                    for df2, dr2 in feat[2]:
                        t = self.step(m, df2, dr2)
                        if t is not None and t != s and self.target(p, c, t):
                            put(t, self.target(p, c, t) == "enemy")
            elif kind == "warp":
                for df, dr in ORTH:
                    # Every square to the edge empty (geometry of the plain board).
                    f, rk = s % 8, s // 8
                    ok = True
                    while 0 <= f + df <= 7 and 0 <= rk + dr <= 7:
                        f, rk = f + df, rk + dr
                        if p.cells[sq(f, rk)] is not None:
                            ok = False
                            break
                    if not ok:
                        continue
                    lf, lr = s % 8, s // 8
                    while 0 <= lf - df <= 7 and 0 <= lr - dr <= 7:
                        lf, lr = lf - df, lr - dr
                    t = sq(lf, lr)
                    if t != s and self.target(p, c, t):
                        put(t, self.target(p, c, t) == "enemy")
            elif kind == "push":
                t = self.step(s, 0, fw)
                if t is not None and p.cells[t] is None:
                    put(t, False, pawn=is_pawn)
            elif kind == "capture_diag":
                for df in (-1, 1):
                    t = self.step(s, df, fw)
                    if t is not None and self.target(p, c, t) == "enemy":
                        put(t, True, pawn=is_pawn)
            elif kind == "capture_forward":
                t = self.step(s, 0, fw)
                if t is not None and self.target(p, c, t) == "enemy":
                    put(t, True, pawn=is_pawn)
            elif kind == "capture_sideways":
                for df in (-1, 1):
                    t = self.step(s, df, 0)
                    if t is not None and self.target(p, c, t) == "enemy":
                        put(t, True, pawn=is_pawn)
            elif kind in ("double", "sprint"):
                home = 1 if c == W else 6
                if kind == "double" and (r.no_initial or s // 8 != home or s in p.moved):
                    continue
                m = self.step(s, 0, fw)
                t = self.step(m, 0, fw) if m is not None else None
                if t is not None and p.cells[m] is None and p.cells[t] is None:
                    put(t, False, "double:%d" % m, pawn=is_pawn)
            elif kind == "backward":
                t = self.step(s, 0, -fw)
                if t is not None and p.cells[t] is None:
                    put(t, False, pawn=False)
            elif kind == "diag_quiet":
                for df in (-1, 1):
                    t = self.step(s, df, fw)
                    if t is not None and p.cells[t] is None and not (t == ep_sq and t in ep_takers):
                        put(t, False, pawn=is_pawn)
            elif kind == "berolina_push":
                for df in (-1, 1):
                    t = self.step(s, df, fw)
                    if t is not None and p.cells[t] is None and not (t == ep_sq and t in ep_takers):
                        put(t, False, pawn=is_pawn)
            elif kind == "berolina_double":
                home = 1 if c == W else 6
                if r.no_initial or s // 8 != home or s in p.moved:
                    continue
                for df in (-1, 1):
                    m = self.step(s, df, fw)
                    t = self.step(m, df, fw) if m is not None else None
                    if t is not None and p.cells[m] is None and p.cells[t] is None:
                        put(t, False, "double:%d" % m, pawn=is_pawn)
        # En passant: a capture of the passing piece, onto the passed square.
        if ep_sq is not None and ep_sq in ep_takers and p.cells[ep_sq] is None:
            v = p.ep[1]
            if p.cells[v] is not None and p.cells[v][0] != c:
                put(ep_sq, True, "ep", pawn=False)

    def castling_king(self, p, c):
        back = 0 if c == W else 7
        kings = [s for s in range(back * 8, back * 8 + 8) if p.cells[s] == (c, "K")]
        if len(kings) == 1:
            return kings[0]
        e = sq(4, back)
        return e if e in kings else None

    def castles(self, p, c, out):
        if not self.r.castling:
            return
        k = self.castling_king(p, c)
        if k is None:
            return
        back = k // 8
        for (cc, rook) in p.castling:
            if cc != c or p.cells[rook] != (c, "R") or rook // 8 != back:
                continue
            kside = rook % 8 > k % 8
            kf, rf = (6, 5) if kside else (2, 3)
            lo = min(k % 8, rook % 8, kf, rf)
            hi = max(k % 8, rook % 8, kf, rf)
            if all(p.cells[sq(f, back)] is None or sq(f, back) in (k, rook) for f in range(lo, hi + 1)):
                out.append((k, rook, None, "castle"))

    # -- making moves --------------------------------------------------------------------
    def make(self, p, m):
        s, t, promo, kind = m
        c = p.side
        q = p.copy()
        q.ep = None
        pc = p.cells[s]
        ck = self.castling_king(p, c) if p.castling else None
        if kind == "castle":
            kside = t % 8 > s % 8
            back = s // 8
            kd, rd = sq(6 if kside else 2, back), sq(5 if kside else 3, back)
            rook = p.cells[t]
            q.cells[s] = None
            q.cells[t] = None
            q.cells[kd] = pc
            q.cells[rd] = rook
            q.castling = {x for x in q.castling if x[0] != c}
        else:
            if kind == "ep":
                q.cells[p.ep[1]] = None
                q.moved.discard(p.ep[1])
            q.cells[t] = (c, promo) if promo else pc
            q.cells[s] = None
            q.moved.discard(t)
            if s in q.moved:
                q.moved.discard(s)
            if self.r.track_moved and pc[1] == "P" and not promo:
                q.moved.add(t)
            q.castling = {x for x in q.castling if x[1] not in (s, t)}
            if ck == s:
                q.castling = {x for x in q.castling if x[0] != c}
            if kind.startswith("double") and not promo:
                # A passing move may be taken en passant on the square it passed (a move
                # that promoted made a new piece: no right).
                q.ep = (int(kind.split(":")[1]), t)
        # Castling rights of a side whose castling king is gone.
        for cc in (W, B):
            if self.castling_king(q, cc) is None:
                q.castling = {x for x in q.castling if x[0] != cc}
        q.side = 1 - c
        return q

    # -- legality ------------------------------------------------------------------------
    def attacked(self, p, s, by):
        """Whether a capture of `by` lands on `s` (which holds a piece of the other side)."""
        for m in self.pseudo(p, by, captures_only=True):
            if m[1] == s and m[3] != "ep":
                return True
        return False

    def royals(self, p, c):
        return [s for s in range(64) if p.cells[s] and p.cells[s][0] == c and p.cells[s][1] in self.r.royal]

    def safe(self, p, c):
        rs = self.royals(p, c)
        if not rs:
            return True
        hits = [self.attacked(p, s, 1 - c) for s in rs]
        return not all(hits) if self.r.check_all else not any(hits)

    def castle_path_safe(self, p, m):
        s, t = m[0], m[1]
        c = p.side
        if "K" not in self.r.royal:
            return True
        if self.attacked(p, s, 1 - c):
            return False
        kside = t % 8 > s % 8
        kf = 6 if kside else 2
        back = s // 8
        step = 1 if kf > s % 8 else -1
        f = s % 8
        while f != kf:
            f += step
            probe = p.copy()
            probe.cells[t] = None
            probe.cells[s] = None
            probe.cells[sq(f, back)] = (c, "K")
            if self.attacked(probe, sq(f, back), 1 - c):
                return False
        return True

    def legal(self, p):
        c = p.side
        # A side with royalty and no royal left has lost: no moves.
        if self.r.royal and (not self.royals(p, W) or not self.royals(p, B)):
            return []
        out = []
        for m in self.pseudo(p, c):
            if m[3] == "castle" and not self.castle_path_safe(p, m):
                continue
            if self.safe(self.make(p, m), c):
                out.append(m)
        return out

    def perft(self, p, d):
        ms = self.legal(p)
        if d == 1:
            return len(ms)
        return sum(self.perft(self.make(p, m), d - 1) for m in ms)


def coord(m, legal=()):
    """A move's coordinate form: a castle as king origin and target, or as king takes rook
    where a plain move among `legal` has that form (a king that steps two squares or
    slides), as houserules writes it."""
    s, t, promo, kind = m
    if kind == "castle":
        kside = t % 8 > s % 8
        target = sq(6 if kside else 2, s // 8)
        if not any(o[3] != "castle" and o[0] == s and o[1] == target and not o[2] for o in legal):
            t = target
    return name(s) + name(t) + (promo.lower() if promo else "")


def random_line(g, p, plies, rng):
    line = []
    for _ in range(plies):
        ms = g.legal(p)
        if not ms:
            break
        m = rng.choice(sorted(ms, key=coord))
        line.append(coord(m, ms))
        p = g.make(p, m)
    return line, p


SINGLES = [k for k in PRESETS if ":" not in k]


def cases():
    """(presets, depth from the start, random positions, depth there)."""
    out = []
    for i in SINGLES:
        out.append(([i], 3, 3, 2))
    out.append((["berolina-pawns:scope=white"], 3, 2, 2))
    for a in range(len(SINGLES)):
        for b in range(a + 1, len(SINGLES)):
            ids = [SINGLES[a], SINGLES[b]]
            if compatible(ids):
                out.append((ids, 2, 2, 2))
    rng = random.Random(16)
    triples = set()
    while len(triples) < 30:
        ids = tuple(rng.sample(SINGLES, 3))
        if compatible(ids):
            triples.add(ids)
    for t in sorted(triples):
        out.append((list(t), 2, 1, 2))
    out.append((["knights-leap-twice", "wrap-board"], 3, 0, 0))
    return out


def record(path, seed=2016):
    rng = random.Random(seed)
    recs = []
    t0 = time.time()
    for ids, d0, n_random, d1 in cases():
        g = Gen(rules_of(ids))
        p = start(g.r)
        recs.append({"presets": ids, "moves": [], "depth": d0, "nodes": g.perft(p, d0)})
        for _ in range(n_random):
            line, q = random_line(g, p, rng.randint(6, 24), rng)
            if not g.legal(q):
                continue
            recs.append({"presets": ids, "moves": line, "depth": d1, "nodes": g.perft(q, d1)})
        print(f"{time.time() - t0:7.1f}s {' + '.join(ids)}", file=sys.stderr)
    with open(path, "w") as f:
        json.dump({"generator": "tools/rules-ref/rules_ref.py", "cases": recs}, f, indent=0)


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "record":
        here = os.path.dirname(os.path.abspath(__file__))
        seed = int(sys.argv[2]) if len(sys.argv) >= 3 else 2016
        record(os.path.join(here, "..", "..", "tests", "data", "preset-perft.json"), seed)
    elif len(sys.argv) >= 3 and sys.argv[1] == "perft":
        ids, d = sys.argv[2:-1], int(sys.argv[-1])
        g = Gen(rules_of(ids))
        p = start(g.r)
        for k in range(1, d + 1):
            print(k, g.perft(p, k))
    else:
        print(__doc__)


if __name__ == "__main__":
    main()
