//! What a plugin library declares about itself: its variants, presets, options and hooks.

use abi_stable::{
    std_types::{ROption, RString, RVec},
    StableAbi,
};

/// Version of the houserules plugin API a plugin was built against. Bumped (minor) when items
/// are appended compatibly, (major) otherwise.
///
/// A host loads plugins of its own major and the same or a newer minor: a newer plugin may
/// carry boundary methods the host does not call, and anything it *declares* that the host
/// does not know (hook bits, stages, variant flags) makes the host refuse that preset or
/// variant by name. A plugin built against an older minor is refused when a boundary type has
/// grown since (abi_stable's layout check): rebuild it against the host's API.
pub const API_VERSION: ApiVersion = ApiVersion {
    major: 1,
    minor: 13,
};

/// A plugin API version.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApiVersion {
    /// Incompatible changes bump this.
    pub major: u16,
    /// Compatible additions bump this.
    pub minor: u16,
}

impl std::fmt::Display for ApiVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// The role of a piece type: what presets and generic code (SAN, results) know it as.
/// Open-ended: a variant may use [`Role::OTHER`] or new constants.
#[repr(transparent)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Role(pub u8);

impl Role {
    /// A piece with no shared meaning.
    pub const OTHER: Role = Role(0);
    /// Pawn (SAN omits its letter).
    pub const PAWN: Role = Role(1);
    /// Knight.
    pub const KNIGHT: Role = Role(2);
    /// Bishop.
    pub const BISHOP: Role = Role(3);
    /// Rook.
    pub const ROOK: Role = Role(4);
    /// Queen.
    pub const QUEEN: Role = Role(5);
    /// King.
    pub const KING: Role = Role(6);
    /// Commoner (a non-royal king).
    pub const COMMONER: Role = Role(7);
    /// A wall: a blocker on the board that belongs to neither side's material and never
    /// moves (API 1.12; the walls of Fairy-Stockfish's walling rules are the fairy plugin's).
    /// Whichever colour its cell carries, the host's engine counts it nothing; an older host
    /// sees an unknown role and values it as any piece that declares no value.
    pub const WALL: Role = Role(8);

    /// Lower-case name (`"knight"`), as used in preset options.
    pub fn name(self) -> &'static str {
        match self.0 {
            1 => "pawn",
            2 => "knight",
            3 => "bishop",
            4 => "rook",
            5 => "queen",
            6 => "king",
            7 => "commoner",
            8 => "wall",
            _ => "other",
        }
    }
    /// Parses a role name.
    pub fn parse(s: &str) -> Option<Role> {
        Some(match s {
            "pawn" => Role::PAWN,
            "knight" => Role::KNIGHT,
            "bishop" => Role::BISHOP,
            "rook" => Role::ROOK,
            "queen" => Role::QUEEN,
            "king" => Role::KING,
            "commoner" => Role::COMMONER,
            "wall" => Role::WALL,
            "other" => Role::OTHER,
            _ => return None,
        })
    }
}

/// One entry of a variant's piece table. Its index in the table is the piece *kind* used in
/// [`crate::Cell`] and [`crate::Move`].
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct PieceType {
    /// FEN / SAN letter, an upper-case ASCII byte (FEN writes Black in lower case).
    pub letter: u8,
    /// Name (`"knight"`).
    pub name: RString,
    /// Role.
    pub role: Role,
    /// Material value in centipawns (for random players and displays).
    pub value: i32,
    /// Whether pieces of this type are royal by default (the royal set).
    pub royal: bool,
    /// Whether FEN writes this piece with a `+` prefix (promoted form, as Fairy-Stockfish).
    pub promoted_prefix: bool,
}

impl PieceType {
    /// A piece type with the common defaults (not royal, no `+` prefix).
    pub fn new(letter: char, name: &str, role: Role, value: i32) -> PieceType {
        PieceType {
            letter: letter.to_ascii_uppercase() as u8,
            name: name.into(),
            role,
            value,
            royal: false,
            promoted_prefix: false,
        }
    }
    /// The letter as a `char` (upper case).
    pub fn letter(&self) -> char {
        self.letter as char
    }
}

