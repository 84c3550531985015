//! A descriptor at work: the preset made from one descriptor, for one game. It seeds the
//! descriptor's triggers on pieces at the start, and after every move finds the carriers of
//! each trigger at its stage and runs the nested primitives (`docs/modifiers.md`).
//!
//! Pieces are known by the square they stand on. Across a move, a piece's square before the
//! move is found by `Dispatch::origin` (the mover, the castling rook, a survivor pushed by
//! piece-hp), which is what edges (`on-damaged`, check edges) compare.

use crate::descriptor::{
    AppliesTo, BoardTopology, ColorFilter, Condition, Descriptor, Node, NodeKind, Relation,
    SeedValue, SquareFilter, SquareRef, Target, Trigger, TriggerKind,
};
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    attr, stage, Cell, Color, Event, EventKind, Move, MoveEffects, Name, Position, PresetRules,
    Query, Role, RulesModel, Square, SquareSet, VariantInfo,
};

/// The attribute `set-capture-flag` writes: non-zero = the piece may not capture.
pub const CAPTURE_FLAG: Name = Name::lit("CaptureFlag");
/// The pseudo-attribute that names a piece's type.
pub const PIECE_TYPE: &str = "PieceType";
/// The state key that records that the start seeding has been done.
const SEEDED: Name = Name::lit("seeded");

/// The stage a trigger fires at.
pub fn trigger_stage(kind: TriggerKind) -> u8 {
    match kind {
        TriggerKind::Damaged => stage::DAMAGED,
        TriggerKind::Capture => stage::CAPTURE,
        TriggerKind::Captured => stage::CAPTURED,
        TriggerKind::Promotion => stage::PROMOTION,
        TriggerKind::Move => stage::MOVE,
        TriggerKind::MovedOntoSquare => stage::MOVED_ONTO_SQUARE,
        TriggerKind::CheckReceived => stage::CHECK_RECEIVED,
        TriggerKind::CheckDelivered => stage::CHECK_DELIVERED,
        TriggerKind::TurnEnd => stage::TURN_END,
        TriggerKind::TurnStart => stage::TURN_START,
    }
}

/// Every node of `nodes`, depth first.
pub fn walk<'a>(nodes: &'a [Node], out: &mut Vec<&'a Node>) {
    for n in nodes {
        out.push(n);
        match &n.kind {
            NodeKind::Trigger(t) => walk(&t.primitives, out),
            NodeKind::Conditional {
                then, otherwise, ..
            } => {
                walk(then, out);
                walk(otherwise, out);
            }
            _ => {}
        }
    }
}

/// Attribute names a condition reads.
fn condition_attrs<'a>(c: &'a Condition, out: &mut Vec<&'a str>) {
    match c {
        Condition::Attr { attr, .. } => out.push(attr),
        Condition::All(v) | Condition::Any(v) => v.iter().for_each(|c| condition_attrs(c, out)),
        Condition::Not(c) | Condition::Attacker(c) | Condition::Defender(c) => {
            condition_attrs(c, out)
        }
        _ => {}
    }
}

fn condition_reads_check(c: &Condition) -> bool {
    match c {
        Condition::InCheck(_) => true,
        Condition::All(v) | Condition::Any(v) => v.iter().any(condition_reads_check),
        Condition::Not(c) | Condition::Attacker(c) | Condition::Defender(c) => {
            condition_reads_check(c)
        }
        _ => false,
    }
}

/// What a descriptor needs from the pipeline: derived once for its manifest entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Needs {
    /// `on_after_move` stages (bit `1 << stage`).
    pub stages: u16,
    /// Reads or writes `Hp` (requires piece-hp).
    pub hp: bool,
    /// Asks about attacks or check (the host query).
    pub query: bool,
    /// Uses the capture flag (filters legal moves).
    pub capture_flag: bool,
    /// Changes a piece's type (`seed-attribute PieceType`).
    pub piece_type: bool,
    /// Sets the board's topology (a transform of the rules model).
    pub topology: bool,
}

impl Needs {
    /// The needs of `d`.
    pub fn of(d: &Descriptor) -> Needs {
        let mut all = Vec::new();
        walk(&d.primitives, &mut all);
        let mut n = Needs::default();
        for node in &all {
            match &node.kind {
                NodeKind::Trigger(t) => {
                    n.stages |= 1 << trigger_stage(t.kind);
                    if matches!(
                        t.kind,
                        TriggerKind::CheckReceived | TriggerKind::CheckDelivered
                    ) {
                        n.query = true;
                    }
                    if t.kind == TriggerKind::Damaged {
                        n.hp = true;
                    }
                }
                NodeKind::AddToAttribute { attr, .. } | NodeKind::SeedAttribute { attr, .. } => {
                    n.hp |= attr == "Hp";
                    n.piece_type |= attr == PIECE_TYPE;
                    n.capture_flag |= attr == CAPTURE_FLAG.as_str();
                }
                NodeKind::AddAura { .. } => n.stages |= 1 << stage::AURA,
                NodeKind::SetCaptureFlag { .. } => n.capture_flag = true,
                NodeKind::SetBoardTopology { .. } => n.topology = true,
                NodeKind::Conditional { cond, .. } => {
                    let mut attrs = Vec::new();
                    condition_attrs(cond, &mut attrs);
                    n.hp |= attrs.contains(&"Hp");
                    n.query |= condition_reads_check(cond);
                }
            }
        }
        if d.primitives
            .iter()
            .any(|n| matches!(n.kind, NodeKind::Conditional { .. }))
        {
            n.stages |= 1 << stage::CONDITIONAL;
        }
        n
    }

