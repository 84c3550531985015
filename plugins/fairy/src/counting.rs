//! Fairy-Stockfish's `countingRule` (`makruk`, `cambodian`, `asean`): the counting of
//! south-east Asian chess. The side that could be mated counts its moves: in makruk, when no
//! pawn is left, the board's honour (64 moves) while it has more than its king, the pieces'
//! honour when it has only the king (8 moves against two rooks, 16 against one, 22 against
//! two khons, 32 against two knights, 44 against one khon, 64 otherwise); Cambodian chess
//! counts one move less, the board's honour with at most three pieces, pawns or not; ASEAN
//! chess counts only for a lone king with no pawn left (16 moves against a rook, 44 against a
//! khon, 64 against a knight). The pieces' honour counts from the number of pieces on the
//! board. A position where the count ran past its limit is a draw (unless it is checkmate),
//! an end the player may claim in Fairy-Stockfish (`is_optional_game_end`), like repetition.
//!
//! Everything in plies, as Fairy-Stockfish keeps it: `countingLimit` (twice the moves) and
//! `countingPly`. Once started, counting never stops; it restarts after a capture or a
//! promotion that leaves the counting side with only its king, and (not ASEAN) when a lone
//! king takes the last pawn. The FEN writes the limit in place of the en passant field and
//! the counting ply in place of the halfmove clock (`8/8/4k3/8/8/8/3R4/R3K3 b - 16 8 1`);
//! reading a number there sets the limit, the halfmove clock then becoming the counting ply.
//!
//! The count is kept as its limit and the game ply at which it stood at 0 (its origin), so
//! that the position does not change from ply to ply with it: as in Fairy-Stockfish,
//! repetitions during counting count. Both live in `Position::variant_state[STATE]` (slot 3,
//! which `castlingWins` uses too: the two are refused together).

use houserules_plugin_api::{Color, Position};

/// The counting rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CountingRule {
    /// Thai makruk.
    Makruk,
    /// Cambodian ouk chatrang.
    Cambodian,
    /// ASEAN chess.
    Asean,
}

/// Reads the key's value (`none`: off). Fairy-Stockfish warns about `cambodian` (not a
/// documented value) but stores it, as here.
pub fn parse(v: &str) -> Result<Option<CountingRule>, String> {
    match v {
        "none" => Ok(None),
        "makruk" => Ok(Some(CountingRule::Makruk)),
        "cambodian" => Ok(Some(CountingRule::Cambodian)),
        "asean" => Ok(Some(CountingRule::Asean)),
        _ => Err(format!("`{v}` is not none, makruk, cambodian or asean")),
    }
}

/// Where the count lives (see the module documentation).
pub const STATE: usize = 3;
/// The largest limit a FEN may give (the packed state holds 8 bits of it; Fairy-Stockfish's
/// own limits are at most 128).
pub const MAX_LIMIT: u32 = 255;
const ORIGIN_BIAS: i64 = 1 << 23;
const ORIGIN_MASK: u32 = (1 << 24) - 1;

/// Fairy-Stockfish's game ply: 0 before White's first move.
fn game_ply(pos: &Position) -> i64 {
    2 * (i64::from(pos.fullmove_number.max(1)) - 1) + i64::from(pos.side_to_move == Color::Black)
}

/// The running count: (limit, counting ply), both in plies; `None` when nothing is counted.
pub fn count(pos: &Position) -> Option<(u32, i64)> {
    let s = pos.variant_state[STATE];
    let limit = s >> 24;
    (limit > 0).then(|| {
        let origin = i64::from(s & ORIGIN_MASK) - ORIGIN_BIAS;
        (limit, game_ply(pos) - origin)
    })
}

/// Sets the count (limit and counting ply, in plies; a limit of 0 stops it).
pub fn set(pos: &mut Position, limit: u32, ply: i64) {
    pos.variant_state[STATE] = if limit == 0 {
        0
    } else {
        let origin = (game_ply(pos) - ply + ORIGIN_BIAS).clamp(0, i64::from(ORIGIN_MASK));
        (limit.min(MAX_LIMIT) << 24) | origin as u32
    };
}

/// Whether the count ran past its limit: the game is drawn (a checkmate is still one, so the
/// caller asks only when the side to move is not mated).
pub fn expired(pos: &Position) -> bool {
    count(pos).is_some_and(|(limit, ply)| ply > i64::from(limit))
}

/// The pieces on the board counting looks at, by colour.
#[derive(Debug, Clone, Copy, Default)]
pub struct Material {
    /// Every piece, kings included.
    pub all: [u32; 2],
    /// Pieces of the type `pawn`.
    pub pawns: [u32; 2],
    /// Rooks.
    pub rooks: [u32; 2],
    /// Khons (the type `silver`).
    pub khons: [u32; 2],
    /// Knights.
    pub knights: [u32; 2],
}

