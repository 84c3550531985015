//! Moves and what applying one did.

use crate::board::{Cell, Color, Square};
use abi_stable::{std_types::RVec, StableAbi};

/// Bit flags describing a [`Move`]. Open-ended: new bits may be added in later API versions.
#[repr(transparent)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct MoveFlags(pub u16);

impl MoveFlags {
    /// Nothing special.
    pub const NONE: MoveFlags = MoveFlags(0);
    /// The move captures (the captured piece need not stand on `to`, e.g. en passant).
    pub const CAPTURE: MoveFlags = MoveFlags(1);
    /// The moving piece becomes `Move::piece`.
    pub const PROMOTION: MoveFlags = MoveFlags(2);
    /// A piece of kind `Move::piece` is dropped from hand on `to`; `from` is `NONE`.
    pub const DROP: MoveFlags = MoveFlags(4);
    /// Castling: `from` is the king, `to` the castling rook's square; `via` is the king's
    /// destination. The king's start and every square it crosses must not be attacked.
    pub const CASTLE: MoveFlags = MoveFlags(8);
    /// En passant capture: the victim stands on the position's `ep_victim`.
    pub const EN_PASSANT: MoveFlags = MoveFlags(16);
    /// A double step that sets an en passant square.
    pub const DOUBLE_STEP: MoveFlags = MoveFlags(32);
    /// A plugin-defined special move; `Move::special` says which (e.g. a pistol shot).
    pub const SPECIAL: MoveFlags = MoveFlags(64);
    /// A move in two legs through `Move::via` (for notation: `from`, `via`, `to`).
    pub const MULTI_LEG: MoveFlags = MoveFlags(128);

    /// Whether all bits of `other` are set.
    #[inline]
    pub const fn contains(self, other: MoveFlags) -> bool {
        self.0 & other.0 == other.0
    }
    /// Union.
    #[inline]
    pub const fn with(self, other: MoveFlags) -> MoveFlags {
        MoveFlags(self.0 | other.0)
    }
}

impl std::ops::BitOr for MoveFlags {
    type Output = MoveFlags;
    fn bitor(self, rhs: MoveFlags) -> MoveFlags {
        MoveFlags(self.0 | rhs.0)
    }
}

/// A move, 8 bytes. Two moves are the same move when all fields are equal; generators must not
/// list two moves that lead to the same position (one move, one effect).
#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// Origin square ([`Square::NONE`] for drops).
    pub from: Square,
    /// Destination square (for castling: the rook's square).
    pub to: Square,
    /// What kind of move this is.
    pub flags: MoveFlags,
    /// Promotion target or dropped piece kind; 0xFF when unused.
    pub piece: u8,
    /// Intermediate square of a multi-leg move, the king's destination when castling, or
    /// [`Square::NONE`].
    pub via: Square,
    /// Plugin-defined code of a [`MoveFlags::SPECIAL`] move (0 otherwise).
    pub special: u16,
}

impl Move {
    /// "No piece" in [`Move::piece`].
    pub const NO_PIECE: u8 = 0xFF;

    /// A plain move.
    #[inline]
    pub const fn new(from: Square, to: Square, flags: MoveFlags) -> Move {
        Move {
            from,
            to,
            flags,
            piece: Move::NO_PIECE,
            via: Square::NONE,
            special: 0,
        }
    }
    /// A promotion to `kind`.
    #[inline]
    pub const fn promotion(from: Square, to: Square, kind: u8, capture: bool) -> Move {
        let mut flags = MoveFlags::PROMOTION.0;
        if capture {
            flags |= MoveFlags::CAPTURE.0;
        }
        Move {
            from,
            to,
            flags: MoveFlags(flags),
            piece: kind,
            via: Square::NONE,
            special: 0,
        }
    }
    /// A drop of `kind` on `to`.
    #[inline]
    pub const fn drop(kind: u8, to: Square) -> Move {
        Move {
            from: Square::NONE,
            to,
            flags: MoveFlags::DROP,
            piece: kind,
            via: Square::NONE,
            special: 0,
        }
    }
    /// Castling of the king on `king` with the rook on `rook`, the king ending on `king_to`.
    #[inline]
    pub const fn castle(king: Square, rook: Square, king_to: Square) -> Move {
        Move {
            from: king,
            to: rook,
            flags: MoveFlags::CASTLE,
            piece: Move::NO_PIECE,
            via: king_to,
            special: 0,
        }
    }
    /// Whether the move captures.
    #[inline]
    pub const fn is_capture(&self) -> bool {
        self.flags.contains(MoveFlags::CAPTURE)
    }
    /// Whether the move promotes.
    #[inline]
    pub const fn is_promotion(&self) -> bool {
        self.flags.contains(MoveFlags::PROMOTION)
    }
    /// Whether the move is a drop.
    #[inline]
    pub const fn is_drop(&self) -> bool {
        self.flags.contains(MoveFlags::DROP)
    }
    /// Whether the move is castling.
    #[inline]
    pub const fn is_castle(&self) -> bool {
        self.flags.contains(MoveFlags::CASTLE)
    }
    /// Whether the move is a plugin-defined special.
    #[inline]
    pub const fn is_special(&self) -> bool {
        self.flags.contains(MoveFlags::SPECIAL)
    }
    /// Square where the moving piece ends (the king's square when castling).
    #[inline]
    pub const fn destination(&self) -> Square {
        if self.is_castle() {
            self.via
        } else {
            self.to
        }
    }
}

/// What an [`Event`] reports. Open-ended.
#[repr(transparent)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EventKind(pub u16);