    /// Whether the descriptor never adds, moves or removes a piece (no `Hp`, no `PieceType`):
    /// then the host may keep the variant's legal generator (`MOVEMENT_NONE`).
    pub fn places_no_piece(&self) -> bool {
        !self.hp && !self.piece_type
    }
}

/// The preset made from one descriptor, for a game of one variant.
pub struct Modifier {
    d: Descriptor,
    seed: Name,
    info: VariantInfo,
    /// Slots of the top-level seedable nodes.
    top_bits: i32,
    /// Aura nodes (slot, radius, target attribute, delta, relation).
    auras: Vec<(u8, u8, Name, i32, Relation)>,
    /// Aura target attributes (derived).
    aura_targets: Vec<Name>,
    /// Every trigger node (slot, trigger), in document order: found once, not per move.
    triggers: Vec<(u8, Trigger)>,
    /// Bits of the triggers of each kind (index: [`TriggerKind::ALL`] order).
    masks: [i32; 10],
    /// Bits of the top-level conditionals (stage 10).
    conditional_bits: i32,
}

/// The event a trigger carries.
#[derive(Debug, Clone, Copy, Default)]
struct EventData {
    attacker: Option<Square>,
    defender: Option<Square>,
    /// The defender was captured: read it from the position before the move.
    defender_dead: bool,
    promoted_to: Option<u8>,
}

/// The piece a primitive acts on: on the board now, or a captured piece (read from before).
#[derive(Debug, Clone, Copy)]
enum Subject {
    Live(Square),
    Dead(Square),
}

/// One run of primitives: the positions, the effects record and the query.
struct Dispatch<'a> {
    pos: &'a mut Position,
    before: &'a Position,
    mv: Option<Move>,
    fx: &'a mut MoveEffects,
    query: Option<&'a dyn Query>,
    /// Set while running an `on-damaged` trigger: damage then does not fire it again.
    in_damaged: bool,
}

impl Modifier {
    /// Builds the preset, resolving piece names and squares against the variant (errors name
    /// the JSON path).
    pub fn new(d: Descriptor, info: &VariantInfo) -> Result<Modifier, String> {
        let seed = Name::new(&d.id).ok_or_else(|| format!("id `{}` is too long", d.id))?;
        let mut m = Modifier {
            seed,
            info: info.clone(),
            top_bits: 0,
            auras: Vec::new(),
            aura_targets: Vec::new(),
            triggers: Vec::new(),
            masks: [0; 10],
            conditional_bits: 0,
            d,
        };
        let mut all = Vec::new();
        walk(&m.d.primitives, &mut all);
        for node in &all {
            m.check_names(node)?;
            if let (NodeKind::Trigger(t), Some(slot)) = (&node.kind, node.slot) {
                m.triggers.push((slot, t.clone()));
                m.masks[kind_index(t.kind)] |= 1 << slot;
            }
            if let NodeKind::AddAura {
                radius,
                target_attr,
                delta,
                relation,
            } = &node.kind
            {
                let name = attr_name(target_attr, &node.path)?;
                let slot = node
                    .slot
                    .ok_or_else(|| format!("{}: aura without a slot", node.path))?;
                m.auras.push((slot, *radius, name, *delta, *relation));
                if !m.aura_targets.contains(&name) {
                    m.aura_targets.push(name);
                }
            }
        }
        for p in &m.d.applies_to.pieces {
            if m.kinds(p).is_empty() {
                return Err(format!(
                    "$.appliesTo.pieces: the variant `{}` has no piece `{p}`",
                    m.info.id
                ));
            }
        }
        if let Some(f) = &m.d.applies_to.squares {
            m.check_filter(f, "$.appliesTo.squares")?;
        }
        m.conditional_bits =
            m.d.primitives
                .iter()
                .filter(|n| matches!(n.kind, NodeKind::Conditional { .. }))
                .filter_map(|n| n.slot)
                .fold(0, |b, s| b | (1 << s));
        m.top_bits =
            m.d.primitives
                .iter()
                .filter_map(|n| n.slot)
                .fold(0, |b, s| b | (1 << s));
        Ok(m)
    }

