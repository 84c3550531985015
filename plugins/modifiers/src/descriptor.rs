//! The descriptor model: what a custom modifier JSON file says, validated (see
//! `docs/modifiers.md`). Names that depend on the variant (piece names, squares) are kept as
//! written and resolved when a game is set up (`crate::engine`).

/// Hard caps of the catalogue.
pub const MAX_DEPTH: usize = 3;
/// At most this many primitive nodes per descriptor.
pub const MAX_NODES: usize = 50;
/// At most this many seedable nodes (bits of the seed attribute).
pub const MAX_SEEDABLE: usize = 31;
/// The descriptor version this plugin reads.
pub const VERSION: i64 = 1;

/// A validated descriptor.
#[derive(Debug, Clone, PartialEq)]
pub struct Descriptor {
    /// Id (`[a-z0-9][a-z0-9-]*`, at most 31 bytes).
    pub id: String,
    /// Human name (the id when not given).
    pub name: String,
    /// Description (may be empty).
    pub description: String,
    /// Pieces the top-level primitives apply to at the start.
    pub applies_to: AppliesTo,
    /// Top-level nodes.
    pub primitives: Vec<Node>,
    /// Number of nodes in the whole descriptor.
    pub node_count: usize,
    /// Number of seedable nodes (bits used in the seed attribute).
    pub seedable_count: usize,
}

/// `appliesTo`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AppliesTo {
    /// Piece names or roles; empty = every piece.
    pub pieces: Vec<String>,
    /// Colour filter.
    pub color: ColorFilter,
    /// Square filter; `None` = everywhere.
    pub squares: Option<SquareFilter>,
}

/// A colour filter (`"white"`, `"black"`, `"both"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorFilter {
    /// White only.
    White,
    /// Black only.
    Black,
    /// Both (default).
    #[default]
    Both,
}

/// A square as written: an index (`rank * files + file`) or a name (`"d4"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SquareRef {
    /// Index, a1 = 0.
    Index(u16),
    /// Algebraic name.
    Name(String),
}

/// A square filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SquareFilter {
    /// Explicit squares.
    Squares(Vec<SquareRef>),
    /// A file and/or a rank (0-based; at least one is set).
    Predicate {
        /// File, 0 = a.
        file: Option<u8>,
        /// Rank, 0 = first.
        rank: Option<u8>,
    },
}

/// One node of a descriptor.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// JSON path of the node (`$.primitives[0].params.primitives[1]`), for messages.
    pub path: String,
    /// Bit in the seed attribute, for seedable nodes (triggers, `add-aura`, top-level
    /// `conditional`), numbered in document order (depth first).
    pub slot: Option<u8>,
    /// What the node does.
    pub kind: NodeKind,
}

/// The primitive kinds.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// A trigger primitive (`on-*`).
    Trigger(Trigger),
    /// `add-to-attribute`.
    AddToAttribute {
        /// Attribute name.
        attr: String,
        /// Amount added.
        delta: i32,
    },
    /// `seed-attribute`.
    SeedAttribute {
        /// Attribute name (`PieceType` changes the piece type).
        attr: String,
        /// Value.
        value: SeedValue,
    },
    /// `add-aura`.
    AddAura {
        /// King-step radius, 1..=7.
        radius: u8,
        /// Attribute the aura adds to.
        target_attr: String,
        /// Amount.
        delta: i32,
        /// Which pieces around it are affected.
        relation: Relation,
    },
    /// `set-capture-flag`.
    SetCaptureFlag {
        /// 0 (armed) or 1 (disarmed).
        flag: i32,
    },
    /// `set-board-topology` (top level only): the board's topology for the whole game, a
    /// transform of the variant's rules model.
    SetBoardTopology {
        /// Which topology.
        topology: BoardTopology,
    },
    /// `conditional`.
    Conditional {
        /// Condition on the target piece.
        cond: Condition,
        /// Nodes run when it holds.
        then: Vec<Node>,
        /// Nodes run otherwise (may be empty).
        otherwise: Vec<Node>,
    },
}

/// The topologies of `set-board-topology`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardTopology {
    /// `wrap-files`: the a- and h-files are adjacent (a cylinder; wrap-board's rule).
    WrapFiles,
}

/// Value of `seed-attribute`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeedValue {
    /// An integer attribute value.
    Int(i32),
    /// A piece name or role, for `PieceType`.
    PieceType(String),
}

