//! A compiled Fairy-Stockfish variant: piece table and rules, played by the shared
//! data-driven generator (`houserules-movegen`), and the [`VariantRules`] implementation the
//! host drives. This module maps Fairy-Stockfish's settings onto the generator's rules model;
//! FEN, SAN and results stay here.

use crate::board_memo::BoardFacts;
use crate::ini::Loc;
use crate::spec::{self, Spec, Value, ALL_PIECES, KING};
use houserules_movegen::{betza, rules_from_model, DropRules, Generator, Movement, Rules};
use houserules_plugin_api::abi_stable::std_types::{ROption, RVec};
use houserules_plugin_api::model::{check_rule, ep_capture, ep_policy};
use houserules_plugin_api::{
    geometry, CastlingModel, Color, FenError, GenRequest, Layout, Move, MoveEffects, Outcome,
    OutcomeContext, PieceModel, PieceType, Position, PromotionModel, Role, RulesModel, Square,
    SquareSet, Topology, VariantFlags, VariantInfo, VariantRules,
};
use std::sync::Arc;

/// One piece kind (an index into the host's piece table).
#[derive(Debug, Clone)]
pub struct Kind {
    /// Fairy-Stockfish type on the board (a promoted kind has its promoted type's).
    pub ty: u16,
    /// Letter in FEN (upper case); a promoted kind writes its unpromoted letter after `+`.
    pub letter: char,
    /// Letter in SAN (the board type's letter).
    pub san_letter: char,
    /// The board type's letter synonym (upper case), which SAN writes instead of
    /// `san_letter` and FEN also reads (Fairy-Stockfish's `pieceToCharSynonyms`).
    pub synonym: Option<char>,
    /// Whether this is the promoted form of `demoted`.
    pub promoted: bool,
    /// The kind a capture puts in hand.
    pub demoted: u8,
    /// Shogi-style promotion target.
    pub promo: Option<u8>,
    /// Royal (the king).
    pub royal: bool,
    /// Fairy-Stockfish's pawn (double steps, en passant, letterless SAN).
    pub pawn: bool,
    /// Promotes like a pawn (`promotionPawnTypes`).
    pub pawn_type: bool,
    /// Chess-style promotion applies (pawn type, with promotion piece types).
    pub chess_promo: bool,
    /// Moves reset the n-move counter.
    pub n_move_reset: bool,
    /// Counts for connect-N.
    pub connect: bool,
    /// Takes en passant with its capture-only moves (a custom piece with `e` in its Betza:
    /// Fairy-Stockfish's `enPassantTypes`).
    pub ep_capturer: bool,
    /// Its initial moves may be taken en passant (a custom piece with `i` moves).
    pub ep_victim: bool,
    /// Its movement, as parsed.
    pub movement: Movement,
    /// The same in the houserules dialect.
    pub betza: String,
}

/// The movement of a piece type in the houserules dialect (what the rules model carries):
/// Fairy-Stockfish's own text, except for its pawn (see [`movement`]).
pub fn movement_text(ty: u16, betza_text: &str, spec: &Spec) -> String {
    if ty == spec::PAWN {
        if spec.double_step {
            "fmWfceFifmnD".into()
        } else {
            "fmWfceF".into()
        }
    } else if ty == spec::SOLDIER {
        crate::xiangqi::SOLDIER_BETZA.into()
    } else {
        // Fairy-Stockfish's `e` (an en passant capturer) is not the houserules dialect's.
        betza_text.replace('e', "")
    }
}

/// A compiled variant.
#[derive(Debug, Clone)]
pub struct Fairy {
    /// Variant id.
    pub id: String,
    /// Files.
    pub files: u8,
    /// Ranks.
    pub ranks: u8,
    /// Kinds (base kinds first, then promoted forms).
    pub kinds: Vec<Kind>,
    pub(crate) n_base: usize,
    /// Host piece table.
    pub pieces: Vec<PieceType>,
    /// Start position.
    pub start_fen: String,
    /// Settings.
    pub spec: Spec,
    hand_order: Vec<u8>,
    /// Kinds that count for connect-N (bit mask).
    connect_kinds: u64,
    /// Castling: the castling kind and its partner kinds (what the FEN's rights refer to).
    pub(crate) castle: Option<(u8, Vec<u8>)>,
    /// For the kinds whose moves reset the n-move counter: where each moves quietly on an
    /// empty board, by colour and square (index `color * 256 + square`). A move the piece
    /// could not reverse resets the counter (Fairy-Stockfish: a pawn step does, a custom
    /// pawn's sideways step does not).
    quiet_reach: Vec<Option<Vec<SquareSet>>>,
    /// The start position's walls (fixed squares off the board).
    walls: SquareSet,
    /// Rules that end the game while moves remain (extinction, flag, connect-N).
    ends_early: bool,
    /// Rules that remove generated moves (mustCapture, mustDrop, checking, dropChecks,
    /// pseudo-royal pieces).
    pub(crate) filters: bool,
    /// The last pieces of the extinction types are royal (`extinctionPseudoRoyal`).
    pseudo_royal: bool,
    /// Royal pieces start in hand (placement variants): until dropped a side has none.
    royals_in_hand: bool,
    /// A side starts without a royal piece (horde's White): it has no royalty, where the
    /// piece table's royal type would make the host count its royals as lost.
    royalless_side: bool,
    /// The rules model it plays (its own, or the one presets transformed).
    pub model: RulesModel,
    /// What the model does not carry: drops, immobility, captures to hand.
    extras: Extras,
    /// The generator that plays the variant.
    pub gen: Arc<Generator>,
    /// Walls put after each move (`wallingRule`).
    pub walling: Option<crate::walling::Walling>,
    /// Placement games' rules (`enclosingDrop`, `flipEnclosedPieces` ...), when set.
    pub placement: Option<crate::placement::Placement>,
    /// The walls capturers turn into (`petrifyOnCaptureTypes`, see `crate::petrify`).
    stone: Option<u8>,
    /// Pawns' triple steps (`tripleStepRegionWhite/Black`).
    triple: Option<crate::triple_step::TripleStep>,
    /// Xiangqi's perpetual chase rule (`chasingRule = axf`), when set.
    pub chasing: Option<crate::chasing::Chasing>,
    /// Explosions judged on the generator's bitboards (`blastOnCapture` with pseudo-royal
    /// pieces and no rule that changes what a move leaves on the board: see
    /// [`Fairy::blast_on_bitboards`]); `None`: each move is made on a copy of the position.
    pub(crate) blast: Option<houserules_movegen::blast::Blast>,
    /// Pseudo-royal safety tried on the generator's bitboards where a move allows it (see
    /// [`Fairy::trials_judge_safety`]); found with the generator, not at every node.
    pub(crate) trials: bool,
    /// The goal terms the engine's evaluation adds (see [`crate::eval`]).
    goals: crate::eval::Goals,
    /// The extinction piece types in increasing order (as Fairy-Stockfish tests them), each
    /// with its kinds as a bit mask (`None` where the kinds are beyond a mask): what the
    /// extinction and the pseudo-royal pieces are looked up by at every node.
    extinction: Vec<(u16, Option<u64>)>,
    /// The pieces' capture leaps, both ways (where stones touch for [`crate::eval::last_move`]).
    capture_steps: Vec<(i8, i8)>,
    /// Per kind, how it moves to empty squares (what [`crate::eval::territory`] walks).
    move_only_reach: Vec<crate::eval::Reach>,
    /// Per kind, how it moves where it only moves to empty squares: flag pieces of such kinds
    /// run the race by their own moves ([`crate::eval::flag_race`]).
    flag_runners: Vec<Option<crate::eval::Reach>>,
    /// This instance's number in [`crate::board_memo`], where the generator's bitboards
    /// hold every kind (they are the memo's key); `None` elsewhere.
    memo_owner: Option<u64>,
}

/// The movement of a piece type as Fairy-Stockfish defines it. Fairy-Stockfish's pawn moves
/// as `fmWfcF`, double-steps (`ifmnD`) from the double-step region when double steps are on,
/// and takes en passant with its diagonal captures (`e`, houserules dialect).
pub fn movement(ty: u16, betza_text: &str, spec: &Spec) -> Result<Movement, String> {
    let text = movement_text(ty, betza_text, spec);
    if ty == spec::PAWN {
        return betza::parse(&text, betza::Dialect::Houserules).map_err(|e| e.to_string());
    }
    let m = betza::parse(betza_text, betza::Dialect::Fsf).map_err(|e| e.to_string())?;
    // `e` moves nothing in Fairy-Stockfish's Betza: it makes the piece an en passant
    // capturer (see `Kind::ep_capturer`).
    if let Some((at, c)) = m.ignored.iter().find(|(_, c)| *c != 'e') {
        return Err(format!(
            "Betza `{betza_text}`: `{c}` (column {}) is not part of Fairy-Stockfish's Betza, \
             which would skip it",
            at + 1
        ));
    }
    Ok(m)
}

/// An error of a key: at the line that sets it, or, for a value the section inherits (from its
/// parent or the language's default), at the section's header line.
pub(crate) fn err_at(
    header: &Loc,
    loc: Option<&Loc>,
    key: &str,
    why: impl std::fmt::Display,
) -> String {
    match loc {
        Some(l) => format!("{l}: key `{key}`: {why}"),
        None => format!("{header}: key `{key}` (inherited, not set in this section): {why}"),
    }
}

/// The squares a castling move's king and rook end on (the rook beside the king, on the side
/// it came from: also where the king does not move, as in Chess960 set-ups).
pub fn castle_destinations(m: &Move) -> (Square, Square) {
    let king = m.via;
    let rook_file = if m.to.file() > m.from.file() {
        king.file() - 1
    } else {
        king.file() + 1
    };
    (king, Square::new(rook_file, king.rank()))
}

