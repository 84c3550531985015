//! The two traits a plugin author implements — [`VariantRules`] and [`PresetRules`] — and
//! their ABI-stable counterparts that cross the library boundary.
//!
//! Authors implement the plain Rust traits. [`variant_object`] and [`preset_object`] wrap an
//! implementation into the boundary object, catching panics: a panic in a plugin becomes a
//! [`PluginError`] for that game, never a crash of the host.

use crate::board::{Color, Position, Square, SquareSet};
use crate::manifest::{HookSet, OptionValue, VariantInfo};
use crate::model::RulesModel;
use crate::moves::{Event, Move, MoveEffects};
use crate::outcome::{Decision, FenError, Outcome, OutcomeContext, PluginError, ResultDecision};
use abi_stable::{
    sabi_trait,
    sabi_trait::prelude::TD_Opaque,
    sabi_types::RRef,
    std_types::{RBox, ROption, RResult, RSlice, RStr, RString, RVec},
    StableAbi,
};
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

thread_local! {
    /// The hooks whose default body ([`PresetRules`]'s "no opinion") ran on this thread since
    /// the last reset: how [`PresetFfi::implemented_hooks`] tells an implemented hook from a
    /// default one (API 1.2).
    static DEFAULT_BODIES_RUN: Cell<u64> = const { Cell::new(0) };
}

/// Marks the default body of `hook` as run (see [`PresetFfi::implemented_hooks`]).
fn default_ran(hook: HookSet) {
    DEFAULT_BODIES_RUN.with(|c| c.set(c.get() | hook.0));
}

/// What moves the host asks a variant for.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenRequest {
    /// The side whose moves are wanted (may be the side not to move, for attack tests).
    pub side: Color,
    /// `true`: fully legal moves of the side to move (the variant's own self-check filter
    /// included); asked when no preset changes royalty and presets at most add moves (the
    /// host tests what they add itself). `false`:
    /// pseudo-legal moves — every rule of the variant except leaving royals attacked and
    /// castling out of or through attacked squares, which the host checks through the pipeline.
    pub legal: bool,
    /// Pieces whose moves a preset has taken over: generate nothing for them.
    pub skip: SquareSet,
    /// A filter hint in the former reserved words (zero: none): `reserved[0]` is
    /// [`GenRequest::DESTINATION`] plus a square (only moves whose
    /// [`Move::destination`] is that square are wanted), `reserved[1]` a mask of piece kinds
    /// (bit `k`: kind `k`, kinds 0-31; only moves of a piece of such a kind — the kind on
    /// `from`, the dropped kind of a drop — are wanted). A pure optimisation: a variant may
    /// ignore it and list every move, because the host keeps only the moves
    /// [`GenRequest::wants`] accepts; a variant that honours it may leave out any move the
    /// filter rejects. Older hosts send zero, so the API version is unchanged.
    pub reserved: [u32; 2],
}

impl GenRequest {
    /// Flag of `reserved[0]`: a destination filter is set (the square is the low byte).
    pub const DESTINATION: u32 = 1 << 31;

    /// A request for `side`'s moves: legal ones, or pseudo-legal ones skipping `skip`.
    pub fn new(side: Color, legal: bool, skip: SquareSet) -> GenRequest {
        GenRequest {
            side,
            legal,
            skip,
            reserved: [0; 2],
        }
    }

    /// Only moves that end on `to` (see [`Move::destination`]) are wanted.
    pub fn to_square(mut self, to: Square) -> GenRequest {
        self.reserved[0] = Self::DESTINATION | to.0 as u32;
        self
    }

    /// Only moves of pieces whose kind is in `kinds` (bit `k`: kind `k`) are wanted; an empty
    /// mask sets no filter.
    pub fn of_kinds(mut self, kinds: u32) -> GenRequest {
        self.reserved[1] = kinds;
        self
    }

    /// The destination filter, if any.
    pub fn destination(&self) -> Option<Square> {
        (self.reserved[0] & Self::DESTINATION != 0).then_some(Square(self.reserved[0] as u8))
    }

    /// The piece-kind filter (bit `k`: kind `k`), if any.
    pub fn kinds(&self) -> Option<u32> {
        (self.reserved[1] != 0).then_some(self.reserved[1])
    }

    /// Whether any filter is set.
    pub fn is_filtered(&self) -> bool {
        self.reserved != [0; 2]
    }

    /// Whether `m`, a move in `pos`, passes the filter.
    pub fn wants(&self, pos: &Position, m: &Move) -> bool {
        if let Some(to) = self.destination() {
            if m.destination() != to {
                return false;
            }
        }
        if let Some(kinds) = self.kinds() {
            let kind = if m.is_drop() {
                Some(m.piece)
            } else {
                pos.get(m.from).kind()
            };
            match kind {
                Some(k) if k < 32 && kinds & (1 << k) != 0 => {}
                _ => return false,
            }
        }
        true
    }
}

