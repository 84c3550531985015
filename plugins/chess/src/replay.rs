//! Whole main lines replayed inside the plugin (API 1.6, `VariantRules::replay_line`): batch
//! analysis hands the SAN of a line over once, and every ply is read, generated, applied and
//! marked here, with the engine board kept in the position's cache, instead of crossing the
//! library boundary for each of those steps.
//!
//! Each ply is exactly what the host's move-by-move path gives: tokens are read with the
//! host's own [`SanReader`], the candidate moves are this variant's `generate` for the token's
//! destination and piece kinds (castling: every legal move), the move is applied with this
//! variant's `apply`, and the check mark follows the host's rule (a king of the other side
//! attacked; `#` when that side then has no legal move).

use crate::engine::{Board, ChessMove, MoveList, Wanted};
use crate::{
    board_of, castle_event, cell_of, fen, fide_en_passant, kind, legal_wanted, one_king_each,
    promotion_event, side_of, sq16, sq8, store_board, sync_state, to_api, to_engine, Chess,
};
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    is_san_rival, write_coordinate_among, write_move_san, Cell, Color, CoordinateMove,
    DescribedLine, Event, EventKind, GenRequest, Move, MoveEffects, MoveFlags, Position,
    ReplayedLine, ReplayedPly, SanCandidate, SanToken, Square, SquareSet, VariantRules,
};

impl Chess {
    /// See `VariantRules::replay_line`. `None` when the rules are a changed model (the host
    /// never asks then: a changed model comes with presets).
    pub(crate) fn replay(&self, start: &Position, tokens: &[&str]) -> Option<ReplayedLine> {
        self.replay_described(start, tokens, false).map(|d| d.line)
    }

    /// See `VariantRules::describe_line`: the replay with every ply's texts.
    pub(crate) fn describe(&self, start: &Position, tokens: &[&str]) -> Option<DescribedLine> {
        self.replay_described(start, tokens, true)
    }