impl Fairy {
    /// Builds the variant from its settings; `header` locates the section for errors.
    pub fn compile(id: &str, spec: &Spec, header: &Loc) -> Result<Fairy, String> {
        let files = spec.max_file;
        let ranks = spec.max_rank;
        let loc = |k: &str| spec.locs.get(k);
        if spec.pieces.is_empty() {
            return Err(format!("{header}: section [{id}] defines no pieces"));
        }
        if spec.pieces.len() > 31 {
            return Err(format!(
                "{header}: section [{id}] defines more than 31 piece types"
            ));
        }
        let has = |t: u16| spec.pieces.contains_key(&t);
        let chess_promo_targets: Vec<u16> = spec
            .promotion_piece_types
            .iter()
            .copied()
            .filter(|t| has(*t))
            .collect();
        // Base kinds, in type order.
        let mut kinds: Vec<Kind> = Vec::new();
        let mut pieces: Vec<PieceType> = Vec::new();
        let mut kind_of_ty = std::collections::HashMap::new();
        for (&ty, p) in &spec.pieces {
            let mv = movement(ty, &p.betza, spec).map_err(|e| match &p.loc {
                Some(l) => format!("{l}: key `{}`: {e}", p.key),
                None => format!("{header}: piece `{}`: {e}", p.key),
            })?;
            let named = spec::named(ty);
            let idx = kinds.len() as u8;
            kind_of_ty.insert(ty, idx);
            let letter = p.letter.to_ascii_uppercase();
            let value = named.map(|n| n.value).unwrap_or_else(|| betza_value(&mv));
            let own_targets = spec.promotion_choices(ty).concat();
            kinds.push(Kind {
                ty,
                letter,
                san_letter: letter,
                synonym: p.synonym.map(|c| c.to_ascii_uppercase()),
                promoted: false,
                demoted: idx,
                promo: None,
                royal: ty == KING,
                pawn: ty == spec::PAWN,
                pawn_type: spec.pawn_type_colours(ty).contains(&true),
                // With no promotion choices (`promotionPieceTypes = -`) and no shogi-style
                // promoted type, the pawn still has its promotion zone: a compulsory
                // promotion to nothing forbids the step onto it, as in Fairy-Stockfish.
                chess_promo: spec.pawn_type_colours(ty).contains(&true)
                    && (!own_targets.is_empty()
                        || !spec.promoted_piece_type.iter().any(|&(f, _)| f == ty)),
                n_move_reset: (0..2).any(|c| spec.n_move_types_of(c).contains(&ty)),
                connect: spec
                    .connect_piece_types
                    .as_ref()
                    .is_none_or(|v| v.contains(&ty)),
                ep_capturer: (spec::CUSTOM..KING).contains(&ty)
                    && spec.en_passant_types.contains(&ty),
                ep_victim: (spec::CUSTOM..KING).contains(&ty) && p.betza.contains('i'),
                movement: mv,
                betza: movement_text(ty, &p.betza, spec),
            });
            let name = if (spec::CUSTOM..KING).contains(&ty) {
                format!("{} ({})", p.key, p.betza)
            } else {
                p.key.clone()
            };
            let mut pt = PieceType::new(
                letter,
                &name,
                named.map(|n| n.role).unwrap_or(Role::OTHER),
                value,
            );
            pt.royal = ty == KING;
            pieces.push(pt);
        }
        let n_base = kinds.len();
        // Promoted forms.
        for &(from, to) in &spec.promoted_piece_type {
            let (Some(&fk), Some(&tk)) = (kind_of_ty.get(&from), kind_of_ty.get(&to)) else {
                continue;
            };
            // A pawn that also promotes chess-style (`wolf`) gets the promoted form as one
            // more choice: Fairy-Stockfish offers `c10=Q` and `c10=E` (written `+P`).
            let idx = kinds.len() as u8;
            let target = kinds[tk as usize].clone();
            let base = kinds[fk as usize].clone();
            kinds[fk as usize].promo = Some(idx);
            kinds.push(Kind {
                ty: target.ty,
                letter: base.letter,
                san_letter: target.letter,
                synonym: target.synonym,
                promoted: true,
                demoted: fk,
                promo: None,
                royal: false,
                pawn: false,
                pawn_type: false,
                chess_promo: false,
                n_move_reset: target.n_move_reset,
                connect: target.connect,
                ep_capturer: target.ep_capturer,
                ep_victim: false,
                movement: target.movement.clone(),
                betza: target.betza.clone(),
            });
            let mut pt = PieceType::new(
                base.letter,
                &format!("promoted {}", spec.pieces[&from].key),
                pieces[tk as usize].role,
                pieces[tk as usize].value,
            );
            pt.promoted_prefix = true;
            pieces.push(pt);
        }
        crate::demotion::link(spec, &mut kinds);
        let mut promo_targets: Vec<u8> = chess_promo_targets
            .iter()
            .filter_map(|t| kind_of_ty.get(t).copied())
            .collect();
        // Crazyhouse: with captures to hand a promoted pawn goes back to hand as a pawn. Each
        // promotion target gets a promoted form (`Q~` in Fairy-Stockfish's FEN) that moves as
        // the target and demotes to the main promotion pawn type (the last one listed).
        // With `dropLoop` it goes to hand as what it became, and Fairy-Stockfish writes no
        // `~`: a promoted pawn is the target itself.
        // With `twoBoards` (bughouse) the FEN marks promoted pawns too, although captures
        // go to the partner's hand, off this board.
        let main_pawn = spec
            .promotion_pawn_types
            .last()
            .and_then(|t| kind_of_ty.get(t).copied());
        if spec.drop_loop && spec.captures_to_hand && !spec.promoted_piece_type.is_empty() {
            return Err(err_at(
                header,
                loc("dropLoop"),
                "dropLoop",
                "with shogi-style promotions (`promotedPieceType`) is not supported (a captured \
                 promoted piece would go to hand promoted)"
                    .to_string(),
            ));
        }
        let marks_promoted = (spec.captures_to_hand && !spec.drop_loop) || spec.two_boards;
        if let (true, Some(pawn_kind)) = (marks_promoted, main_pawn) {
            for target in promo_targets.iter_mut() {
                let t = kinds[*target as usize].clone();
                if kinds.iter().any(|k| k.promoted && k.letter == t.letter) {
                    return Err(err_at(
                        header,
                        loc("promotedPieceType"),
                        "promotedPieceType",
                        format!(
                            "`{}` is both a promotion target and a shogi-style promoted piece's \
                             letter (not supported)",
                            t.letter
                        ),
                    ));
                }
                let idx = kinds.len() as u8;
                kinds.push(Kind {
                    promoted: true,
                    demoted: pawn_kind,
                    promo: None,
                    pawn: false,
                    pawn_type: false,
                    chess_promo: false,
                    ..t
                });
                let base = &pieces[*target as usize];
                let mut pt = PieceType::new(
                    t.letter,
                    &format!("promoted {}", base.name),
                    base.role,
                    base.value,
                );
                pt.promoted_prefix = true;
                pt.royal = base.royal;
                pieces.push(pt);
                *target = idx;
            }
        }
        if spec.gating {
            crate::gating::check(spec).map_err(|e| err_at(header, loc("gating"), "gating", e))?;
        }
        let walling = crate::walling::wall_kind(spec, &mut kinds, &mut pieces)
            .map_err(|e| err_at(header, loc("wallingRule"), "wallingRule", e))?;
        let petrify_key = "petrifyOnCaptureTypes";
        let stone = crate::petrify::stone_kind(
            spec,
            &mut kinds,
            &mut pieces,
            walling.as_ref().map(|w| w.kind),
        )
        .map_err(|e| err_at(header, loc(petrify_key), petrify_key, e))?;
        crate::en_passant_region::check(&spec.en_passant_region, &kinds, files, ranks)
            .map_err(|e| err_at(header, loc("enPassantRegion"), "enPassantRegion", e))?;
        let triple = crate::triple_step::TripleStep::new(
            spec.triple_step_region,
            spec.en_passant_region,
            spec.walling_rule.is_some(),
            spec.promotion_region,
            ranks,
        )
        .map_err(|e| {
            err_at(
                header,
                loc("tripleStepRegionWhite"),
                "tripleStepRegionWhite",
                e,
            )
        })?;
        let mut hand_order: Vec<u8> = (0..n_base as u8).collect();
        hand_order.sort_by_key(|&k| std::cmp::Reverse(kinds[k as usize].ty));
        let castle = castling(spec, &kind_of_ty);
        let pseudo_royal = spec.extinction_pseudo_royal && spec.extinction_value.is_some();
        let mut model = public_model(spec, &kinds, &pieces, &promo_targets);
        crate::colours::adjust_model(spec, &kinds, &kind_of_ty, &mut model)
            .map_err(|e| err_at(header, crate::colours::loc(spec), "promotionPieceTypes", e))?;
        if let Some(w) = &walling {
            model.pieces[w.kind as usize].immune = true;
        }
        if let Some(s) = stone {
            model.pieces[s as usize].immune = true;
        }
        if let Some((king, rooks)) = &castle {
            let [ks, qs] = spec.castling_king_dest;
            model.castling = ROption::RSome(CastlingModel {
                king: *king,
                rook: rooks[0],
                king_file: spec.castling_king_file,
                king_dest: [ks, qs],
                rook_dest: [ks.saturating_sub(1), qs + 1],
            });
        }
        let mut extras = extras(spec, &kinds, &kind_of_ty);
        extras.regions = crate::xiangqi::mobility_regions(spec, &kinds);
        extras.zone_leaps = crate::xiangqi::zone_leaps(spec, &kinds);
        extras.janggi_hops = kinds.iter().map(|k| k.ty == spec::JANGGI_CANNON).collect();
        extras.lines = crate::lines::line_moves(spec, &kinds);
        if let Some(d) = &mut extras.drops {
            crate::xiangqi::restrict_drops(&mut d.region, &extras.regions, spec);
        }
        if let Some((_, rooks)) = &castle {
            extras.castling_rank = spec.castling_rank;
            extras.other_rooks = rooks[1..].to_vec();
        }
        let gen = extras
            .generator(&model)
            .map_err(|e| format!("{header}: [{id}]: {e}"))?;
        let connect_kinds = kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| k.connect)
            .fold(0u64, |m, (i, _)| m | (1 << i));
        let chasing = spec
            .chasing_rule_axf
            .then(|| crate::chasing::Chasing::new(spec, kinds.iter().map(|k| k.ty)));
        let mut v = Fairy {
            id: id.to_string(),
            files,
            ranks,
            kinds,
            n_base,
            pieces,
            start_fen: spec.start_fen.clone(),
            spec: spec.clone(),
            hand_order,
            connect_kinds,
            castle,
            quiet_reach: Vec::new(),
            walls: SquareSet::EMPTY,
            ends_early: spec.connect_n > 0
                || spec.connect.any()
                || spec.castling_wins.contains(&true)
                || spec.check_counting
                || spec.pass_on_stalemate.contains(&true)
                || spec.pass.contains(&true)
                || spec.bikjang_rule
                || spec.extinction_value.is_some()
                || spec.flag_region.iter().any(|r| !r.is_empty())
                || spec.placement.ends_with_moves(),
            filters: spec.must_capture
                || !spec.promotion_limit.is_empty()
                || spec.drop_opposite_colored_bishop
                || spec.flying_general
                || spec.bikjang_rule
                || spec.makpong_rule
                || !spec.mutually_immune_types.is_empty()
                || spec.must_drop
                || !spec.checking
                || !spec.drop_checks
                || pseudo_royal,
            pseudo_royal,
            royals_in_hand: false,
            royalless_side: false,
            model,
            extras,
            gen: Arc::new(gen),
            walling,
            placement: spec.placement.active().then(|| spec.placement.clone()),
            stone,
            triple,
            chasing,
            blast: None,
            trials: false,
            goals: crate::eval::Goals::default(),
            capture_steps: Vec::new(),
            move_only_reach: Vec::new(),
            flag_runners: Vec::new(),
            extinction: Vec::new(),
            memo_owner: None,
        };
        let start = v
            .parse_board(&spec.start_fen)
            .map_err(|e| err_at(header, loc("startFen"), "startFen", e))?;
        // Walls (`*`) of the start position are holes of the board: nothing moves onto or
        // slides through them, leapers jump them (Fairy-Stockfish's static walls).
        let walls: SquareSet = v
            .board_squares()
            .filter(|&sq| start.get(sq).is_hole())
            .collect();
        // With a walling rule they are walls like those the moves put (see `walling`).
        if !walls.is_empty() && v.walling.is_none() {
            v.walls = walls;
            v.model.holes = walls;
            v.gen = Arc::new(
                v.extras
                    .generator(&v.model)
                    .map_err(|e| format!("{header}: [{id}]: {e}"))?,
            );
        }
        v.royals_in_hand =
            (0..v.n_base).any(|k| v.kinds[k].royal && start.hands.iter().any(|hand| hand[k] > 0));
        v.filters |= v.royals_in_hand;
        v.royalless_side = !v.royals_in_hand
            && (0..v.n_base).any(|k| v.kinds[k].royal)
            && [Color::White, Color::Black]
                .into_iter()
                .any(|c| v.gen.royals(&start, c).is_empty());
        v.start_fen = v.fen(&start);
        v.quiet_reach = v.quiet_reach_tables();
        v.blast = v.blast_on_bitboards();
        v.trials = v.trials_judge_safety();
        v.goals = v.goals();
        let mut types = v.spec.extinction_piece_types.clone();
        types.sort_unstable();
        types.dedup();
        v.extinction = types
            .into_iter()
            .map(|ty| (ty, v.mask_where(|k| v.of_type(k, ty))))
            .collect();
        if v.goals.last_move {
            v.capture_steps = v.capture_steps();
        }
        if v.goals.flag_race {
            v.flag_runners = (0..v.kinds.len()).map(|k| v.reach_of(k)).collect();
        }
        if v.goals.territory {
            v.move_only_reach = v.move_only_reach().unwrap_or_default();
        }
        v.memo_owner = v.memo_owner();
        Ok(v)
    }

    /// Whether a piece of `by` attacks `sq`.
    pub fn attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        self.gen.is_attacked(pos, sq, by)
    }

    /// Pseudo-legal moves of `side` (every rule but leaving the king attacked).
    pub fn pseudo(&self, pos: &Position, side: Color, skip: &SquareSet, out: &mut RVec<Move>) {
        let start = out.len();
        self.gen.pseudo_moves(pos, side, skip, out);
        self.mark_promoted_forms(pos, out, start);
    }

    /// Whether the side that just moved has connected N (the game is over).
    pub fn connected(&self, pos: &Position) -> bool {
        let rules = &self.spec.connect;
        if rules.any() || !rules.all_lines() {
            let mover = pos.side_to_move.opposite();
            return rules.connected(pos, self.spec.connect_n, mover, |sq| {
                piece_of(pos.get(sq))
                    .is_some_and(|(k, c)| c == mover && self.connect_kinds & (1u64 << k) != 0)
            });
        }
        self.spec.connect_n > 0
            && self.gen.in_a_row(
                pos,
                pos.side_to_move.opposite(),
                self.connect_kinds,
                self.spec.connect_n,
            )
    }

    /// Fully legal moves of the side to move: none once a rule ended the game (as
    /// Fairy-Stockfish's move generator and perft have it).
    pub fn legal(&self, pos: &Position, out: &mut RVec<Move>) {
        if self.game_over(pos).is_some() {
            return;
        }
        self.moves_of(pos, out);
    }

    /// The legal moves, whether or not the game is over.
    fn moves_of(&self, pos: &Position, out: &mut RVec<Move>) {
        let start = out.len();
        self.gen.legal_moves(pos, out);
        self.mark_promoted_forms(pos, out, start);
        if let Some(t) = &self.triple {
            t.moves(self, pos, out);
        }
        if self.spec.sittuyin_promotion {
            crate::sittuyin::moves(self, pos, out);
        }
        if self.spec.cambodian_moves {
            crate::cambodian::moves(self, pos, out);
        }
        if self.spec.gating {
            crate::gating::expand(self, pos, out, start);
        }
        if let Some(w) = &self.walling {
            w.expand(self, pos, out, start);
        }
        if let Some(p) = &self.placement {
            let mut moves: Vec<Move> = out[start..].to_vec();
            p.restrict_drops(pos, &mut moves, self.files, self.ranks);
            out.truncate(start);
            out.extend(moves);
        }
        if self.filters {
            self.filter(pos, out, start);
        }
        let us = pos.side_to_move.index();
        if self.spec.pass_on_stalemate[us] {
            if out.len() == start && !self.gen.in_check(pos, pos.side_to_move) {
                out.extend(self.passing_square(pos).map(crate::pass::pass_move));
            }
        } else if self.spec.pass[us]
            && (!self.gen.in_check(pos, pos.side_to_move) || crate::bikjang::facing(self, pos))
        {
            // `pass`: at any time out of check, and in bikjang even in check.
            out.extend(self.passing_square(pos).map(crate::pass::pass_move));
        }
    }

    /// The square of the piece that passes (see [`crate::pass`]): the king's, or without a
    /// king the lowest square with a piece of the side to move.
    fn passing_square(&self, pos: &Position) -> Option<Square> {
        let us = pos.side_to_move;
        let first = |is: &dyn Fn(u8) -> bool| self.squares_where(pos, us, is).iter().next();
        first(&|k| self.kinds[k as usize].ty == KING).or_else(|| first(&|_| true))
    }

    /// Fairy-Stockfish's extra legality rules, in its order: no checks (`checking`,
    /// `dropChecks`), then captures first (`mustCapture`), then drops first (`mustDrop`).
    fn filter(&self, pos: &Position, out: &mut RVec<Move>, start: usize) {
        crate::scratch::with_list(|moves| {
            moves.extend_from_slice(&out[start..]);
            self.filter_list(pos, moves);
            out.truncate(start);
            out.extend(moves.iter().copied());
        });
    }

    /// The legality filters of [`Fairy::filter`] over `moves`.
    fn filter_list(&self, pos: &Position, moves: &mut Vec<Move>) {
        let sp = &self.spec;
        if !sp.promotion_limit.is_empty() {
            moves.retain(|&m| self.within_promotion_limit(pos, m));
        }
        if sp.drop_opposite_colored_bishop && moves.iter().any(Move::is_drop) {
            let budget = self.bishop_budget(pos);
            moves.retain(|m| self.opposite_bishops_allow(pos, &budget, m));
        }
        if self.royals_in_hand {
            moves.retain(|m| self.royal_drop_safe(pos, m));
        }
        if sp.flying_general || sp.bikjang_rule {
            let king = self.king_square(pos, pos.side_to_move);
            let their_kings = self.king_squares(pos, pos.side_to_move.opposite());
            let theirs = their_kings.iter().next();
            // Kings on no common rank or file face each other only after a king's move.
            let aligned = matches!((king, theirs), (Some(a), Some(b))
                if a.file() == b.file() || a.rank() == b.rank());
            let may_face = |m: &Move| aligned || m.is_castle() || Some(m.from) == king;
            // With one king against one on a common line, the other moves are judged from
            // the pieces between them, counted once.
            let line = match (king, theirs) {
                (Some(a), Some(b)) if aligned && their_kings.len() == 1 => {
                    Some(self.kings_line(pos, a, b))
                }
                _ => None,
            };
            let faces_after = |m: Move| match &line {
                Some(line) if !m.is_castle() && Some(m.from) != king => line.faces_after(&m),
                _ => self.kings_face_after(pos, m, king),
            };
            if sp.flying_general {
                moves.retain(|&m| !may_face(&m) || !faces_after(m));
            }
            if sp.bikjang_rule && aligned && self.king_sees_king(pos, king, pos.side_to_move) {
                // In bikjang every move but a pass must break it.
                moves.retain(|&m| crate::pass::is_pass(&m) || !faces_after(m));
            }
        }
        if sp.makpong_rule {
            crate::makpong::filter(self, pos, moves);
        }
        if !sp.mutually_immune_types.is_empty() {
            crate::mutually_immune::filter(self, pos, moves);
        }
        if self.pseudo_royal {
            self.retain_pseudo_royals_safe(pos, moves, true);
        }
        if !sp.checking || !sp.drop_checks {
            let asked = |m: &Move| !sp.checking || m.is_drop();
            let mut given = Vec::new();
            self.gen.checks_given(pos, moves, asked, &mut given);
            let mut i = 0;
            moves.retain(|&m| {
                let gives = given.get(i).copied().flatten();
                i += 1;
                !(asked(&m) && gives.unwrap_or_else(|| self.gives_check(pos, m)))
            });
        }
        if sp.must_capture && moves.iter().any(|m| m.is_capture()) {
            moves.retain(|m| m.is_capture());
        }
        if sp.must_drop {
            let us = pos.side_to_move.index();
            let wanted = |k: u8| {
                sp.must_drop_type == ALL_PIECES || self.kinds[k as usize].ty == sp.must_drop_type
            };
            let in_hand = (0..self.n_base).any(|k| pos.hands[us][k] > 0 && wanted(k as u8));
            if in_hand {
                // A promoted drop is a drop of the piece in hand (its unpromoted kind).
                let in_hand = |m: &Move| self.kinds[m.piece as usize].demoted;
                let drop_exists = moves.iter().any(|m| m.is_drop() && wanted(in_hand(m)));
                moves.retain(|m| {
                    if m.is_drop() {
                        wanted(in_hand(m))
                    } else {
                        !drop_exists
                    }
                });
            }
        }
    }

    /// The moves of `moves` that leave the mover's pseudo-royal pieces safe
    /// ([`Fairy::pseudo_royals_safe`]). `by_board_move`: where an added piece can only take
    /// attacks away ([`Fairy::added_pieces_only_block`]), a walling move's board move is
    /// judged once for all its walls (atomic chess with a duck: a thousand moves a position,
    /// each judged on a copy of the position before), and where none of the mover's
    /// pseudo-royal pieces is attacked now, a drop of another kind is safe without a look
    /// (mandala: hundreds of drops a position), and where the rules change the board as the
    /// generator does, moves are tried on its bitboards ([`Fairy::royals_safe_by_trial`]);
    /// `false`: every move judged on its own copy of the position (the tests' reference).
    pub(crate) fn retain_pseudo_royals_safe(
        &self,
        pos: &Position,
        moves: &mut Vec<Move>,
        by_board_move: bool,
    ) {
        let us = pos.side_to_move;
        let pair = self.pseudo_royal_pair(pos);
        let (ours, theirs) = (pair[us.index()], pair[us.opposite().index()]);
        // The duple check's pieces, found once for all the moves.
        let duple = if self.spec.duple_check {
            crate::duple_check::candidates(self, pos, us)
        } else {
            Vec::new()
        };
        let safe_in = |p: &Position, m: Move| self.pseudo_royals_safe(p, m, &ours, &theirs, &duple);
        // Where an added piece can only take attacks away (below), drops and walls may be
        // judged together; where the rules change the board as the generator does, moves
        // are tried on its bitboards instead of made on a copy.
        let only_block = by_board_move && self.added_pieces_only_block();
        if let Some(blast) = &self.blast {
            match self.walling.as_ref().filter(|_| only_block) {
                Some(walling) => self.retain_blast_safe_with_duck(
                    pos, moves, walling, blast, &ours, &theirs, &safe_in,
                ),
                None => self
                    .gen
                    .retain_blast_safe(pos, moves, &ours, &theirs, blast, |m| {
                        self.blast_needs_position(m).then(|| safe_in(pos, *m))
                    }),
            }
            return;
        }
        let trials = by_board_move && self.trials;
        // Where none of the mover's pseudo-royal pieces is attacked now, a dropped piece that
        // is not of an extinction type changes no piece's royalty and can only block an
        // attack. (Without explosions no pseudo-royal piece is excused by touching.)
        let drops_free = only_block && moves.iter().any(|m| m.is_drop()) && {
            let now: Vec<Square> = ours.iter().collect();
            !self.any_attacked_for_safety(pos, &now, us.opposite())
        };
        let free_drop = |m: &Move| {
            drops_free
                && m.is_drop()
                && self
                    .kinds
                    .get(m.piece as usize)
                    .is_some_and(|k| !self.extinction_type(k.ty))
        };
        // The board without the duck, which leaves its square whatever the move (other walls
        // stay). A move with its wall is then the board move played here with one more wall,
        // and a wall only takes attacks away: where the board move alone leaves the pieces
        // safe, so does every wall. Where it does not, each wall is judged (it may shield).
        let board = self
            .walling
            .filter(|_| only_block)
            .map(|walling| self.board_for_walls(pos, &walling));
        // A board move's walls come one after another: the last board move's answer.
        let mut last: Option<(Move, bool)> = None;
        let mut safe_for_every_wall = |m: Move| {
            let board = board.as_ref()?;
            if !crate::walling::judged_by_board_move(m) {
                return None;
            }
            let board_move = crate::walling::base(m);
            match last {
                Some((b, safe)) if b == board_move => Some(safe),
                _ => {
                    let safe = safe_in(board, board_move);
                    last = Some((board_move, safe));
                    Some(safe)
                }
            }
        };
        let mut judge = |m: &Move, attacked: Option<&dyn Fn(Square) -> Option<bool>>| {
            free_drop(m)
                || safe_for_every_wall(*m) == Some(true)
                || attacked
                    .and_then(|a| self.royals_safe_by_trial(pos, *m, &ours, &duple, a))
                    .unwrap_or_else(|| safe_in(pos, *m))
        };
        // A plain move of a piece that is not pseudo-royal, judged by pins alone.
        let pins = only_block && self.moves_only_move();
        if trials || pins {
            let silent = self.silent_for_safety(pos, us.opposite());
            self.gen
                .retain_tried(pos, moves, pins.then_some(&ours), &silent, |m, attacked| {
                    judge(m, trials.then_some(attacked))
                });
        } else {
            moves.retain(|m| judge(m, None));
        }
    }

    /// [`Fairy::retain_pseudo_royals_safe`] under the blast rule with a duck (atomicduck):
    /// each board move (the move without its wall) is judged once, on the generator's
    /// bitboards of the board without the duck (which leaves its square whatever the move).
    /// A wall only takes attacks away (an explosion next to it takes it too, as if it had not
    /// been put), so where the board move leaves the pieces safe, so does every wall; where
    /// it does not, each wall is judged on a copy (it may shield). Before, every board move
    /// was made on a copy: about twenty a node, each with its bitboards built anew.
    #[allow(clippy::too_many_arguments)]
    fn retain_blast_safe_with_duck(
        &self,
        pos: &Position,
        moves: &mut Vec<Move>,
        walling: &crate::walling::Walling,
        blast: &houserules_movegen::blast::Blast,
        ours: &SquareSet,
        theirs: &SquareSet,
        safe_in: &dyn Fn(&Position, Move) -> bool,
    ) {
        use crate::walling::{base, judged_by_board_move};
        let board = self.board_for_walls(pos, walling);
        // A board move's walls come one after another: each board move once, in order.
        let mut bases: Vec<Move> = Vec::new();
        for m in moves.iter().filter(|m| judged_by_board_move(**m)) {
            let b = base(*m);
            if bases.last() != Some(&b) {
                bases.push(b);
            }
        }
        let mut kept = bases.clone();
        self.gen
            .retain_blast_safe(&board, &mut kept, ours, theirs, blast, |m| {
                self.blast_needs_position(m).then(|| safe_in(&board, *m))
            });
        // `kept` is in the order of `bases`: walk both.
        let mut kept = kept.into_iter().peekable();
        let mut groups = bases.into_iter().map(|b| {
            let safe = kept.next_if_eq(&b).is_some();
            (b, safe)
        });
        let mut group: Option<(Move, bool)> = None;
        moves.retain(|m| {
            if judged_by_board_move(*m) {
                let b = base(*m);
                if group.is_none_or(|(g, _)| g != b) {
                    group = groups.next();
                }
                if group == Some((b, true)) {
                    return true;
                }
            }
            safe_in(pos, *m)
        });
    }

    /// The board on which a walling move's board move is judged for all its walls
    /// ([`Fairy::retain_pseudo_royals_safe`]): `pos` without the duck, which leaves its
    /// square whatever the move (other walls stay), its bitboards made once, not at every
    /// board move made on it.
    fn board_for_walls(&self, pos: &Position, walling: &crate::walling::Walling) -> Position {
        let mut board = pos.clone();
        if walling.rule == crate::walling::WallingRule::Duck {
            for sq in walling.walls(self, pos).iter() {
                board.clear(sq);
            }
            self.gen.refresh(&mut board);
        }
        board
    }

    /// Whether a move only moves a piece and takes the one on its destination: no wall or
    /// gated piece comes with it, no piece is flipped, nothing explodes (explosions also
    /// excuse pseudo-royal pieces that touch, and are judged on the bitboards of their own
    /// where the generator can: `retain_blast_safe`). Where added pieces can only block as
    /// well ([`Fairy::added_pieces_only_block`]), such a move of a piece that is not
    /// pseudo-royal can expose one only by leaving a slider's line.
    fn moves_only_move(&self) -> bool {
        !self.spec.gating
            && !self.spec.blast_on_capture
            && self.walling.is_none()
            && self.placement.as_ref().is_none_or(|p| p.flip.is_none())
    }

    /// Whether a piece or wall added to the board can only take attacks away: no kind hops
    /// over a screen or moves in two legs (the added piece could be the screen or the first
    /// leg's stop), and no piece turns to stone or checks twice (rules whose answer is more
    /// than "attacked or not").
    fn added_pieces_only_block(&self) -> bool {
        let plain = |m: &houserules_movegen::betza::Movement| {
            m.double_leaps.is_empty() && m.hopper.iter().flatten().all(|t| t.entries.is_empty())
        };
        self.stone.is_none()
            && !self.spec.duple_check
            && self.kinds.iter().all(|k| plain(&k.movement))
    }

    /// An explosion at `at` (Fairy-Stockfish's `blastOnCapture`): the piece there and every
    /// adjacent piece but those of the type `pawn` and the immune types leave the board (to
    /// the opponent's hand with captures to hand, promoted pieces as pawns); castling rights
    /// of blown-up kings and rooks go with them.
    fn blast(&self, pos: &mut Position, at: Square) {
        let immune = |k: u8| {
            let ty = self.kinds[k as usize].ty;
            self.spec.blast_immune_types.contains(&ty)
                || self.spec.blast_immune_types.contains(&ALL_PIECES)
        };
        let mut gone = Vec::new();
        for df in -1i8..=1 {
            for dr in -1i8..=1 {
                let Some(sq) = at.offset_within(df, dr, self.files, self.ranks) else {
                    continue;
                };
                let Some((k, c)) = piece_of(pos.get(sq)) else {
                    continue;
                };
                let centre = df == 0 && dr == 0;
                if self.kinds[k as usize].ty == crate::walling::WALL_TY
                    || immune(k)
                    || (!centre && self.kinds[k as usize].ty == spec::PAWN)
                {
                    continue;
                }
                gone.push((sq, k, c));
            }
        }
        for (sq, k, c) in gone {
            pos.clear(sq);
            if self.spec.captures_to_hand {
                let hand = self.kinds[k as usize].demoted as usize;
                pos.hands[c.opposite().index()][hand] += 1;
            }
            for slot in 0..4 {
                if pos.castling[slot] == sq {
                    pos.castling[slot] = Square::NONE;
                }
            }
            if self.castle.as_ref().is_some_and(|(king, _)| *king == k)
                && sq.rank() == self.castling_rank(c.index())
            {
                pos.castling[c.index() * 2] = Square::NONE;
                pos.castling[c.index() * 2 + 1] = Square::NONE;
            }
        }
    }

    /// The quiet destinations on an empty board of every kind whose moves reset the n-move
    /// counter (see `quiet_reach`).
    fn quiet_reach_tables(&self) -> Vec<Option<Vec<SquareSet>>> {
        let mut out = vec![None; self.kinds.len()];
        for (k, kind) in self.kinds.iter().enumerate() {
            if !kind.n_move_reset {
                continue;
            }
            let mut table = vec![SquareSet::EMPTY; 512];
            for color in [Color::White, Color::Black] {
                for sq in self.board_squares().filter(|s| !self.walls.contains(*s)) {
                    let mut pos = Position::empty(self.files, self.ranks);
                    for w in self.walls.iter() {
                        pos.set(w, houserules_plugin_api::Cell::HOLE);
                    }
                    pos.set(sq, houserules_plugin_api::Cell::piece(k as u8, color));
                    pos.side_to_move = color;
                    let mut moves = RVec::new();
                    self.gen
                        .pseudo_moves(&pos, color, &SquareSet::EMPTY, &mut moves);
                    let reach = &mut table[color.index() * 256 + sq.index()];
                    for m in moves.iter().filter(|m| !m.is_capture() && !m.is_drop()) {
                        reach.insert(m.to);
                    }
                }
            }
            out[k] = Some(table);
        }
        out
    }

    /// Fairy-Stockfish's n-move counter after a move: reset by captures and drops (the
    /// generator's), promotions, and moves of the n-move-rule types the piece could not
    /// step straight back from.
    fn resets_n_move_counter(&self, kind: u8, color: Color, mv: Move) -> bool {
        if mv.is_promotion() && crate::demotion::promotion_resets_counter(&self.spec, mv) {
            return true;
        }
        // Per colour (`nMoveRuleTypesWhite/Black`): the table holds either colour's types.
        let ty = self.kinds[kind as usize].ty;
        self.spec.n_move_types_of(color.index()).contains(&ty)
            && self
                .quiet_reach
                .get(kind as usize)
                .and_then(Option::as_ref)
                .is_some_and(|t| !t[color.index() * 256 + mv.to.index()].contains(mv.from))
    }

    /// Perft: the number of move paths of length `depth` from `pos`.
    pub fn perft(&self, pos: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.game_over(pos).is_some() {
            return 0;
        }
        if depth == 1 {
            return self.legal_move_count(pos);
        }
        let mut moves = RVec::new();
        self.legal(pos, &mut moves);
        moves
            .iter()
            .map(|&m| {
                let mut c = pos.clone();
                self.apply(&mut c, m, &mut MoveEffects::new(pos.side_to_move, false));
                self.perft(&c, depth - 1)
            })
            .sum()
    }

    /// Whether `ty` is an extinction type.
    pub(crate) fn extinction_type(&self, ty: u16) -> bool {
        self.spec.is_extinction_type(ty)
    }

    /// The facts about the pieces on the board that the rules look up at every node: each
    /// side's pseudo-royal pieces (Fairy-Stockfish's: its pieces of each extinction type of
    /// which it has at most `extinctionPieceCount + 1` on the board) and its count of each
    /// extinction type; remembered per board ([`crate::board_memo`]).
    pub fn board_facts<R>(&self, pos: &Position, read: impl Fn(&BoardFacts) -> R) -> R {
        let compute = || {
            let mut facts = BoardFacts::default();
            for (i, &(ty, kinds)) in self.extinction.iter().enumerate() {
                let is = |k| self.of_type(k, ty);
                // Both sides' pieces at one reading of the bitboards: on a board whose
                // bitboards do not fit the position's cache (mandala's 10x10 and its kinds),
                // each reading rebuilds them, and this runs at every node.
                let both = kinds.and_then(|k| self.gen.pieces_of_kinds_both(pos, k));
                for color in [Color::White, Color::Black] {
                    let c = color.index();
                    let known = both.map(|b| b[c]);
                    let n = known.map_or_else(
                        || self.count_of_mask(pos, color, kinds, is),
                        |s| s.len() as u32,
                    );
                    if let Some(count) = facts.extinction_counts[c].get_mut(i) {
                        *count = n;
                    }
                    if self.pseudo_royal && n <= self.spec.extinction_piece_count + 1 {
                        let squares =
                            known.unwrap_or_else(|| self.squares_of_mask(pos, color, kinds, is));
                        for (o, w) in facts.pseudo_royals[c].0.iter_mut().zip(squares.0) {
                            *o |= w;
                        }
                    }
                }
            }
            facts
        };
        match (self.memo_owner, self.gen.board_key(pos)) {
            (Some(owner), Some(key)) => crate::board_memo::read(owner, key, compute, read),
            _ => read(&compute()),
        }
    }

    /// Both sides' pseudo-royal pieces (White's, then Black's): see [`Fairy::board_facts`].
    pub fn pseudo_royal_pair(&self, pos: &Position) -> [SquareSet; 2] {
        self.board_facts(pos, |f| f.pseudo_royals)
    }

    /// A number for [`crate::board_memo`] where the generator's bitboards hold every kind,
    /// so that its cache words are a key for all the pieces on the board.
    fn memo_owner(&self) -> Option<u64> {
        (self.kinds.len() <= 64
            && self.extinction.len() <= crate::board_memo::MAX_TYPES
            && self.gen.tracks_kinds(self.kinds_where(|_| true)))
        .then(crate::board_memo::owner)
    }

    /// Whether some kind is of a petrifying pseudo-royal type ([`crate::petrify`]).
    fn has_petrifying_royal(&self) -> bool {
        self.kinds
            .iter()
            .any(|k| crate::petrify::petrifying_royal(&self.spec, k.ty))
    }

    /// The pieces of `by` whose attacks do not count for the safety of pseudo-royal pieces
    /// ([`Fairy::attacks_for_safety`]): those of petrifying pseudo-royal types.
    fn silent_for_safety(&self, pos: &Position, by: Color) -> SquareSet {
        if !self.spec.extinction_pseudo_royal || self.stone.is_none() {
            return SquareSet::EMPTY;
        }
        pos.pieces_of(by)
            .filter(|&(_, k)| {
                crate::petrify::petrifying_royal(&self.spec, self.kinds[k as usize].ty)
            })
            .map(|(s, _)| s)
            .collect()
    }

    /// Whether `attackers` (of a square in `pos`) attack it as the safety of pseudo-royal
    /// pieces is judged: by a piece that is not itself a petrifying pseudo-royal type
    /// ([`crate::petrify`]).
    pub(crate) fn attacks_for_safety(&self, pos: &Position, attackers: SquareSet) -> bool {
        if !self.spec.extinction_pseudo_royal || self.stone.is_none() {
            return !attackers.is_empty();
        }
        attackers.iter().any(|a| {
            pos.get(a).kind().is_some_and(|k| {
                !crate::petrify::petrifying_royal(&self.spec, self.kinds[k as usize].ty)
            })
        })
    }

    /// Whether one of `squares` is attacked by `by` for safety ([`Fairy::attacks_for_safety`]),
    /// the cells read once for all of them (a move's pseudo-royal pieces are tested together:
    /// quasi-shatranj's four kings each rebuilt the generator's state before).
    fn any_attacked_for_safety(&self, pos: &Position, squares: &[Square], by: Color) -> bool {
        !self.gen.attackers_each(pos, squares, by, |_, attackers| {
            !self.attacks_for_safety(pos, attackers)
        })
    }

    /// Whether `sq` touches one of `others` (with explosions, touching pseudo-royal pieces
    /// cannot take each other and so are not in check).
    pub(crate) fn touches(&self, sq: Square, others: &SquareSet) -> bool {
        self.spec.blast_on_capture && others.iter().any(|o| next_to(o, sq))
    }

    /// The explosions as kind masks, where the generator can judge the pseudo-royal pieces'
    /// safety on its bitboards: a move there is the generator's move and the explosion, and
    /// nothing else (no walls, gates, placement or triple steps), the pieces are all the
    /// generator's kinds, and no duple check widens what safety means. Petrification changes
    /// nothing there (`nuclear`): Fairy-Stockfish's test sees the square of an exploded
    /// capturer empty, stone or not, and stones outlast explosions as immune kinds do; only
    /// petrifying pseudo-royal types, whose attacks do not count, keep the copy.
    fn blast_on_bitboards(&self) -> Option<houserules_movegen::blast::Blast> {
        let sp = &self.spec;
        let plain = self.pseudo_royal
            && sp.blast_on_capture
            && !sp.gating
            && !sp.duple_check
            // A duck leaves its square whatever the move: the board moves are judged on the
            // board without it (`retain_blast_safe_with_duck`).
            && self.walling.as_ref().is_none_or(|w| {
                w.rule == crate::walling::WallingRule::Duck && !w.or_move
            })
            && self.placement.is_none()
            && !(self.stone.is_some() && self.has_petrifying_royal())
            && self.triple.is_none()
            && self.kinds.len() <= 64;
        if !plain {
            return None;
        }
        let immune = |ty: u16| {
            sp.blast_immune_types.contains(&ty) || sp.blast_immune_types.contains(&ALL_PIECES)
        };
        let of_type =
            |keep: &dyn Fn(u16) -> bool| self.kinds_where(|k| keep(self.kinds[k as usize].ty));
        // Every kind must be one the generator tracks, or its bitboards miss pieces.
        self.gen.tracks_kinds(self.kinds_where(|_| true)).then(|| {
            houserules_movegen::blast::Blast {
                immune_kinds: of_type(&immune) | self.stone.map_or(0, |k| 1 << k),
                pawn_kinds: of_type(&|ty| ty == spec::PAWN),
            }
        })
    }

    /// Whether `m` is judged on a copy of the position under the blast rule: moves that are
    /// not a plain step or capture of one piece, and promotions to an extinction type (which
    /// change which pieces are pseudo-royal).
    fn blast_needs_position(&self, m: &Move) -> bool {
        m.is_drop()
            || m.is_castle()
            || m.flags.contains(houserules_plugin_api::MoveFlags::SPECIAL)
            || (m.is_promotion()
                && self
                    .kinds
                    .get(m.piece as usize)
                    .is_none_or(|k| self.extinction_type(k.ty)))
    }

    /// The mover's pseudo-royal pieces after `m` (`ours` before it), each handed to `visit`
    /// while it returns `true`; whether every visit did. They are the moved piece on its
    /// destination, a dropped piece of an extinction type, and a promotion to one, which
    /// either adds it or, where it makes one too many of that type, takes the royalty of
    /// every piece of the type. `cell_after`: the board after the move. (A visitor, not a
    /// list: the list was an allocation a move.)
    fn pseudo_royals_after(
        &self,
        pos: &Position,
        m: Move,
        ours: &SquareSet,
        cell_after: &dyn Fn(Square) -> houserules_plugin_api::Cell,
        mut visit: impl FnMut(Square) -> bool,
    ) -> bool {
        let dest = if m.is_castle() { m.via } else { m.to };
        let follow = |s: Square| if !m.is_drop() && s == m.from { dest } else { s };
        // `piece` is the dropped kind or the promotion's.
        let placed_ty = (m.is_drop() || m.is_promotion())
            .then(|| self.kinds.get(m.piece as usize).map(|k| k.ty))
            .flatten();
        let dropped = m.is_drop() && placed_ty.is_some_and(|t| self.extinction_type(t));
        // Only a chess-style promotion: Fairy-Stockfish's `legal()` leaves a shogi-style one
        // (`promotedPieceType`, shoshogi's elephant to prince) out of this rule.
        let chess_style = m.is_promotion() && self.is_chess_style_promotion(pos, &m);
        let promoted_ty = placed_ty.filter(|&t| chess_style && self.extinction_type(t));
        // One more of that type: none of them is pseudo-royal any more.
        let deposed = promoted_ty.filter(|&t| {
            self.count_board(pos, pos.side_to_move, t) > self.spec.extinction_piece_count
        });
        let kept = |s: Square| {
            deposed.is_none_or(|t| {
                piece_of(cell_after(s)).is_none_or(|(k, _)| self.kinds[k as usize].ty != t)
            })
        };
        let added = ((dropped && kept(m.to)) || (promoted_ty.is_some() && deposed.is_none()))
            && !ours.iter().any(|s| follow(s) == m.to);
        ours.iter().map(follow).filter(|&s| kept(s)).all(&mut visit) && (!added || visit(m.to))
    }

    /// Whether the moves of `moves` that change the board only as the generator's moves do
    /// may be judged on its bitboards ([`Fairy::royals_safe_by_trial`]): nothing explodes,
    /// is flipped, gated or walled, and the generator tracks every kind. A capturer that
    /// turns to stone blocks where it stands as the stone would.
    fn trials_judge_safety(&self) -> bool {
        self.moves_only_move()
            && self.placement.is_none()
            && self.gen.tracks_kinds(self.kinds_where(|_| true))
    }

    /// [`Fairy::pseudo_royals_safe`] for a move tried on the generator's bitboards
    /// (`attacked`, see `Generator::retain_tried`) instead of made on a copy of the
    /// position: a plain move, capture, promotion or drop where the rules change the board
    /// as the generator does ([`Fairy::trials_judge_safety`]). `None` for any other move.
    /// Such a move takes no pseudo-royal piece off the board without standing on its square,
    /// so none excuses an attacked one.
    fn royals_safe_by_trial(
        &self,
        pos: &Position,
        m: Move,
        ours: &SquareSet,
        duple: &[Square],
        attacked: &dyn Fn(Square) -> Option<bool>,
    ) -> Option<bool> {
        use houserules_plugin_api::MoveFlags;
        let mut board_flags = MoveFlags::CAPTURE.0
            | MoveFlags::PROMOTION.0
            | MoveFlags::DROP.0
            | MoveFlags::DOUBLE_STEP.0;
        if m.is_promotion() {
            // Marked special for its notation only ([`Fairy::mark_promoted_forms`]): without
            // gates and walls, no other special move promotes.
            board_flags |= MoveFlags::SPECIAL.0;
        }
        if m.flags.0 & !board_flags != 0 {
            return None;
        }
        let us = pos.side_to_move;
        // A capturer that turns to stone stands on the bitboards as itself: the same
        // blocker, but not the same screen where it hops as a janggi cannon, and not the same
        // piece where it is pseudo-royal, promotes or counts for duple check (left to the
        // copy).
        let moved = (!m.is_drop()).then(|| pos.get(m.from).kind()).flatten();
        let moved_ty = moved.map(|k| self.kinds[k as usize].ty);
        let stone = self.stone.filter(|_| {
            m.is_capture()
                && moved_ty.is_some_and(|ty| self.spec.petrify_on_capture_types.contains(&ty))
        });
        if let (Some(_), Some(ty)) = (stone, moved_ty) {
            if ours.contains(m.from) && crate::petrify::petrifying_royal(&self.spec, ty) {
                // A pseudo-royal piece that would turn to stone may not capture.
                return Some(false);
            }
            if ours.contains(m.from)
                || m.is_promotion()
                || self.spec.duple_check
                || ty == spec::JANGGI_CANNON
            {
                return None;
            }
        }
        let cell_after = |s: Square| match stone {
            _ if s != m.to => pos.get(s),
            Some(k) => crate::petrify::stone(k),
            None if m.is_promotion() || m.is_drop() => {
                houserules_plugin_api::Cell::piece(m.piece, us)
            }
            None => pos.get(m.from),
        };
        // `None` where a square could not be tried.
        let mut tried = Some(());
        let safe = self.pseudo_royals_after(pos, m, ours, &cell_after, |s| match attacked(s) {
            Some(hit) => !hit,
            None => {
                tried = None;
                false
            }
        });
        tried?;
        if !safe {
            return Some(false);
        }
        if !self.spec.duple_check {
            return Some(true);
        }
        let all = crate::duple_check::after(self, pos, duple, m);
        for s in &all {
            if !attacked(*s)? {
                return Some(true);
            }
        }
        Some(all.is_empty())
    }

    /// Fairy-Stockfish's legality rule for pseudo-royal pieces: after `m` none of the mover's
    /// (`ours`, before the move, following the moved, dropped or promoted piece) is gone
    /// (an explosion) or attacked, unless the move removed one of theirs by explosion or en
    /// passant; castling pseudo-royals may not pass attacked squares.
    /// `duple`: the mover's duple check pieces in `pos` (`crate::duple_check::candidates`,
    /// with `dupleCheck`).
    fn pseudo_royals_safe(
        &self,
        pos: &Position,
        m: Move,
        ours: &SquareSet,
        theirs: &SquareSet,
        duple: &[Square],
    ) -> bool {
        let us = pos.side_to_move;
        let them = us.opposite();
        let dest = if m.is_castle() { m.via } else { m.to };
        // A pseudo-royal piece that would turn to stone may not capture.
        if m.is_capture()
            && !m.is_castle()
            && ours.contains(m.from)
            && pos.get(m.from).kind().is_some_and(|k| {
                crate::petrify::petrifying_royal(&self.spec, self.kinds[k as usize].ty)
            })
        {
            return false;
        }
        if m.is_castle() && ours.contains(m.from) {
            let mut lifted = pos.clone();
            lifted.clear(m.from);
            // The move's wall stands already (Fairy-Stockfish's `legal()` counts it in the
            // occupancy of the king's path: atomicduck castles through a line it blocks).
            if let (Some(w), Some(sq)) = (&self.walling, crate::walling::wall_of(m)) {
                lifted.set(sq, houserules_plugin_api::Cell::piece(w.kind, Color::White));
            }
            let step: i8 = if dest.file() > m.from.file() { 1 } else { -1 };
            let mut sq = m.from;
            loop {
                if !self.touches(sq, theirs) && self.gen.is_attacked(&lifted, sq, them) {
                    return false;
                }
                match sq.offset_within(step, 0, self.files, self.ranks) {
                    Some(next) if sq != dest && next != dest => sq = next,
                    _ => break,
                }
            }
        }
        let mut after = pos.clone();
        self.apply_move(&mut after, m, &mut MoveEffects::new(us, false));
        // Fairy-Stockfish's test sees the square of an exploding capture empty, also where
        // the capturer turns to stone (`crate::petrify`).
        if self.spec.blast_on_capture
            && m.is_capture()
            && self
                .stone
                .is_some_and(|s| after.get(m.to).kind() == Some(s))
        {
            after.clear(m.to);
        }
        // It also takes the explosion from the board before the move: a wall put on a square
        // next to the capture that held a piece other than a pawn then (the capturer's
        // origin) is blown away with it, and shields nothing.
        if let Some(wall) = crate::walling::wall_of(m)
            .filter(|_| self.spec.blast_on_capture && m.is_capture() && self.walling.is_some())
        {
            let blown_before = piece_of(pos.get(wall)).is_some_and(|(k, _)| {
                let ty = self.kinds[k as usize].ty;
                ty != spec::PAWN && ty != crate::walling::WALL_TY
            });
            if blown_before && next_to(wall, m.to) {
                after.clear(wall);
            }
        }
        let mut expected = Vec::new();
        self.pseudo_royals_after(pos, m, ours, &|s| after.get(s), |s| {
            expected.push(s);
            true
        });
        if expected.iter().any(|&s| !after.get(s).is_color(us)) {
            return false;
        }
        // Taking one of theirs excuses an attacked one of ours, not a duple check.
        let safe = theirs.iter().any(|s| after.get(s).is_empty()) || {
            expected.retain(|&s| !self.touches(s, theirs));
            !self.any_attacked_for_safety(&after, &expected, them)
        };
        safe && !(self.spec.duple_check
            && crate::duple_check::leaves_all_attacked(self, pos, duple, m, &after, theirs))
    }

    /// `promotionLimit`: whether a promotion `m` stays within its type's limit.
    fn within_promotion_limit(&self, pos: &Position, m: Move) -> bool {
        if !m.is_promotion() || m.is_drop() || crate::demotion::is_demotion(&self.kinds, pos, m) {
            return true;
        }
        let Some(ty) = self.kinds.get(m.piece as usize).map(|k| k.ty) else {
            return true;
        };
        self.spec
            .promotion_limit_of(ty)
            .is_none_or(|n| self.count_board(pos, pos.side_to_move, ty) < n)
    }

    /// The capture leaps of every kind, in both directions.
    fn capture_steps(&self) -> Vec<(i8, i8)> {
        use houserules_movegen::betza::CAPTURE;
        let mut steps: Vec<(i8, i8)> = Vec::new();
        for k in &self.kinds {
            for t in &k.movement.steps {
                for &((df, dr), _) in &t[CAPTURE].entries {
                    for v in [(df, dr), (-df, -dr)] {
                        if !steps.contains(&v) {
                            steps.push(v);
                        }
                    }
                }
            }
        }
        steps
    }

    /// What the engine's search is asked for: where moves flip enemy pieces
    /// (`flipEnclosedPieces`), they take material without being captures, and late-move
    /// reductions at the default depth cut exactly those moves short (ataxx: depth 4 beat
    /// depth 2 in 57.5% of 40 games with reductions from 3 plies left, 87.5% from 4; see
    /// docs/engine.md).
    fn search_extra(&self) -> RVec<houserules_plugin_api::OptionValue> {
        let mut extra = RVec::new();
        if self.spec.placement.flip.is_some() {
            extra.push(houserules_plugin_api::OptionValue {
                key: houserules_plugin_api::EXTRA_SEARCH_PRUNING_DEPTH.into(),
                value: "4".into(),
            });
        }
        if self.walling.is_some() {
            // A walling move is the generator's move and a wall square in `special`.
            extra.push(houserules_plugin_api::OptionValue {
                key: houserules_plugin_api::EXTRA_SEARCH_MOVE_DETAIL.into(),
                value: "special".into(),
            });
        }
        if self.spec.extinction_value.is_some() && !self.spec.extinction_pseudo_royal {
            // Pieces whose loss decides the game are taken without check (duck chess's
            // king, antichess's last pieces): the threats to them do not show as check.
            extra.push(houserules_plugin_api::OptionValue {
                key: houserules_plugin_api::EXTRA_SEARCH_QUIET_PRUNING.into(),
                value: "no".into(),
            });
        }
        extra
    }

    /// The goal terms of this section (see [`crate::eval::Goals`]).
    fn goals(&self) -> crate::eval::Goals {
        let sp = &self.spec;
        let captures_only = |m: &houserules_movegen::betza::Movement| {
            use houserules_movegen::betza::QUIET;
            m.steps
                .iter()
                .chain(&m.slider)
                .chain(&m.hopper)
                .all(|t| t[QUIET].is_empty())
                && m.warps[QUIET].is_empty()
                && m.double_leaps.iter().all(|d| !d.quiet)
        };
        crate::eval::Goals {
            connect: sp.connect_n > 0,
            flag_race: sp.flag_region.iter().any(|r| !r.is_empty()),
            burden: sp.extinction_value == Some(Value::Win),
            discs: sp.placement.flip == Some(crate::placement::Enclosing::Reversi),
            last_move: sp.stalemate_value == Value::Loss
                && !sp.piece_drops
                && !self.kinds.is_empty()
                && self.kinds.iter().all(|k| captures_only(&k.movement)),
            territory: sp.stalemate_value == Value::Loss
                && matches!(
                    sp.walling_rule,
                    Some(crate::walling::WallingRule::Past | crate::walling::WallingRule::Arrow)
                )
                && !sp.piece_drops
                && self.move_only_reach().is_some(),
        }
    }

    /// Per kind, how it moves where every piece on the board moves only to empty squares, by
    /// leaps and slides (see [`Fairy::reach_of`]; walls move nowhere): what
    /// [`crate::eval::territory`] walks. `None` otherwise.
    fn move_only_reach(&self) -> Option<Vec<crate::eval::Reach>> {
        let mut out = Vec::with_capacity(self.kinds.len());
        let mut any = false;
        for (k, kind) in self.kinds.iter().enumerate() {
            if kind.ty == crate::walling::WALL_TY {
                out.push(crate::eval::Reach::default());
                continue;
            }
            let reach = self.reach_of(k)?;
            any |= !reach.leaps.is_empty() || !reach.slides.is_empty();
            out.push(reach);
        }
        any.then_some(out)
    }

    /// How kind `k` moves where it only moves to empty squares, by leaps and slides (no
    /// capture, hop, lame or two-leg move, the same moves from any square); `None` otherwise.
    fn reach_of(&self, k: usize) -> Option<crate::eval::Reach> {
        use houserules_movegen::betza::{CAPTURE, QUIET};
        let m = &self.kinds.get(k)?.movement;
        let plain = m.hopper.iter().flatten().all(|t| t.is_empty())
            && m.double_leaps.is_empty()
            && m.warps.iter().all(Vec::is_empty)
            && [&m.steps, &m.slider]
                .iter()
                .all(|t| t[1].iter().all(|t| t.is_empty()) && t[0][CAPTURE].is_empty())
            && m.steps[0][QUIET].entries.iter().all(|&(_, d)| d == 0)
            && m.slider[0][QUIET]
                .entries
                .iter()
                .all(|&(_, d)| (0..=255).contains(&d));
        plain.then(|| crate::eval::Reach {
            leaps: m.steps[0][QUIET].entries.iter().map(|&(v, _)| v).collect(),
            slides: m.slider[0][QUIET]
                .entries
                .iter()
                .map(|&(v, d)| (v, d as u8))
                .collect(),
        })
    }

    /// Pieces of `color` of type `ty` on the board.
    fn count_board(&self, pos: &Position, color: Color, ty: u16) -> u32 {
        let is = |k| self.of_type(k, ty);
        self.count_of_mask(pos, color, self.mask_where(is), is)
    }

    /// The kinds (of the first 64) for which `is` holds, as a bit mask.
    fn kinds_where(&self, is: impl Fn(u8) -> bool) -> u64 {
        (0..self.kinds.len().min(64))
            .filter(|&k| is(k as u8))
            .fold(0u64, |m, k| m | 1 << k)
    }

    /// The kinds for which `is` holds as a bit mask; `None` where the kinds are more than a
    /// mask holds.
    fn mask_where(&self, is: impl Fn(u8) -> bool) -> Option<u64> {
        (self.kinds.len() <= 64).then(|| self.kinds_where(is))
    }

    /// The kinds of type `ty` as a bit mask (of the first 64 kinds).
    fn kinds_of_type(&self, ty: u16) -> u64 {
        self.kinds_where(|k| self.of_type(k, ty))
    }

    /// The squares of `color`'s pieces of type `ty`.
    fn squares_of_type(&self, pos: &Position, color: Color, ty: u16) -> SquareSet {
        self.squares_where(pos, color, |k| self.of_type(k, ty))
    }

    /// The squares of `color`'s pieces of the kinds for which `is` holds: from the
    /// generator's bitboards, or from the cells where a kind is beyond them.
    pub(crate) fn squares_where(
        &self,
        pos: &Position,
        color: Color,
        is: impl Fn(u8) -> bool,
    ) -> SquareSet {
        self.squares_of_mask(pos, color, self.mask_where(&is), is)
    }

    /// [`Fairy::squares_where`] with the mask of the kinds for which `is` holds found
    /// already ([`Fairy::mask_where`]; per-node callers keep it).
    fn squares_of_mask(
        &self,
        pos: &Position,
        color: Color,
        kinds: Option<u64>,
        is: impl Fn(u8) -> bool,
    ) -> SquareSet {
        match kinds {
            Some(0) => return SquareSet::EMPTY,
            Some(kinds) => {
                if let Some(set) = self.gen.pieces_of_kinds(pos, color, kinds) {
                    return set;
                }
            }
            None => {}
        }
        self.board_squares()
            .filter(|&sq| piece_of(pos.get(sq)).is_some_and(|(k, c)| c == color && is(k)))
            .collect()
    }

    /// The number of [`Fairy::squares_of_mask`], counted on the bitboards where they hold
    /// the kinds.
    fn count_of_mask(
        &self,
        pos: &Position,
        color: Color,
        kinds: Option<u64>,
        is: impl Fn(u8) -> bool,
    ) -> u32 {
        kinds
            .and_then(|k| self.gen.count_of_kinds(pos, color, k))
            .unwrap_or_else(|| self.squares_of_mask(pos, color, kinds, is).len() as u32)
    }

    /// Whether kind `k` is of piece type `ty` (`ALL_PIECES`: any).
    fn of_type(&self, k: u8, ty: u16) -> bool {
        let kt = self.kinds[k as usize].ty;
        (ty == ALL_PIECES && kt != crate::walling::WALL_TY) || kt == ty
    }

    /// Whether `sq` holds a piece of `color` of type `ty`.
    pub(crate) fn holds(&self, pos: &Position, sq: Square, color: Color, ty: u16) -> bool {
        piece_of(pos.get(sq)).is_some_and(|(k, c)| c == color && self.of_type(k, ty))
    }

    /// The move on the board: the generator's, then explosions.
    fn apply_move(&self, pos: &mut Position, mv: Move, fx: &mut MoveEffects) {
        if crate::pass::is_pass(&mv) {
            crate::pass::play(pos);
            return;
        }
        if self.spec.gating {
            let us = pos.side_to_move;
            self.apply_base(pos, crate::gating::base(mv), fx);
            crate::gating::after_move(self, pos, &mv, us, fx);
            return;
        }
        if let Some(w) = &self.walling {
            let make = |p: &mut Position, m: Move, fx: &mut MoveEffects| self.apply_base(p, m, fx);
            return w.apply(pos, mv, fx, make, self.files, self.ranks);
        }
        if let Some(p) = &self.placement {
            let us = pos.side_to_move;
            self.apply_base(pos, mv, fx);
            p.flip(pos, mv, us, self.files, self.ranks);
            p.fill_supply(pos, self.n_base);
            return;
        }
        self.apply_base(pos, mv, fx);
    }

    /// The generator's move, then explosions and petrification.
    fn apply_base(&self, pos: &mut Position, mv: Move, fx: &mut MoveEffects) {
        let mover = pos.side_to_move;
        let triple = self.triple.as_ref().filter(|t| t.is_triple(self, pos, &mv));
        // Fairy-Stockfish turns a capturer to stone by the type it moved as (a pawn that
        // promotes by capturing is no petrifying piece); an explosion petrifies by the piece
        // on the square, promoted or not.
        let moved_ty = (!mv.is_drop())
            .then(|| pos.get(mv.from).kind())
            .flatten()
            .map(|k| self.kinds[k as usize].ty);
        self.gen.apply(pos, mv, fx);
        if let Some(t) = triple {
            t.after_step(self, pos, mover, mv.to);
        }
        let stone = self
            .stone
            .filter(|_| mv.is_capture() && !mv.is_castle())
            .filter(|_| {
                let ty = if self.spec.blast_on_capture {
                    piece_of(pos.get(mv.to)).map(|(k, _)| self.kinds[k as usize].ty)
                } else {
                    moved_ty
                };
                ty.is_some_and(|ty| self.spec.petrify_on_capture_types.contains(&ty))
            });
        if self.spec.blast_on_capture && mv.is_capture() {
            self.blast(pos, mv.to);
        }
        if let Some(stone) = stone {
            // An exploded capturer is gone already (and in hand); an immune one stays.
            let stays = self.spec.blast_on_capture && !pos.get(mv.to).is_empty();
            if !stays {
                let k = pos.get(mv.to).kind();
                let hand = k.filter(|_| self.spec.captures_to_hand);
                let hand = hand.map(|k| self.kinds[k as usize].demoted);
                crate::petrify::petrify(pos, mv.to, stone, hand);
            }
        }
    }

    /// Whether `m` attacks the opponent's royal pieces.
    pub(crate) fn gives_check(&self, pos: &Position, m: Move) -> bool {
        let mut after = pos.clone();
        let mut fx = MoveEffects::new(pos.side_to_move, false);
        self.gen.apply(&mut after, m, &mut fx);
        self.gen.in_check(&after, after.side_to_move)
    }

    /// Pieces of `color` of type `ty` (`ALL_PIECES`: any) on the board and in hand.
    pub(crate) fn count_with_hand(&self, pos: &Position, color: Color, ty: u16) -> u32 {
        self.count_board(pos, color, ty) + self.count_in_hand(pos, color, ty)
    }

    /// `color`'s pieces of type `ty` in hand.
    fn count_in_hand(&self, pos: &Position, color: Color, ty: u16) -> u32 {
        let hand = &pos.hands[color.index()];
        // One comparison of the whole hand (most variants have none): asked at every node.
        if *hand == [0; 32] {
            return 0;
        }
        (0..self.n_base)
            .filter(|&k| self.of_type(k as u8, ty))
            .map(|k| hand[k] as u32)
            .sum()
    }

    pub(crate) fn board_squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.ranks).flat_map(move |r| (0..self.files).map(move |f| Square::new(f, r)))
    }

    /// The squares of `color`'s flag pieces in its flag region.
    fn flag_pieces(&self, pos: &Position, color: Color) -> Vec<Square> {
        let ty = self.spec.flag_piece[color.index()];
        let region = self.spec.flag_region[color.index()];
        self.squares_of_type(pos, color, ty)
            .iter()
            .filter(|&sq| region.contains(sq))
            .collect()
    }

    /// Fairy-Stockfish's `flag_reached`: enough flag pieces of `color` in its region (or the
    /// region full, with `flagPieceBlockedWin`), and with `flagPieceSafe` none of them
    /// attacked when exactly the needed number stands there.
    fn flag_reached(&self, pos: &Position, color: Color) -> bool {
        let sp = &self.spec;
        let region = sp.flag_region[color.index()];
        if region.is_empty() {
            return false;
        }
        let flags = self.flag_pieces(pos, color);
        let full = || {
            self.board_squares()
                .filter(|&sq| region.contains(sq))
                .all(|sq| !pos.get(sq).is_empty())
        };
        let reached = !flags.is_empty()
            && (flags.len() as u32 >= sp.flag_piece_count || (sp.flag_piece_blocked_win && full()));
        if reached
            && sp.flag_piece_safe
            && (!sp.flag_move || color == pos.side_to_move.opposite())
            && flags.len() as u32 == sp.flag_piece_count
            && flags
                .iter()
                .any(|&sq| self.gen.is_attacked(pos, sq, color.opposite()))
        {
            return false;
        }
        reached
    }

    /// The result of a rule that ends the game while moves may remain, in
    /// Fairy-Stockfish's order: extinction, capture the flag, connect-N.
    pub fn game_over(&self, pos: &Position) -> Option<Outcome> {
        if !self.ends_early {
            return None;
        }
        let sp = &self.spec;
        let stm = pos.side_to_move;
        if let (Some(v), false) = (
            sp.extinction_value,
            self.pseudo_royal && !sp.blast_on_capture,
        ) {
            // The board's counts from the facts (all the types where they are remembered).
            let counts = self
                .memo_owner
                .map(|_| self.board_facts(pos, |f| f.extinction_counts));
            let count = |c: Color, i: usize, ty: u16, kinds: Option<u64>| -> u32 {
                let on_board = match &counts {
                    Some(n) => n[c.index()][i],
                    None => self.count_of_mask(pos, c, kinds, |k| self.of_type(k, ty)),
                };
                on_board + self.count_in_hand(pos, c, ty)
            };
            for c in [stm.opposite(), stm] {
                for (i, &(ty, kinds)) in self.extinction.iter().enumerate() {
                    let claim = u32::from(sp.extinction_claim && c == stm);
                    if count(c, i, ty, kinds) <= sp.extinction_piece_count
                        && count(c.opposite(), i, ty, kinds)
                            >= sp.extinction_opponent_piece_count + claim
                    {
                        return Some(self.value_outcome(v, c, "extinction"));
                    }
                }
            }
        }
        if sp.flag_region.iter().any(|r| !r.is_empty()) {
            let them = stm.opposite();
            let king_flag = |c: Color| sp.flag_piece[c.index()] == KING;
            if (sp.flag_move || sp.flag_piece_safe) && self.flag_reached(pos, stm) {
                let draw = ((sp.flag_move && stm == Color::White && king_flag(them))
                    || (sp.flag_piece_safe && !sp.flag_move))
                    && self.flag_reached(pos, them);
                return Some(if draw {
                    Outcome::draw("flag")
                } else {
                    Outcome::win(stm, "flag")
                });
            }
            if (!sp.flag_move || sp.flag_piece_safe || king_flag(stm))
                && self.flag_reached(pos, them)
            {
                // Racing kings: Black's king may still reach the flag region to draw.
                let reply = sp.flag_move
                    && king_flag(stm)
                    && stm == Color::Black
                    && !self.gen.in_check(pos, stm)
                    && {
                        let mut moves = RVec::new();
                        self.moves_of(pos, &mut moves);
                        moves.iter().any(|m| {
                            !m.is_drop()
                                && sp.flag_region[stm.index()].contains(m.to)
                                && pos
                                    .get(m.from)
                                    .kind()
                                    .is_some_and(|k| self.kinds[k as usize].ty == KING)
                        })
                    };
                if !reply {
                    return Some(Outcome::win(them, "flag"));
                }
            }
        }
        if let Some(winner) = sp
            .castling_wins
            .contains(&true)
            .then(|| crate::castling_rules::winner(pos, &sp.castling_wins))
            .flatten()
        {
            return Some(Outcome::win(winner, "castling"));
        }
        if (self.spec.pass_on_stalemate.contains(&true) || self.spec.pass.contains(&true))
            && crate::pass::double_pass(pos)
        {
            return Some(Outcome::draw("double-pass"));
        }
        if self.spec.bikjang_rule && crate::bikjang::ends(self, pos) {
            return Some(Outcome::draw("bikjang"));
        }
        // Check counting: the side that just gave its last check wins.
        if sp.check_counting && pos.variant_state[stm.opposite().index()] == 0 {
            return Some(Outcome::win(stm.opposite(), "check-count"));
        }
        if self.connected(pos) {
            return Some(self.value_outcome(
                sp.connect_value,
                stm.opposite(),
                &format!("connect-{}", sp.connect_n),
            ));
        }
        // A full board is a draw that material counting may decide.
        if let Some(p) = &self.placement {
            if p.full_board(pos, self.files, self.ranks) {
                return Some(Outcome::draw("full-board"));
            }
        }
        None
    }

    /// Parses a FEN in Fairy-Stockfish's form. Its walls (`*`) must stand where the start
    /// position has them (this plugin's walls are part of the board).
    pub fn parse(&self, fen: &str) -> Result<Position, FenError> {
        let pos = self.parse_board(fen)?;
        if self.walling.is_some() || self.stone.is_some() {
            return Ok(pos);
        }
        let walls = self.board_squares().filter(|&sq| pos.get(sq).is_hole());
        if !walls.eq(self.walls.iter()) {
            return Err(FenError::new(
                0,
                1,
                "the walls (`*`) differ from the start position's (this plugin's walls are fixed)",
            ));
        }
        Ok(pos)
    }

    /// Parses a FEN, walls anywhere.
    fn parse_board(&self, fen: &str) -> Result<Position, FenError> {
        let mut fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::new(0, 0, "empty FEN"));
        }
        let board = self.generic_board(fields[0]);
        let mut pos = geometry::parse_fen_board(&board, 0, self.files, self.ranks, &self.pieces)?;
        if let Some(w) = &self.walling {
            w.holes_to_walls(&mut pos, self.files, self.ranks);
        } else if let Some(stone) = self.stone {
            crate::petrify::holes_to_stones(&mut pos, stone, self.files, self.ranks);
        }
        if let Some(p) = &self.placement {
            p.fill_supply(&mut pos, self.n_base);
        }
        // Columns count characters, as an editor shows them.
        let width = |s: &str| s.chars().count() + 1;
        let col = width(fields[0]);
        for k in 0..32 {
            if k >= self.n_base && (pos.hands[0][k] > 0 || pos.hands[1][k] > 0) {
                return Err(FenError::new(0, 0, "a promoted piece cannot be in hand"));
            }
        }
        match fields.get(1).copied() {
            None | Some("w") => {}
            Some("b") => pos.side_to_move = Color::Black,
            Some(s) => return Err(FenError::new(1, col as u32, format!("`{s}` is not w or b"))),
        }
        // Check counting: `3+3` after en passant (checks still to give, White's first), or
        // Lichess's `+1+0` after the clocks (checks given, of three); without either, each
        // side's next check wins (Fairy-Stockfish).
        let mut checks = [1u32, 1];
        let mut check_field = None;
        if self.spec.check_counting {
            let counter = |f: &str| {
                let b = f.as_bytes();
                (b.len() == 3 && b[0].is_ascii_digit() && b[1] == b'+' && b[2].is_ascii_digit())
                    .then(|| [(b[0] - b'0') as u32, (b[2] - b'0') as u32])
            };
            let lichess = |f: &str| {
                let b = f.as_bytes();
                (b.len() == 4 && b[0] == b'+' && b[1].is_ascii_digit() && b[2] == b'+').then(|| {
                    [
                        3u32.saturating_sub((b[1] - b'0') as u32),
                        3u32.saturating_sub((b[3] - b'0') as u32),
                    ]
                })
            };
            if let Some(i) = (2..fields.len()).find(|&i| counter(fields[i]).is_some()) {
                checks = counter(fields[i]).unwrap_or(checks);
                check_field = Some(i);
            } else if let Some(c) = fields.last().and_then(|f| lichess(f)) {
                checks = c;
                check_field = Some(fields.len() - 1);
            }
        }
        pos.variant_state[0] = if self.spec.check_counting {
            checks[0]
        } else {
            0
        };
        pos.variant_state[1] = if self.spec.check_counting {
            checks[1]
        } else {
            0
        };
        // Where each field starts (for error columns).
        let mut starts: Vec<usize> = fields
            .iter()
            .scan(0, |at, f| {
                let here = *at;
                *at += width(f);
                Some(here)
            })
            .collect();
        if let Some(i) = check_field {
            fields.remove(i);
            starts.remove(i);
        }
        // Fairy-Stockfish also reads short forms (`w 0 1`, `w - 0 1`): the trailing numbers
        // are the clocks, what stands between the side and them is castling, then en passant.
        let rest = fields.len().saturating_sub(2);
        let numbers = fields[2.min(fields.len())..]
            .iter()
            .rev()
            .take(2)
            .take_while(|f| !f.is_empty() && f.chars().all(|c| c.is_ascii_digit()))
            .count();
        let lead = rest - numbers;
        if lead > 2 {
            return Err(FenError::new(
                4,
                starts[4] as u32,
                "unexpected field: expected castling, en passant, halfmove clock and move number",
            ));
        }
        let at = |i: Option<usize>| i.map(|i| (fields[i], i as u32, starts[i]));
        let mut ep_field = at((lead >= 2).then_some(3));
        let mut half_field = at((numbers >= 1).then_some(2 + lead));
        let mut full_field = at((numbers == 2).then_some(3 + lead));
        // `countingRule`: Fairy-Stockfish reads a number after the castling field as the
        // counting limit, the clocks after it (`w - 16 8 40`, `w - 17 9`: move 1).
        let mut counting_limit = None;
        if self.spec.counting_rule.is_some() {
            if lead == 1 && numbers >= 1 {
                counting_limit = half_field.take();
                half_field = full_field.take();
            } else if ep_field.is_some_and(|f| crate::counting::is_limit(f.0)) {
                counting_limit = ep_field.take();
            }
        }
        // With a castling field and no en passant field (`w - 0 1`), Fairy-Stockfish reads
        // the first character of the next field as the en passant file, and the clocks from
        // what follows: `w - 0 1` has halfmove clock 1 and move number 1, `w - 17 9` 7 and 9.
        if lead == 1 && counting_limit.is_none() {
            if let Some((h, field, col)) = half_field {
                let rest = &h[1..];
                if rest.is_empty() {
                    half_field = full_field;
                    full_field = None;
                } else {
                    half_field = Some((rest, field, col + 1));
                }
            }
        }
        if self.spec.gating {
            crate::gating::set_gates(&mut pos, Color::White, 0);
            crate::gating::set_gates(&mut pos, Color::Black, 0);
        }
        if let Some((rights, field, col)) = at((lead >= 1).then_some(2)) {
            self.parse_castling(&mut pos, rights, field, col)?;
        }
        if self.spec.gating {
            crate::gating::normalize(self, &mut pos);
        }
        if let Some((ep, field, col)) = ep_field {
            if ep != "-" {
                let bad = || {
                    FenError::new(
                        field,
                        col as u32,
                        format!("`{ep}` is not an en passant square"),
                    )
                };
                // The victim's square follows the passed one (`e3e4`); split at the second
                // file letter, by characters (a FEN is user input and may hold any text).
                let first = ep.chars().next().map_or(0, char::len_utf8);
                let split = ep[first..]
                    .find(|c: char| c.is_ascii_lowercase())
                    .map(|i| i + first);
                let (a, b) = match split {
                    Some(i) => (&ep[..i], Some(&ep[i..])),
                    None => (ep, None),
                };
                let mut passed = Square::parse(a).ok_or_else(bad)?;
                let victim = match b {
                    Some(b) => {
                        let mut v = Square::parse(b).ok_or_else(bad)?;
                        // Written in board order: the landing square is the occupied one.
                        if pos.get(v).is_empty() && !pos.get(passed).is_empty() {
                            std::mem::swap(&mut passed, &mut v);
                        }
                        v
                    }
                    None => {
                        let back = pos.side_to_move.forward();
                        passed
                            .offset_within(0, -back, self.files, self.ranks)
                            .ok_or_else(bad)?
                    }
                };
                pos.ep_passed = passed;
                pos.ep_victim = victim;
                if let Some(t) = &self.triple {
                    t.fix_parsed(self, &mut pos, ep)
                        .map_err(|e| FenError::new(field, col as u32, e))?;
                }
                crate::en_passant_region::restrict(&mut pos, &self.spec.en_passant_region);
                if self.triple.is_none() {
                    crate::unusable_ep::set_aside(self, &mut pos);
                }
            }
        }
        if let Some((h, field, col)) = half_field {
            pos.halfmove_clock = h.parse().map_err(|_| {
                FenError::new(field, col as u32, format!("`{h}` is not a halfmove clock"))
            })?;
        }
        if let Some((fm, field, col)) = full_field {
            pos.fullmove_number = fm
                .parse::<u16>()
                .map_err(|_| {
                    FenError::new(field, col as u32, format!("`{fm}` is not a move number"))
                })?
                .max(1);
        }
        if let Some((limit, field, col)) = counting_limit {
            crate::counting::read_fen(&mut pos, limit)
                .map_err(|e| FenError::new(field, col as u32, e))?;
        }
        if self.spec.shatar_mate_rule {
            crate::shatar::read_fen(self, &mut pos);
        }
        Ok(pos)
    }

    /// Whether the en passant right comes from a custom piece's initial move (not
    /// Fairy-Stockfish's pawn).
    pub(crate) fn custom_double_step(&self, pos: &Position) -> bool {
        !pos.ep_victim.is_none()
            && pos
                .get(pos.ep_victim)
                .kind()
                .is_some_and(|k| self.kinds[k as usize].ep_victim)
    }

    /// Whether `letter` (either case) names a pawn's promoted form (`Q~`).
    fn tilde_letter(&self, letter: char) -> bool {
        let up = letter.to_ascii_uppercase();
        self.kinds.iter().any(|k| {
            k.promoted
                && k.letter == up
                && k.san_letter == up
                && k.ty != self.kinds[k.demoted as usize].ty
        })
    }

    /// Fairy-Stockfish's `Q~` (a promoted pawn) as the generic `+Q`; a `~` after any other
    /// letter marks nothing this plugin tracks and is dropped.
    /// A letter synonym (`h` for xiangqi's horse) is read as the piece's letter, where it is
    /// not a letter of its own (Fairy-Stockfish looks up the letters first).
    fn generic_board(&self, board: &str) -> String {
        let synonyms = self.kinds.iter().any(|k| k.synonym.is_some());
        if !board.contains('~') && !synonyms {
            return board.to_string();
        }
        let mut out = String::with_capacity(board.len());
        let mut chars = board.chars().peekable();
        while let Some(c) = chars.next() {
            if chars.peek() == Some(&'~') && c.is_ascii_alphabetic() {
                chars.next();
                if self.tilde_letter(c) {
                    out.push('+');
                }
            }
            out.push(if synonyms { self.unsynonym(c) } else { c });
        }
        out
    }

    /// The letter `c` names, in its case: itself, or the letter of the piece it is a
    /// synonym of.
    fn unsynonym(&self, c: char) -> char {
        let up = c.to_ascii_uppercase();
        if !c.is_ascii_alphabetic() || self.kinds.iter().any(|k| k.letter == up) {
            return c;
        }
        match self
            .kinds
            .iter()
            .find(|k| k.synonym == Some(up) && !k.promoted)
        {
            Some(k) if c.is_ascii_lowercase() => k.letter.to_ascii_lowercase(),
            Some(k) => k.letter,
            None => c,
        }
    }

    /// The generic board text with pawns' promoted forms written `Q~`.
    fn fsf_board(&self, board: &str) -> String {
        if !board.contains('+') {
            return board.to_string();
        }
        let mut out = String::with_capacity(board.len());
        let mut chars = board.chars().peekable();
        while let Some(c) = chars.next() {
            match chars.peek() {
                Some(&l) if c == '+' && self.tilde_letter(l) => {
                    chars.next();
                    out.push(l);
                    out.push('~');
                }
                _ => out.push(c),
            }
        }
        out
    }

    /// The files of `color`'s gates its castling rights already name in a FEN: the castling
    /// king's and each right's rook's.
    fn implied_gates(&self, pos: &Position, color: Color) -> Vec<u8> {
        let ci = color.index();
        let rights = [pos.castling[ci * 2], pos.castling[ci * 2 + 1]];
        let mut files: Vec<u8> = rights
            .iter()
            .filter(|s| !s.is_none())
            .map(|s| s.file())
            .collect();
        if let (false, Some((king, _))) = (files.is_empty(), &self.castle) {
            let rank = self.castling_rank(ci);
            files.extend(
                (0..self.files)
                    .filter(|&f| piece_of(pos.get(Square::new(f, rank))) == Some((*king, color))),
            );
        }
        files
    }

    /// A chess-style promotion to a promoted form (`wolf`'s `+P`) is written as Fairy-Stockfish
    /// writes a shogi-style one (`c9c10e`, `c10=E`): it is marked special like those.
    fn mark_promoted_forms(&self, pos: &Position, out: &mut RVec<Move>, start: usize) {
        if !self
            .kinds
            .iter()
            .any(|k| k.chess_promo && k.promo.is_some())
        {
            return;
        }
        for m in out[start..].iter_mut() {
            let promo = (!m.is_drop())
                .then(|| pos.get(m.from).kind())
                .flatten()
                .and_then(|k| self.kinds[k as usize].promo);
            if m.is_promotion() && promo == Some(m.piece) {
                m.flags = m.flags.with(houserules_plugin_api::MoveFlags::SPECIAL);
            }
        }
    }

    /// Whether a piece of `kind` of `color` may be dropped (or gated) on `sq` by the drop
    /// rules (anywhere without drops).
    pub(crate) fn may_drop_on(&self, kind: u8, color: Color, sq: Square) -> bool {
        match &self.extras.drops {
            Some(d) => d
                .region
                .get(kind as usize)
                .is_none_or(|r| r.is_none_or(|r| r[color.index()].contains(sq))),
            None => true,
        }
    }

    /// The castling rank of `color`.
    pub(crate) fn castling_rank(&self, color: usize) -> u8 {
        let r = self.spec.castling_rank.min(self.ranks - 1);
        if color == 0 {
            r
        } else {
            self.ranks - 1 - r
        }
    }

    /// Reads the castling field as Fairy-Stockfish does: `K`/`Q` name the outermost
    /// castling partner from the kingside / queenside rook file inwards, a file letter
    /// (`A`..) names the partner on that file; a right counts when the castling piece stands
    /// on the castling rank (on `castlingKingFile` if several do) and the partner is there.
    fn parse_castling(
        &self,
        pos: &mut Position,
        rights: &str,
        field: u32,
        col: usize,
    ) -> Result<(), FenError> {
        if rights == "-" {
            return Ok(());
        }
        if let Some(bad) = rights.chars().find(|c| !c.is_ascii_alphabetic()) {
            return Err(FenError::new(
                field,
                col as u32,
                format!("`{bad}` in the castling field `{rights}` is not a castling right"),
            ));
        }
        let Some((king, rooks)) = &self.castle else {
            // Without castling a file letter can still name a gate (Ouk Khmer's `DEde`).
            if self.spec.gating {
                for ch in rights.chars() {
                    let color = if ch.is_ascii_lowercase() {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let file = ch.to_ascii_uppercase() as u8 - b'A';
                    if file < self.files && !matches!(ch.to_ascii_uppercase(), 'K' | 'Q') {
                        let sq = Square::new(file, self.castling_rank(color.index()));
                        crate::gating::read_letter(self, pos, color, ch, sq, None);
                    }
                }
            }
            return Ok(());
        };
        let mut king_sq: [Option<Option<Square>>; 2] = [None; 2];
        for ch in rights.chars() {
            let color = if ch.is_ascii_lowercase() {
                Color::Black
            } else {
                Color::White
            };
            let ci = color.index();
            let rank = self.castling_rank(ci);
            let partner = |sq: Square| {
                piece_of(pos.get(sq)).is_some_and(|(k, c)| c == color && rooks.contains(&k))
            };
            let rsq = match ch.to_ascii_uppercase() {
                'K' => {
                    let mut f = self.spec.castling_rook_files[0];
                    while !partner(Square::new(f, rank)) && f > 0 {
                        f -= 1;
                    }
                    Square::new(f, rank)
                }
                'Q' => {
                    let mut f = self.spec.castling_rook_files[1];
                    while !partner(Square::new(f, rank)) && f < self.files - 1 {
                        f += 1;
                    }
                    Square::new(f, rank)
                }
                u if ((u as u8 - b'A') as usize) < self.files as usize => {
                    Square::new(u as u8 - b'A', rank)
                }
                _ => continue,
            };
            let ksq = *king_sq[ci].get_or_insert_with(|| {
                let kings: Vec<Square> = (0..self.files)
                    .map(|f| Square::new(f, rank))
                    .filter(|&sq| piece_of(pos.get(sq)) == Some((*king, color)))
                    .collect();
                match kings.as_slice() {
                    [one] => Some(*one),
                    _ => {
                        let sq = Square::new(self.spec.castling_king_file, rank);
                        kings.contains(&sq).then_some(sq)
                    }
                }
            });
            let partnered = partner(rsq);
            if self.spec.gating && crate::gating::read_letter(self, pos, color, ch, rsq, ksq) {
                continue;
            }
            if let Some(ksq) = ksq {
                if partnered {
                    let side = usize::from(rsq.file() < ksq.file());
                    pos.castling[ci * 2 + side] = rsq;
                }
            }
        }
        Ok(())
    }

    /// Writes a FEN as Fairy-Stockfish does.
    pub fn fen(&self, pos: &Position) -> String {
        let mut s = self.fsf_board(&geometry::write_fen_board(pos, &self.pieces, false));
        // An unlimited supply is not written (Fairy-Stockfish); S-chess's hand is.
        if (self.spec.piece_drops || self.spec.seirawan_gating) && !self.spec.placement.free_drops {
            s.push('[');
            for color in [Color::White, Color::Black] {
                for &k in &self.hand_order {
                    let l = self.kinds[k as usize].letter;
                    let l = if color == Color::White {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    };
                    for _ in 0..pos.hands[color.index()][k as usize] {
                        s.push(l);
                    }
                }
            }
            s.push(']');
        }
        s.push(' ');
        s.push(pos.side_to_move.fen_char());
        s.push(' ');
        let mut rights: String = String::new();
        for color in [Color::White, Color::Black] {
            let ci = color.index();
            for (side, letter) in ['K', 'Q'].into_iter().enumerate() {
                let rook = pos.castling[ci * 2 + side];
                if !rook.is_none() {
                    // Chess960: the rook's file (Fairy-Stockfish's Shredder-FEN).
                    let letter = if self.spec.chess960 {
                        (b'A' + rook.file()) as char
                    } else {
                        letter
                    };
                    rights.push(if ci == 0 {
                        letter
                    } else {
                        letter.to_ascii_lowercase()
                    });
                }
            }
            if self.spec.gating {
                rights.push_str(&crate::gating::letters(
                    self,
                    pos,
                    color,
                    &self.implied_gates(pos, color),
                ));
            }
        }
        s.push_str(if rights.is_empty() { "-" } else { &rights });
        s.push(' ');
        let counting = crate::counting::count(pos);
        let triple = self.triple.as_ref().and_then(|t| t.fen_field(self, pos));
        if let Some((limit, _)) = counting {
            // `countingRule`: the limit in place of en passant (see `crate::counting`).
            s.push_str(&limit.to_string());
        } else if let Some(squares) = triple {
            s.push_str(&squares);
        } else if let Some((a, b)) = crate::unusable_ep::custom_right_squares(self, pos) {
            // Fairy-Stockfish records the squares a custom piece's initial move passed and
            // the one it landed on, and writes them in board order (`e3e4`, `c5c6`), usable
            // or not (a right no capture can use is set aside: `crate::unusable_ep`).
            let (lo, hi) = if (a.rank(), a.file()) <= (b.rank(), b.file()) {
                (a, b)
            } else {
                (b, a)
            };
            s.push_str(&lo.name());
            s.push_str(&hi.name());
        } else if pos.ep_passed.is_none() {
            s.push('-');
        } else {
            s.push_str(&pos.ep_passed.name());
        }
        if self.spec.check_counting {
            s.push_str(&format!(
                " {}+{}",
                pos.variant_state[0], pos.variant_state[1]
            ));
        }
        let clock = counting.map_or(i64::from(pos.halfmove_clock), |(_, ply)| ply);
        s.push_str(&format!(" {clock} {}", pos.fullmove_number));
        s
    }

    /// SAN without check marks, as Fairy-Stockfish's `get_san` writes it.
    pub fn san(&self, pos: &Position, m: Move) -> String {
        if crate::gating::gate_of(&m).is_some() {
            let mut s = self.san_plain(pos, m);
            s.push_str(&crate::gating::san_suffix(self, &m));
            return s;
        }
        if let Some(w) = &self.walling {
            let mut s = if crate::walling::is_pass(m) {
                self.pass_san(pos, m)
            } else {
                self.san_plain(pos, m)
            };
            s.push_str(&w.san_suffix(m));
            return s;
        }
        self.san_plain(pos, m)
    }

    /// SAN of a move without its wall.
    fn san_plain(&self, pos: &Position, m: Move) -> String {
        if crate::pass::is_pass(&m) {
            return self.pass_san(pos, m);
        }
        if m.is_drop() {
            let k = &self.kinds[m.piece as usize];
            // A promoted drop has the promoted type's letter (Fairy-Stockfish).
            let letter = k.synonym.unwrap_or(if m.is_special() {
                k.san_letter
            } else {
                k.letter
            });
            return format!("{letter}@{}", m.to);
        }
        if m.is_castle() {
            return if m.to.file() > m.from.file() {
                "O-O".into()
            } else {
                "O-O-O".into()
            };
        }
        let cell = pos.get(m.from);
        let kind = cell.kind().unwrap_or(0);
        let k = &self.kinds[kind as usize];
        let mut s = String::new();
        if k.pawn {
            if m.is_capture() {
                s.push((b'a' + m.from.file()) as char);
            } else if self.spec.sittuyin_promotion && m.is_promotion() && m.from != m.to {
                // Fairy-Stockfish writes a sittuyin promotion onto another square with its
                // origin: `e5d4=F`.
                s.push_str(&m.from.name());
            }
        } else if crate::gating::gate_of(&m).is_some() {
            // Fairy-Stockfish's rivals keep the move's gate square, which no other origin
            // can gate onto: a gating move is never disambiguated.
            s.push(k.synonym.unwrap_or(k.san_letter));
        } else {
            s.push(k.synonym.unwrap_or(k.san_letter));
            let mut legal = RVec::new();
            if let Some(w) = &self.walling {
                // Fairy-Stockfish's rivals differ from `m` in their origin only: the same
                // wall (which must be legal for them). Only those are made, not every
                // walling move (thousands in amazons).
                self.gen.legal_moves(pos, &mut legal);
                let wall = crate::walling::wall_of(m);
                let mut rivals: RVec<Move> = legal
                    .iter()
                    .filter(|o| o.to == m.to && o.from != m.from && !o.is_drop())
                    .filter_map(|&o| match wall {
                        Some(sq) => w
                            .wall_squares(self, pos, o)
                            .contains(sq)
                            .then(|| crate::walling::with_wall(o, sq)),
                        None => Some(crate::walling::without_wall(o)),
                    })
                    .collect();
                if self.filters {
                    self.filter(pos, &mut rivals, 0);
                }
                legal = rivals;
            } else {
                self.legal(pos, &mut legal);
            }
            // Fairy-Stockfish's rivals are `m` from another origin with the same move type:
            // one that reaches the square only as a plain move where `m` promotes (or the
            // other way round, or promoting to another piece) does not count.
            let own_type = self.move_type(pos, &m);
            let others: Vec<Square> = legal
                .iter()
                .filter(|o| {
                    !o.is_drop()
                        && o.from != m.from
                        && o.to == m.to
                        && self.move_type(pos, o) == own_type
                        && pos
                            .get(o.from)
                            .kind()
                            .is_some_and(|ok| self.kinds[ok as usize].ty == k.ty)
                })
                .map(|o| o.from)
                .collect();
            if !others.is_empty() {
                if others.iter().all(|o| o.file() != m.from.file()) {
                    s.push((b'a' + m.from.file()) as char);
                } else if others.iter().all(|o| o.rank() != m.from.rank()) {
                    s.push_str(&(m.from.rank() as u32 + 1).to_string());
                } else {
                    s.push_str(&m.from.name());
                }
            }
        }
        if m.is_capture() {
            s.push('x');
        }
        s.push_str(&m.to.name());
        if m.is_promotion() {
            s.push('=');
            s.push(self.kinds[m.piece as usize].san_letter);
        }
        s
    }

    /// Whether the promotion `m` is a chess-style one (to a piece of `promotionPieceTypes`:
    /// Fairy-Stockfish's `PROMOTION` move type), not a shogi-style promotion or a demotion.
    pub(crate) fn is_chess_style_promotion(&self, pos: &Position, m: &Move) -> bool {
        self.move_type(pos, m).0 == 1
    }

    /// A move's type as Fairy-Stockfish's SAN disambiguation compares it: plain, a
    /// chess-style promotion to a given piece, a shogi-style promotion or a demotion (whose
    /// piece follows from the mover), and whether it is special.
    fn move_type(&self, pos: &Position, m: &Move) -> (u8, u8, bool) {
        if !m.is_promotion() {
            return (0, 0, m.is_special());
        }
        let mover = pos.get(m.from).kind().map(|k| &self.kinds[k as usize]);
        match mover {
            Some(k) if k.promo == Some(m.piece) && k.promoted => (3, 0, m.is_special()),
            Some(k) if k.promo == Some(m.piece) => (2, 0, m.is_special()),
            _ => (1, m.piece, m.is_special()),
        }
    }

    /// SAN of a pass (Fairy-Stockfish: the piece's letter and its square).
    fn pass_san(&self, pos: &Position, m: Move) -> String {
        let k = &self.kinds[pos.get(m.from).kind().unwrap_or(0) as usize];
        let letter = if k.pawn {
            String::new()
        } else {
            k.synonym.unwrap_or(k.san_letter).to_string()
        };
        format!("{letter}{}", m.to)
    }

    fn value_outcome(&self, v: Value, side: Color, reason: &str) -> Outcome {
        match v {
            Value::Win => Outcome::win(side, reason),
            Value::Loss => Outcome::win(side.opposite(), reason),
            Value::Draw => Outcome::draw(reason),
        }
    }
}

