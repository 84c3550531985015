//! Game results, decisions of hooks, errors crossing the plugin boundary.

use crate::board::{Color, Square};
use crate::moves::{Move, MoveFlags};
use abi_stable::{std_types::RString, StableAbi};

/// Who won, or a draw.
#[repr(transparent)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Winner(pub u8);

impl Winner {
    /// White won.
    pub const WHITE: Winner = Winner(0);
    /// Black won.
    pub const BLACK: Winner = Winner(1);
    /// Draw.
    pub const DRAW: Winner = Winner(2);

    /// The winner `color`.
    pub const fn color(color: Color) -> Winner {
        Winner(color as u8)
    }
    /// The PGN result token (`1-0`, `0-1`, `1/2-1/2`).
    pub fn pgn(self) -> &'static str {
        match self.0 {
            0 => "1-0",
            1 => "0-1",
            _ => "1/2-1/2",
        }
    }
    /// The winning colour, if any.
    pub fn winning_color(self) -> Option<Color> {
        match self.0 {
            0 => Some(Color::White),
            1 => Some(Color::Black),
            _ => None,
        }
    }
}

/// A finished game: who won and why (`checkmate`, `stalemate`, `connect-5` ...).
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Result.
    pub winner: Winner,
    /// Short kebab-case reason, used as the termination in analysis.
    pub reason: RString,
}

impl Outcome {
    /// A win for `color`.
    pub fn win(color: Color, reason: &str) -> Outcome {
        Outcome {
            winner: Winner::color(color),
            reason: reason.into(),
        }
    }
    /// A draw.
    pub fn draw(reason: &str) -> Outcome {
        Outcome {
            winner: Winner::DRAW,
            reason: reason.into(),
        }
    }
}

/// What the host knows when it asks for a result: computed through the whole pipeline.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutcomeContext {
    /// Whether the side to move has a legal move.
    pub has_legal_moves: bool,
    /// Whether a royal piece of the side to move is attacked.
    pub in_check: bool,
    /// Number of royal pieces of White and Black (per the pipeline's royal sets).
    pub royals: [u16; 2],
    /// Whether the side to move has royalty at all (false: royals never count for it).
    pub has_royalty: bool,
    /// The host is counting move paths (perft): report only results that take the legal
    /// moves away (connect-N, extinction ...), not dead-position draws.
    pub counting: bool,
    /// How many times the current position has occurred in the game, this time included
    /// (0 when the host keeps no history, as in perft); for a variant that declares
    /// [`crate::VariantFlags::REPETITION_SINCE_CLOCK_RESET`], since the halfmove clock was
    /// last reset (and `checks_in_cycle` and the marks over that stretch too).
    pub repetitions: u32,
    /// For a repeated position: whether every move of White (index 0) and of Black (index 1)
    /// since its first occurrence gave check (perpetual-check rules).
    pub checks_in_cycle: [bool; 2],
    /// `reserved[0]` holds [`OutcomeContext::RULES_CHANGED`] (API 1.2) and the bits of
    /// [`OutcomeContext::marked_in_cycle`] and [`OutcomeContext::clock_start_in_check`]
    /// (API 1.5); `reserved[1]` the counts of [`OutcomeContext::checks_since_clock_reset`] and
    /// `reserved[2]` its [`OutcomeContext::clock_window`] (API 1.5); `reserved[3]` the
    /// [`OutcomeContext::last_move`], whose presence is the bit
    /// [`OutcomeContext::LAST_MOVE_KNOWN`] of `reserved[0]` (API 1.8). Bits not named here are
    /// reserved for later API versions (zero).
    pub reserved: [u32; 4],
}

impl OutcomeContext {
    /// Bit of `reserved[0]` (API 1.2): presets change movement, royalty or move effects
    /// through hooks (not through a rules model the variant plays), so a variant's table of
    /// dead positions (FIDE's insufficient material) may not hold: report such draws only
    /// when the variant can prove them under any rules, or not at all.
    pub const RULES_CHANGED: u32 = 1;

    /// Bits of `reserved[0]` (API 1.5), White's at `MARKED_IN_CYCLE << 0`, Black's at
    /// `MARKED_IN_CYCLE << 1`: see [`OutcomeContext::marked_in_cycle`].
    pub const MARKED_IN_CYCLE: u32 = 2;
    /// Bit of `reserved[0]` (API 1.5): see [`OutcomeContext::clock_start_in_check`].
    pub const CLOCK_START_IN_CHECK: u32 = 8;
    /// Bit of `reserved[0]` (API 1.8): `reserved[3]` holds [`OutcomeContext::last_move`].
    pub const LAST_MOVE_KNOWN: u32 = 16;