impl Material {
    /// Counts a piece of Fairy-Stockfish type `ty` of `color`.
    pub fn add(&mut self, ty: u16, color: Color) {
        let c = color.index();
        self.all[c] += 1;
        match ty {
            crate::spec::PAWN => self.pawns[c] += 1,
            crate::spec::ROOK => self.rooks[c] += 1,
            KNIGHT => self.knights[c] += 1,
            SILVER => self.khons[c] += 1,
            _ => {}
        }
    }

    fn total(&self) -> u32 {
        self.all[0] + self.all[1]
    }

    fn pawns_on_board(&self) -> bool {
        self.pawns[0] + self.pawns[1] > 0
    }
}

/// Fairy-Stockfish's type numbers of the knight and the khon (`silver`).
const KNIGHT: u16 = 2;
const SILVER: u16 = 9;

impl CountingRule {
    /// Fairy-Stockfish's `count_limit`: the moves `side` may count to (0: it does not count).
    pub fn limit(self, m: &Material, side: Color) -> u32 {
        let us = side.index();
        let them = side.opposite().index();
        // The honours of makruk and cambodian: 64 (63) moves with more than a king, else by
        // the strongest of the opponent's pieces.
        let honour = |board: u32, by_piece: [u32; 6]| {
            if m.all[us] > 1 {
                board
            } else if m.rooks[them] > 1 {
                by_piece[0]
            } else if m.rooks[them] == 1 {
                by_piece[1]
            } else if m.khons[them] > 1 {
                by_piece[2]
            } else if m.knights[them] > 1 {
                by_piece[3]
            } else if m.khons[them] == 1 {
                by_piece[4]
            } else {
                by_piece[5]
            }
        };
        match self {
            CountingRule::Makruk => {
                if m.pawns_on_board() || m.all[them] == 1 {
                    0
                } else {
                    honour(64, [8, 16, 22, 32, 44, 64])
                }
            }
            CountingRule::Cambodian => {
                if m.all[us] > 3 || m.all[them] == 1 {
                    0
                } else if m.all[us] > 1 {
                    63
                } else if m.pawns_on_board() {
                    0
                } else {
                    honour(63, [7, 15, 21, 31, 43, 63])
                }
            }
            CountingRule::Asean => {
                if m.pawns_on_board() || m.all[us] > 1 {
                    0
                } else if m.rooks[them] > 0 {
                    16
                } else if m.khons[them] > 0 {
                    44
                } else if m.knights[them] > 0 {
                    64
                } else {
                    0
                }
            }
        }
    }

    /// Fairy-Stockfish's counting after a move of `mover` (`m`: the board after it): a lone
    /// king taking the last pawn counts for itself (not ASEAN); a side that may count starts
    /// when nothing is counted yet, and restarts its pieces' honour after a capture or a
    /// promotion left it a lone king.
    pub fn after_move(
        self,
        pos: &mut Position,
        mover: Color,
        m: &Material,
        took_pawn: bool,
        capture_or_promotion: bool,
    ) {
        let them = mover.opposite();
        let mut limit = count(pos).map_or(0, |(l, _)| l);
        if self != CountingRule::Asean
            && took_pawn
            && m.all[mover.index()] == 1
            && !m.pawns_on_board()
        {
            let own = self.limit(m, mover);
            if own > 0 {
                limit = 2 * own;
                set(pos, limit, 2 * i64::from(m.total()) - 1);
            }
        }
        if limit == 0 || (capture_or_promotion && m.all[them.index()] == 1) {
            let theirs = self.limit(m, them);
            if theirs > 0 {
                let ply = if self == CountingRule::Asean || m.all[them.index()] > 1 {
                    0
                } else {
                    2 * i64::from(m.total())
                };
                set(pos, 2 * theirs, ply);
            }
        }
    }
}

/// Reads a FEN's counting limit (the field after castling) into `pos`, whose clocks are read:
/// with a limit, the halfmove clock is the counting ply and the n-move clock starts at 0.
pub fn read_fen(pos: &mut Position, limit: &str) -> Result<(), String> {
    let limit: u32 = limit
        .parse()
        .map_err(|_| format!("`{limit}` is not a counting limit"))?;
    if limit > MAX_LIMIT {
        return Err(format!(
            "counting limit {limit} is over {MAX_LIMIT} plies (not supported)"
        ));
    }
    if limit > 0 {
        let ply = i64::from(pos.halfmove_clock);
        pos.halfmove_clock = 0;
        set(pos, limit, ply);
    }
    Ok(())
}

/// Whether a FEN field is a counting limit (a number) rather than an en passant square.
pub fn is_limit(field: &str) -> bool {
    !field.is_empty() && field.bytes().all(|b| b.is_ascii_digit())
}