/// Whether `a` and `b` are different squares a king's step apart (an explosion's reach).
fn next_to(a: Square, b: Square) -> bool {
    a != b && a.file().abs_diff(b.file()) <= 1 && a.rank().abs_diff(b.rank()) <= 1
}

/// The kind and colour of the piece in `cell`, if any.
fn piece_of(cell: houserules_plugin_api::Cell) -> Option<(u8, Color)> {
    Some((cell.kind()?, cell.color()?))
}

/// A rough material value from the movement: 60 per ridden direction, 35 per leap.
fn betza_value(m: &Movement) -> i32 {
    let mut seen: Vec<((i8, i8), bool)> = Vec::new();
    for md in 0..2 {
        for (v, _) in &m.slider[0][md].entries {
            if let Some(e) = seen.iter_mut().find(|e| e.0 == *v) {
                e.1 = true;
            } else {
                seen.push((*v, true));
            }
        }
        for (v, _) in &m.steps[0][md].entries {
            if !seen.iter().any(|e| e.0 == *v) {
                seen.push((*v, false));
            }
        }
    }
    seen.iter()
        .map(|e| if e.1 { 60 } else { 35 })
        .sum::<i32>()
        .max(50)
}

/// The variant's rules model: its pieces' movement (houserules Betza), royalty, Fairy-Stockfish's
/// promotion and pawn rules. En passant rights are kept when an enemy pawn could take
/// (Fairy-Stockfish).
fn public_model(
    spec: &Spec,
    kinds: &[Kind],
    table: &[PieceType],
    promo_targets: &[u8],
) -> RulesModel {
    let mut pieces = Vec::new();
    for (i, k) in kinds.iter().enumerate() {
        let mut p = PieceModel::new(k.letter, table[i].role, &k.betza);
        p.royal = k.royal;
        p.resets_clock = k.n_move_reset;
        p.hand_kind = k.demoted;
        // Fairy-Stockfish empties the double-step region when double steps are off.
        if spec.double_step {
            p.initial_region = spec.double_step_region;
        }
        if k.pawn {
            p.ep_victim = true;
            p.ep_capture = ep_capture::MARKED;
        }
        if k.ep_capturer {
            p.ep_capture = ep_capture::CAPTURE_ONLY;
        }
        if k.ep_victim {
            p.ep_victim = true;
        }
        p.promotion = if k.chess_promo && spec.sittuyin_promotion {
            // Made by `crate::sittuyin` instead.
            PromotionModel::default()
        } else if k.chess_promo {
            let mut choices = promo_targets.to_vec();
            choices.extend(k.promo);
            PromotionModel::choice(
                spec.promotion_region,
                &choices,
                spec.mandatory_pawn_promotion,
            )
        } else if let Some(promoted) = k.promo {
            PromotionModel {
                style: PromotionModel::SHOGI,
                zone: spec.promotion_region,
                choices: [promoted].into_iter().collect(),
                mandatory: if k.pawn_type {
                    spec.mandatory_pawn_promotion
                } else {
                    spec.mandatory_piece_promotion
                },
            }
        } else {
            PromotionModel::default()
        };
        pieces.push(p);
    }
    RulesModel {
        files: spec.max_file,
        ranks: spec.max_rank,
        holes: SquareSet::EMPTY,
        topology: Topology::default(),
        pieces: pieces.into_iter().collect(),
        castling: ROption::RNone,
        check: check_rule::ANY,
        // With a non-pawn type among the en passant capturers (whether on the board or
        // not) Fairy-Stockfish records every double step's square; otherwise only where a
        // pawn could take.
        // So does a custom piece's initial move (without Fairy-Stockfish's pawn, whose rule
        // is the other, the variant's policy can be that one).
        en_passant: if spec.en_passant_types.iter().any(|&t| t != spec::PAWN)
            || (kinds.iter().any(|k| k.ep_victim) && !kinds.iter().any(|k| k.pawn))
        {
            ep_policy::ALWAYS
        } else {
            ep_policy::PSEUDO
        },
        initial_needs_unmoved: false,
        slide_limit: 0,
        extra: RVec::new(),
    }
}