    /// Whether presets change the rules through hooks (see [`OutcomeContext::RULES_CHANGED`]).
    pub fn rules_changed(&self) -> bool {
        self.reserved[0] & Self::RULES_CHANGED != 0
    }

    /// For a repeated position of a variant declaring [`crate::VariantFlags::MOVE_MARKS`]
    /// (API 1.5), per colour (White index 0): whether some square stayed marked
    /// ([`crate::VariantRules::move_mark`]) through every move of that colour that led to a
    /// position of the cycle — from the first occurrence of the current position (the move
    /// that led to it included) to now. A mark follows its piece back through the moves in
    /// between (a square marked after a move from `a` to `b` is `a` before it), so the marks
    /// of different moves are compared on the same piece. False without a repetition.
    pub fn marked_in_cycle(&self) -> [bool; 2] {
        [0, 1].map(|c| self.reserved[0] & (Self::MARKED_IN_CYCLE << c) != 0)
    }

    /// Sets the bits of [`OutcomeContext::marked_in_cycle`].
    pub fn set_marked_in_cycle(&mut self, marked: [bool; 2]) {
        for (c, m) in marked.into_iter().enumerate() {
            let bit = Self::MARKED_IN_CYCLE << c;
            self.reserved[0] = if m {
                self.reserved[0] | bit
            } else {
                self.reserved[0] & !bit
            };
        }
    }

    /// Per colour (White index 0, API 1.5): how many of the moves since the halfmove clock was
    /// last reset gave check — the last `halfmove_clock` plies, or as many as the host's
    /// history holds (from the game's start or the last capture that removed a piece for
    /// good). Zero when the host tracks no check facts (a variant without
    /// [`crate::VariantFlags::OWN_REPETITION`]).
    pub fn checks_since_clock_reset(&self) -> [u32; 2] {
        [self.reserved[1] & 0xffff, self.reserved[1] >> 16]
    }

    /// Sets [`OutcomeContext::checks_since_clock_reset`] (each count saturates at 65535) and
    /// [`OutcomeContext::clock_window`].
    pub fn set_checks_since_clock_reset(&mut self, checks: [u32; 2], window: u32) {
        self.reserved[1] = checks[0].min(0xffff) | checks[1].min(0xffff) << 16;
        self.reserved[2] = window;
    }

    /// How many plies [`OutcomeContext::checks_since_clock_reset`] covers (API 1.5): the
    /// halfmove clock, or fewer when the history is shorter.
    pub fn clock_window(&self) -> u32 {
        self.reserved[2]
    }

    /// Whether the side to move was in check in the position where the window of
    /// [`OutcomeContext::checks_since_clock_reset`] starts (the one its first move was made
    /// from), API 1.5.
    pub fn clock_start_in_check(&self) -> bool {
        self.reserved[0] & Self::CLOCK_START_IN_CHECK != 0
    }

    /// Sets [`OutcomeContext::clock_start_in_check`].
    pub fn set_clock_start_in_check(&mut self, check: bool) {
        self.reserved[0] = if check {
            self.reserved[0] | Self::CLOCK_START_IN_CHECK
        } else {
            self.reserved[0] & !Self::CLOCK_START_IN_CHECK
        };
    }

    /// The move that led to this position (API 1.8), for rules that judge a result by how it
    /// was reached: Fairy-Stockfish's `shogiPawnDropMateIllegal` makes a checkmate given by
    /// dropping a shogi pawn a loss for the dropper, while the same position reached by a step
    /// is an ordinary checkmate. `None` when no move led here: a game's first position (set up
    /// from a FEN or a layout), a pass (a null move), perft, or a host older than API 1.8.
    ///
    /// ```
    /// use houserules_plugin_api::{Move, OutcomeContext, Square};
    /// # let mut ctx = OutcomeContext { has_legal_moves: false, in_check: true, royals: [1, 1],
    /// #     has_royalty: true, counting: false, repetitions: 1, checks_in_cycle: [false; 2],
    /// #     reserved: [0; 4] };
    /// ctx.set_last_move(Some(&Move::drop(0, Square::new(3, 2))));
    /// let last = ctx.last_move().unwrap();
    /// assert!(last.is_drop() && last.piece == 0 && last.to == Square::new(3, 2));
    /// ```
    pub fn last_move(&self) -> Option<LastMove> {
        if self.reserved[0] & Self::LAST_MOVE_KNOWN == 0 {
            return None;
        }
        let w = self.reserved[3];
        Some(LastMove {
            to: Square(w as u8),
            from: Square((w >> 8) as u8),
            piece: (w >> 16) as u8,
            flags: MoveFlags((w >> 24) as u16),
        })
    }