    /// The replay, and with `describe` the SAN, coordinate form, FEN and events of each ply
    /// (the line's text buffers stay empty without it).
    fn replay_described(
        &self,
        start: &Position,
        tokens: &[&str],
        describe: bool,
    ) -> Option<DescribedLine> {
        if self.modelled.is_some() {
            return None;
        }
        let reader = &self.san;
        let mut pos = start.clone();
        let mut out = DescribedLine::of_moves(ReplayedLine {
            plies: RVec::with_capacity(tokens.len()),
            position: pos.clone(),
        });
        // With `describe`, every ply's texts, written in place (`push_written`): a SAN, a
        // coordinate move and a FEN, about 80 bytes a ply.
        let mut texts: Vec<u8> = Vec::new();
        if describe {
            out.ends.reserve(tokens.len());
            texts.reserve(tokens.len() * 80);
        }
        let mut moves = RVec::with_capacity(64);
        let mut list = MoveList::new();
        // Per-ply texts (with `describe`), reused.
        let (mut san, mut coordinate) = (String::new(), String::new());
        let mut events: Vec<Event> = Vec::new();
        let mut rivals: Vec<Square> = Vec::new();
        let mut fens = fen::LineFens::default();
        // The ranks of the cells changed since `fens` last wrote a FEN.
        let mut fen_ranks = 0xffu8;
        // The engine board, kept here while the position is a plain one (the board in the
        // position's cache is stale meanwhile: it is stored back before any other use).
        let mut b = board_of(&pos);
        let mut plain = plain(&pos, &b);
        for text in tokens {
            let token = reader.read(&pos, text);
            let mover = pos.side_to_move;
            if plain {
                // The candidates `legal_wanted` (the engine's branch) would give, straight
                // from the board kept here: all legal moves for castling, else the moves to
                // the token's square by the kinds it names (found from that square, unless
                // they are promotions or en passant).
                list.clear();
                let named = token.as_ref().and_then(|token| {
                    match token.castle {
                        Some(_) => b.generate(&mut list),
                        None => {
                            let d = token.dest;
                            // Off the board, or a letter of no piece: nothing for `pick`.
                            let roles = self.roles_named(token);
                            if d.file() < 8 && d.rank() < 8 && roles != 0 {
                                candidates_to(&b, sq8(d), roles, &mut list);
                            }
                        }
                    }
                    self.pick(&b, token, &list)
                });
                // Where SAN names no move, the coordinate form (`g1f3`), as the host reads
                // it then: `list` holds the candidates for the SAN of the move after this.
                let Some(em) = named.or_else(|| self.coordinate_pick(&pos, &b, text, &mut list))
                else {
                    break;
                };
                let mv = to_api(em);
                if describe {
                    events.clear();
                    rivals.clear();
                    for &o in list.iter() {
                        let o = to_api(o);
                        if is_san_rival(&pos, &mv, &o) {
                            rivals.push(o.from);
                        }
                    }
                    // A castle's form depends on the other legal moves (`list` holds them all
                    // then); no other move's does.
                    let legal: Vec<Move> = if mv.is_castle() {
                        list.iter().map(|&o| to_api(o)).collect()
                    } else {
                        Vec::new()
                    };
                    self.write_names(&pos, mv, &rivals, &legal, &mut san, &mut coordinate);
                    if !mv.is_castle() {
                        let victim_sq = if mv.flags.contains(MoveFlags::EN_PASSANT) {
                            sq16(em.to() ^ 8)
                        } else {
                            mv.to
                        };
                        let victim = pos.get(victim_sq);
                        if victim.is_piece() {
                            events.push(Event::new(EventKind::CAPTURE, victim_sq, victim));
                        }
                    }
                }
                let mark = if play_plain(&mut pos, &mut b, mv, em) {
                    fen_ranks |= fen::ranks_changed(&mv);
                    if describe {
                        // The events `apply` records after the move.
                        if mv.is_castle() {
                            let kd = sq16(em.castle_king_to().unwrap_or(em.from()));
                            events.push(castle_event(&pos, kd));
                        } else if mv.is_promotion() {
                            events.push(promotion_event(&pos, mv));
                        }
                    }
                    plain_mark(&b, &mut list)
                } else {
                    // A move `play_plain` leaves to `apply` (the board was not touched).
                    fen_ranks = 0xff;
                    store_board(&mut pos, &b);
                    let mut fx = MoveEffects::new(mover, describe);
                    self.apply(&mut pos, mv, &mut fx);
                    if describe {
                        events.clear();
                        events.extend(fx.events.iter().cloned());
                    }
                    b = board_of(&pos);
                    plain = self::plain(&pos, &b);
                    if plain {
                        plain_mark(&b, &mut list)
                    } else {
                        self.mark(&pos, mover, &mut moves)
                    }
                };
                let ply = ReplayedPly {
                    mv,
                    mover,
                    mark,
                    key: pos.repetition_hash(),
                };
                if describe {
                    push_mark(&mut san, mark);
                    let (san_end, coordinate_end) = push_names(&mut texts, &san, &coordinate);
                    let changed = std::mem::replace(&mut fen_ranks, 0);
                    if !(plain && fens.write_into(&pos, &self.pieces, &b, changed, &mut texts)) {
                        fen_ranks = 0xff;
                        let written = if plain {
                            fen::write(&pos, &self.pieces, Some(&b), true)
                        } else {
                            self.write_fen(&pos)
                        };
                        texts.extend_from_slice(written.as_bytes());
                    }
                    out.push_written(ply, &texts, san_end, coordinate_end, &events);
                } else {
                    out.line.plies.push(ply);
                }
                continue;
            }
            let Some(token) = token else {
                break;
            };
            fen_ranks = 0xff;
            let mut req = GenRequest::new(pos.side_to_move, true, SquareSet::EMPTY);
            if token.castle.is_none() {
                req = req.of_kinds(reader.kinds(&token)).to_square(token.dest);
            }
            moves.clear();
            legal_wanted(&pos, &req, &mut list, &mut moves);
            let Some(mv) = reader.matching(&pos, &token, &moves) else {
                break;
            };
            if describe {
                rivals.clear();
                rivals.extend(
                    moves
                        .iter()
                        .filter(|o| is_san_rival(&pos, &mv, o))
                        .map(|o| o.from),
                );
                self.write_names(&pos, mv, &rivals, &moves, &mut san, &mut coordinate);
            }
            let mut fx = MoveEffects::new(mover, describe);
            self.apply(&mut pos, mv, &mut fx);
            let mark = self.mark(&pos, mover, &mut moves);
            let ply = ReplayedPly {
                mv,
                mover,
                mark,
                key: pos.repetition_hash(),
            };
            if describe {
                push_mark(&mut san, mark);
                let (san_end, coordinate_end) = push_names(&mut texts, &san, &coordinate);
                texts.extend_from_slice(self.write_fen(&pos).as_bytes());
                out.push_written(ply, &texts, san_end, coordinate_end, &fx.events);
            } else {
                out.line.plies.push(ply);
            }
        }
        if plain {
            store_board(&mut pos, &b);
        }
        out.line.position = pos;
        // The texts are the line's (checked as UTF-8 once; a line whose texts are not goes
        // move by move).
        if describe && !out.set_text(texts) {
            return None;
        }
        Some(out)
    }