/// Rules of a variant that the model does not carry.
#[derive(Debug, Clone)]
struct Extras {
    drops: Option<DropRules>,
    immobility_illegal: bool,
    captures_to_hand: bool,
    /// Castling rank and further partner kinds (when the model castles).
    castling_rank: u8,
    other_rooks: Vec<u8>,
    /// Per kind: its mobility region and zone leaps (see [`crate::xiangqi`]).
    regions: Vec<Option<[SquareSet; 2]>>,
    zone_leaps: Vec<Option<(Movement, [SquareSet; 2])>>,
    /// Per kind: whether it hops as a janggi cannon.
    janggi_hops: Vec<bool>,
    /// Per kind: its moves along `diagonalLines` (see [`crate::lines`]).
    lines: Vec<Option<(Movement, SquareSet)>>,
    /// Shogi-style promotions on captures only (see [`crate::promotion_on_capture`]).
    promotes_on_capture: bool,
}

impl Extras {
    /// The generator for `model` with these rules added.
    fn generator(&self, model: &RulesModel) -> Result<Generator, String> {
        let mut r: Rules = rules_from_model(model).map_err(|e| e.to_string())?;
        r.drops = self.drops.clone();
        r.immobility_illegal = self.immobility_illegal;
        r.captures_to_hand = self.captures_to_hand;
        // The plugin resets the n-move counter itself (`Fairy::resets_n_move_counter`).
        for p in &mut r.pieces {
            p.resets_clock = false;
        }
        for (k, p) in r.pieces.iter_mut().enumerate() {
            p.region = self.regions.get(k).cloned().flatten();
            p.zone_leaps = self.zone_leaps.get(k).cloned().flatten();
            p.janggi_hops = self.janggi_hops.get(k).copied().unwrap_or(false);
            p.line_moves = self.lines.get(k).cloned().flatten();
        }
        crate::promotion_on_capture::apply(self.promotes_on_capture, &mut r);
        if let Some(c) = &mut r.castling {
            c.rank = self.castling_rank;
            c.other_rooks = self.other_rooks.clone();
        }
        Generator::new(&r).map_err(|e| e.to_string())
    }
}