/// The ten trigger kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TriggerKind {
    /// `on-turn-start`, stage 12.
    TurnStart,
    /// `on-capture`, stage 3.
    Capture,
    /// `on-damaged`, stage 2.
    Damaged,
    /// `on-move`, stage 6.
    Move,
    /// `on-turn-end`, stage 11.
    TurnEnd,
    /// `on-promotion`, stage 5.
    Promotion,
    /// `on-check-received`, stage 8.
    CheckReceived,
    /// `on-check-delivered`, stage 9.
    CheckDelivered,
    /// `on-moved-onto-square`, stage 7.
    MovedOntoSquare,
    /// `on-captured`, stage 4.
    Captured,
}

impl TriggerKind {
    /// Every kind with its JSON name.
    pub const ALL: [(TriggerKind, &'static str); 10] = [
        (TriggerKind::TurnStart, "on-turn-start"),
        (TriggerKind::Capture, "on-capture"),
        (TriggerKind::Damaged, "on-damaged"),
        (TriggerKind::Move, "on-move"),
        (TriggerKind::TurnEnd, "on-turn-end"),
        (TriggerKind::Promotion, "on-promotion"),
        (TriggerKind::CheckReceived, "on-check-received"),
        (TriggerKind::CheckDelivered, "on-check-delivered"),
        (TriggerKind::MovedOntoSquare, "on-moved-onto-square"),
        (TriggerKind::Captured, "on-captured"),
    ];
    /// The JSON name.
    pub fn name(self) -> &'static str {
        TriggerKind::ALL
            .iter()
            .find(|(k, _)| *k == self)
            .map(|(_, n)| *n)
            .unwrap_or("")
    }
    /// Whether the trigger carries a capture or check event with an attacker and a defender
    /// (so `target: "attacker" | "defender"` means something).
    pub fn has_pair_event(self) -> bool {
        matches!(
            self,
            TriggerKind::Capture
                | TriggerKind::Captured
                | TriggerKind::CheckReceived
                | TriggerKind::CheckDelivered
        )
    }
}

/// A trigger primitive.
#[derive(Debug, Clone, PartialEq)]
pub struct Trigger {
    /// Which trigger.
    pub kind: TriggerKind,
    /// Whose turn (`on-turn-start` / `on-turn-end`; `Both` elsewhere).
    pub color: ColorFilter,
    /// Square filter (`on-moved-onto-square` only; required there).
    pub filter: Option<SquareFilter>,
    /// Target of the nested primitives.
    pub target: Target,
    /// Nested nodes.
    pub primitives: Vec<Node>,
}

/// A target resolver.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Target {
    /// The carrier (default).
    #[default]
    SelfPiece,
    /// The event's attacker.
    Attacker,
    /// The event's defender.
    Defender,
    /// Every piece on these squares.
    Squares(Vec<SquareRef>),
    /// Every ally (except the carrier) or enemy of the carrier, optionally of one type.
    Relation {
        /// Ally or enemy (`All` is not allowed here).
        relation: Relation,
        /// Piece name or role filter.
        piece_type: Option<String>,
    },
}

/// Relation to a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Relation {
    /// Same colour.
    #[default]
    Ally,
    /// Other colour.
    Enemy,
    /// Either.
    All,
}

/// Comparison operator of an attribute condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// Applies the comparison.
    pub fn holds(self, a: i32, b: i32) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
}

/// A condition of `conditional`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    /// `{"attr": .., "op": .., "value": ..}`
    Attr {
        /// Attribute name.
        attr: String,
        /// Operator.
        op: CmpOp,
        /// Right-hand side.
        value: i32,
    },
    /// `{"pieceType": ..}`
    PieceType(String),
    /// `{"color": ..}`
    Color(ColorFilter),
    /// `{"inCheck": ..}`
    InCheck(bool),
    /// `{"promotedTo": ..}`
    PromotedTo(String),
    /// `{"all": [..]}`
    All(Vec<Condition>),
    /// `{"any": [..]}`
    Any(Vec<Condition>),
    /// `{"not": ..}`
    Not(Box<Condition>),
    /// `{"attacker": ..}`: the condition on the event's attacker (false without one).
    Attacker(Box<Condition>),
    /// `{"defender": ..}`: the condition on the event's defender, read as it was before the
    /// move when it was captured (false without one).
    Defender(Box<Condition>),
}

/// A descriptor that failed to load: where and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescriptorError {
    /// The file (or `builtin:examples/x.json`).
    pub source: String,
    /// JSON path (`$.primitives[0].kind`), or `line:column` for a syntax error.
    pub at: String,
    /// Why.
    pub why: String,
}

impl std::fmt::Display for DescriptorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.at.starts_with('$') {
            write!(f, "{}: {}: {}", self.source, self.at, self.why)
        } else {
            // line:column of a JSON syntax error
            write!(f, "{}:{}: {}", self.source, self.at, self.why)
        }
    }
}

impl std::error::Error for DescriptorError {}