/// A starting layout of a variant.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Id used with `--layout` and the `Layout` tag.
    pub id: RString,
    /// Human name.
    pub name: RString,
    /// Start position.
    pub fen: RString,
}

/// Capability bits of a variant.
#[repr(transparent)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct VariantFlags(pub u32);

impl VariantFlags {
    /// The variant can end a game in a position that still has legal moves (connect-N ...):
    /// the host then asks [`crate::VariantRules::outcome`] at every node.
    pub const STATIC_RESULTS: VariantFlags = VariantFlags(1);
    /// The variant has hands and drops.
    pub const DROPS: VariantFlags = VariantFlags(2);
    /// The variant's en passant field needs two squares (custom pawns), FSF style.
    pub const TWO_SQUARE_EP: VariantFlags = VariantFlags(4);
    /// The host asks [`crate::VariantRules::special_san`] for the SAN of every move, not only
    /// of special moves.
    pub const CUSTOM_SAN: VariantFlags = VariantFlags(8);
    /// The variant rules on repetition itself (from [`crate::OutcomeContext::repetitions`]
    /// and `checks_in_cycle`); the host's n-fold rule is off.
    pub const OWN_REPETITION: VariantFlags = VariantFlags(16);
    /// The variant adds its own terms to the engine's evaluation
    /// ([`crate::VariantRules::evaluate`], API 1.3); without it the host never calls it.
    pub const EVALUATES: VariantFlags = VariantFlags(32);
    /// Which pieces are royal changes during the game (Fairy-Stockfish's pseudo-royal
    /// extinction pieces: the last piece of a type): the host asks
    /// [`crate::VariantRules::royals`] instead of reading [`crate::PieceType::royal`]
    /// (API 1.4).
    pub const DYNAMIC_ROYALS: VariantFlags = VariantFlags(64);

    /// The variant marks squares with every move ([`crate::VariantRules::move_mark`], API
    /// 1.5): the host keeps the marks with the game's moves and tells the variant, for a
    /// repeated position, whether some mark held through every move of a side in the cycle
    /// ([`crate::OutcomeContext::marked_in_cycle`]; Fairy-Stockfish's perpetual chase).
    pub const MOVE_MARKS: VariantFlags = VariantFlags(128);
    /// The variant replays whole main lines of SAN itself (API 1.6,
    /// [`crate::VariantRules::replay_line`]): batch analysis then crosses the library
    /// boundary once per line instead of several times per ply. Declare it only for a
    /// variant without special moves ([`crate::Move::is_special`]): the host then also finds a
    /// coordinate-written move among the legal moves to its target square alone.
    pub const REPLAYS_LINES: VariantFlags = VariantFlags(256);
    /// The variant also writes the SAN, coordinate form, FEN and events of every ply of a
    /// line it replays (API 1.7, [`crate::VariantRules::describe_line`]): per-ply batch
    /// output then crosses the library boundary once per line too. Declare it with
    /// [`VariantFlags::REPLAYS_LINES`].
    pub const DESCRIBES_LINES: VariantFlags = VariantFlags(512);
    /// The variant's repetition rules look back only to the last reset of the halfmove clock
    /// (API 1.10; Fairy-Stockfish's rule): a position from before it does not count, even
    /// where it can occur again (a pass by a pawn resets the clock and moves nothing). The
    /// host then starts its repetition counts, and the cycle facts of
    /// [`crate::OutcomeContext`], again after every move that leaves the clock at 0.
    /// Without it a position counts however long ago it occurred (FIDE's rule).
    pub const REPETITION_SINCE_CLOCK_RESET: VariantFlags = VariantFlags(1024);

    /// Every flag this version of the API defines (a variant with others needs a newer host).
    pub const KNOWN: VariantFlags = VariantFlags(2047);

    /// Whether all bits of `o` are set.
    pub const fn contains(self, o: VariantFlags) -> bool {
        self.0 & o.0 == o.0
    }
}