    /// The SAN (without its check mark) and the coordinate form of `mv` in `pos`, as the
    /// host writes them: `rivals` are the origins of the other legal moves of the same piece
    /// to the same square; `legal`, the legal moves a castle's form depends on (all of them
    /// when `mv` castles: Chess960's king beside its castling square is written king takes
    /// rook).
    fn write_names(
        &self,
        pos: &Position,
        mv: Move,
        rivals: &[Square],
        legal: &[Move],
        san: &mut String,
        coordinate: &mut String,
    ) {
        san.clear();
        coordinate.clear();
        write_move_san(san, pos, &mv, &self.pieces, rivals);
        write_coordinate_among(coordinate, &mv, &self.pieces, legal);
    }

    /// The legal move of the plain board `b` (position `pos`) that `text` names in
    /// coordinate form ([`CoordinateMove::find`]: what the host's move-by-move path resolves
    /// it to where SAN names none), with `list` left holding the legal moves to its square (or
    /// all, while the side to move may castle: a castle's second square is the king's target,
    /// not its destination).
    fn coordinate_pick(
        &self,
        pos: &Position,
        b: &Board,
        text: &str,
        list: &mut MoveList,
    ) -> Option<ChessMove> {
        let c = CoordinateMove::read(text)?;
        list.clear();
        if may_castle(pos) || c.to.file() >= 8 || c.to.rank() >= 8 {
            b.generate(list);
        } else {
            candidates_to(b, sq8(c.to), ALL_ROLES, list);
        }
        let moves: Vec<Move> = list.iter().map(|&m| to_api(m)).collect();
        let i = c.find(&moves, |k| self.san.letter(k))?;
        list.as_slice().get(i).copied()
    }

    /// The engine roles (bit `1 << role`) a plain SAN token names: its letter's, pawns
    /// without one; 0 for a letter of no chess piece.
    fn roles_named(&self, t: &SanToken) -> u8 {
        match t.piece {
            None => 1 << kind::PAWN,
            Some(l) => (0..6u8)
                .find(|&k| self.san.letter(k) == l)
                .map_or(0, |k| 1 << k),
        }
    }

    /// [`SanReader::matching`] on the engine's moves `list` of the plain board `b`: the one
    /// move `t` names, if exactly one (`list` holds the legal moves to `t.dest` of the kinds
    /// the token names, or for castling all legal moves). The rule is [`SanReader::names`].
    fn pick(&self, b: &Board, t: &SanToken, list: &[ChessMove]) -> Option<ChessMove> {
        let them = b.by_side(b.side_to_move().opposite());
        let mut found = None;
        for &m in list {
            if let Some(long) = t.castle {
                // The side is the rook's: a Chess960 king may stay, or move the other way.
                if m.castle_is_kingside() != Some(!long) {
                    continue;
                }
            } else {
                if m.is_castle() || sq16(m.to()) != t.dest {
                    continue;
                }
                let Some((_, role)) = b.piece_at(m.from()) else {
                    continue;
                };
                let candidate = SanCandidate {
                    file: m.from() & 7,
                    rank: m.from() >> 3,
                    kind: role as u8,
                    // Spared where the rule does not read it.
                    capture: t.capture_matters()
                        && (m.is_capture() || them & (1u64 << m.to()) != 0),
                    promotion: m.promotion().map(|p| p as u8),
                };
                if !self.san.names(t, &candidate) {
                    continue;
                }
            }
            if found.is_some() {
                return None;
            }
            found = Some(m);
        }
        found
    }