/// A variant: a whole game. Implement this, then export it with [`crate::export_plugin!`].
///
/// Every method receives the position it is about; a variant keeps no per-game state of its
/// own (it may be used by several threads at once).
pub trait VariantRules: Send + Sync + 'static {
    /// Board, pieces, layouts and rules of the host (n-move, n-fold).
    fn info(&self) -> VariantInfo;
    /// Reads a FEN (with whatever extensions the variant defines).
    fn parse_fen(&self, fen: &str) -> Result<Position, FenError>;
    /// Writes a FEN that [`VariantRules::parse_fen`] reads back to the same position.
    fn write_fen(&self, pos: &Position) -> String;
    /// Appends the moves `req` asks for to `out`.
    fn generate(&self, pos: &Position, req: &GenRequest, out: &mut RVec<Move>);
    /// Number of legal moves of the side to move (bulk counting in perft). Override for speed.
    fn legal_move_count(&self, pos: &Position) -> u64 {
        let mut v = RVec::new();
        self.generate(
            pos,
            &GenRequest::new(pos.side_to_move, true, SquareSet::EMPTY),
            &mut v,
        );
        v.len() as u64
    }
    /// Applies `mv` (generated for this position) and hands the turn to the other side.
    /// Records captures in `fx`; updates castling rights, en passant and clocks.
    fn apply(&self, pos: &mut Position, mv: Move, fx: &mut MoveEffects);
    /// Whether a piece of `by` attacks `sq` (could capture a piece standing there).
    fn is_attacked(&self, pos: &Position, sq: Square, by: Color) -> bool;
    /// The variant's own result in `pos`, if the game is over (checkmate, stalemate value,
    /// connect-N, insufficient material ...). `ctx` is computed through the whole pipeline.
    fn outcome(&self, pos: &Position, ctx: &OutcomeContext) -> Option<Outcome>;
    /// SAN of a special move (`MoveFlags::SPECIAL`); `None` lets the host write it.
    fn special_san(&self, _pos: &Position, _mv: Move) -> Option<String> {
        None
    }
    /// Coordinate form of a special move; `None` lets the host write `from` `to` `:code`.
    /// Must not collide with the coordinate form of any other move.
    fn special_coordinate(&self, _pos: &Position, _mv: Move) -> Option<String> {
        None
    }
    /// The variant's rules model (API 1.2), if it can run a changed one: presets that declare
    /// [`crate::HookSet::TRANSFORM_MODEL`] edit it, and the host hands the result to
    /// [`VariantRules::set_model`]. `None`: such presets cannot be used with this variant.
    fn rules_model(&self) -> Option<RulesModel> {
        None
    }
    /// Reads a FEN into a position checking only its structure (API 1.2): the host uses it
    /// when presets are active and validates the result through the whole pipeline (the side
    /// not to move may not have a protected royal attacked; an en passant right must be one a
    /// move of the rules in force could take), so positions only some presets can reach (a
    /// pawn on its first rank, an en passant square off rank 3/6) read back. Default: the
    /// variant's [`VariantRules::parse_fen`].
    fn parse_setup(&self, fen: &str) -> Result<Position, FenError> {
        self.parse_fen(fen)
    }
    /// Plays `model` from now on (API 1.2): called once, when the pipeline is built, with the
    /// model [`VariantRules::rules_model`] gave after the presets' transforms. Every method
    /// then follows it: moves, attacks, FEN validation, results (a variant's dead-position
    /// rules must not outlive a change of movement or royalty they did not foresee).
    fn set_model(&mut self, model: &RulesModel) -> Result<(), String> {
        let _ = model;
        Err("this variant cannot run a changed rules model".to_string())
    }
    /// Terms the variant adds to the engine's static evaluation of `pos`, in centipawns from
    /// White's point of view (API 1.3; called only when the variant declares
    /// [`crate::VariantFlags::EVALUATES`]): what material, mobility and centrality miss
    /// (connect-N threats, a race to a goal). Called at every leaf of the search: keep it
    /// cheap. Default: nothing to add.
    fn evaluate(&self, pos: &Position) -> i32 {
        let _ = pos;
        0
    }
    /// The royal pieces of `color` in `pos` (API 1.4; called only when the variant declares
    /// [`crate::VariantFlags::DYNAMIC_ROYALS`]): what check, checkmate and the check mark in
    /// SAN concern. `None`: the side has no royalty. Default: the pieces whose type is
    /// [`crate::PieceType::royal`].
    fn royals(&self, pos: &Position, color: Color) -> Option<SquareSet> {
        let table = self.info().pieces;
        let mut s = SquareSet::EMPTY;
        for sq in pos.squares() {
            let c = pos.get(sq);
            if c.is_color(color)
                && c.kind()
                    .and_then(|k| table.get(k as usize))
                    .is_some_and(|t| t.royal)
            {
                s.insert(sq);
            }
        }
        table.iter().any(|t| t.royal).then_some(s)
    }
    /// The squares the move `mv` marks, `before` → `after` (API 1.5; called only when the
    /// variant declares [`crate::VariantFlags::MOVE_MARKS`]): facts about one move that a rule
    /// on repetition judges over a whole cycle, such as the pieces a move chases. The host
    /// keeps them with the game's moves and answers
    /// [`crate::OutcomeContext::marked_in_cycle`]. It must depend on its arguments only: the
    /// engine's search asks for the marks of its moves when a repetition is to be judged, not
    /// as it makes them. Default: nothing marked.
    fn move_mark(&self, before: &Position, mv: Move, after: &Position) -> SquareSet {
        let _ = (before, mv, after);
        SquareSet::EMPTY
    }
    /// Replays a main line of SAN tokens from `start` in one call (API 1.6; called only when
    /// the variant declares [`crate::VariantFlags::REPLAYS_LINES`], and only on a pipeline
    /// without presets): what the host would do move by move — read each token with
    /// [`crate::SanReader`] over the variant's piece table, find the one legal move it names
    /// among the moves [`VariantRules::generate`] gives for its destination and piece kinds,
    /// apply it with [`VariantRules::apply`] — without crossing the library boundary twice per
    /// ply. Batch analysis of records spends most of its time there.
    ///
    /// Stop at the first token that is not plain SAN or names no single legal move: the line
    /// returned then holds the plies before it, and the host goes on from there with its own
    /// reader (coordinate forms, looser spellings, the error message). Every ply must be
    /// exactly what the move-by-move path gives: the same move, the same position after it
    /// (its [`Position::repetition_hash`] is checked), and its check mark (`+` when the mover
    /// attacks a royal of the other side, `#` when that side, to move, also has no legal
    /// move). `houserules check-plugin` compares the two on random games. Default: `None`
    /// (the host replays move by move).
    fn replay_line(&self, start: &Position, tokens: &[&str]) -> Option<ReplayedLine> {
        let _ = (start, tokens);
        None
    }
    /// [`VariantRules::replay_line`] that also writes what batch analysis reports of each
    /// ply (API 1.7; called only when the variant declares
    /// [`crate::VariantFlags::DESCRIBES_LINES`], on a pipeline without presets, when per-ply
    /// output is asked for): its SAN with the check mark ([`crate::write_move_san`] over the
    /// legal moves [`crate::is_san_rival`] picks), its
    /// coordinate form ([`crate::write_coordinate_among`]), the FEN after it
    /// ([`VariantRules::write_fen`]) and the events [`VariantRules::apply`] records for it,
    /// each exactly what the host's move-by-move path writes (`houserules check-plugin`
    /// compares them on random games). Build the answer with [`DescribedLine::push`].
    /// Default: `None` (the host replays move by move).
    fn describe_line(&self, start: &Position, tokens: &[&str]) -> Option<DescribedLine> {
        let _ = (start, tokens);
        None
    }
}

/// One ply of a [`ReplayedLine`].
#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplayedPly {
    /// The move played.
    pub mv: Move,
    /// The side that played it.
    pub mover: Color,
    /// The check mark it earns: `0` (none), `b'+'` or `b'#'`.
    pub mark: u8,
    /// [`Position::repetition_hash`] of the position after it.
    pub key: u64,
}

/// A main line a variant replayed itself ([`VariantRules::replay_line`], API 1.6).
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct ReplayedLine {
    /// The plies replayed: one per token, from the first, up to the first token the variant
    /// did not resolve.
    pub plies: RVec<ReplayedPly>,
    /// The position after the last ply replayed (the start when none was).
    pub position: Position,
}

/// Where the texts of one ply of a [`DescribedLine`] end in its `text` and `events`.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlyTextEnds {
    /// End of the SAN (byte offset in `text`).
    pub san: u32,
    /// End of the coordinate form.
    pub coordinate: u32,
    /// End of the FEN after the ply.
    pub fen: u32,
    /// End of the ply's events in `events`.
    pub events: u32,
}

/// The texts of one ply of a [`DescribedLine`] ([`DescribedLine::ply`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlyText<'a> {
    /// SAN with its check mark.
    pub san: &'a str,
    /// Coordinate form.
    pub coordinate: &'a str,
    /// FEN after the ply.
    pub fen: &'a str,
    /// What the move did.
    pub events: &'a [Event],
}

/// The texts of one ply of a [`DescribedLine`] as one run ([`DescribedLine::ply_run`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlyRun<'a> {
    /// SAN with its check mark, coordinate form and FEN after the ply, one after the other.
    pub text: &'a str,
    /// Where the SAN ends in `text`.
    pub san_end: usize,
    /// Where the coordinate form ends in `text`.
    pub coordinate_end: usize,
    /// What the move did.
    pub events: &'a [Event],
}