    fn check_names(&self, node: &Node) -> Result<(), String> {
        let piece = |name: &str, at: &str| {
            if self.kinds(name).is_empty() {
                Err(format!(
                    "{}.params.{at}: the variant `{}` has no piece `{name}`",
                    node.path, self.info.id
                ))
            } else {
                Ok(())
            }
        };
        match &node.kind {
            NodeKind::Trigger(t) => {
                if let Some(f) = &t.filter {
                    self.check_filter(f, &format!("{}.params.filter", node.path))?;
                }
                match &t.target {
                    Target::Squares(v) => {
                        for s in v {
                            self.square(s).ok_or_else(|| {
                                format!("{}.params.target: {s:?} is not on the board", node.path)
                            })?;
                        }
                    }
                    Target::Relation {
                        piece_type: Some(p),
                        ..
                    } => piece(p, "target.filter.pieceType")?,
                    _ => {}
                }
            }
            NodeKind::SeedAttribute {
                value: SeedValue::PieceType(p),
                ..
            } => piece(p, "value")?,
            NodeKind::AddToAttribute { attr, .. } | NodeKind::SeedAttribute { attr, .. }
                if attr != PIECE_TYPE =>
            {
                attr_name(attr, &node.path)?;
            }
            NodeKind::Conditional { cond, .. } => {
                let mut names = Vec::new();
                condition_pieces(cond, &mut names);
                for n in names {
                    piece(n, "if")?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn check_filter(&self, f: &SquareFilter, at: &str) -> Result<(), String> {
        match f {
            SquareFilter::Squares(v) => {
                for s in v {
                    self.square(s)
                        .ok_or_else(|| format!("{at}: {s:?} is not on the board"))?;
                }
            }
            SquareFilter::Predicate { file, rank } => {
                if file.is_some_and(|f| f >= self.info.files)
                    || rank.is_some_and(|r| r >= self.info.ranks)
                {
                    return Err(format!("{at}: the file or rank is not on the board"));
                }
            }
        }
        Ok(())
    }

    /// Piece kinds a name means: a role name (`queen`) or a name of the piece table.
    fn kinds(&self, name: &str) -> Vec<u8> {
        let role = Role::parse(name);
        self.info
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, t)| Some(t.role) == role || t.name.as_str().eq_ignore_ascii_case(name))
            .map(|(i, _)| i as u8)
            .collect()
    }

    fn square(&self, s: &SquareRef) -> Option<Square> {
        let (files, ranks) = (self.info.files as u16, self.info.ranks as u16);
        let sq = match s {
            SquareRef::Index(i) if *i < files * ranks => {
                Square::new((i % files) as u8, (i / files) as u8)
            }
            SquareRef::Index(_) => return None,
            SquareRef::Name(n) => Square::parse(n)?,
        };
        (sq.file() < self.info.files && sq.rank() < self.info.ranks).then_some(sq)
    }

    fn in_filter(&self, f: &SquareFilter, sq: Square) -> bool {
        match f {
            SquareFilter::Squares(v) => v.iter().any(|s| self.square(s) == Some(sq)),
            SquareFilter::Predicate { file, rank } => {
                file.is_none_or(|f| f == sq.file()) && rank.is_none_or(|r| r == sq.rank())
            }
        }
    }

    fn is_kind(&self, cell: Cell, name: &str) -> bool {
        cell.kind().is_some_and(|k| self.kinds(name).contains(&k))
    }

    fn default_hp(&self, cell: Cell) -> i32 {
        // piece-hp's defaults: kings 1, every other piece 2.
        let king = cell
            .kind()
            .and_then(|k| self.info.pieces.get(k as usize))
            .is_some_and(|t| t.role == Role::KING);
        if king {
            1
        } else {
            2
        }
    }

    fn applies_to(&self, a: &AppliesTo, pos: &Position, sq: Square) -> bool {
        let cell = pos.get(sq);
        let Some(color) = cell.color() else {
            return false;
        };
        color_matches(a.color, color)
            && (a.pieces.is_empty() || a.pieces.iter().any(|p| self.is_kind(cell, p)))
            && a.squares.as_ref().is_none_or(|f| self.in_filter(f, sq))
    }

    fn bits(&self, pos: &Position, sq: Square) -> i32 {
        pos.attribute(sq, self.seed).unwrap_or(0)
    }

    /// Recomputes every aura target attribute from the pieces projecting auras.
    fn recompute_auras(&self, pos: &mut Position) {
        if self.auras.is_empty() {
            return;
        }
        let pieces: Vec<Square> = pos.squares().filter(|&s| pos.get(s).is_piece()).collect();
        for &s in &pieces {
            for &n in &self.aura_targets {
                pos.remove_attribute(s, n);
            }
        }
        for &src in &pieces {
            let bits = self.bits(pos, src);
            let Some(src_color) = pos.get(src).color() else {
                continue;
            };
            for &(slot, radius, name, delta, relation) in &self.auras {
                if bits & (1 << slot) == 0 {
                    continue;
                }
                for &t in &pieces {
                    let (df, dr) = (
                        (t.file() as i32 - src.file() as i32).abs(),
                        (t.rank() as i32 - src.rank() as i32).abs(),
                    );
                    if t == src || df.max(dr) > radius as i32 {
                        continue;
                    }
                    if !relation_matches(relation, src_color, pos.get(t)) {
                        continue;
                    }
                    let v = pos.attribute(t, name).unwrap_or(0) + delta;
                    set_counter(pos, t, name, v);
                }
            }
        }
    }
}

fn condition_pieces<'a>(c: &'a Condition, out: &mut Vec<&'a str>) {
    match c {
        Condition::PieceType(p) | Condition::PromotedTo(p) => out.push(p),
        Condition::All(v) | Condition::Any(v) => v.iter().for_each(|c| condition_pieces(c, out)),
        Condition::Not(c) | Condition::Attacker(c) | Condition::Defender(c) => {
            condition_pieces(c, out)
        }
        _ => {}
    }
}

fn attr_name(a: &str, path: &str) -> Result<Name, String> {
    Name::new(a).ok_or_else(|| format!("{path}: attribute name `{a}` is too long"))
}

fn color_matches(f: ColorFilter, c: Color) -> bool {
    matches!(
        (f, c),
        (ColorFilter::Both, _)
            | (ColorFilter::White, Color::White)
            | (ColorFilter::Black, Color::Black)
    )
}

fn relation_matches(r: Relation, of: Color, cell: Cell) -> bool {
    match r {
        Relation::Ally => cell.is_color(of),
        Relation::Enemy => cell.is_color(of.opposite()),
        Relation::All => cell.is_piece(),
    }
}

/// Writes a plain counter: 0 removes the attribute (absent means 0).
fn set_counter(pos: &mut Position, sq: Square, name: Name, v: i32) {
    if v == 0 {
        pos.remove_attribute(sq, name);
    } else {
        pos.set_attribute(sq, name, v);
    }
}

impl Dispatch<'_> {
    /// Where the piece now on `sq` stood before the move, if it was on the board.
    fn origin(&self, sq: Square) -> Option<Square> {
        let cell = self.pos.get(sq);
        let Some(mv) = self.mv else {
            return Some(sq);
        };
        if sq == mv.destination() {
            // A dropped piece was not on the board.
            return mv.from.to_option();
        }
        if self.before.get(sq) == cell {
            return Some(sq);
        }
        if mv.is_castle() && self.before.get(mv.to) == cell {
            return Some(mv.to);
        }
        // A survivor pushed off the square it was attacked on (piece-hp).
        if mv.is_capture() && self.before.get(mv.to) == cell && self.before.get(sq).is_empty() {
            return Some(mv.to);
        }
        None
    }