/// Drops with Fairy-Stockfish's restrictions, the immobility rule, captures to hand.
fn extras(spec: &Spec, kinds: &[Kind], kind_of_ty: &std::collections::HashMap<u16, u8>) -> Extras {
    let drops = spec.piece_drops.then(|| {
        let mut region = Vec::new();
        for k in kinds {
            if k.pawn {
                let mut reg = [SquareSet::EMPTY; 2];
                for (c, set) in reg.iter_mut().enumerate() {
                    let first = if c == 0 { 0 } else { spec.max_rank - 1 };
                    for rank in 0..spec.max_rank {
                        for file in 0..spec.max_file {
                            let sq = Square::new(file, rank);
                            if rank == first && !spec.first_rank_pawn_drops {
                                continue;
                            }
                            if !spec.promotion_zone_pawn_drops
                                && spec.promotion_region[c].contains(sq)
                            {
                                continue;
                            }
                            if spec.drop_region[c].is_some_and(|r| !r.contains(sq)) {
                                continue;
                            }
                            set.insert(sq);
                        }
                    }
                }
                region.push(Some(reg));
            } else if spec.sittuyin_rook_drop && k.ty == crate::spec::ROOK {
                let own_first = |c: usize| -> SquareSet {
                    let rank = if c == 0 { 0 } else { spec.max_rank - 1 };
                    (0..spec.max_file)
                        .map(|f| Square::new(f, rank))
                        .filter(|sq| spec.drop_region[c].is_none_or(|r| r.contains(*sq)))
                        .collect()
                };
                region.push(Some([own_first(0), own_first(1)]));
            } else if spec.drop_region.iter().any(Option::is_some) {
                let all = SquareSet::from_iter(
                    (0..spec.max_rank)
                        .flat_map(|r| (0..spec.max_file).map(move |f| Square::new(f, r))),
                );
                region.push(Some(spec.drop_region.map(|r| r.unwrap_or(all))));
            } else {
                region.push(None);
            }
        }
        DropRules {
            region,
            no_doubled: spec
                .drop_no_doubled
                .and_then(|t| kind_of_ty.get(&t).copied())
                .map(|k| (k, spec.drop_no_doubled_count)),
            promoted: crate::drop_promoted::pairs(spec, kinds),
        }
    });
    Extras {
        drops,
        immobility_illegal: spec.immobility_illegal,
        captures_to_hand: spec.captures_to_hand,
        castling_rank: 0,
        other_rooks: Vec::new(),
        regions: Vec::new(),
        zone_leaps: Vec::new(),
        janggi_hops: Vec::new(),
        lines: Vec::new(),
        promotes_on_capture: spec.piece_promotion_on_capture,
    }
}