/// A main line a variant replayed and described itself ([`VariantRules::describe_line`],
/// API 1.7): the replayed line and, per ply, its texts, all in one buffer (one allocation
/// for the line, not three per ply).
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct DescribedLine {
    /// The moves, keys and check marks, as [`VariantRules::replay_line`] gives them.
    pub line: ReplayedLine,
    /// The texts of every ply, one after the other.
    pub text: RString,
    /// Where each ply's texts end (one entry per ply of `line`).
    pub ends: RVec<PlyTextEnds>,
    /// The events of every ply, one after the other.
    pub events: RVec<Event>,
}

impl DescribedLine {
    /// An empty line from `start`, with room for `plies` plies.
    pub fn new(start: Position, plies: usize) -> DescribedLine {
        DescribedLine {
            line: ReplayedLine {
                plies: RVec::with_capacity(plies),
                position: start,
            },
            // A FEN, a SAN and a coordinate move: about 80 bytes a ply.
            text: RString::with_capacity(plies * 80),
            ends: RVec::with_capacity(plies),
            events: RVec::new(),
        }
    }

    /// A replayed line without texts (what [`VariantRules::replay_line`] gives).
    pub fn of_moves(line: ReplayedLine) -> DescribedLine {
        DescribedLine {
            line,
            text: RString::new(),
            ends: RVec::new(),
            events: RVec::new(),
        }
    }

    /// Adds a ply and its texts (`san` with its check mark).
    pub fn push(
        &mut self,
        ply: ReplayedPly,
        san: &str,
        coordinate: &str,
        fen: &str,
        events: &[Event],
    ) {
        self.text.push_str(san);
        let san_end = self.text.len();
        self.text.push_str(coordinate);
        let coordinate_end = self.text.len();
        self.text.push_str(fen);
        let fen_end = self.text.len();
        self.record(ply, san_end, coordinate_end, fen_end, events);
    }

    /// Adds `ply`, its events and where its texts end (in whichever buffer they were written
    /// to): what [`DescribedLine::push`] and [`DescribedLine::push_written`] share.
    fn record(
        &mut self,
        ply: ReplayedPly,
        san_end: usize,
        coordinate_end: usize,
        fen_end: usize,
        events: &[Event],
    ) {
        let end = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        self.line.plies.push(ply);
        if !events.is_empty() {
            self.events.extend_from_slice(events);
        }
        self.ends.push(PlyTextEnds {
            san: end(san_end),
            coordinate: end(coordinate_end),
            fen: end(fen_end),
            events: end(self.events.len()),
        });
    }

    /// [`DescribedLine::push`] of a ply whose texts the caller wrote to its own buffer
    /// `text` (the SAN with its check mark ending at `san_end`, then the coordinate form
    /// ending at `coordinate_end`, then the FEN ending at `text.len()`; the plies before it
    /// come first): the buffer becomes the line's text at the end, with
    /// [`DescribedLine::set_text`]. Writing in place spares a copy of every ply's texts, and
    /// a read of them right after they were written (which stalls on bytes still being
    /// stored).
    pub fn push_written(
        &mut self,
        ply: ReplayedPly,
        text: &[u8],
        san_end: usize,
        coordinate_end: usize,
        events: &[Event],
    ) {
        self.record(ply, san_end, coordinate_end, text.len(), events);
    }

    /// Makes `text`, the buffer the plies of [`DescribedLine::push_written`] were written to,
    /// the line's text (without a copy); `false`, the line's text left as it was, when it is
    /// not UTF-8 (checked once for the whole line).
    pub fn set_text(&mut self, text: Vec<u8>) -> bool {
        match String::from_utf8(text) {
            Ok(t) => {
                self.text = RString::from(t);
                true
            }
            Err(_) => false,
        }
    }

    /// The SAN, coordinate form and FEN of ply `i` (from 0) as one run of text, with where
    /// the SAN and the coordinate form end in it, and the ply's events (what
    /// [`DescribedLine::ply`] splits); `None` as there.
    pub fn ply_run(&self, i: usize) -> Option<PlyRun<'_>> {
        let (start, events_start) = match i.checked_sub(1) {
            None => (0, 0),
            Some(k) => {
                let e = self.ends.get(k)?;
                (e.fen as usize, e.events as usize)
            }
        };
        let e = self.ends.get(i)?;
        let (san, coordinate, fen) = (e.san as usize, e.coordinate as usize, e.fen as usize);
        if !(start <= san && san <= coordinate && coordinate <= fen) {
            return None;
        }
        let text = self.text.get(start..fen)?;
        // Both splits on character boundaries too.
        let (san_end, coordinate_end) = (san - start, coordinate - start);
        (text.is_char_boundary(san_end) && text.is_char_boundary(coordinate_end)).then_some(())?;
        Some(PlyRun {
            text,
            san_end,
            coordinate_end,
            events: self.events.get(events_start..e.events as usize)?,
        })
    }

    /// The texts of ply `i` (from 0); `None` past the end or where the ends the plugin wrote
    /// do not fit its buffers (the host then replays move by move).
    pub fn ply(&self, i: usize) -> Option<PlyText<'_>> {
        let r = self.ply_run(i)?;
        Some(PlyText {
            san: r.text.get(..r.san_end)?,
            coordinate: r.text.get(r.san_end..r.coordinate_end)?,
            fen: r.text.get(r.coordinate_end..)?,
            events: r.events,
        })
    }
}