    /// The check mark of a move by `mover` that led to `after`: `b'+'` when a king of the
    /// other side is attacked, `b'#'` when that side, to move, also has no legal move, 0
    /// without check.
    fn mark(&self, after: &Position, mover: Color, buf: &mut RVec<Move>) -> u8 {
        let opponent = mover.opposite();
        let b = board_of(after);
        let check = if one_king_each(&b) && after.side_to_move == opponent {
            b.is_check()
        } else {
            after
                .pieces_of(opponent)
                .any(|(sq, k)| k == kind::KING && self.is_attacked(after, sq, mover))
        };
        if !check {
            return 0;
        }
        buf.clear();
        self.generate(
            after,
            &GenRequest::new(after.side_to_move, true, SquareSet::EMPTY),
            buf,
        );
        if buf.is_empty() && after.side_to_move == opponent {
            b'#'
        } else {
            b'+'
        }
    }
}

/// Every engine role, as a `Wanted` mask.
const ALL_ROLES: u8 = 0b11_1111;

/// The legal moves of `b` to engine square `to` by the roles `roles` into `list` (found from
/// that square, unless they are promotions or en passant).
fn candidates_to(b: &Board, to: u8, roles: u8, list: &mut MoveList) {
    if !b.moves_to(to, roles, list) {
        list.clear();
        b.generate_wanted(list, Wanted { to: 1 << to, roles });
    }
}

/// Whether the side to move still has a castling right.
fn may_castle(pos: &Position) -> bool {
    use houserules_plugin_api::castle_slot::*;
    let slots = match pos.side_to_move {
        Color::White => [WHITE_KING_SIDE, WHITE_QUEEN_SIDE],
        Color::Black => [BLACK_KING_SIDE, BLACK_QUEEN_SIDE],
    };
    slots.iter().any(|&s| !pos.castling[s].is_none())
}

/// Appends a ply's SAN and coordinate form to the line's `text`; where each ends.
fn push_names(text: &mut Vec<u8>, san: &str, coordinate: &str) -> (usize, usize) {
    text.extend_from_slice(san.as_bytes());
    let san_end = text.len();
    text.extend_from_slice(coordinate.as_bytes());
    (san_end, text.len())
}

/// Appends a check mark (`b'+'`, `b'#'`; 0 for none) to a SAN.
fn push_mark(san: &mut String, mark: u8) {
    if mark != 0 {
        san.push(mark as char);
    }
}

/// Whether `pos` (with its engine board `b`) is one the line can be replayed on with the board
/// kept aside: one king each and FIDE's en passant (what `legal_wanted` gives the engine),
/// no attributes to carry with the pieces, and the side to move the board's.
fn plain(pos: &Position, b: &Board) -> bool {
    one_king_each(b)
        && fide_en_passant(pos)
        && !pos.has_attributes()
        && side_of(pos.side_to_move) == b.side_to_move()
}