/// The castling kind and its partner kinds, when the variant castles: `castling` on, the
/// castling piece type and a partner type present.
fn castling(spec: &Spec, kind_of_ty: &std::collections::HashMap<u16, u8>) -> Option<(u8, Vec<u8>)> {
    if !spec.castling {
        return None;
    }
    let king = *kind_of_ty.get(&spec.castling_king_piece)?;
    let rooks: Vec<u8> = spec
        .castling_rook_pieces
        .iter()
        .filter_map(|t| kind_of_ty.get(t).copied())
        .collect();
    (!rooks.is_empty()).then_some((king, rooks))
}

impl Fairy {
    /// The coordinate text of the plain move under a gating or walling move, and the square
    /// it ends on (the castling king's origin or the rook's, as [`Fairy::castle_squares`]
    /// writes it).
    fn base_coordinate(&self, pos: &Position, base: Move) -> (String, Square) {
        if base.is_castle() {
            let (from, to) = self.castle_squares(pos, base);
            (format!("{from}{to}"), to)
        } else if base.is_promotion() {
            let l = self.kinds[base.piece as usize].letter.to_ascii_lowercase();
            (format!("{}{}{l}", base.from, base.to), base.to)
        } else {
            (format!("{}{}", base.from, base.to), base.to)
        }
    }