/// A preset: a modification of the pipeline through hooks. Every method has a default body
/// meaning "no opinion"; the host calls only the hooks listed in the preset's
/// [`crate::PresetInfo::hooks`].
///
/// A preset object is created per pipeline by [`crate::Plugin::new_preset`], which receives
/// the variant's [`VariantInfo`] (piece table, board size): map roles to piece kinds there.
#[allow(unused_variables)]
pub trait PresetRules: Send + Sync + 'static {
    /// Seeds attributes or state at game start (e.g. hit points).
    fn setup_position(&self, pos: &mut Position) {
        default_ran(HookSet::SETUP_POSITION)
    }
    /// Sets `royals` to the royal pieces of `color` and answers YES, or DEFERs.
    fn get_royal_pieces(&self, pos: &Position, color: Color, royals: &mut SquareSet) -> Decision {
        default_ran(HookSet::GET_ROYAL_PIECES);
        Decision::DEFER
    }
    /// Whether moves of `color` that leave a royal attacked are dropped (NO turns it off).
    fn should_filter_self_check(&self, pos: &Position, color: Color) -> Decision {
        default_ran(HookSet::SHOULD_FILTER_SELF_CHECK);
        Decision::DEFER
    }
    /// Removes from `royals` (the royal set of `color`) the royals that may be left attacked
    /// (piece-hp: a royal with 2 HP or more survives a "capture"). The rest are *protected*:
    /// the self-check filter, castling, check and checkmate concern them only. Losing all
    /// royals still loses.
    fn protected_royals(&self, pos: &Position, color: Color, royals: &mut SquareSet) {
        default_ran(HookSet::PROTECTED_ROYALS)
    }
    /// Takes over the moves of some pieces of `color`: add their squares to `claimed` and
    /// push their (pseudo-legal) moves to `out`.
    fn override_piece_moves(
        &self,
        pos: &Position,
        color: Color,
        claimed: &mut SquareSet,
        out: &mut RVec<Move>,
    ) {
        default_ran(HookSet::OVERRIDE_PIECE_MOVES)
    }
    /// Adds pseudo-legal moves of `color`.
    fn get_extra_moves(&self, pos: &Position, color: Color, out: &mut RVec<Move>) {
        default_ran(HookSet::GET_EXTRA_MOVES)
    }
    /// Transforms the pseudo-legal moves of `color` (remove, change, add).
    fn get_legal_move_modifiers(&self, pos: &Position, color: Color, moves: &mut RVec<Move>) {
        default_ran(HookSet::GET_LEGAL_MOVE_MODIFIERS)
    }
    /// Whether a piece of `by` attacks `sq` beyond what its moves show (YES), or DEFER.
    fn is_attacked(&self, pos: &Position, sq: Square, by: Color) -> Decision {
        default_ran(HookSet::IS_ATTACKED);
        Decision::DEFER
    }
    /// Filters the legal moves of the side to move (e.g. compulsory capture).
    fn filter_legal_moves(&self, pos: &Position, moves: &mut RVec<Move>) {
        default_ran(HookSet::FILTER_LEGAL_MOVES)
    }
    /// Runs before the move is applied.
    fn on_before_move(&self, pos: &mut Position, mv: Move, fx: &mut MoveEffects) {
        default_ran(HookSet::ON_BEFORE_MOVE)
    }
    /// Applies a move this preset generated itself and the variant cannot (YES), or DEFERs.
    fn apply_move(&self, pos: &mut Position, mv: Move, fx: &mut MoveEffects) -> Decision {
        default_ran(HookSet::APPLY_MOVE);
        Decision::DEFER
    }
    /// Runs after the move at `stage` (see [`crate::stage`]); `before` is the position before
    /// the move.
    fn on_after_move(
        &self,
        pos: &mut Position,
        before: &Position,
        mv: Move,
        stage: u8,
        fx: &mut MoveEffects,
    ) {
        default_ran(HookSet::ON_AFTER_MOVE)
    }
    /// [`PresetRules::on_after_move`] with a [`Query`] that answers through the whole
    /// pipeline (attackers of a square, royal sets, check). The host calls this form instead
    /// of `on_after_move` when the preset declares [`crate::HookSet::AFTER_MOVE_QUERY`]
    /// (API 1.1); the default forwards to `on_after_move`.
    fn on_after_move_with(
        &self,
        pos: &mut Position,
        before: &Position,
        mv: Move,
        stage: u8,
        fx: &mut MoveEffects,
        query: &dyn Query,
    ) {
        default_ran(HookSet::AFTER_MOVE_QUERY);
        self.on_after_move(pos, before, mv, stage, fx)
    }
    /// Whether the turn passes to the other side after `mv` (NO keeps it with the mover).
    fn should_advance_turn(&self, pos: &Position, mv: Move, fx: &MoveEffects) -> Decision {
        default_ran(HookSet::SHOULD_ADVANCE_TURN);
        Decision::DEFER
    }
    /// Declares, suppresses or replaces the result found so far (`current`).
    fn on_check_game_result(
        &self,
        pos: &Position,
        ctx: &OutcomeContext,
        current: Option<&Outcome>,
    ) -> ResultDecision {
        default_ran(HookSet::ON_CHECK_GAME_RESULT);
        ResultDecision::defer()
    }
    /// Changes the variant's rules model (API 1.2; called once at pipeline build, in pipeline
    /// order, when the preset declares [`crate::HookSet::TRANSFORM_MODEL`]): movement in
    /// Betza, topology, royalty, promotion, pawn specials. Return an error when the model
    /// lacks what the rule needs (no piece of the role it changes ...).
    fn transform_model(&self, model: &mut RulesModel) -> Result<(), String> {
        let _ = model;
        default_ran(HookSet::TRANSFORM_MODEL);
        Ok(())
    }
    /// Terms the preset adds to the engine's static evaluation of `pos`, in centipawns from
    /// White's point of view (API 1.3; called only when the preset declares
    /// [`crate::HookSet::EVALUATE`]): the worth of what the preset adds (hit points left,
    /// shots in a pistol). Called at every leaf of the search: keep it cheap.
    fn evaluate(&self, pos: &Position) -> i32 {
        let _ = pos;
        default_ran(HookSet::EVALUATE);
        0
    }
}

