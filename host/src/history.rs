//! Facts of a game's history that a variant's repetition rules judge (API 1.5): the squares
//! each move marked ([`houserules_plugin_api::VariantRules::move_mark`]) and whether a mark
//! held through a whole cycle, and the checks given since the halfmove clock was reset. The
//! host only keeps and combines them; what a mark means (the pieces a move chases) and who
//! loses are the variant's.

use houserules_plugin_api::{Color, Move, OutcomeContext, SquareSet};

/// One move of the history as the mark rules see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MarkedPly {
    /// Who moved.
    pub mover: Color,
    /// The move (`None`: a null move).
    pub mv: Option<Move>,
    /// The squares the variant marked with it (empty for a null move).
    pub mark: SquareSet,
}

/// Per colour: whether some square stayed marked through every move of that colour among
/// `newest_first` (the moves that led to the positions of a cycle, the newest first), a mark
/// followed back through each move to where its piece stood before it (see
/// [`OutcomeContext::marked_in_cycle`]). A colour that made none of the moves has no mark.
pub fn marked_in_cycle<'a>(newest_first: impl IntoIterator<Item = &'a MarkedPly>) -> [bool; 2] {
    let mut held: [Option<SquareSet>; 2] = [None, None];
    for ply in newest_first {
        let c = ply.mover.index();
        held[c] = Some(match held[c] {
            None => ply.mark,
            Some(h) => h.intersection(ply.mark),
        });
        // Before this move, the piece now on its destination stood on its origin.
        if let Some(m) = ply.mv.filter(|m| !m.is_drop()) {
            for h in held.iter_mut().flatten() {
                let to = m.destination();
                if h.contains(to) {
                    h.remove(to);
                    h.insert(m.from);
                }
            }
        }
        if held.iter().all(|h| h.is_some_and(|s| s.is_empty())) {
            break;
        }
    }
    held.map(|h| h.is_some_and(|s| !s.is_empty()))
}

/// The facts a game's history gives [`crate::pipeline::Pipeline::outcome_in_game`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HistoryFacts {
    /// How often the current position occurred, this time included (0: no history).
    pub repetitions: u32,
    /// See [`OutcomeContext::checks_in_cycle`].
    pub checks_in_cycle: [bool; 2],
    /// See [`OutcomeContext::marked_in_cycle`].
    pub marked_in_cycle: [bool; 2],
    /// See [`OutcomeContext::checks_since_clock_reset`].
    pub checks_since_clock_reset: [u32; 2],
    /// See [`OutcomeContext::clock_window`].
    pub clock_window: u32,
    /// See [`OutcomeContext::clock_start_in_check`].
    pub clock_start_in_check: bool,
    /// See [`OutcomeContext::last_move`] (`None`: no move led here, or a pass).
    pub last_move: Option<Move>,
    /// Whether the side to move is in check ([`crate::Pipeline::royal_attacked`]), where
    /// the caller knows already (`None`: the outcome asks).
    pub side_in_check: Option<bool>,
}

impl HistoryFacts {
    /// Writes the facts into `ctx`.
    pub fn fill(&self, ctx: &mut OutcomeContext) {
        ctx.repetitions = self.repetitions;
        ctx.checks_in_cycle = self.checks_in_cycle;
        ctx.set_marked_in_cycle(self.marked_in_cycle);
        ctx.set_checks_since_clock_reset(self.checks_since_clock_reset, self.clock_window);
        ctx.set_clock_start_in_check(self.clock_start_in_check);
        ctx.set_last_move(self.last_move.as_ref());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use houserules_plugin_api::{MoveFlags, Square};

    fn sq(s: &str) -> Square {
        let b = s.as_bytes();
        Square::new(b[0] - b'a', s[1..].parse::<u8>().unwrap() - 1)
    }

    fn ply(mover: Color, from: &str, to: &str, marked: &[&str]) -> MarkedPly {
        MarkedPly {
            mover,
            mv: Some(Move::new(sq(from), sq(to), MoveFlags::NONE)),
            mark: marked.iter().map(|s| sq(s)).collect(),
        }
    }

    #[test]
    fn a_mark_follows_its_piece_back_through_the_victims_moves() {
        use Color::{Black, White};
        // White's rook chases Black's horse from e5 to d5 and back: the horse is marked at
        // d5 after one White move and at e5 after the other.
        let cycle = [
            ply(White, "a1", "a5", &["e5"]),
            ply(Black, "e5", "d5", &[]),
            ply(White, "a5", "a4", &["d5"]),
            ply(Black, "d5", "e5", &[]),
        ];
        assert_eq!(marked_in_cycle(cycle.iter().rev()), [true, false]);
        // Marked on another square: not the same piece.
        let other = [
            ply(White, "a1", "a5", &["e5"]),
            ply(Black, "e5", "d5", &[]),
            ply(White, "a5", "a4", &["c5"]),
        ];
        assert_eq!(marked_in_cycle(other.iter().rev()), [false, false]);
    }

    #[test]
    fn every_move_of_a_colour_must_mark_and_a_null_move_marks_nothing() {
        use Color::{Black, White};
        let cycle = [
            ply(White, "a1", "a2", &["h8"]),
            ply(Black, "b8", "c8", &["a2"]),
            ply(White, "a2", "a1", &[]),
            ply(Black, "c8", "b8", &["a1"]),
        ];
        // White's second move marked nothing; Black marked the rook at a1 (a2 before White's
        // move back) with both moves.
        assert_eq!(marked_in_cycle(cycle.iter().rev()), [false, true]);
        let null = [
            ply(Black, "b8", "c8", &["a1"]),
            MarkedPly {
                mover: Black,
                mv: None,
                mark: SquareSet::EMPTY,
            },
        ];
        assert_eq!(marked_in_cycle(null.iter().rev()), [false, false]);
        assert_eq!(marked_in_cycle([].iter()), [false, false]);
    }

    #[test]
    fn facts_round_trip_through_the_context() {
        let facts = HistoryFacts {
            repetitions: 3,
            checks_in_cycle: [false, true],
            marked_in_cycle: [true, false],
            checks_since_clock_reset: [12, 70_000],
            clock_window: 101,
            clock_start_in_check: true,
            last_move: Some(Move::drop(3, sq("e4"))),
            side_in_check: None,
        };
        let mut ctx = OutcomeContext {
            has_legal_moves: true,
            in_check: false,
            royals: [1, 1],
            has_royalty: true,
            counting: false,
            repetitions: 0,
            checks_in_cycle: [false; 2],
            reserved: [OutcomeContext::RULES_CHANGED, 0, 0, 0],
        };
        facts.fill(&mut ctx);
        assert_eq!(ctx.repetitions, 3);
        assert_eq!(ctx.checks_in_cycle, [false, true]);
        assert_eq!(ctx.marked_in_cycle(), [true, false]);
        assert_eq!(ctx.checks_since_clock_reset(), [12, 65_535]);
        assert_eq!(ctx.clock_window(), 101);
        assert!(ctx.clock_start_in_check());
        assert!(ctx.rules_changed());
        let last = ctx.last_move().expect("a last move");
        assert!(last.is_drop() && !last.is_capture());
        assert_eq!(
            (last.from, last.to, last.piece),
            (Square::NONE, sq("e4"), 3)
        );
        // A pass (or no move) clears it, and the other facts stay.
        HistoryFacts {
            last_move: None,
            ..facts
        }
        .fill(&mut ctx);
        assert_eq!(ctx.last_move(), None);
        assert!(ctx.rules_changed() && ctx.clock_start_in_check());
    }
}
