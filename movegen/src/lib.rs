//! # houserules-movegen
//!
//! A data-driven bitboard move generator: it compiles a rules model — board, holes,
//! topology, every piece's movement in Betza notation, royalty, promotion, castling, drops,
//! en passant — into per-square tables and runs it on the host's [`Position`]s, with the
//! same speed tricks a hand-written chess generator uses (pins and check masks, bulk
//! counting, a bitboard cache inside the position). The Fairy-Stockfish plugin plays every
//! variant with it, and a variant whose rules a preset transformed (wrap-board,
//! knights-leap-twice, coregal ...) runs the transformed model with it.
//!
//! ```
//! use houserules_movegen::{Generator, PieceRules, Rules};
//! use houserules_plugin_api::{Cell, Color, Position, Square};
//!
//! // A 5x5 board with two kings and a white nightrider.
//! let mut king = PieceRules::new('K', "K").unwrap();
//! king.royal = true;
//! let rules = Rules::new(5, 5, vec![king, PieceRules::new('N', "NN").unwrap()]);
//! let g = Generator::new(&rules).unwrap();
//! let mut pos = Position::empty(5, 5);
//! pos.set(Square::new(0, 0), Cell::piece(0, Color::White));
//! pos.set(Square::new(4, 4), Cell::piece(0, Color::Black));
//! pos.set(Square::new(2, 2), Cell::piece(1, Color::White));
//! assert_eq!(g.count_legal(&pos), 3 + 8);
//! ```
//!
//! ## Layout
//!
//! | module | job |
//! |---|---|
//! | [`betza`] | Betza strings → direction tables ([`Movement`]) |
//! | [`rules`] | the model as plain data ([`Rules`], [`PieceRules`], [`Topology`] ...) |
//! | [`geometry`] | compact squares, steps and rays on the topology |
//! | [`tables`] | compiling the model into per-square tables (Fairy-Stockfish's rider families) |
//! | [`state`] | a position's bitboards, cached in `Position::accel` |
//! | [`gen`] | attack tests, pins and check masks, move listing and bulk counting |
//! | [`apply`] | making a move on a [`Position`] |
//! | [`generator`] | [`Generator`], the public entry point |
//!
//! Squares: the host's [`houserules_plugin_api::Square`] (file | rank << 4) at the boundary;
//! inside, a compact index `rank * files + file` on `u64` bitboards (≤ 64 squares) or `u128`
//! (≤ 128: Fairy-Stockfish's 12 x 10 boards), chosen when the model is compiled.
//!
//! ## The Betza dialect
//!
//! Movement is written in Betza's notation as Fairy-Stockfish reads it
//! ([`betza::Dialect::Fsf`]); the houserules dialect ([`betza::Dialect::Houserules`]) adds
//! three letters, marked *extension* below, and refuses characters it does not know.
//!
//! **Atoms** (White's view, rank +1 = forward):
//!
//! | atom | vector | atom | vector |
//! |---|---|---|---|
//! | `W` wazir | (1,0) | `H` threeleaper | (3,0) |
//! | `F` ferz | (1,1) | `L`, `C` camel | (3,1) |
//! | `D` dabbaba | (2,0) | `J`, `Z` zebra | (3,2) |
//! | `N` knight | (2,1) | `G` tripper | (3,3) |
//! | `A` alfil | (2,2) | `K` king | W + F |
//! | `R` rook | W rider | `B` bishop | F rider |
//! | `Q` queen | K rider | | |
//!
//! A doubled leaper (`WW`, `NN`) or a leaper followed by a digit (`W3`, `R2`; `0` = any
//! distance) is a rider with that range. As in Fairy-Stockfish, only the lines of `W`, `F`
//! and `N` are ridden: `DD`, `A2`, `HH` ... give **no** moves (Fairy-Stockfish computes a
//! piece's moves as whole rider families masked by what it reaches on an empty board, and no
//! family has dabbaba or alfil lines; see [`tables`]).
//!
//! **Modifiers** before an atom:
//!
//! | modifier | meaning |
//! |---|---|
//! | `m` / `c` | only quiet moves / only captures (none or both: both) |
//! | `f b l r` | forward, backward, left, right; `v` = f+b, `s` = l+r, `h` = half (with a second letter); two letters combine (`fs`, `lf`, `rv`, `fh` ...). A lone letter is doubled: `fN` = `ffN` (the two narrow forward knight leaps). On a single orthogonal atom a mixed pair splits: `fsW` = forward and sideways |
//! | `p` | hopper (cannon): rides to a screen, jumps it, and then rides on to an empty square or the first piece (`mRcpR`: the xiangqi cannon) |
//! | `g` | grasshopper: lands right behind the first piece |
//! | `n` | lame leaper: blocked by a piece on the square(s) it passes, as Fairy-Stockfish defines them for `nD`, `nN` (xiangqi horse: the orthogonal square next to it), `nA` (xiangqi elephant: the diagonal one), `nZ`/`nJ` (janggi elephant: two squares); other lame atoms have no moves |
//! | `i` | initial: only from the piece's initial region ([`PieceRules::initial_region`], Fairy-Stockfish's double-step region), quiet moves only (`ifmnD`: the pawn's double step) |
//! | `e` *extension* | this capturing leap may also take en passant (`fceF`), when the piece has [`rules::EnPassantCapture::Marked`]; a quiet move onto the en passant square is that capture |
//! | `a` *extension* | second leg: `mNaN` = a knight leap to an **empty** square, then another knight leap from there (knights-leap-twice); both legs plain leaps with absolute directions, the first leg `m` or unqualified; the start square is never a destination |
//! | `w` *extension* | warp: `wR` = in each direction whose squares up to the edge are all empty, land on the far end of the same line (rook-warp); an empty far-end square or an enemy |
//!
//! Fairy-Stockfish resets the modifiers after every atom; a later atom with the same direction
//! replaces an earlier one's range (`R2R` is `R`). In the Fairy-Stockfish dialect any other
//! character is skipped, as Fairy-Stockfish skips it, and reported in
//! [`Movement::ignored`].
//!
//! **Not Betza, but data** ([`Rules`], [`PieceRules`], [`Topology`]): wrapped files and
//! bouncing diagonals, holes, royalty and the check rule, immunity from capture, promotion
//! (chess or shogi style), which passing moves may be taken en passant
//! ([`PieceRules::ep_victim`]) and when the right is recorded ([`rules::EnPassantPolicy`]),
//! castling, drops, captures to hand, the `Moved` mark for initial moves, mobility regions
//! ([`PieceRules::region`]: moves, captures and attacks only there), leaps from a zone only
//! ([`PieceRules::zone_leaps`]: the xiangqi soldier across the river), janggi hops
//! ([`PieceRules::janggi_hops`]: such hoppers neither jump nor take one another) and moves
//! along lines ([`PieceRules::line_moves`]: the janggi palace's diagonals).
//!
//! ## Legality and speed
//!
//! See [`gen`]: pins and check masks for every "first piece blocks" attack (leaps, rider
//! lines on any topology, lame leaps, two-leg leaps, warps), trial moves on the bitboards for
//! hoppers, en passant, castling and the "all royals" rule. No allocation per node; a model
//! compiles once per pipeline.
#![deny(missing_docs)]

pub mod apply;
pub mod betza;
pub mod bitboard;
pub mod blast;
pub mod gen;
pub mod generator;
pub mod geometry;
pub mod model;
pub mod rules;
pub mod state;
pub mod tables;

pub use betza::{parse as parse_betza, BetzaError, Dialect, Movement};
pub use generator::Generator;
pub use houserules_plugin_api::Position;
pub use model::{rules_from_model, ModelError};
pub use rules::{
    CastlingRules, CheckRule, DropRules, EnPassantCapture, EnPassantPolicy, PieceRules, Promotion,
    Rules, Topology,
};
pub use tables::CompileError;

#[cfg(test)]
mod tests;

/// A xorshift generator from `seed`, for the unit tests' random boards.
#[cfg(test)]
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}
// The test helpers name the crate as the example that shares them does.
#[cfg(test)]
extern crate self as houserules_movegen;