/// Everything the host needs to know about a variant, given once.
///
/// Build it with `..Default::default()` for the fields you do not set: later 1.x versions
/// add meaning through `extra`, never new fields.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq, Default)]
pub struct VariantInfo {
    /// Id (`"chess"`).
    pub id: RString,
    /// Human name.
    pub name: RString,
    /// One-paragraph description.
    pub description: RString,
    /// Board width.
    pub files: u8,
    /// Board height.
    pub ranks: u8,
    /// The piece table.
    pub pieces: RVec<PieceType>,
    /// Layouts; the first is the default.
    pub layouts: RVec<Layout>,
    /// n-move rule in full moves (50 in chess): from here a draw may be claimed. 0 = none.
    /// Applied by the host.
    pub n_move_rule: u32,
    /// Full moves after which the n-move draw is automatic (75 in FIDE chess; equal to
    /// `n_move_rule` where the rule is automatic, as in Fairy-Stockfish). 0 = never.
    pub n_move_automatic: u32,
    /// n-fold repetition (3 in chess): from here a draw may be claimed. 0 = none. Applied by
    /// the host unless the variant reports repetition results itself.
    pub n_fold_rule: u32,
    /// Repetition count at which the draw is automatic (5 in FIDE chess). 0 = never.
    pub n_fold_automatic: u32,
    /// Capabilities.
    pub flags: VariantFlags,
    /// Open-ended `key=value` metadata (room for later API versions; empty today).
    pub extra: RVec<OptionValue>,
}

/// The value of the entry `key` of an `extra` list, if present.
fn extra_entry<'a>(extra: &'a [OptionValue], key: &str) -> Option<&'a str> {
    extra
        .iter()
        .find(|e| e.key.as_str() == key)
        .map(|e| e.value.as_str())
}

impl VariantInfo {
    /// The value of the `extra` entry `key`, if present.
    pub fn extra_value(&self, key: &str) -> Option<&str> {
        extra_entry(&self.extra, key)
    }
}

/// [`VariantInfo::extra`] or [`PresetInfo::extra`] key (a 1.7 addition an older host ignores): the remaining search depth
/// (a whole number, 2 to 16; the engine's default is 3) from which the host's engine prunes
/// with null moves and searches late quiet moves shallower. A game whose gains come from quiet
/// moves (Rook Mania: a custodian capture is set up by a pawn move, a Basilisk freed by moving a
/// blocker) asks for 4: at 3, a depth-4 search sees quiet lines hardly deeper than depth 2. The
/// engine takes the highest value the variant and the active presets give; other values are
/// ignored.
pub const EXTRA_SEARCH_PRUNING_DEPTH: &str = "search-pruning-depth";

/// [`VariantInfo::extra`] or [`PresetInfo::extra`] key (a 1.11 addition an older host
/// ignores): `no` keeps the host's engine from leaving out quiet moves near the leaves of its
/// search (reverse futility, futility and late-move pruning, which trust the static evaluation
/// wherever the side to move is not in check). Say `no` where a piece whose loss decides the
/// game can be attacked without check, so that a threat the side to move must answer does not
/// show as check: king capture and extinction rules (duck chess: the one reply in hundreds
/// that guards the king is a quiet move). Any other value, or none, leaves the pruning on. The
/// variant's or any active preset's `no` turns it off.
pub const EXTRA_SEARCH_QUIET_PRUNING: &str = "search-quiet-pruning";

/// [`VariantInfo::extra`] key (a 1.13 addition an older host ignores): `special` says that the
/// variant's moves which differ only in [`Move::special`](crate::Move::special) are one move
/// with a detail chosen after it (the duck's square in duck chess, the arrow of amazons), so
/// that the host's engine may treat them as one family. Its quiescence search, which settles
/// exchanges, then searches one capture of each family instead of one per duck square (an
/// exchange of three captures was 40 x 40 x 40 lines in duck chess). Say it only where
/// `special` holds nothing but such a detail: a promotion or a gate kept there is a different
/// move. Read from the variant only; an active preset that gives the key another value turns
/// it off.
pub const EXTRA_SEARCH_MOVE_DETAIL: &str = "search-move-detail";