    /// Castling in coordinate form: king origin and destination, or king takes rook where a
    /// plain king move has that destination (Fairy-Stockfish's UCI), always with `chess960`.
    fn castle_squares(&self, pos: &Position, mv: Move) -> (Square, Square) {
        if self.spec.chess960 {
            return (mv.from, mv.to);
        }
        let mut moves = RVec::new();
        self.pseudo(pos, pos.side_to_move, &SquareSet::EMPTY, &mut moves);
        let plain = moves
            .iter()
            .any(|m| !m.is_castle() && !m.is_drop() && m.from == mv.from && m.to == mv.via);
        (mv.from, if plain { mv.to } else { mv.via })
    }
}

impl VariantRules for Fairy {
    fn info(&self) -> VariantInfo {
        let mut flags = VariantFlags::CUSTOM_SAN.0 | VariantFlags::OWN_REPETITION.0;
        // Fairy-Stockfish looks back over the plies since the clock's reset, or over the
        // whole game where captured pieces go to hand.
        if !self.spec.captures_to_hand {
            flags |= VariantFlags::REPETITION_SINCE_CLOCK_RESET.0;
        }
        if self.spec.piece_drops {
            flags |= VariantFlags::DROPS.0;
        }
        if self.ends_early {
            flags |= VariantFlags::STATIC_RESULTS.0;
        }
        if self.pseudo_royal || self.royals_in_hand || self.royalless_side {
            flags |= VariantFlags::DYNAMIC_ROYALS.0;
        }
        if self.goals.any() {
            flags |= VariantFlags::EVALUATES.0;
        }
        if self.chasing.is_some() {
            flags |= VariantFlags::MOVE_MARKS.0;
        }
        // With the chase rule the n-move rule is the variant's (checks extend it).
        let n_move = if self.chasing.is_some() {
            0
        } else {
            self.spec.n_move_rule
        };
        VariantInfo {
            id: self.id.as_str().into(),
            name: self.id.as_str().into(),
            description: format!("Fairy-Stockfish variant `{}` from variants.ini", self.id).into(),
            files: self.files,
            ranks: self.ranks,
            pieces: self.pieces.iter().cloned().collect(),
            layouts: vec![Layout {
                id: "start".into(),
                name: "start position".into(),
                fen: self.start_fen.as_str().into(),
            }]
            .into_iter()
            .collect(),
            n_move_rule: n_move,
            n_move_automatic: n_move,
            n_fold_rule: self.spec.n_fold_rule,
            n_fold_automatic: self.spec.n_fold_rule,
            flags: VariantFlags(flags),
            extra: self.search_extra(),
        }
    }

    fn parse_fen(&self, fen: &str) -> Result<Position, FenError> {
        self.parse(fen)
    }