    /// Pieces whose square changed: the mover, a castling rook, pushed pieces.
    fn moved(&self) -> Vec<Square> {
        if self.mv.is_none() {
            return Vec::new();
        }
        self.pos
            .squares()
            .filter(|&s| self.pos.get(s).is_piece() && self.origin(s).is_some_and(|o| o != s))
            .collect()
    }

    fn hp(&self, m: &Modifier, s: Subject) -> i32 {
        let (p, sq) = match s {
            Subject::Live(sq) => (&*self.pos, sq),
            Subject::Dead(sq) => (self.before, sq),
        };
        p.attribute(sq, attr::HP)
            .unwrap_or_else(|| m.default_hp(p.get(sq)))
    }

    fn event(&mut self, kind: EventKind, sq: Square, value: i32, note: Name) {
        if self.fx.record_events {
            let mut e = Event::new(kind, sq, self.pos.get(sq));
            e.value = value;
            e.note = note;
            self.fx.event(e);
        }
    }

    /// Runs `nodes` on `subject`.
    fn run(&mut self, m: &Modifier, nodes: &[Node], subject: Subject, ev: EventData) {
        for n in nodes {
            if let Subject::Live(sq) = subject {
                if !self.pos.get(sq).is_piece() {
                    // Removed by an earlier primitive (Hp 0): nothing left to act on.
                    return;
                }
            }
            self.run_one(m, n, subject, ev);
        }
    }