/// Where a preset sits in the catalogue, and how it plugs into the pipeline.
///
/// Build it with `..Default::default()` for the fields you do not set: later 1.x versions
/// add meaning through `extra`, never new fields.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq, Default)]
pub struct PresetInfo {
    /// Kebab-case id (`"piece-hp"`).
    pub id: RString,
    /// Human name.
    pub name: RString,
    /// Category (`"Movement Modifier"`).
    pub category: RString,
    /// Mode (`"additive"`, `"override"`, `"hybrid"`, `"hooks"`).
    pub mode: RString,
    /// One-paragraph description.
    pub description: RString,
    /// Ids of presets that must also be active.
    pub requires: RVec<RString>,
    /// Ids of presets that may not be active together with this one.
    pub incompatible_with: RVec<RString>,
    /// Whether the preset takes a `scope` option (white | black | both).
    pub scope_aware: bool,
    /// Options.
    pub options: RVec<OptionSpec>,
    /// The hooks the preset implements: the host calls no others.
    pub hooks: HookSet,
    /// The layout to use when the user names none.
    pub preferred_layout: ROption<RString>,
    /// The `on_after_move` stages the preset handles (bit `1 << stage`, see [`crate::stage`]).
    pub after_move_stages: u16,
    /// Order within a stage: lower runs first (poison before healing).
    pub priority: i32,
    /// Open-ended `key=value` metadata (room for later API versions; empty today).
    pub extra: RVec<OptionValue>,
}

impl PresetInfo {
    /// The value of the `extra` entry `key`, if present.
    pub fn extra_value(&self, key: &str) -> Option<&str> {
        extra_entry(&self.extra, key)
    }
    /// Whether the preset was made from a custom modifier descriptor.
    pub fn is_custom_modifier(&self) -> bool {
        self.category.as_str() == CUSTOM_MODIFIER_CATEGORY
    }
}

/// [`PresetInfo::category`] of the presets made from custom modifier descriptors (JSON rule
/// files): the host lists them apart and writes them in the `Modifiers` tag of records.
pub const CUSTOM_MODIFIER_CATEGORY: &str = "Custom Modifier";
/// [`PresetInfo::extra`] key: the file a preset was read from (canonical path), so that the
/// host can map `--modifier FILE` to the preset id.
pub const EXTRA_SOURCE: &str = "source";
/// [`PresetInfo::extra`] key: why a preset listed in the manifest cannot be used (a broken
/// data file); creating it fails with the same message.
pub const EXTRA_ERROR: &str = "error";

/// [`PresetInfo::extra`] key by which a preset describes how it changes movement.
pub const EXTRA_MOVEMENT: &str = "movement";
/// Value of [`EXTRA_MOVEMENT`]: the preset only *adds* moves. Its promise, which lets the
/// host keep the variant's own legal generator (pins, check masks) and test only what the
/// preset adds:
///
/// * its movement hooks are `get_extra_moves` and, if any, a `get_legal_move_modifiers` that
///   only *removes* moves and never a capture (so no attack changes); no override, no
///   `apply_move`;
/// * every capture its extra moves can make is reported by its `is_attacked` (a preset whose
///   extra moves never capture does not implement `is_attacked`);
/// * its other hooks (`on_after_move`, …) never add, move or remove a piece; setting the en
///   passant square is fine.
///
/// The host uses the fast additive path only when every active preset says so (or has only
/// hooks that cannot change legality). Test it: `Pipeline::force_generic_path` gives the
/// reference path, and perft must agree.
pub const MOVEMENT_ADDITIVE: &str = "additive";
/// Value of [`EXTRA_MOVEMENT`]: the preset changes no movement at all — no movement hook, no
/// `is_attacked` — and its `on_after_move` (if any) never adds, moves or removes a piece
/// (it records state, counts, ends games through results). With such presets only, the host
/// keeps the variant's legal generator and its bulk count.
pub const MOVEMENT_NONE: &str = "none";

/// A set of hooks (one bit each). Open-ended.
#[repr(transparent)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HookSet(pub u64);