/// Plays `mv`, a legal move of the plain position `pos`, on `b` and on the cells and state of
/// `pos`, as `Chess::apply` does there, but without storing the board in the cache; `false`
/// (nothing changed) for the moves where `apply` does more than that: a king that leaves
/// from off its back rank (`apply` keeps castling rights then), a king taken, an en passant
/// victim elsewhere than behind the passed square.
fn play_plain(pos: &mut Position, b: &mut Board, mv: Move, em: ChessMove) -> bool {
    // `em` is the engine's move that `mv` was made from, the one `apply` would play.
    debug_assert_eq!(em, to_engine(mv, pos));
    let from = mv.from;
    let Some(mover_kind) = pos.get(from).kind() else {
        return false;
    };
    let back = if pos.side_to_move == Color::White {
        0
    } else {
        7
    };
    if mover_kind == kind::KING && !mv.is_castle() && from.rank() != back {
        return false;
    }
    let victim_sq = if mv.flags.contains(MoveFlags::EN_PASSANT) {
        let behind = sq16(em.to() ^ 8);
        if pos.ep_victim.to_option().unwrap_or(behind) != behind {
            return false;
        }
        behind
    } else {
        mv.to
    };
    if !mv.is_castle() && pos.get(victim_sq).kind() == Some(kind::KING) {
        return false;
    }
    b.play(em);
    if mv.is_castle() {
        let kd = sq16(em.castle_king_to().unwrap_or(em.from()));
        let rd = sq16(em.castle_rook_to().unwrap_or(em.to()));
        for s in [from, mv.to, kd, rd] {
            pos.set_raw(s, cell_of(b.piece_at(sq8(s))));
        }
    } else {
        // What the board now holds there: nothing on the origin and the victim's square, the
        // piece (promoted) on the destination.
        let color = pos.side_to_move;
        let placed = if mv.is_promotion() {
            mv.piece
        } else {
            mover_kind
        };
        pos.set_raw(victim_sq, Cell::EMPTY);
        pos.set_raw(from, Cell::EMPTY);
        pos.set_raw(mv.to, Cell::piece(placed, color));
    }
    sync_state(pos, b);
    true
}