    fn run_one(&mut self, m: &Modifier, n: &Node, subject: Subject, ev: EventData) {
        if let NodeKind::Conditional {
            cond,
            then,
            otherwise,
        } = &n.kind
        {
            if self.holds(m, cond, subject, ev) {
                self.run(m, then, subject, ev);
            } else {
                self.run(m, otherwise, subject, ev);
            }
            return;
        }
        // Every other primitive changes the piece; a dead piece has nothing to change.
        let Subject::Live(sq) = subject else {
            return;
        };
        match &n.kind {
            NodeKind::Trigger(_) | NodeKind::AddAura { .. } => {
                let Some(slot) = n.slot else {
                    return;
                };
                let bits = m.bits(self.pos, sq) | (1 << slot);
                self.pos.set_attribute(sq, m.seed, bits);
                self.event(EventKind::ATTRIBUTE, sq, bits, m.seed);
                if matches!(n.kind, NodeKind::AddAura { .. }) {
                    m.recompute_auras(self.pos);
                }
            }
            NodeKind::AddToAttribute { attr, delta } => {
                if attr == "Hp" {
                    let v = self.hp(m, subject) + delta;
                    self.set_hp(m, sq, v);
                } else if let Some(name) = Name::new(attr) {
                    let v = self
                        .pos
                        .attribute(sq, name)
                        .unwrap_or(0)
                        .saturating_add(*delta);
                    set_counter(self.pos, sq, name, v);
                    self.event(EventKind::ATTRIBUTE, sq, v, name);
                }
            }
            NodeKind::SeedAttribute { attr, value } => match value {
                SeedValue::PieceType(p) => {
                    let cell = self.pos.get(sq);
                    let (Some(kind), Some(color)) = (m.kinds(p).first().copied(), cell.color())
                    else {
                        return;
                    };
                    if cell.kind() != Some(kind) {
                        // The cell changes, the piece (and its attributes) stays.
                        self.pos.set_raw(sq, Cell::piece(kind, color));
                        self.pos.invalidate_accel();
                        self.event(EventKind::TRANSFORM, sq, kind as i32, m.seed);
                    }
                }
                SeedValue::Int(v) => {
                    if attr == "Hp" {
                        self.set_hp(m, sq, *v);
                    } else if let Some(name) = Name::new(attr) {
                        set_counter(self.pos, sq, name, *v);
                        self.event(EventKind::ATTRIBUTE, sq, *v, name);
                    }
                }
            },
            NodeKind::SetCaptureFlag { flag } => {
                set_counter(self.pos, sq, CAPTURE_FLAG, *flag);
                self.event(EventKind::ATTRIBUTE, sq, *flag, CAPTURE_FLAG);
            }
            // The board's topology is the rules model's, set when the pipeline is built.
            NodeKind::Conditional { .. } | NodeKind::SetBoardTopology { .. } => {}
        }
    }

    /// Sets hit points: 0 or less removes the piece; a drop fires `on-damaged` on it.
    fn set_hp(&mut self, m: &Modifier, sq: Square, v: i32) {
        let old = self.hp(m, Subject::Live(sq));
        if v <= 0 {
            self.event(EventKind::DAMAGE, sq, old - v, attr::HP);
            self.event(EventKind::REMOVE, sq, 0, m.seed);
            self.pos.clear(sq);
            return;
        }
        self.pos.set_attribute(sq, attr::HP, v);
        if v < old {
            self.event(EventKind::DAMAGE, sq, old - v, attr::HP);
            if !self.in_damaged {
                self.in_damaged = true;
                self.fire(m, TriggerKind::Damaged, sq, EventData::default());
                self.in_damaged = false;
            }
        } else if v > old {
            self.event(EventKind::HEAL, sq, v - old, attr::HP);
        }
    }

    fn holds(&self, m: &Modifier, c: &Condition, s: Subject, ev: EventData) -> bool {
        let (p, sq) = match s {
            Subject::Live(sq) => (&*self.pos, sq),
            Subject::Dead(sq) => (self.before, sq),
        };
        match c {
            Condition::Attr { attr, op, value } => {
                let v = if attr == "Hp" {
                    self.hp(m, s)
                } else {
                    Name::new(attr)
                        .and_then(|n| p.attribute(sq, n))
                        .unwrap_or(0)
                };
                op.holds(v, *value)
            }
            Condition::PieceType(t) => m.is_kind(p.get(sq), t),
            Condition::Color(f) => p.get(sq).color().is_some_and(|c| color_matches(*f, c)),
            Condition::InCheck(want) => {
                let Some(color) = p.get(sq).color() else {
                    return false;
                };
                let now = self.query.is_some_and(|q| q.in_check(self.pos, color));
                now == *want
            }
            Condition::PromotedTo(t) => ev.promoted_to.is_some_and(|k| m.kinds(t).contains(&k)),
            Condition::Attacker(c) => ev
                .attacker
                .is_some_and(|a| self.holds(m, c, Subject::Live(a), ev)),
            Condition::Defender(c) => ev.defender.is_some_and(|d| {
                let who = if ev.defender_dead {
                    Subject::Dead(d)
                } else {
                    Subject::Live(d)
                };
                self.holds(m, c, who, ev)
            }),
            Condition::All(v) => v.iter().all(|c| self.holds(m, c, s, ev)),
            Condition::Any(v) => v.iter().any(|c| self.holds(m, c, s, ev)),
            Condition::Not(c) => !self.holds(m, c, s, ev),
        }
    }

    /// Fires every trigger of `kind` the live piece on `sq` carries.
    fn fire(&mut self, m: &Modifier, kind: TriggerKind, sq: Square, ev: EventData) {
        let bits = m.bits(self.pos, sq);
        if bits == 0 {
            return;
        }
        self.fire_bits(m, kind, bits, Subject::Live(sq), ev);
    }