impl EventKind {
    /// A piece was captured (removed) on `square`.
    pub const CAPTURE: EventKind = EventKind(1);
    /// A piece promoted on `square` to `piece`.
    pub const PROMOTION: EventKind = EventKind(2);
    /// A piece was dropped on `square`.
    pub const DROP: EventKind = EventKind(3);
    /// Castling.
    pub const CASTLE: EventKind = EventKind(4);
    /// A piece on `square` lost `value` hit points.
    pub const DAMAGE: EventKind = EventKind(5);
    /// A piece was pushed from `square` to `to`.
    pub const PUSH: EventKind = EventKind(6);
    /// A piece was removed from `square` by an effect (not a capture).
    pub const REMOVE: EventKind = EventKind(7);
    /// A piece split (fission) on `square`; a new piece appeared on `to`.
    pub const FISSION: EventKind = EventKind(8);
    /// A detonation centred on `square`.
    pub const DETONATION: EventKind = EventKind(9);
    /// Poison damage on `square`.
    pub const POISON: EventKind = EventKind(10);
    /// A piece on `square` gained `value` hit points.
    pub const HEAL: EventKind = EventKind(11);
    /// The piece on `square` is immobilized.
    pub const IMMOBILIZE: EventKind = EventKind(12);
    /// A shot from `square` removed the piece on `to`.
    pub const SHOT: EventKind = EventKind(13);
    /// The turn passed without a move (`value` = colour index that passed).
    pub const TURN_PASSED: EventKind = EventKind(14);
    /// An attribute changed: `value` is the new value, `note` the attribute name.
    pub const ATTRIBUTE: EventKind = EventKind(15);
    /// Something plugin-specific; `note` says what.
    pub const OTHER: EventKind = EventKind(16);
    /// A rule fired on the piece on `square` (a custom modifier's trigger): `note` names the
    /// rule and trigger, `value` is the stage.
    pub const TRIGGER: EventKind = EventKind(17);
    /// The piece on `square` changed type: `piece` is what it is now.
    pub const TRANSFORM: EventKind = EventKind(18);

    /// A stable lower-case name for JSON output.
    pub fn name(self) -> &'static str {
        match self.0 {
            1 => "capture",
            2 => "promotion",
            3 => "drop",
            4 => "castle",
            5 => "damage",
            6 => "push",
            7 => "remove",
            8 => "fission",
            9 => "detonation",
            10 => "poison",
            11 => "heal",
            12 => "immobilize",
            13 => "shot",
            14 => "turn-passed",
            15 => "attribute",
            17 => "trigger",
            18 => "transform",
            _ => "other",
        }
    }
}

/// One thing that happened while a move was applied, for analysis output.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    /// What happened.
    pub kind: EventKind,
    /// Main square.
    pub square: Square,
    /// Second square (push destination ...), or `NONE`.
    pub to: Square,
    /// The piece concerned.
    pub piece: Cell,
    /// A number (damage, hit points ...).
    pub value: i32,
    /// A short label (attribute name ...); may be empty.
    pub note: crate::board::Name,
}

impl Event {
    /// An event with only kind, square and piece set.
    pub fn new(kind: EventKind, square: Square, piece: Cell) -> Event {
        Event {
            kind,
            square,
            to: Square::NONE,
            piece,
            value: 0,
            note: crate::board::Name::lit(""),
        }
    }
}

/// A piece removed by a move, as reported by [`MoveEffects`].
#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq)]
pub struct CapturedPiece {
    /// Where it stood.
    pub square: Square,
    /// What it was.
    pub cell: Cell,
}

/// What applying a move did: filled in by the variant and by presets, read by later presets
/// (piece-hp turns captures into damage) and, when `record_events` is on, by analysis.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct MoveEffects {
    /// The colour that made the move.
    pub mover: Color,
    /// Pieces the move captured (removed), in order. At most 8.
    pub captured: [CapturedPiece; 8],
    /// Number of valid entries in `captured`.
    pub captured_len: u8,
    /// Whether analysis events should be recorded (off in perft and search).
    pub record_events: bool,
    /// Whether the move gives check (a protected enemy royal attacked afterwards). Computed
    /// by the host before `should_advance_turn` and before each `TURN_END` / `TURN_START`
    /// hook, only when a preset implements one of them.
    pub gives_check: bool,
    /// Whether a protected royal of the mover is attacked after the move (king-heals: "not
    /// in check at the end of its turn"). Computed when `gives_check` is.
    pub mover_in_check: bool,
    /// Reserved for later API versions (zero).
    pub reserved: [u32; 4],
    /// Recorded events (only when `record_events`).
    pub events: RVec<Event>,
}

impl MoveEffects {
    /// Empty effects for a move by `mover`.
    pub fn new(mover: Color, record_events: bool) -> MoveEffects {
        MoveEffects {
            mover,
            captured: [CapturedPiece {
                square: Square::NONE,
                cell: Cell::EMPTY,
            }; 8],
            captured_len: 0,
            record_events,
            gives_check: false,
            mover_in_check: false,
            reserved: [0; 4],
            events: RVec::new(),
        }
    }
    /// Records a captured piece (and a capture event).
    pub fn capture(&mut self, square: Square, cell: Cell) {
        if (self.captured_len as usize) < self.captured.len() {
            self.captured[self.captured_len as usize] = CapturedPiece { square, cell };
            self.captured_len += 1;
        }
        self.event(Event::new(EventKind::CAPTURE, square, cell));
    }
    /// The captured pieces.
    pub fn captured(&self) -> &[CapturedPiece] {
        &self.captured[..self.captured_len as usize]
    }
    /// Records an analysis event if recording is on.
    #[inline]
    pub fn event(&mut self, e: Event) {
        if self.record_events {
            self.events.push(e);
        }
    }
}