impl HookSet {
    /// `get_royal_pieces`.
    pub const GET_ROYAL_PIECES: HookSet = HookSet(1 << 0);
    /// `filter_legal_moves`.
    pub const FILTER_LEGAL_MOVES: HookSet = HookSet(1 << 1);
    /// `should_filter_self_check`.
    pub const SHOULD_FILTER_SELF_CHECK: HookSet = HookSet(1 << 2);
    /// `on_check_game_result`.
    pub const ON_CHECK_GAME_RESULT: HookSet = HookSet(1 << 3);
    /// `should_advance_turn`.
    pub const SHOULD_ADVANCE_TURN: HookSet = HookSet(1 << 4);
    /// `on_before_move`.
    pub const ON_BEFORE_MOVE: HookSet = HookSet(1 << 5);
    /// `on_after_move`.
    pub const ON_AFTER_MOVE: HookSet = HookSet(1 << 6);
    /// `override_piece_moves`.
    pub const OVERRIDE_PIECE_MOVES: HookSet = HookSet(1 << 7);
    /// `get_extra_moves`.
    pub const GET_EXTRA_MOVES: HookSet = HookSet(1 << 8);
    /// `get_legal_move_modifiers`.
    pub const GET_LEGAL_MOVE_MODIFIERS: HookSet = HookSet(1 << 9);
    /// `setup_position` (seed attributes and state at game start).
    pub const SETUP_POSITION: HookSet = HookSet(1 << 10);
    /// `is_attacked` (extra attacks for check detection).
    pub const IS_ATTACKED: HookSet = HookSet(1 << 11);
    /// `apply_move` (the preset applies moves it generated itself).
    pub const APPLY_MOVE: HookSet = HookSet(1 << 12);
    /// `protected_royals` (royals the self-check filter need not protect).
    pub const PROTECTED_ROYALS: HookSet = HookSet(1 << 13);
    /// With [`HookSet::ON_AFTER_MOVE`]: call `on_after_move_with` (the form with a host
    /// [`crate::Query`]) instead of `on_after_move` (API 1.1).
    pub const AFTER_MOVE_QUERY: HookSet = HookSet(1 << 14);
    /// `transform_model`: the preset changes the variant's rules model (movement, topology,
    /// royalty, promotion) at pipeline build (API 1.2). On its own it keeps the fast path: the
    /// variant plays the changed model.
    pub const TRANSFORM_MODEL: HookSet = HookSet(1 << 15);
    /// `evaluate`: the preset adds terms to the engine's static evaluation (API 1.3). It
    /// changes no rule; only the search reads it.
    pub const EVALUATE: HookSet = HookSet(1 << 16);

    /// Every hook this version of the API defines. A preset from a newer plugin that declares
    /// a bit outside this set needs a newer host; the host refuses to use it.
    pub const KNOWN: HookSet = HookSet((1 << 17) - 1);

    /// Every hook that changes which moves exist or what they attack: when one is present
    /// the host cannot use the variant's own legal generator or attack test.
    pub const MOVEMENT: HookSet = HookSet((1 << 7) | (1 << 8) | (1 << 9));

    /// Whether any bit of `o` is set.
    #[inline]
    pub const fn intersects(self, o: HookSet) -> bool {
        self.0 & o.0 != 0
    }
    /// Whether all bits of `o` are set.
    #[inline]
    pub const fn contains(self, o: HookSet) -> bool {
        self.0 & o.0 == o.0
    }
    /// Union.
    #[inline]
    pub const fn with(self, o: HookSet) -> HookSet {
        HookSet(self.0 | o.0)
    }
    /// Names of the hooks in the set, for `houserules list`.
    pub fn names(self) -> Vec<&'static str> {
        const NAMES: [&str; 17] = [
            "get_royal_pieces",
            "filter_legal_moves",
            "should_filter_self_check",
            "on_check_game_result",
            "should_advance_turn",
            "on_before_move",
            "on_after_move",
            "override_piece_moves",
            "get_extra_moves",
            "get_legal_move_modifiers",
            "setup_position",
            "is_attacked",
            "apply_move",
            "protected_royals",
            "on_after_move_with",
            "transform_model",
            "evaluate",
        ];
        NAMES
            .iter()
            .enumerate()
            .filter(|(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, n)| *n)
            .collect()
    }
}

/// The type of an option value. Open-ended.
#[repr(transparent)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionKind(pub u8);

impl OptionKind {
    /// A whole number within `min..=max`.
    pub const INT: OptionKind = OptionKind(0);
    /// `true` / `false`.
    pub const BOOL: OptionKind = OptionKind(1);
    /// One of `choices`.
    pub const CHOICE: OptionKind = OptionKind(2);
    /// A piece role name (`pawn`, `knight` ...).
    pub const ROLE: OptionKind = OptionKind(3);
    /// Free text.
    pub const TEXT: OptionKind = OptionKind(4);

