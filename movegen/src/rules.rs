//! The rules a [`crate::Generator`] runs, as plain data: board and topology, every piece's
//! movement and properties, castling, drops, the check rule and en passant policy.
//!
//! Squares here are the host's [`Square`]s (file | rank << 4) and regions are
//! [`SquareSet`]s; the generator converts them to its compact index when it compiles.

use crate::betza::{self, Dialect, Movement};
use houserules_plugin_api::{Square, SquareSet};

/// How the board's edges behave for every piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Topology {
    /// Files wrap: the first and last files are adjacent (a cylinder). Every step, leap,
    /// slide, hop and leg crosses the seam; ranks do not wrap; a slide stops before it would
    /// return to its own square.
    pub wrap_files: bool,
    /// Diagonal rays of pieces with [`PieceRules::bounce`] reflect off the side files (the
    /// file direction flips) and continue from the edge square.
    pub bounce_files: bool,
    /// Such rays also reflect off the first and last ranks.
    pub bounce_ranks: bool,
    /// At most this many reflections per ray. A ray reaching a corner stops there.
    pub max_reflections: u8,
}

/// How a piece promotes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Promotion {
    /// It does not.
    #[default]
    None,
    /// Chess style: a move ending in the zone becomes one of `choices` (kinds, in the order
    /// moves are listed); compulsory when `mandatory`, else the plain move is listed too.
    Choice {
        /// Promotion zone per colour.
        zone: [SquareSet; 2],
        /// Kinds it may become, per colour (Chigorin's differ).
        choices: [Vec<u8>; 2],
        /// Whether it must promote.
        mandatory: bool,
    },
    /// Shogi style: a move starting or ending in the zone may (or, `mandatory`, must)
    /// turn the piece into `promoted`. The move carries `MoveFlags::SPECIAL` as well.
    Shogi {
        /// Promotion zone per colour.
        zone: [SquareSet; 2],
        /// The promoted kind.
        promoted: u8,
        /// Whether it must promote.
        mandatory: bool,
    },
}

/// Which capture moves of a piece may take en passant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EnPassantCapture {
    /// None.
    #[default]
    None,
    /// The capturing leaps marked `e` in its Betza (houserules dialect).
    Marked,
    /// Fairy-Stockfish's `enPassantTypes`: every square it attacks but cannot move to.
    CaptureOnly,
}

/// One piece kind (its index in [`Rules::pieces`] is the kind in cells and moves).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceRules {
    /// FEN letter (upper case), for messages.
    pub letter: char,
    /// Its movement (see [`crate::betza`]), White's view.
    pub movement: Movement,
    /// Black's movement when it is not White's rotated (scope-aware rules).
    pub movement_black: Option<Movement>,
    /// Royal: the check rule protects it.
    pub royal: bool,
    /// It cannot be captured (god-kings).
    pub immune: bool,
    /// How it promotes.
    pub promotion: Promotion,
    /// Its shogi-style promotion applies to captures only (Fairy-Stockfish's
    /// `piecePromotionOnCapture`): quiet moves never promote, and with a compulsory promotion
    /// only captures must.
    pub promotes_on_capture: bool,
    /// Its moves through a passed square (lame leaps, initial moves) may be taken en passant:
    /// such a move carries `MoveFlags::DOUBLE_STEP` and `via` = the passed square.
    pub ep_victim: bool,
    /// Which of its captures may take en passant.
    pub ep_capture: EnPassantCapture,
    /// Where its initial (`i`) moves apply, per colour (Fairy-Stockfish's double-step
    /// region).
    pub initial_region: [SquareSet; 2],
    /// Its moves reset the halfmove clock.
    pub resets_clock: bool,
    /// The kind a capture of it puts in the capturer's hand (with [`Rules::captures_to_hand`]).
    pub hand_kind: u8,
    /// Its diagonal rays bounce (see [`Topology`]).
    pub bounce: bool,
    /// Fairy-Stockfish's mobility region, per colour: the piece moves, captures and attacks
    /// only onto these squares (`None`: anywhere).
    pub region: Option<[SquareSet; 2]>,
    /// Plain leaps the piece has only from these squares, per colour (the xiangqi soldier's
    /// sideways steps across the river): `(movement, zone)`. Only the movement's plain leaps
    /// count.
    pub zone_leaps: Option<(Movement, [SquareSet; 2])>,
    /// Its hops (`p`) may neither jump nor capture a piece of a kind with this flag (the
    /// janggi cannon: cannons neither jump nor take cannons).
    pub janggi_hops: bool,
    /// Moves it has only from a square of the set to a square of the set (Fairy-Stockfish's
    /// `diagonalLines`: the janggi palace's diagonals). Every part of the movement counts
    /// (leaps, slides, hops); a slide or hop is blocked as anywhere else, and only its
    /// destinations are kept to the set.
    pub line_moves: Option<(Movement, SquareSet)>,
}