/// `Chess::mark` on a plain position after a move (the side to move is the mover's
/// opponent): `+` for check, `#` when that side also has no legal move.
fn plain_mark(b: &Board, list: &mut MoveList) -> u8 {
    if !b.is_check() {
        return 0;
    }
    list.clear();
    b.generate(list);
    if list.is_empty() {
        b'#'
    } else {
        b'+'
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Replays `tokens` from `fen`: the plies' moves' flags, their marks, and the FEN after.
    fn replay(fen: &str, tokens: &str) -> (usize, Vec<u8>, String, Option<Move>) {
        let chess = Chess::default();
        let start = chess.parse_fen(fen).expect("a FEN");
        let tokens: Vec<&str> = tokens.split_whitespace().collect();
        let line = chess.replay(&start, &tokens).expect("a line");
        // Every key is the position's own hash: the last one checked here, the rest by the
        // host's comparison with the move-by-move path (tests/tests/whole_lines.rs).
        if let Some(last) = line.plies.last() {
            assert_eq!(last.key, line.position.repetition_hash());
        }
        (
            line.plies.len(),
            line.plies.iter().map(|p| p.mark).collect(),
            chess.write_fen(&line.position),
            line.plies.last().map(|p| p.mv),
        )
    }

    const START: &str = crate::START_FEN;

    #[test]
    fn a_mate_is_marked_and_the_position_is_the_one_after() {
        let (n, marks, fen, _) = replay(START, "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#");
        assert_eq!(n, 7);
        assert_eq!(marks, [0, 0, 0, 0, 0, 0, b'#']);
        // As python-chess writes it.
        assert_eq!(
            fen,
            "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
        );
    }

    #[test]
    fn en_passant_and_castling_are_the_moves_they_name() {
        let (n, _, fen, last) = replay(START, "e4 a6 e5 d5 exd6");
        assert_eq!(n, 5);
        assert!(last.is_some_and(|m| m.flags.contains(MoveFlags::EN_PASSANT)));
        assert_eq!(
            fen,
            "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
        );
        let (n, _, fen, last) = replay(START, "Nf3 a6 g3 b6 Bg2 c6 O-O");
        assert_eq!(n, 7);
        assert!(last.is_some_and(|m| m.is_castle()));
        assert_eq!(
            fen,
            "rnbqkbnr/3ppppp/ppp5/8/8/5NP1/PPPPPPBP/RNBQ1RK1 b kq - 1 4"
        );
    }

    #[test]
    fn the_line_stops_before_a_token_that_names_no_single_move() {
        let fen = "R7/4k3/8/8/8/8/8/R3K3 w - - 0 1";
        // Both rooks reach a4: ambiguous, left to the host.
        assert_eq!(replay(fen, "Ra4 Kd6").0, 0);
        let (n, marks, fen_after, _) = replay(fen, "R1a4 Kd6 R8a6+ Kc5");
        assert_eq!((n, marks), (4, vec![0, 0, b'+', 0]));
        assert_eq!(fen_after, "8/8/R7/2k5/R7/8/8/4K3 w - - 4 3");
        // Not SAN; no such piece; not legal (the king would stay in check).
        assert_eq!(replay(fen, "R1a4 e2e4x").0, 1);
        assert_eq!(replay(fen, "R1a4 Kd6 Qd2").0, 2);
        assert_eq!(replay(fen, "R1a4 Kd6 R8a6+ Kb6").0, 3);
    }

    /// The texts `describe` writes for each ply of `tokens` from `fen`: SAN, coordinate
    /// form, FEN after, and the events as `kind@square`.
    fn described(fen: &str, tokens: &str) -> Vec<(String, String, String, Vec<String>)> {
        let chess = Chess::default();
        let start = chess.parse_fen(fen).expect("a FEN");
        let tokens: Vec<&str> = tokens.split_whitespace().collect();
        let d = chess.describe(&start, &tokens).expect("a line");
        assert_eq!(
            Some(d.line.clone()),
            chess.replay(&start, &tokens),
            "the same line as replay_line"
        );
        (0..d.line.plies.len())
            .map(|i| {
                let t = d.ply(i).expect("texts that fit");
                (
                    t.san.to_string(),
                    t.coordinate.to_string(),
                    t.fen.to_string(),
                    t.events
                        .iter()
                        .map(|e| format!("{}@{}", e.kind.0, e.square))
                        .collect(),
                )
            })
            .collect()
    }

    #[test]
    fn a_described_line_writes_canonical_san_coordinates_fens_and_events() {
        // Over-specified SAN in, canonical SAN out; a capture, a castle, a check and a mate.
        let d = described(START, "e4 e5 Bc4 Nc6 Qh5 Nf6 Ngf3 Nxh5?? Bxf7+ Ke7 O-O");
        let sans: Vec<&str> = d.iter().map(|p| p.0.as_str()).collect();
        assert_eq!(
            sans,
            ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Nf3", "Nxh5", "Bxf7+", "Ke7", "O-O"]
        );
        assert_eq!(d[6].1, "g1f3");
        assert_eq!(d[10].1, "e1g1");
        assert_eq!(d[7].3, ["1@h5"], "a capture where the queen stood");
        assert_eq!(d[10].3, ["4@g1"], "a castle, at the king's square");
        assert_eq!(
            // As python-chess writes it.
            d[10].2,
            "r1bq1b1r/ppppkBpp/2n5/4p2n/4P3/5N2/PPPP1PPP/RNB2RK1 b - - 2 6"
        );
        // En passant takes the pawn behind its square; a promotion names its piece, and
        // the file names a pawn capture when two pawns could take.
        let d = described(START, "e4 a6 e5 d5 exd6");
        assert_eq!(d[4].0, "exd6");
        assert_eq!(d[4].3, ["1@d5"]);
        let d = described("1n2k3/P1P5/8/8/8/8/8/4K3 w - - 0 1", "axb8=Q+ Kd7 c8=N");
        assert_eq!((d[0].0.as_str(), d[0].1.as_str()), ("axb8=Q+", "a7b8q"));
        assert_eq!(d[0].3, ["1@b8", "2@b8"], "the capture, then the promotion");
        assert_eq!(d[2].0, "c8=N");
        let d = described("R7/4k3/8/8/8/8/8/R3K3 w - - 0 1", "R1a4 Kd6 R8a6+");
        assert_eq!((d[0].0.as_str(), d[2].0.as_str()), ("R1a4", "R8a6+"));
        let d = described(START, "f3 e5 g4 Qh4#");
        assert_eq!(d[3].0, "Qh4#");
    }

    #[test]
    fn a_promotion_needs_its_piece() {
        let fen = "8/P6k/8/8/8/8/8/K7 w - - 0 1";
        assert_eq!(replay(fen, "a8").0, 0);
        let (n, _, fen, last) = replay(fen, "a8=N Kg6");
        assert_eq!(n, 2);
        assert!(last.is_some());
        assert_eq!(fen, "N7/8/6k1/8/8/8/8/K7 w - - 1 2");
    }
}