    fn fire_bits(&mut self, m: &Modifier, kind: TriggerKind, bits: i32, s: Subject, ev: EventData) {
        for (slot, t) in &m.triggers {
            if t.kind != kind || bits & (1 << slot) == 0 {
                continue;
            }
            if !self.turn_matches(t, kind) {
                continue;
            }
            let sq = match s {
                Subject::Live(sq) | Subject::Dead(sq) => sq,
            };
            if let Some(f) = &t.filter {
                if !m.in_filter(f, sq) {
                    continue;
                }
            }
            if let Subject::Live(at) = s {
                if !self.pos.get(at).is_piece() {
                    return;
                }
            }
            if self.fx.record_events {
                // `id:on-kind`, shortened to fit a 31-byte name.
                let note = Name::new(&format!("{}:{}", m.d.id, kind.name()))
                    .or_else(|| Name::new(&format!("{}:{}", m.d.id, &kind.name()[3..])))
                    .unwrap_or(m.seed);
                let mut e = Event::new(
                    EventKind::TRIGGER,
                    sq,
                    match s {
                        Subject::Live(q) => self.pos.get(q),
                        Subject::Dead(q) => self.before.get(q),
                    },
                );
                e.value = trigger_stage(kind) as i32;
                e.note = note;
                self.fx.event(e);
            }
            for target in self.targets(m, t, s, ev) {
                self.run(m, &t.primitives, target, ev);
            }
        }
    }

    fn turn_matches(&self, t: &Trigger, kind: TriggerKind) -> bool {
        match kind {
            TriggerKind::TurnEnd => color_matches(t.color, self.fx.mover),
            TriggerKind::TurnStart => color_matches(t.color, self.pos.side_to_move),
            _ => true,
        }
    }

    /// The pieces a trigger's primitives act on.
    fn targets(&self, m: &Modifier, t: &Trigger, s: Subject, ev: EventData) -> Vec<Subject> {
        let live = |sq: Option<Square>| -> Vec<Subject> {
            match sq {
                Some(q) if self.pos.get(q).is_piece() => vec![Subject::Live(q)],
                _ => Vec::new(),
            }
        };
        match &t.target {
            Target::SelfPiece => vec![s],
            Target::Attacker => live(ev.attacker),
            Target::Defender => match (t.kind, ev.defender) {
                // The defender of on-captured is the dead carrier itself.
                (TriggerKind::Captured, _) => vec![s],
                (_, d) => live(d),
            },
            Target::Squares(v) => v
                .iter()
                .filter_map(|r| m.square(r))
                .filter(|&q| self.pos.get(q).is_piece())
                .map(Subject::Live)
                .collect(),
            Target::Relation {
                relation,
                piece_type,
            } => {
                let (p, sq) = match s {
                    Subject::Live(q) => (&*self.pos, q),
                    Subject::Dead(q) => (self.before, q),
                };
                let Some(color) = p.get(sq).color() else {
                    return Vec::new();
                };
                self.pos
                    .squares()
                    .filter(|&q| {
                        let c = self.pos.get(q);
                        (matches!(s, Subject::Dead(_)) || q != sq)
                            && relation_matches(*relation, color, c)
                            && piece_type.as_ref().is_none_or(|t| m.is_kind(c, t))
                    })
                    .map(Subject::Live)
                    .collect()
            }
        }
    }

    /// Live carriers of a trigger kind, in square order.
    fn carriers(&self, m: &Modifier, kind: TriggerKind) -> Vec<Square> {
        self.carriers_of(m, m.slots_of(kind))
    }

    /// Live pieces carrying any seed bit of `mask`, in square order.
    fn carriers_of(&self, m: &Modifier, mask: i32) -> Vec<Square> {
        if mask == 0 {
            return Vec::new();
        }
        let mut v: Vec<Square> = self
            .pos
            .attributes()
            .iter()
            .filter(|a| a.name == m.seed && a.value & mask != 0)
            .map(|a| a.square)
            .collect();
        v.sort_by_key(|s| s.index());
        v
    }

    fn capture_event(&self) -> EventData {
        let Some(mv) = self.mv else {
            return EventData::default();
        };
        let mover = self.fx.mover;
        let attacker = [mv.destination(), mv.from]
            .into_iter()
            .find(|&s| !s.is_none() && self.pos.get(s).is_color(mover));
        let dead = self.fx.captured().first().map(|c| c.square);
        let defender = dead.or_else(|| {
            // A survivor of piece-hp: where it stands now.
            (mv.is_capture())
                .then(|| {
                    let victim = self.before.get(mv.to);
                    self.pos
                        .squares()
                        .find(|&s| self.pos.get(s) == victim && self.origin(s) == Some(mv.to))
                })
                .flatten()
        });
        EventData {
            attacker,
            defender,
            defender_dead: dead.is_some(),
            promoted_to: None,
        }
    }