impl PieceRules {
    /// A piece moving as `betza` (houserules dialect), with no other property.
    pub fn new(letter: char, betza: &str) -> Result<PieceRules, betza::BetzaError> {
        Ok(PieceRules::with_movement(
            letter,
            betza::parse(betza, Dialect::Houserules)?,
        ))
    }
    /// A piece with the given movement and no other property.
    pub fn with_movement(letter: char, movement: Movement) -> PieceRules {
        PieceRules {
            letter,
            movement,
            movement_black: None,
            royal: false,
            immune: false,
            promotion: Promotion::None,
            promotes_on_capture: false,
            ep_victim: false,
            ep_capture: EnPassantCapture::None,
            initial_region: [SquareSet::EMPTY; 2],
            resets_clock: false,
            hand_kind: 0,
            bounce: false,
            region: None,
            zone_leaps: None,
            janggi_hops: false,
            line_moves: None,
        }
    }
}

/// Castling, as in chess (and Chess960): the castling piece and a rook whose square is in
/// `Position::castling`, on their back rank, the squares both cross empty; the king ends on
/// `king_file[side]`, the rook on `rook_file[side]` (side 0 = towards the last file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CastlingRules {
    /// The kind that castles (the king).
    pub king: u8,
    /// The kind of the castling partner (the rook).
    pub rook: u8,
    /// With several castling pieces on the back rank, the one on this file castles.
    pub king_file: u8,
    /// Destination files of the king: [king side, queen side].
    pub king_dest: [u8; 2],
    /// Destination files of the rook.
    pub rook_dest: [u8; 2],
    /// The castling rank, counted from each side's own first rank (0 = the first rank).
    pub rank: u8,
    /// Further kinds that may be the castling partner (Fairy-Stockfish's
    /// `castlingRookPieces`), besides `rook`.
    pub other_rooks: Vec<u8>,
}

/// Drops from hand.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DropRules {
    /// Where each kind may be dropped, per colour (`None` = every empty square).
    pub region: Vec<Option<[SquareSet; 2]>>,
    /// No drop of this kind on a file that already holds `count` of the mover's pieces of
    /// that kind.
    pub no_doubled: Option<(u8, u32)>,
    /// `(in hand, dropped as)`: a piece of the first kind in hand may also be dropped as the
    /// second (Fairy-Stockfish's `dropPromoted`), where the first may be dropped; the drop
    /// (`Move::piece` = the second kind, `MoveFlags::SPECIAL` set) takes it from the first
    /// kind's hand.
    pub promoted: Vec<(u8, u8)>,
}

/// Which positions count as "in check", and what the self-check filter forbids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CheckRule {
    /// In check when any royal is attacked; a move may not leave any royal attacked.
    #[default]
    Any,
    /// In check when every royal is attacked (weak dual king); a move may not leave every
    /// royal attacked.
    All,
    /// No self-check filter (royals may be left attacked).
    Off,
}

/// When an en passant right is recorded after a passing move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EnPassantPolicy {
    /// Always.
    Always,
    /// When some enemy piece could capture en passant, pins and checks aside
    /// (Fairy-Stockfish).
    #[default]
    Pseudo,
    /// When the capture is legal (FIDE / python-chess FEN convention).
    Legal,
}

/// Everything the generator runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    /// Board width (at most 16; files x ranks at most 128 squares).
    pub files: u8,
    /// Board height.
    pub ranks: u8,
    /// Squares of the rectangle that are not part of the board.
    pub holes: SquareSet,
    /// Edges.
    pub topology: Topology,
    /// The piece kinds.
    pub pieces: Vec<PieceRules>,
    /// Castling, if any.
    pub castling: Option<CastlingRules>,
    /// Drops, if any.
    pub drops: Option<DropRules>,
    /// The check rule.
    pub check: CheckRule,
    /// No normal move or drop to a square from which the piece could never move (on an empty
    /// board). Promotions are exempt, as in Fairy-Stockfish (its `immobilityIllegal` checks
    /// normal moves and drops only): mandala's shogi pawn promotes on its last rank to the
    /// immobile flag piece.
    pub immobility_illegal: bool,
    /// Captured pieces go to the capturer's hand (as [`PieceRules::hand_kind`]).
    pub captures_to_hand: bool,
    /// When en passant rights are recorded.
    pub en_passant: EnPassantPolicy,
    /// A piece that has moved (attribute `Moved`, set by the generator when such a piece
    /// comes back into its initial region) has no initial moves.
    pub initial_needs_unmoved: bool,
    /// Every slide goes at most this many squares (0 = no limit).
    pub slide_limit: u8,
}

impl Rules {
    /// Rules for a `files` x `ranks` board with these pieces and nothing else.
    pub fn new(files: u8, ranks: u8, pieces: Vec<PieceRules>) -> Rules {
        Rules {
            files,
            ranks,
            holes: SquareSet::EMPTY,
            topology: Topology::default(),
            pieces,
            castling: None,
            drops: None,
            check: CheckRule::Any,
            immobility_illegal: false,
            captures_to_hand: false,
            en_passant: EnPassantPolicy::Pseudo,
            initial_needs_unmoved: false,
            slide_limit: 0,
        }
    }
}

/// The squares of `rank` (0-based) on a board `files` wide.
pub fn rank_set(files: u8, rank: u8) -> SquareSet {
    (0..files).map(|f| Square::new(f, rank)).collect()
}