/// The boundary form of [`VariantRules`]. Methods after the `last_prefix_field` may be added
/// in later API versions; hosts treat missing ones as "no opinion".
#[sabi_trait]
pub trait VariantFfi: Send + Sync {
    /// See [`VariantRules::info`].
    fn info(&self) -> RResult<VariantInfo, PluginError>;
    /// See [`VariantRules::parse_fen`].
    fn parse_fen(&self, fen: RStr<'_>) -> RResult<RResult<Position, FenError>, PluginError>;
    /// See [`VariantRules::write_fen`].
    fn write_fen(&self, pos: &Position) -> RResult<RString, PluginError>;
    /// See [`VariantRules::generate`].
    fn generate(
        &self,
        pos: &Position,
        req: &GenRequest,
        out: &mut RVec<Move>,
    ) -> RResult<(), PluginError>;
    /// See [`VariantRules::legal_move_count`].
    fn legal_move_count(&self, pos: &Position) -> RResult<u64, PluginError>;
    /// See [`VariantRules::apply`].
    fn apply(&self, pos: &mut Position, mv: Move, fx: &mut MoveEffects)
        -> RResult<(), PluginError>;
    /// See [`VariantRules::is_attacked`].
    fn is_attacked(&self, pos: &Position, sq: Square, by: Color) -> RResult<bool, PluginError>;
    /// See [`VariantRules::outcome`].
    fn outcome(
        &self,
        pos: &Position,
        ctx: &OutcomeContext,
    ) -> RResult<ROption<Outcome>, PluginError>;
    /// See [`VariantRules::special_san`].
    fn special_san(&self, pos: &Position, mv: Move) -> RResult<ROption<RString>, PluginError>;
    /// See [`VariantRules::special_coordinate`].
    #[sabi(last_prefix_field)]
    fn special_coordinate(
        &self,
        pos: &Position,
        mv: Move,
    ) -> RResult<ROption<RString>, PluginError>;
    /// See [`VariantRules::rules_model`] (API 1.2).
    fn rules_model(&self) -> RResult<ROption<RulesModel>, PluginError>;
    /// See [`VariantRules::set_model`] (API 1.2).
    fn set_model(&mut self, model: &RulesModel) -> RResult<RResult<(), RString>, PluginError>;
    /// See [`VariantRules::parse_setup`] (API 1.2).
    fn parse_setup(&self, fen: RStr<'_>) -> RResult<RResult<Position, FenError>, PluginError>;
    /// See [`VariantRules::evaluate`] (API 1.3; called only when the variant declares
    /// [`crate::VariantFlags::EVALUATES`], so older plugins never see it).
    fn evaluate(&self, pos: &Position) -> RResult<i32, PluginError>;
    /// See [`VariantRules::royals`] (API 1.4; called only when the variant declares
    /// [`crate::VariantFlags::DYNAMIC_ROYALS`]).
    fn royals(&self, pos: &Position, color: Color) -> RResult<ROption<SquareSet>, PluginError>;
    /// See [`VariantRules::move_mark`] (API 1.5; called only when the variant declares
    /// [`crate::VariantFlags::MOVE_MARKS`]).
    fn move_mark(
        &self,
        before: &Position,
        mv: Move,
        after: &Position,
    ) -> RResult<SquareSet, PluginError>;
    /// See [`VariantRules::replay_line`] (API 1.6; called only when the variant declares
    /// [`crate::VariantFlags::REPLAYS_LINES`]).
    fn replay_line(
        &self,
        start: &Position,
        tokens: RSlice<'_, RStr<'_>>,
    ) -> RResult<ROption<ReplayedLine>, PluginError>;
    /// See [`VariantRules::describe_line`] (API 1.7; called only when the variant declares
    /// [`crate::VariantFlags::DESCRIBES_LINES`]).
    fn describe_line(
        &self,
        start: &Position,
        tokens: RSlice<'_, RStr<'_>>,
    ) -> RResult<ROption<DescribedLine>, PluginError>;
}

/// The boundary form of [`PresetRules`].
#[sabi_trait]
pub trait PresetFfi: Send + Sync {
    /// See [`PresetRules::setup_position`].
    fn setup_position(&self, pos: &mut Position) -> RResult<(), PluginError>;
    /// See [`PresetRules::get_royal_pieces`].
    fn get_royal_pieces(
        &self,
        pos: &Position,
        color: Color,
        royals: &mut SquareSet,
    ) -> RResult<Decision, PluginError>;
    /// See [`PresetRules::should_filter_self_check`].
    fn should_filter_self_check(
        &self,
        pos: &Position,
        color: Color,
    ) -> RResult<Decision, PluginError>;
    /// See [`PresetRules::override_piece_moves`].
    fn override_piece_moves(
        &self,
        pos: &Position,
        color: Color,
        claimed: &mut SquareSet,
        out: &mut RVec<Move>,
    ) -> RResult<(), PluginError>;
    /// See [`PresetRules::get_extra_moves`].
    fn get_extra_moves(
        &self,
        pos: &Position,
        color: Color,
        out: &mut RVec<Move>,
    ) -> RResult<(), PluginError>;
    /// See [`PresetRules::get_legal_move_modifiers`].
    fn get_legal_move_modifiers(
        &self,
        pos: &Position,
        color: Color,
        moves: &mut RVec<Move>,
    ) -> RResult<(), PluginError>;
    /// See [`PresetRules::is_attacked`].
    fn is_attacked(&self, pos: &Position, sq: Square, by: Color) -> RResult<Decision, PluginError>;
    /// See [`PresetRules::filter_legal_moves`].
    fn filter_legal_moves(
        &self,
        pos: &Position,
        moves: &mut RVec<Move>,
    ) -> RResult<(), PluginError>;
    /// See [`PresetRules::on_before_move`].
    fn on_before_move(
        &self,
        pos: &mut Position,
        mv: Move,
        fx: &mut MoveEffects,
    ) -> RResult<(), PluginError>;
    /// See [`PresetRules::apply_move`].
    fn apply_move(
        &self,
        pos: &mut Position,
        mv: Move,
        fx: &mut MoveEffects,
    ) -> RResult<Decision, PluginError>;
    /// See [`PresetRules::on_after_move`].
    fn on_after_move(
        &self,
        pos: &mut Position,
        before: &Position,
        mv: Move,
        stage: u8,
        fx: &mut MoveEffects,
    ) -> RResult<(), PluginError>;
    /// See [`PresetRules::should_advance_turn`].
    fn should_advance_turn(
        &self,
        pos: &Position,
        mv: Move,
        fx: &MoveEffects,
    ) -> RResult<Decision, PluginError>;
    /// See [`PresetRules::on_check_game_result`].
    fn on_check_game_result(
        &self,
        pos: &Position,
        ctx: &OutcomeContext,
        current: ROption<&Outcome>,
    ) -> RResult<ResultDecision, PluginError>;
    /// See [`PresetRules::protected_royals`].
    #[sabi(last_prefix_field)]
    fn protected_royals(
        &self,
        pos: &Position,
        color: Color,
        royals: &mut SquareSet,
    ) -> RResult<(), PluginError>;
    /// See [`PresetRules::on_after_move_with`] (API 1.1; called only when the preset
    /// declares [`crate::HookSet::AFTER_MOVE_QUERY`], so 1.0 plugins never see it).
    fn on_after_move_with(
        &self,
        pos: &mut Position,
        before: &Position,
        mv: Move,
        stage: u8,
        fx: &mut MoveEffects,
        query: HostQueryRef<'_>,
    ) -> RResult<(), PluginError>;
    /// Which hooks the preset's type implements itself, as opposed to inheriting the "no
    /// opinion" default of [`PresetRules`] (API 1.2; for conformance checks such as
    /// `houserules check-plugin`, never called while playing). Every hook is called once on
    /// copies of `pos` (with `mv`, a legal move there) and counts as implemented unless its
    /// default body ran; a hook that panics counts as implemented. `on_after_move_with`'s
    /// default forwards to `on_after_move`, so its bit ([`HookSet::AFTER_MOVE_QUERY`]) is set
    /// only for an own `on_after_move_with`.
    fn implemented_hooks(&self, pos: &Position, mv: Move) -> RResult<HookSet, PluginError>;
    /// See [`PresetRules::transform_model`] (API 1.2; called only when the preset declares
    /// [`crate::HookSet::TRANSFORM_MODEL`]).
    fn transform_model(&self, model: &mut RulesModel)
        -> RResult<RResult<(), RString>, PluginError>;
    /// See [`PresetRules::evaluate`] (API 1.3; called only when the preset declares
    /// [`crate::HookSet::EVALUATE`], so older plugins never see it).
    fn evaluate(&self, pos: &Position) -> RResult<i32, PluginError>;
}

/// Questions a preset may ask the host about a position, answered through the whole pipeline:
/// the variant's moves and attacks and every active preset's (wrapped boards, x-rays, extra
/// moves), the royal set of the active presets. Handed to
/// [`PresetRules::on_after_move_with`].
pub trait Query {
    /// Squares of `by`'s pieces that have a capturing move onto `sq` (where a piece of the
    /// other side stands).
    fn attackers(&self, pos: &Position, sq: Square, by: Color) -> SquareSet;
    /// The royal pieces of `color`; `None` when that side has no royalty.
    fn royals(&self, pos: &Position, color: Color) -> Option<SquareSet>;
    /// Whether `color` is in check (a protected royal attacked, under the active check rule).
    fn in_check(&self, pos: &Position, color: Color) -> bool;
}

/// The boundary form of [`Query`], implemented by the host.
#[sabi_trait]
pub trait HostQuery {
    /// See [`Query::attackers`].
    fn attackers(&self, pos: &Position, sq: Square, by: Color) -> SquareSet;
    /// See [`Query::royals`].
    fn royals(&self, pos: &Position, color: Color) -> ROption<SquareSet>;
    /// See [`Query::in_check`].
    #[sabi(last_prefix_field)]
    fn in_check(&self, pos: &Position, color: Color) -> bool;
}

/// A borrowed host query object as it crosses the boundary.
pub type HostQueryRef<'a> = HostQuery_TO<'a, RRef<'a, ()>>;

impl Query for HostQueryRef<'_> {
    fn attackers(&self, pos: &Position, sq: Square, by: Color) -> SquareSet {
        HostQuery::attackers(self, pos, sq, by)
    }
    fn royals(&self, pos: &Position, color: Color) -> Option<SquareSet> {
        HostQuery::royals(self, pos, color).into_option()
    }
    fn in_check(&self, pos: &Position, color: Color) -> bool {
        HostQuery::in_check(self, pos, color)
    }
}

/// Wraps a host-side [`HostQuery`] implementation for one call.
pub fn host_query<T: HostQuery>(q: &T) -> HostQueryRef<'_> {
    HostQuery_TO::from_ptr(q, TD_Opaque)
}