    /// Sets [`OutcomeContext::last_move`] (`None`: no move led here).
    pub fn set_last_move(&mut self, m: Option<&Move>) {
        match m {
            Some(m) => {
                self.reserved[0] |= Self::LAST_MOVE_KNOWN;
                self.reserved[3] = m.to.0 as u32
                    | (m.from.0 as u32) << 8
                    | (m.piece as u32) << 16
                    | ((m.flags.0 & 0xff) as u32) << 24;
            }
            None => {
                self.reserved[0] &= !Self::LAST_MOVE_KNOWN;
                self.reserved[3] = 0;
            }
        }
    }
}

/// What [`OutcomeContext::last_move`] tells of the move that led to a position: its squares,
/// its piece and its flags. A [`Move`]'s `via` and `special` do not fit in the context and are
/// not carried, nor flags above the eight of API 1.8 (`CAPTURE` ... `MULTI_LEG`): compare
/// these fields, not whole moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LastMove {
    /// Origin square ([`Square::NONE`] for drops).
    pub from: Square,
    /// Destination square.
    pub to: Square,
    /// Promotion target or dropped piece kind, as in [`Move::piece`].
    pub piece: u8,
    /// The move's flags (the low eight bits).
    pub flags: MoveFlags,
}

impl LastMove {
    /// Whether the move dropped a piece of kind [`LastMove::piece`] from hand.
    pub fn is_drop(&self) -> bool {
        self.flags.contains(MoveFlags::DROP)
    }
    /// Whether the move captured.
    pub fn is_capture(&self) -> bool {
        self.flags.contains(MoveFlags::CAPTURE)
    }
}

/// A yes/no answer that may also say "no opinion" (the next preset, or the default, decides).
#[repr(transparent)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision(pub u8);

impl Decision {
    /// No opinion.
    pub const DEFER: Decision = Decision(0);
    /// Yes.
    pub const YES: Decision = Decision(1);
    /// No.
    pub const NO: Decision = Decision(2);

    /// `YES` or `NO`.
    pub const fn from_bool(b: bool) -> Decision {
        if b {
            Decision::YES
        } else {
            Decision::NO
        }
    }
    /// `Some(true)` for YES, `Some(false)` for NO, `None` for DEFER.
    pub const fn to_option(self) -> Option<bool> {
        match self.0 {
            1 => Some(true),
            2 => Some(false),
            _ => None,
        }
    }
}

/// What a preset's `on_check_game_result` says.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct ResultDecision {
    /// 0 = defer, 1 = declare `outcome`, 2 = suppress the result found so far (the game goes
    /// on), 3 = replace it with `outcome`.
    pub action: u8,
    /// The declared outcome when `action` is 1 or 3.
    pub outcome: Outcome,
}

impl ResultDecision {
    /// No opinion.
    pub fn defer() -> ResultDecision {
        ResultDecision {
            action: 0,
            outcome: Outcome::draw(""),
        }
    }
    /// Declare `outcome` unless an earlier rule already ended the game.
    pub fn declare(outcome: Outcome) -> ResultDecision {
        ResultDecision { action: 1, outcome }
    }
    /// Replace whatever was found so far with `outcome`.
    pub fn replace(outcome: Outcome) -> ResultDecision {
        ResultDecision { action: 3, outcome }
    }
    /// The game is not over, whatever was found so far.
    pub fn suppress() -> ResultDecision {
        ResultDecision {
            action: 2,
            outcome: Outcome::draw(""),
        }
    }
}

/// An error raised inside a plugin (including a caught panic).
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct PluginError {
    /// What went wrong.
    pub message: RString,
}

impl PluginError {
    /// An error with a message.
    pub fn new(message: impl Into<String>) -> PluginError {
        PluginError {
            message: RString::from(message.into()),
        }
    }
}

impl std::fmt::Display for PluginError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A FEN the variant could not read: which field (0-based, space-separated), at which
/// character column (0-based, within the whole FEN), and why.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct FenError {
    /// Index of the offending field (0 = board).
    pub field: u32,
    /// Character offset of the problem within the FEN string.
    pub column: u32,
    /// What is wrong.
    pub message: RString,
}

impl FenError {
    /// A FEN error.
    pub fn new(field: u32, column: u32, message: impl Into<String>) -> FenError {
        FenError {
            field,
            column,
            message: RString::from(message.into()),
        }
    }
    /// The name of a standard FEN field by index.
    pub fn field_name(field: u32) -> &'static str {
        match field {
            0 => "board",
            1 => "side to move",
            2 => "castling",
            3 => "en passant",
            4 => "halfmove clock",
            5 => "fullmove number",
            _ => "extension",
        }
    }
}

impl std::fmt::Display for FenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "FEN field {} ({}), column {}: {}",
            self.field + 1,
            FenError::field_name(self.field),
            self.column + 1,
            self.message
        )
    }
}