    /// Name for listings.
    pub fn name(self) -> &'static str {
        match self.0 {
            0 => "int",
            1 => "bool",
            2 => "choice",
            3 => "role",
            _ => "text",
        }
    }
}

/// A typed option of a preset, with its default. The host checks every value against it
/// before the preset is created; the preset reads them with [`crate::Options`].
///
/// ```
/// use houserules_plugin_api::{OptionKind, OptionSpec};
///
/// let scope = OptionSpec::scope("both");
/// assert!(scope.validate("white").is_ok());
/// assert_eq!(scope.validate("red").unwrap_err(), "`red` is not one of white, black, both");
/// let depth = OptionSpec {
///     key: "radius".into(),
///     kind: OptionKind::INT,
///     default: "2".into(),
///     choices: Default::default(),
///     min: 1,
///     max: 3,
///     description: "how far the blast reaches".into(),
/// };
/// assert!(depth.validate("4").is_err());
/// ```
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct OptionSpec {
    /// Key (`scope`).
    pub key: RString,
    /// Type.
    pub kind: OptionKind,
    /// Default value, written as the user would.
    pub default: RString,
    /// Allowed values of a choice.
    pub choices: RVec<RString>,
    /// Bounds of an int.
    pub min: i64,
    /// Bounds of an int.
    pub max: i64,
    /// What it does.
    pub description: RString,
}

impl OptionSpec {
    /// The `scope` option of scope-aware presets (white | black | both, default both).
    pub fn scope(default: &str) -> OptionSpec {
        OptionSpec {
            key: "scope".into(),
            kind: OptionKind::CHOICE,
            default: default.into(),
            choices: ["white", "black", "both"]
                .iter()
                .map(|s| RString::from(*s))
                .collect(),
            min: 0,
            max: 0,
            description: "which side's pieces the rule applies to".into(),
        }
    }
    /// Checks a user value against the spec; the error says why.
    pub fn validate(&self, value: &str) -> Result<(), String> {
        match self.kind {
            OptionKind::INT => match value.parse::<i64>() {
                Ok(v) if v >= self.min && v <= self.max => Ok(()),
                Ok(v) => Err(format!("{v} is outside {}..={}", self.min, self.max)),
                Err(_) => Err(format!("`{value}` is not a whole number")),
            },
            OptionKind::BOOL => match value {
                "true" | "false" => Ok(()),
                _ => Err(format!("`{value}` is not true or false")),
            },
            OptionKind::CHOICE => {
                if self.choices.iter().any(|c| c.as_str() == value) {
                    Ok(())
                } else {
                    let list: Vec<&str> = self.choices.iter().map(|c| c.as_str()).collect();
                    Err(format!("`{value}` is not one of {}", list.join(", ")))
                }
            }
            OptionKind::ROLE => {
                if Role::parse(value).is_some() {
                    Ok(())
                } else {
                    Err(format!(
                        "`{value}` is not a piece role (pawn, knight, bishop, rook, queen, king, commoner)"
                    ))
                }
            }
            _ => Ok(()),
        }
    }
}

/// A validated option value handed to a preset on creation.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct OptionValue {
    /// Option key.
    pub key: RString,
    /// Value, as text (already validated against the spec).
    pub value: RString,
}

/// A summary of one variant in a manifest (the full [`VariantInfo`] comes from the variant).
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct VariantSummary {
    /// Id.
    pub id: RString,
    /// Human name.
    pub name: RString,
}

/// What a plugin library provides.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct PluginManifest {
    /// API version the plugin was built against ([`API_VERSION`]).
    pub api_version: ApiVersion,
    /// Plugin id (`"chess"`).
    pub id: RString,
    /// Plugin version (its crate version).
    pub version: RString,
    /// One line about the plugin.
    pub description: RString,
    /// Variants it provides.
    pub variants: RVec<VariantSummary>,
    /// Presets it provides.
    pub presets: RVec<PresetInfo>,
}