/// A variant object as it crosses the boundary.
pub type VariantBox = VariantFfi_TO<'static, RBox<()>>;
/// A preset object as it crosses the boundary.
pub type PresetBox = PresetFfi_TO<'static, RBox<()>>;

/// Runs `f`, turning a panic into a [`PluginError`].
pub fn guard<R>(what: &str, f: impl FnOnce() -> R) -> RResult<R, PluginError> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => RResult::ROk(r),
        Err(payload) => {
            let msg = if let Some(s) = payload.downcast_ref::<&str>() {
                (*s).to_string()
            } else if let Some(s) = payload.downcast_ref::<String>() {
                s.clone()
            } else {
                "unknown panic".to_string()
            };
            let location = crate::export::take_panic_location();
            RResult::RErr(PluginError::new(format!(
                "plugin panicked in {what}{location}: {msg}"
            )))
        }
    }
}

/// A rules object whose `Drop` may not unwind across the boundary: the host destroys objects
/// through an `extern "C"` destructor, where a panic would abort the host. A panic while
/// dropping is caught here and reported on standard error (the object is gone either way).
struct Dropped<T>(std::mem::ManuallyDrop<T>);

impl<T> Dropped<T> {
    fn new(t: T) -> Dropped<T> {
        Dropped(std::mem::ManuallyDrop::new(t))
    }
}

impl<T> std::ops::Deref for Dropped<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> std::ops::DerefMut for Dropped<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

impl<T> Drop for Dropped<T> {
    fn drop(&mut self) {
        // SAFETY: dropped exactly once, here; the field is not used afterwards.
        let r = catch_unwind(AssertUnwindSafe(|| unsafe {
            std::mem::ManuallyDrop::drop(&mut self.0)
        }));
        if let Err(payload) = r {
            let msg = if let Some(s) = payload.downcast_ref::<&str>() {
                (*s).to_string()
            } else if let Some(s) = payload.downcast_ref::<String>() {
                s.clone()
            } else {
                "unknown panic".to_string()
            };
            let location = crate::export::take_panic_location();
            eprintln!(
                "warning: plugin panicked while dropping {}{location}: {msg} (caught)",
                std::any::type_name::<T>()
            );
        }
    }
}

struct VariantAdapter<T>(Dropped<T>);

impl<T: VariantRules> VariantFfi for VariantAdapter<T> {
    fn info(&self) -> RResult<VariantInfo, PluginError> {
        guard("info", || self.0.info())
    }
    fn parse_fen(&self, fen: RStr<'_>) -> RResult<RResult<Position, FenError>, PluginError> {
        guard("parse_fen", || self.0.parse_fen(fen.as_str()).into())
    }
    fn write_fen(&self, pos: &Position) -> RResult<RString, PluginError> {
        guard("write_fen", || self.0.write_fen(pos).into())
    }
    fn generate(
        &self,
        pos: &Position,
        req: &GenRequest,
        out: &mut RVec<Move>,
    ) -> RResult<(), PluginError> {
        guard("generate", || self.0.generate(pos, req, out))
    }
    fn legal_move_count(&self, pos: &Position) -> RResult<u64, PluginError> {
        guard("legal_move_count", || self.0.legal_move_count(pos))
    }
    fn apply(
        &self,
        pos: &mut Position,
        mv: Move,
        fx: &mut MoveEffects,
    ) -> RResult<(), PluginError> {
        guard("apply", || self.0.apply(pos, mv, fx))
    }
    fn is_attacked(&self, pos: &Position, sq: Square, by: Color) -> RResult<bool, PluginError> {
        guard("is_attacked", || self.0.is_attacked(pos, sq, by))
    }
    fn outcome(
        &self,
        pos: &Position,
        ctx: &OutcomeContext,
    ) -> RResult<ROption<Outcome>, PluginError> {
        guard("outcome", || self.0.outcome(pos, ctx).into())
    }
    fn special_san(&self, pos: &Position, mv: Move) -> RResult<ROption<RString>, PluginError> {
        guard("special_san", || {
            self.0.special_san(pos, mv).map(RString::from).into()
        })
    }
    fn special_coordinate(
        &self,
        pos: &Position,
        mv: Move,
    ) -> RResult<ROption<RString>, PluginError> {
        guard("special_coordinate", || {
            self.0.special_coordinate(pos, mv).map(RString::from).into()
        })
    }
    fn rules_model(&self) -> RResult<ROption<RulesModel>, PluginError> {
        guard("rules_model", || self.0.rules_model().into())
    }
    fn set_model(&mut self, model: &RulesModel) -> RResult<RResult<(), RString>, PluginError> {
        guard("set_model", || {
            self.0.set_model(model).map_err(RString::from).into()
        })
    }
    fn parse_setup(&self, fen: RStr<'_>) -> RResult<RResult<Position, FenError>, PluginError> {
        guard("parse_setup", || self.0.parse_setup(fen.as_str()).into())
    }
    fn evaluate(&self, pos: &Position) -> RResult<i32, PluginError> {
        guard("evaluate", || self.0.evaluate(pos))
    }
    fn royals(&self, pos: &Position, color: Color) -> RResult<ROption<SquareSet>, PluginError> {
        guard("royals", || self.0.royals(pos, color).into())
    }
    fn move_mark(
        &self,
        before: &Position,
        mv: Move,
        after: &Position,
    ) -> RResult<SquareSet, PluginError> {
        guard("move_mark", || self.0.move_mark(before, mv, after))
    }
    fn replay_line(
        &self,
        start: &Position,
        tokens: RSlice<'_, RStr<'_>>,
    ) -> RResult<ROption<ReplayedLine>, PluginError> {
        guard("replay_line", || {
            let tokens: Vec<&str> = tokens.iter().map(|t| t.as_str()).collect();
            self.0.replay_line(start, &tokens).into()
        })
    }
    fn describe_line(
        &self,
        start: &Position,
        tokens: RSlice<'_, RStr<'_>>,
    ) -> RResult<ROption<DescribedLine>, PluginError> {
        guard("describe_line", || {
            let tokens: Vec<&str> = tokens.iter().map(|t| t.as_str()).collect();
            self.0.describe_line(start, &tokens).into()
        })
    }
}

struct PresetAdapter<T>(Dropped<T>);