    /// Runs one stage.
    fn stage(&mut self, m: &Modifier, st: u8) {
        match st {
            stage::AURA => m.recompute_auras(self.pos),
            stage::DAMAGED => {
                for sq in self.carriers(m, TriggerKind::Damaged) {
                    let Some(o) = self.origin(sq) else { continue };
                    let was = self.before.get(o);
                    if !was.is_piece() {
                        continue;
                    }
                    let before_hp = self
                        .before
                        .attribute(o, attr::HP)
                        .unwrap_or_else(|| m.default_hp(was));
                    if self.hp(m, Subject::Live(sq)) < before_hp {
                        self.in_damaged = true;
                        self.fire(m, TriggerKind::Damaged, sq, EventData::default());
                        self.in_damaged = false;
                    }
                }
            }
            stage::CAPTURE => {
                let Some(mv) = self.mv else { return };
                if !(mv.is_capture() || self.fx.captured_len > 0) {
                    return;
                }
                let ev = self.capture_event();
                if let Some(a) = ev.attacker {
                    if m.slots_of(TriggerKind::Capture) & m.bits(self.pos, a) != 0 {
                        self.fire(m, TriggerKind::Capture, a, ev);
                    }
                }
            }
            stage::CAPTURED => {
                let mask = m.slots_of(TriggerKind::Captured);
                let ev = self.capture_event();
                let dead: Vec<Square> = self.fx.captured().iter().map(|c| c.square).collect();
                for sq in dead {
                    let bits = self.before.attribute(sq, m.seed).unwrap_or(0);
                    if bits & mask != 0 {
                        let ev = EventData {
                            defender: Some(sq),
                            defender_dead: true,
                            ..ev
                        };
                        self.fire_bits(m, TriggerKind::Captured, bits, Subject::Dead(sq), ev);
                    }
                }
            }
            stage::PROMOTION => {
                let Some(mv) = self.mv else { return };
                if !mv.is_promotion() {
                    return;
                }
                let sq = mv.destination();
                let ev = EventData {
                    promoted_to: Some(mv.piece),
                    ..EventData::default()
                };
                if self.pos.get(sq).is_color(self.fx.mover) {
                    self.fire(m, TriggerKind::Promotion, sq, ev);
                }
            }
            stage::MOVE | stage::MOVED_ONTO_SQUARE => {
                let kind = if st == stage::MOVE {
                    TriggerKind::Move
                } else {
                    TriggerKind::MovedOntoSquare
                };
                if m.slots_of(kind) == 0 {
                    return;
                }
                let mut moved = self.moved();
                moved.sort_by_key(|s| s.index());
                for sq in moved {
                    self.fire(m, kind, sq, EventData::default());
                }
            }
            stage::CHECK_RECEIVED => self.check_received(m),
            stage::CHECK_DELIVERED => self.check_delivered(m),
            stage::CONDITIONAL => {
                let carriers = self.carriers_of(m, m.conditional_bits);
                for sq in carriers {
                    let bits = m.bits(self.pos, sq);
                    for n in &m.d.primitives {
                        if n.slot.is_some_and(|s| bits & (1 << s) != 0)
                            && matches!(n.kind, NodeKind::Conditional { .. })
                            && self.pos.get(sq).is_piece()
                        {
                            self.run_one(m, n, Subject::Live(sq), EventData::default());
                        }
                    }
                }
            }
            stage::TURN_END => {
                for sq in self.carriers(m, TriggerKind::TurnEnd) {
                    self.fire(m, TriggerKind::TurnEnd, sq, EventData::default());
                }
            }
            stage::TURN_START => {
                for sq in self.carriers(m, TriggerKind::TurnStart) {
                    self.fire(m, TriggerKind::TurnStart, sq, EventData::default());
                }
            }
            _ => {}
        }
    }

    /// The pieces of `by` attacking the royal `r` (of the other side) in the position
    /// before the move, mapped to where they stand after it.
    fn attackers_before(&self, r_now: Square, by: Color) -> SquareSet {
        let (Some(q), Some(o)) = (self.query, self.origin(r_now)) else {
            return SquareSet::EMPTY;
        };
        if self.before.get(o) != self.pos.get(r_now) {
            return SquareSet::EMPTY;
        }
        q.attackers(self.before, o, by)
    }

    fn royals(&self) -> Vec<(Square, Color)> {
        let Some(q) = self.query else {
            return Vec::new();
        };
        let mut v = Vec::new();
        for c in [Color::White, Color::Black] {
            if let Some(set) = q.royals(self.pos, c) {
                v.extend(set.iter().map(|s| (s, c)));
            }
        }
        v.sort_by_key(|(s, _)| s.index());
        v
    }

    fn check_received(&mut self, m: &Modifier) {
        if m.slots_of(TriggerKind::CheckReceived) == 0 {
            return;
        }
        let Some(q) = self.query else { return };
        for (r, color) in self.royals() {
            if m.slots_of(TriggerKind::CheckReceived) & m.bits(self.pos, r) == 0 {
                continue;
            }
            let now = q.attackers(self.pos, r, color.opposite());
            if now.is_empty() || !self.attackers_before(r, color.opposite()).is_empty() {
                continue;
            }
            let ev = EventData {
                attacker: now.iter().next(),
                defender: Some(r),
                defender_dead: false,
                promoted_to: None,
            };
            self.fire(m, TriggerKind::CheckReceived, r, ev);
        }
    }