    /// Goals material does not see (see [`crate::eval`]).
    fn evaluate(&self, pos: &Position) -> i32 {
        let sp = &self.spec;
        let goals = &self.goals;
        let mut score = 0;
        if goals.connect {
            // Open lines are threats to win, or where a line loses (`connectValue = loss`,
            // misère connect four) a burden; counted as threats there, the engine made its
            // own fours and lost 11 of 20 games against a random mover.
            let lines = crate::eval::connect_threats(pos, self.connect_kinds, sp.connect_n);
            score += match sp.connect_value {
                Value::Win => lines,
                Value::Loss => -lines,
                Value::Draw => 0,
            };
        }
        if goals.flag_race {
            let kinds = [0, 1].map(|c| self.kinds_of_type(sp.flag_piece[c]));
            score += crate::eval::flag_race(
                pos,
                &sp.flag_region,
                kinds,
                sp.flag_piece_count,
                &self.flag_runners,
            );
        }
        if goals.burden {
            // Where the loss of the extinction types wins (giveaway, antichess, losers,
            // codrus), every piece is a burden, as Fairy-Stockfish has it (its piece values
            // turn negative there, whatever the extinction types): fewer pieces leave the
            // other side fewer captures to choose from and bring a stalemate nearer. The host
            // counts each piece at its value; this counts it twice against, as the gallery's
            // suicide-chess does.
            for (color, sign) in [(Color::White, -1), (Color::Black, 1)] {
                for (_, k) in pos.pieces_of(color) {
                    let value = self.pieces.get(k as usize).map_or(0, |p| p.value.max(0));
                    score += sign * (2 * value + crate::eval::PIECE_BURDEN);
                }
            }
        }
        if goals.discs {
            if let Some(p) = &self.placement {
                let drops = [Color::White, Color::Black].map(|c| {
                    p.drop_squares_of(pos, c, self.files, self.ranks)
                        .map_or(0, |set| set.len() as u32)
                });
                let value = self.pieces.first().map_or(100, |p| p.value.max(1));
                score += crate::eval::disc_game(pos, value, drops);
            }
        }
        if goals.last_move {
            score += crate::eval::last_move(pos, &self.capture_steps);
        }
        if goals.territory {
            score += crate::eval::territory(pos, &self.move_only_reach);
        }
        score
    }

    fn write_fen(&self, pos: &Position) -> String {
        self.fen(pos)
    }

    fn generate(&self, pos: &Position, req: &GenRequest, out: &mut RVec<Move>) {
        if req.legal && req.side == pos.side_to_move {
            self.legal(pos, out);
        } else {
            self.pseudo(pos, req.side, &req.skip, out);
        }
    }

    fn legal_move_count(&self, pos: &Position) -> u64 {
        if self.game_over(pos).is_some() {
            return 0;
        }
        if self.filters
            || self.spec.sittuyin_promotion
            || self.spec.gating
            || self.spec.pass_on_stalemate.contains(&true)
            || self.spec.pass.contains(&true)
            || self.walling.is_some()
            || self.placement.is_some()
            || self.triple.is_some()
        {
            return crate::scratch::with_rlist(|moves| {
                self.moves_of(pos, moves);
                moves.len() as u64
            });
        }
        self.gen.count_legal(pos)
    }

    fn apply(&self, pos: &mut Position, mv: Move, fx: &mut MoveEffects) {
        let mover = pos.side_to_move.index();
        let kind = (!mv.is_drop()).then(|| pos.get(mv.from).kind()).flatten();
        let took_pawn = self.spec.counting_rule.is_some() && self.takes_pawn(pos, mv);
        let bikjang_before = crate::bikjang::facing(self, pos);
        if self.spec.move_repetition_illegal {
            let checked = self.gen.in_check(pos, pos.side_to_move);
            crate::move_repetition::record(pos, pos.side_to_move, &mv, checked);
        }
        self.apply_move(pos, mv, fx);
        // Explosions, walls, flips and stones change cells behind the generator's back,
        // which leaves its bitboards stale: read them once now, not at every question about
        // the new position (a search's quiescence asks only after captures).
        self.gen.refresh(pos);
        if self.spec.bikjang_rule {
            crate::bikjang::record(pos, bikjang_before);
        }
        crate::en_passant_region::restrict(pos, &self.spec.en_passant_region);
        if self.triple.is_none() {
            crate::unusable_ep::record_custom_step(self, pos, &mv, kind);
            crate::unusable_ep::set_aside(self, pos);
        }
        if let Some(rule) = self.spec.counting_rule {
            let capture_or_promotion =
                (mv.is_capture() && !mv.is_castle()) || (mv.is_promotion() && !mv.is_special());
            let m = self.counting_material(pos);
            rule.after_move(
                pos,
                Color::from_index(mover),
                &m,
                took_pawn,
                capture_or_promotion,
            );
        }
        if let Some(k) = kind {
            if !mv.is_capture()
                && !mv.is_castle()
                && self.resets_n_move_counter(k, Color::from_index(mover), mv)
            {
                pos.halfmove_clock = 0;
            }
        }
        if self.spec.check_counting && self.gen.in_check(pos, pos.side_to_move) {
            pos.variant_state[mover] = pos.variant_state[mover].saturating_sub(1);
        }
        if self.spec.shatar_mate_rule {
            crate::shatar::after_move(self, pos, Color::from_index(mover));
        }
        if self.spec.pass_on_stalemate.contains(&true) || self.spec.pass.contains(&true) {
            crate::pass::count(pos, &mv);
        }
        if self.spec.castling_dropped_piece && mv.is_drop() {
            self.castling_rights_of_drop(pos, &mv, Color::from_index(mover));
        }
        if self.spec.castling_wins.contains(&true) || self.spec.opposite_castling {
            let wins = &self.spec.castling_wins;
            let opposite = self.spec.opposite_castling;
            crate::castling_rules::after_move(pos, &mv, Color::from_index(mover), wins, opposite);
        }
    }

    fn is_attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        !sq.is_none() && self.gen.is_attacked(pos, sq, by)
    }

    fn outcome(&self, pos: &Position, ctx: &OutcomeContext) -> Option<Outcome> {
        let o = self.rule_outcome(pos, ctx);
        match self.spec.material_counting {
            Some(mc) => self.material_adjudication(mc, pos, ctx, o),
            None => o,
        }
    }

    fn special_san(&self, pos: &Position, mv: Move) -> Option<String> {
        Some(self.san(pos, mv))
    }

    /// With the chase rule: the pieces `mv` chases (see [`crate::chasing`]).
    fn move_mark(&self, before: &Position, mv: Move, after: &Position) -> SquareSet {
        match &self.chasing {
            Some(c) => c.chased(before, mv, after),
            None => SquareSet::EMPTY,
        }
    }

    /// With pseudo-royal pieces: the royal kinds plus the pseudo-royals that can be in
    /// check (not those touching an enemy one where captures explode); `None` when there
    /// are none, so that no piece counts as a lost royal.
    fn royals(&self, pos: &Position, color: Color) -> Option<SquareSet> {
        let mut set = SquareSet::EMPTY;
        if self.pseudo_royal {
            let pair = self.pseudo_royal_pair(pos);
            let theirs = pair[color.opposite().index()];
            set = pair[color.index()];
            if self.spec.blast_on_capture && !theirs.is_empty() {
                let all = set;
                for sq in all.iter().filter(|&sq| self.touches(sq, &theirs)) {
                    set.remove(sq);
                }
            }
            if self.spec.duple_check {
                // All of them attacked is a check too: then they are the pieces in check.
                for sq in crate::duple_check::all_attacked(self, pos, color, &theirs) {
                    set.insert(sq);
                }
            }
        }
        // Atomic's kings are pseudo-royal commoners: no kind is royal, nothing to add.
        for sq in self
            .squares_where(pos, color, |k| self.kinds[k as usize].royal)
            .iter()
        {
            set.insert(sq);
        }
        (!set.is_empty()).then_some(set)
    }

    fn rules_model(&self) -> Option<RulesModel> {
        Some(self.model.clone())
    }

    fn set_model(&mut self, model: &RulesModel) -> Result<(), String> {
        if model.pieces.len() != self.kinds.len() {
            return Err("a transformed model must keep the piece table".into());
        }
        self.gen = Arc::new(self.extras.generator(model)?);
        self.model = model.clone();
        self.blast = self.blast_on_bitboards();
        self.trials = self.trials_judge_safety();
        self.memo_owner = self.memo_owner();
        Ok(())
    }

    fn special_coordinate(&self, pos: &Position, mv: Move) -> Option<String> {
        if crate::gating::gate_of(&mv).is_some() {
            let (text, _) = self.base_coordinate(pos, crate::gating::base(mv));
            return crate::gating::coordinate(self, &mv, &text);
        }
        if crate::pass::is_pass(&mv) {
            return Some(format!("{}{}", mv.from, mv.to));
        }
        if crate::drop_promoted::is_promoted_drop(&mv) {
            let hand_kind = self.kinds[mv.piece as usize].demoted;
            let in_hand = Move::drop(hand_kind, mv.to);
            return Some(crate::drop_promoted::coordinate(&self.kinds, &in_hand));
        }
        if let Some(w) = &self.walling {
            let (text, dest) = self.base_coordinate(pos, crate::walling::base(mv));
            return Some(w.coordinate(mv, &text, dest));
        }
        if mv.is_castle() {
            let (from, to) = self.castle_squares(pos, mv);
            return Some(format!("{from}{to}"));
        }
        // Shogi-style promotions: origin, destination and the promoted type's letter
        // (`e5e6c`). Fairy-Stockfish's UCI writes `e5e6+`, which a reader could take for a
        // check mark; it is written only where the letter would also name a chess-style
        // promotion of the same move (`elgam`'s soldier becomes `W~` or `+S`).
        (mv.is_promotion() && mv.is_special()).then(|| {
            let l = self.kinds[mv.piece as usize]
                .san_letter
                .to_ascii_lowercase();
            if self.promotion_letter_is_shared(pos, mv) {
                format!("{}{}+", mv.from, mv.to)
            } else {
                format!("{}{}{l}", mv.from, mv.to)
            }
        })
    }
}

impl Fairy {
    /// Whether the chess-style promotions of the piece `mv` moves include a kind other than
    /// `mv`'s promoted form with that form's letter (a coordinate with the letter would name
    /// two moves).
    fn promotion_letter_is_shared(&self, pos: &Position, mv: Move) -> bool {
        let Some((mover, color)) = (!mv.is_drop())
            .then(|| piece_of(pos.get(mv.from)))
            .flatten()
        else {
            return false;
        };
        let letter = self.kinds[mv.piece as usize].san_letter;
        self.model
            .pieces
            .get(mover as usize)
            .and_then(|p| p.promotion_choices(color == Color::Black).ok())
            .is_some_and(|choices| {
                choices.iter().any(|&k| {
                    k != mv.piece
                        && self
                            .kinds
                            .get(k as usize)
                            .is_some_and(|c| c.san_letter == letter)
                })
            })
    }
}

impl Fairy {
    /// `materialCounting` (see [`crate::material`]): draws by the n-move rule, repetition,
    /// stalemate or double passing decided by material.
    fn material_adjudication(
        &self,
        mc: crate::material::MaterialCounting,
        pos: &Position,
        ctx: &OutcomeContext,
        o: Option<Outcome>,
    ) -> Option<Outcome> {
        let pieces = self.material_balance(mc, pos);
        let n = self.spec.n_move_rule;
        let by_n_move = !ctx.counting
            && n > 0
            && pos.halfmove_clock as u32 >= 2 * n
            && (ctx.has_legal_moves || !ctx.in_check);
        match o {
            Some(o) if o.winner == houserules_plugin_api::Winner::DRAW => {
                let reason = o.reason.to_string();
                if [
                    "stalemate",
                    "n-fold-repetition",
                    "double-pass",
                    "bikjang",
                    "full-board",
                ]
                .contains(&reason.as_str())
                {
                    Some(mc.outcome(pieces, &reason))
                } else {
                    Some(o)
                }
            }
            Some(o) if by_n_move && o.reason.as_str() == "n-fold-repetition" => {
                Some(mc.outcome(pieces, "n-move-rule"))
            }
            None if by_n_move => Some(mc.outcome(pieces, "n-move-rule")),
            o => o,
        }
    }

    /// Whether the mobility region of `kind` for `color` meets the enemy king's (a region not
    /// given is the whole board): Fairy-Stockfish's test of the piece a repetition of moves
    /// concerns (see [`crate::move_repetition`]).
    pub(crate) fn meets_enemy_palace(&self, kind: u8, color: Color) -> bool {
        let region = |k: usize, c: Color| {
            self.extras
                .regions
                .get(k)
                .cloned()
                .flatten()
                .map(|r| r[c.index()])
        };
        let king = self.kinds.iter().position(|k| k.ty == KING && !k.promoted);
        match (
            region(kind as usize, color),
            king.and_then(|k| region(k, color.opposite())),
        ) {
            (Some(a), Some(b)) => a.iter().any(|sq| b.contains(sq)),
            _ => true,
        }
    }

    /// White's material minus Black's as `mc` counts it, pieces on the board.
    fn material_balance(&self, mc: crate::material::MaterialCounting, pos: &Position) -> i64 {
        let mut balance = 0;
        for sq in self.board_squares() {
            if let Some((k, c)) = piece_of(pos.get(sq)) {
                let w = mc.weight(self.kinds[k as usize].ty);
                balance += if c == Color::White { w } else { -w };
            }
        }
        balance
    }

    /// The result by the variant's rules before material counting.
    fn rule_outcome(&self, pos: &Position, ctx: &OutcomeContext) -> Option<Outcome> {
        let stm = pos.side_to_move;
        if let Some(o) = self.game_over(pos) {
            return Some(o);
        }
        if !ctx.has_legal_moves {
            if ctx.in_check
                && self.spec.shogi_pawn_drop_mate_illegal
                && crate::drop_mate::by_pawn_drop(&self.kinds, ctx)
            {
                // The foul loses: the mated side wins.
                return Some(Outcome::win(stm, "pawn-drop-mate"));
            }
            if ctx.in_check && self.spec.shatar_mate_rule {
                if let Some(o) = crate::shatar::mate_outcome(self, pos) {
                    return Some(o);
                }
            }
            return Some(if ctx.in_check {
                self.value_outcome(self.spec.checkmate_value, stm, "checkmate")
            } else {
                let mut v = self.spec.stalemate_value;
                if self.spec.stalemate_piece_count {
                    // Fewer pieces: the stalemate value; more: its opposite; as many: a draw.
                    let ours = self.count_board(pos, stm, ALL_PIECES);
                    let theirs = self.count_board(pos, stm.opposite(), ALL_PIECES);
                    v = match ours.cmp(&theirs) {
                        std::cmp::Ordering::Equal => Value::Draw,
                        std::cmp::Ordering::Less => v,
                        std::cmp::Ordering::Greater => v.negate(),
                    };
                }
                self.value_outcome(v, stm, "stalemate")
            });
        }

        if self.chasing.is_some() {
            if let Some(o) = crate::chasing::n_move_draw(pos, ctx, self.spec.n_move_rule) {
                return Some(o);
            }
        }
        let n = self.spec.n_fold_rule;
        if !ctx.counting && n > 0 && self.spec.move_repetition_illegal {
            if let Some(o) = crate::move_repetition::outcome(self, pos) {
                return Some(o);
            }
        }
        if !ctx.counting && n > 0 && ctx.repetitions >= n {
            let us = ctx.checks_in_cycle[stm.index()];
            let them = ctx.checks_in_cycle[stm.opposite().index()];
            if self.spec.perpetual_check_illegal && (us || them) {
                return Some(match (us, them) {
                    (false, true) => Outcome::win(stm, "perpetual-check"),
                    (true, false) => Outcome::win(stm.opposite(), "perpetual-check"),
                    _ => Outcome::draw("perpetual-check"),
                });
            }
            if self.chasing.is_some() {
                if let Some(o) = crate::chasing::chase_outcome(stm, ctx) {
                    return Some(o);
                }
            }
            let mut v = self.spec.n_fold_value;
            if self.spec.n_fold_value_absolute && stm == Color::Black {
                v = v.negate();
            }
            return Some(self.value_outcome(v, stm, "n-fold-repetition"));
        }
        // `countingRule`: the count ran out (not when mated; no moves was decided above).
        if !ctx.counting && self.spec.counting_rule.is_some() && crate::counting::expired(pos) {
            return Some(Outcome::draw("counting"));
        }
        if self.spec.sittuyin_promotion
            && !ctx.in_check
            && self.count_board(pos, stm, ALL_PIECES) == 2
        {
            let mut legal = RVec::new();
            self.moves_of(pos, &mut legal);
            if crate::sittuyin::only_promotions_left(self, pos, &legal) {
                return Some(Outcome::draw("promotions-only"));
            }
        }
        None
    }

    /// Whether `mv` takes a piece of the type `pawn` (for `countingRule`).
    fn takes_pawn(&self, pos: &Position, mv: Move) -> bool {
        if !mv.is_capture() || mv.is_castle() {
            return false;
        }
        let at = if pos.get(mv.to).is_empty() {
            pos.ep_victim
        } else {
            mv.to
        };
        piece_of(pos.get(at)).is_some_and(|(k, _)| self.kinds[k as usize].ty == spec::PAWN)
    }

    /// The pieces `countingRule` counts, on the board.
    fn counting_material(&self, pos: &Position) -> crate::counting::Material {
        let mut m = crate::counting::Material::default();
        for sq in self.board_squares() {
            if let Some((k, c)) = piece_of(pos.get(sq)) {
                let ty = self.kinds[k as usize].ty;
                if ty != crate::walling::WALL_TY {
                    m.add(ty, c);
                }
            }
        }
        m
    }
}