impl<T: PresetRules> PresetFfi for PresetAdapter<T> {
    fn setup_position(&self, pos: &mut Position) -> RResult<(), PluginError> {
        guard("setup_position", || self.0.setup_position(pos))
    }
    fn get_royal_pieces(
        &self,
        pos: &Position,
        color: Color,
        royals: &mut SquareSet,
    ) -> RResult<Decision, PluginError> {
        guard("get_royal_pieces", || {
            self.0.get_royal_pieces(pos, color, royals)
        })
    }
    fn should_filter_self_check(
        &self,
        pos: &Position,
        color: Color,
    ) -> RResult<Decision, PluginError> {
        guard("should_filter_self_check", || {
            self.0.should_filter_self_check(pos, color)
        })
    }
    fn override_piece_moves(
        &self,
        pos: &Position,
        color: Color,
        claimed: &mut SquareSet,
        out: &mut RVec<Move>,
    ) -> RResult<(), PluginError> {
        guard("override_piece_moves", || {
            self.0.override_piece_moves(pos, color, claimed, out)
        })
    }
    fn get_extra_moves(
        &self,
        pos: &Position,
        color: Color,
        out: &mut RVec<Move>,
    ) -> RResult<(), PluginError> {
        guard("get_extra_moves", || {
            self.0.get_extra_moves(pos, color, out)
        })
    }
    fn get_legal_move_modifiers(
        &self,
        pos: &Position,
        color: Color,
        moves: &mut RVec<Move>,
    ) -> RResult<(), PluginError> {
        guard("get_legal_move_modifiers", || {
            self.0.get_legal_move_modifiers(pos, color, moves)
        })
    }
    fn is_attacked(&self, pos: &Position, sq: Square, by: Color) -> RResult<Decision, PluginError> {
        guard("is_attacked", || self.0.is_attacked(pos, sq, by))
    }
    fn filter_legal_moves(
        &self,
        pos: &Position,
        moves: &mut RVec<Move>,
    ) -> RResult<(), PluginError> {
        guard("filter_legal_moves", || {
            self.0.filter_legal_moves(pos, moves)
        })
    }
    fn on_before_move(
        &self,
        pos: &mut Position,
        mv: Move,
        fx: &mut MoveEffects,
    ) -> RResult<(), PluginError> {
        guard("on_before_move", || self.0.on_before_move(pos, mv, fx))
    }
    fn apply_move(
        &self,
        pos: &mut Position,
        mv: Move,
        fx: &mut MoveEffects,
    ) -> RResult<Decision, PluginError> {
        guard("apply_move", || self.0.apply_move(pos, mv, fx))
    }
    fn on_after_move(
        &self,
        pos: &mut Position,
        before: &Position,
        mv: Move,
        stage: u8,
        fx: &mut MoveEffects,
    ) -> RResult<(), PluginError> {
        guard("on_after_move", || {
            self.0.on_after_move(pos, before, mv, stage, fx)
        })
    }
    fn should_advance_turn(
        &self,
        pos: &Position,
        mv: Move,
        fx: &MoveEffects,
    ) -> RResult<Decision, PluginError> {
        guard("should_advance_turn", || {
            self.0.should_advance_turn(pos, mv, fx)
        })
    }
    fn on_check_game_result(
        &self,
        pos: &Position,
        ctx: &OutcomeContext,
        current: ROption<&Outcome>,
    ) -> RResult<ResultDecision, PluginError> {
        guard("on_check_game_result", || {
            self.0.on_check_game_result(pos, ctx, current.into_option())
        })
    }
    fn protected_royals(
        &self,
        pos: &Position,
        color: Color,
        royals: &mut SquareSet,
    ) -> RResult<(), PluginError> {
        guard("protected_royals", || {
            self.0.protected_royals(pos, color, royals)
        })
    }
    fn on_after_move_with(
        &self,
        pos: &mut Position,
        before: &Position,
        mv: Move,
        stage: u8,
        fx: &mut MoveEffects,
        query: HostQueryRef<'_>,
    ) -> RResult<(), PluginError> {
        guard("on_after_move", || {
            self.0
                .on_after_move_with(pos, before, mv, stage, fx, &query)
        })
    }
    fn transform_model(
        &self,
        model: &mut RulesModel,
    ) -> RResult<RResult<(), RString>, PluginError> {
        guard("transform_model", || {
            self.0.transform_model(model).map_err(RString::from).into()
        })
    }
    fn implemented_hooks(&self, pos: &Position, mv: Move) -> RResult<HookSet, PluginError> {
        guard("implemented_hooks", || probe_hooks(&*self.0, pos, mv))
    }
    fn evaluate(&self, pos: &Position) -> RResult<i32, PluginError> {
        guard("evaluate", || self.0.evaluate(pos))
    }
}

/// A [`Query`] that knows nothing, for probing hooks outside a game.
struct NoQuery;

impl Query for NoQuery {
    fn attackers(&self, _: &Position, _: Square, _: Color) -> SquareSet {
        SquareSet::EMPTY
    }
    fn royals(&self, _: &Position, _: Color) -> Option<SquareSet> {
        None
    }
    fn in_check(&self, _: &Position, _: Color) -> bool {
        false
    }
}

/// See [`PresetFfi::implemented_hooks`].
fn probe_hooks<T: PresetRules>(rules: &T, pos: &Position, mv: Move) -> HookSet {
    let color = pos.side_to_move;
    let sq = mv.destination();
    let ctx = OutcomeContext {
        has_legal_moves: true,
        in_check: false,
        royals: [1, 1],
        has_royalty: true,
        counting: false,
        repetitions: 1,
        checks_in_cycle: [false; 2],
        reserved: [0; 4],
    };
    let calls: [(HookSet, &dyn Fn()); 17] = [
        (HookSet::SETUP_POSITION, &|| {
            rules.setup_position(&mut pos.clone())
        }),
        (HookSet::GET_ROYAL_PIECES, &|| {
            rules.get_royal_pieces(pos, color, &mut { SquareSet::EMPTY });
        }),
        (HookSet::SHOULD_FILTER_SELF_CHECK, &|| {
            rules.should_filter_self_check(pos, color);
        }),
        (HookSet::PROTECTED_ROYALS, &|| {
            rules.protected_royals(pos, color, &mut { SquareSet::EMPTY })
        }),
        (HookSet::OVERRIDE_PIECE_MOVES, &|| {
            rules.override_piece_moves(pos, color, &mut { SquareSet::EMPTY }, &mut RVec::new())
        }),
        (HookSet::GET_EXTRA_MOVES, &|| {
            rules.get_extra_moves(pos, color, &mut RVec::new())
        }),
        (HookSet::GET_LEGAL_MOVE_MODIFIERS, &|| {
            rules.get_legal_move_modifiers(pos, color, &mut vec![mv].into())
        }),
        (HookSet::IS_ATTACKED, &|| {
            rules.is_attacked(pos, sq, color.opposite());
        }),
        (HookSet::FILTER_LEGAL_MOVES, &|| {
            rules.filter_legal_moves(pos, &mut vec![mv].into())
        }),
        (HookSet::ON_BEFORE_MOVE, &|| {
            rules.on_before_move(&mut pos.clone(), mv, &mut MoveEffects::new(color, false))
        }),
        (HookSet::APPLY_MOVE, &|| {
            rules.apply_move(&mut pos.clone(), mv, &mut MoveEffects::new(color, false));
        }),
        (HookSet::ON_AFTER_MOVE, &|| {
            rules.on_after_move(
                &mut pos.clone(),
                pos,
                mv,
                crate::stage::TURN_END,
                &mut MoveEffects::new(color, false),
            )
        }),
        (HookSet::AFTER_MOVE_QUERY, &|| {
            rules.on_after_move_with(
                &mut pos.clone(),
                pos,
                mv,
                crate::stage::TURN_END,
                &mut MoveEffects::new(color, false),
                &NoQuery,
            )
        }),
        (HookSet::SHOULD_ADVANCE_TURN, &|| {
            rules.should_advance_turn(pos, mv, &MoveEffects::new(color, false));
        }),
        (HookSet::ON_CHECK_GAME_RESULT, &|| {
            rules.on_check_game_result(pos, &ctx, None);
        }),
        (HookSet::TRANSFORM_MODEL, &|| {
            let mut model = RulesModel {
                files: pos.files(),
                ranks: pos.ranks(),
                holes: SquareSet::EMPTY,
                topology: Default::default(),
                pieces: RVec::new(),
                castling: ROption::RNone,
                check: 0,
                en_passant: 0,
                initial_needs_unmoved: false,
                slide_limit: 0,
                extra: RVec::new(),
            };
            let _ = rules.transform_model(&mut model);
        }),
        (HookSet::EVALUATE, &|| {
            rules.evaluate(pos);
        }),
    ];
    let mut implemented = HookSet::default();
    for (hook, call) in calls {
        DEFAULT_BODIES_RUN.with(|c| c.set(0));
        let ran = catch_unwind(AssertUnwindSafe(call)).is_ok();
        let default = DEFAULT_BODIES_RUN.with(|c| c.get()) & hook.0 != 0;
        if !ran || !default {
            implemented = implemented.with(hook);
        }
    }
    implemented
}