    fn check_delivered(&mut self, m: &Modifier) {
        let mask = m.slots_of(TriggerKind::CheckDelivered);
        if mask == 0 {
            return;
        }
        let Some(q) = self.query else { return };
        let mut fired: Vec<(Square, Square)> = Vec::new();
        for (r, color) in self.royals() {
            let by = color.opposite();
            let now = q.attackers(self.pos, r, by);
            if now.is_empty() {
                continue;
            }
            let was = self.attackers_before(r, by);
            for a in now.iter() {
                // Edge: a piece that attacked this royal before the move (from wherever it
                // stood) does not fire again; a revealed slider did not attack before.
                let old = self.origin(a).is_some_and(|o| was.contains(o));
                if old || m.bits(self.pos, a) & mask == 0 {
                    continue;
                }
                fired.push((a, r));
            }
        }
        fired.sort_by_key(|(a, r)| (a.index(), r.index()));
        let mut done: Vec<Square> = Vec::new();
        for (a, r) in fired {
            if done.contains(&a) {
                continue;
            }
            done.push(a);
            let ev = EventData {
                attacker: Some(a),
                defender: Some(r),
                defender_dead: false,
                promoted_to: None,
            };
            self.fire(m, TriggerKind::CheckDelivered, a, ev);
        }
    }
}

impl Modifier {
    /// Bits of the triggers of `kind`.
    fn slots_of(&self, kind: TriggerKind) -> i32 {
        self.masks[kind_index(kind)]
    }
}

fn kind_index(kind: TriggerKind) -> usize {
    TriggerKind::ALL
        .iter()
        .position(|(k, _)| *k == kind)
        .unwrap_or(0)
}

impl Modifier {
    fn run_stage(
        &self,
        pos: &mut Position,
        before: &Position,
        mv: Move,
        st: u8,
        fx: &mut MoveEffects,
        query: Option<&dyn Query>,
    ) {
        let mut d = Dispatch {
            pos,
            before,
            mv: Some(mv),
            fx,
            query,
            in_damaged: false,
        };
        d.stage(self, st);
    }
}

impl PresetRules for Modifier {
    fn transform_model(&self, model: &mut RulesModel) -> Result<(), String> {
        for n in &self.d.primitives {
            if let NodeKind::SetBoardTopology { topology } = n.kind {
                match topology {
                    BoardTopology::WrapFiles => model.topology.wrap_files = true,
                }
            }
        }
        Ok(())
    }

    fn setup_position(&self, pos: &mut Position) {
        if pos.state_value(self.seed, SEEDED).is_some() {
            return;
        }
        let pieces: Vec<Square> = pos
            .squares()
            .filter(|&s| self.applies_to(&self.d.applies_to, pos, s))
            .collect();
        let before = pos.clone();
        let mut fx = MoveEffects::new(pos.side_to_move, false);
        for &sq in &pieces {
            if self.top_bits != 0 {
                let bits = self.bits(pos, sq) | self.top_bits;
                pos.set_attribute(sq, self.seed, bits);
            }
        }
        // Top-level effects (not seeded) act once, at the start.
        let effects: Vec<&Node> = self
            .d
            .primitives
            .iter()
            .filter(|n| n.slot.is_none())
            .collect();
        if !effects.is_empty() {
            let mut d = Dispatch {
                pos,
                before: &before,
                mv: None,
                fx: &mut fx,
                query: None,
                in_damaged: true,
            };
            for &sq in &pieces {
                for n in &effects {
                    if d.pos.get(sq).is_piece() {
                        d.run_one(self, n, Subject::Live(sq), EventData::default());
                    }
                }
            }
        }
        self.recompute_auras(pos);
        pos.set_state_value(self.seed, SEEDED, 1);
    }

    fn filter_legal_moves(&self, pos: &Position, moves: &mut RVec<Move>) {
        if !pos.attributes().iter().any(|a| a.name == CAPTURE_FLAG) {
            return;
        }
        moves.retain(|m| {
            !(m.is_capture()
                && !m.is_drop()
                && pos.attribute(m.from, CAPTURE_FLAG).unwrap_or(0) != 0)
        });
    }

    fn on_after_move(
        &self,
        pos: &mut Position,
        before: &Position,
        mv: Move,
        st: u8,
        fx: &mut MoveEffects,
    ) {
        self.run_stage(pos, before, mv, st, fx, None);
    }

    fn on_after_move_with(
        &self,
        pos: &mut Position,
        before: &Position,
        mv: Move,
        st: u8,
        fx: &mut MoveEffects,
        query: &dyn Query,
    ) {
        self.run_stage(pos, before, mv, st, fx, Some(query));
    }
}