/// Wraps a [`VariantRules`] implementation into the object that crosses the boundary.
pub fn variant_object<T: VariantRules>(rules: T) -> VariantBox {
    VariantFfi_TO::from_value(VariantAdapter(Dropped::new(rules)), TD_Opaque)
}

/// Wraps a [`PresetRules`] implementation into the object that crosses the boundary.
pub fn preset_object<T: PresetRules>(rules: T) -> PresetBox {
    PresetFfi_TO::from_value(PresetAdapter(Dropped::new(rules)), TD_Opaque)
}

/// Validated options handed to a preset constructor, with helpers to read them.
#[derive(Debug, Clone, Default)]
pub struct Options(pub Vec<(String, String)>);

impl Options {
    /// Builds options from boundary values.
    pub fn from_values(values: &[OptionValue]) -> Options {
        Options(
            values
                .iter()
                .map(|v| (v.key.to_string(), v.value.to_string()))
                .collect(),
        )
    }
    /// The value of `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
    /// The `scope` option as a [`Scope`] (default: both).
    pub fn scope(&self) -> Scope {
        match self.get("scope") {
            Some("white") => Scope::White,
            Some("black") => Scope::Black,
            _ => Scope::Both,
        }
    }
}

/// Which side(s) a scope-aware preset applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// White only.
    White,
    /// Black only.
    Black,
    /// Both sides.
    Both,
}

impl Scope {
    /// Whether the rule applies to `color`.
    pub fn applies(self, color: Color) -> bool {
        matches!(
            (self, color),
            (Scope::Both, _) | (Scope::White, Color::White) | (Scope::Black, Color::Black)
        )
    }
}

/// The stages of `on_after_move`, in the order the host runs them (the catalogue's dispatch
/// order). A preset's [`crate::PresetInfo`] lists in `after_move_stages` which it handles.
pub mod stage {
    /// Capture resolution that replaces the variant's (piece-hp: damage instead of removal),
    /// before the catalogue's twelve stages, so that stage 2 sees the damage (API 1.1).
    pub const RESOLVE: u8 = 0;
    /// Auras recomputed.
    pub const AURA: u8 = 1;
    /// Damage detection (hit points dropped).
    pub const DAMAGED: u8 = 2;
    /// Capture resolution, on the attacker (piece-hp turns a capture into damage here).
    pub const CAPTURE: u8 = 3;
    /// On the captured piece.
    pub const CAPTURED: u8 = 4;
    /// Promotion.
    pub const PROMOTION: u8 = 5;
    /// Pieces that moved.
    pub const MOVE: u8 = 6;
    /// Pieces that ended on a watched square.
    pub const MOVED_ONTO_SQUARE: u8 = 7;
    /// Royal newly in check.
    pub const CHECK_RECEIVED: u8 = 8;
    /// Piece newly giving check.
    pub const CHECK_DELIVERED: u8 = 9;
    /// Conditional effects.
    pub const CONDITIONAL: u8 = 10;
    /// End of the mover's turn (poison, then healing).
    pub const TURN_END: u8 = 11;
    /// Start of the next side's turn.
    pub const TURN_START: u8 = 12;
    /// Every stage, in order.
    pub const ALL: [u8; 13] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    /// The `after_move_stages` bits of every stage this version of the API defines.
    pub const KNOWN: u16 = (1 << 13) - 1;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Color, Move, MoveFlags, Square};

    fn ply() -> ReplayedPly {
        ReplayedPly {
            mv: Move::new(Square::new(4, 1), Square::new(4, 3), MoveFlags::NONE),
            mover: Color::White,
            mark: 0,
            key: 1,
        }
    }

    /// The texts a plugin wrote are read back as written, and ends that do not fit the
    /// buffers (a plugin's mistake) give `None`, never a panic.
    #[test]
    fn described_plies_are_read_back_and_bad_ends_refused() {
        let mut d = DescribedLine::new(Position::empty(8, 8), 2);
        d.push(ply(), "e4", "e2e4", "fen one", &[]);
        d.push(ply(), "Nf6+", "g8f6", "fen two", &[]);
        let t = d.ply(1).expect("ply 2");
        assert_eq!((t.san, t.coordinate, t.fen), ("Nf6+", "g8f6", "fen two"));
        let r = d.ply_run(1).expect("ply 2");
        assert_eq!(
            (r.text, r.san_end, r.coordinate_end),
            ("Nf6+g8f6fen two", 4, 8)
        );
        assert_eq!(d.ply_run(2), None);
        let good = d.clone();
        d.ends[1].coordinate = 1; // before the SAN's end
        assert_eq!(d.ply_run(1), None);
        let mut d = good.clone();
        d.ends[1].fen = 10_000;
        assert_eq!(d.ply_run(1), None);
        assert_eq!(d.ply(1), None);
        let mut d = good;
        d.ends[0].events = 3;
        assert_eq!(d.ply_run(0), None);
    }

    #[test]
    fn plies_written_in_place_read_back_as_pushed_ones() {
        let event = Event::new(
            crate::EventKind::CAPTURE,
            Square::new(3, 4),
            crate::Cell::piece(0, Color::Black),
        );
        let mut pushed = DescribedLine::new(Position::empty(8, 8), 2);
        pushed.push(ply(), "e4", "e2e4", "fen one", &[]);
        pushed.push(ply(), "Nxe5+", "g6e5", "fen two", &[event]);
        let mut written = DescribedLine::of_moves(ReplayedLine {
            plies: RVec::new(),
            position: Position::empty(8, 8),
        });
        let mut text = Vec::new();
        for (san, coordinate, fen, events) in [
            ("e4", "e2e4", "fen one", &[][..]),
            ("Nxe5+", "g6e5", "fen two", &[event][..]),
        ] {
            text.extend_from_slice(san.as_bytes());
            let san_end = text.len();
            text.extend_from_slice(coordinate.as_bytes());
            let coordinate_end = text.len();
            text.extend_from_slice(fen.as_bytes());
            written.push_written(ply(), &text, san_end, coordinate_end, events);
        }
        assert!(written.set_text(text));
        for i in 0..2 {
            assert_eq!(written.ply(i), pushed.ply(i));
            assert_eq!(written.ply_run(i), pushed.ply_run(i));
        }
        assert_eq!(written.ply(2), None);
        // A buffer that is not UTF-8 is refused and leaves the line's text as it was.
        let before = written.text.clone();
        assert!(!written.set_text(vec![b'e', 0xff, b'4']));
        assert_eq!(written.text, before);
    }
}
