//! A variant's settings as Fairy-Stockfish holds them while it reads a section, and the keys
//! that change them. A section is applied on top of its parent's settings (or of the defaults);
//! piece keys first, in Fairy-Stockfish's piece-type order (a piece key takes its letter away
//! from any earlier piece), then the other keys in file order.

use crate::ini::{Entry, Loc, Section};
use houserules_plugin_api::{Role, Square, SquareSet};
use std::collections::{BTreeMap, HashMap};

/// A piece type Fairy-Stockfish knows by a config key: its type number (the order of
/// Fairy-Stockfish's piece-type enumeration, which orders pockets in FEN), key, Betza, role
/// and a material value.
pub struct Named {
    /// Type number.
    pub ty: u16,
    /// Config key.
    pub key: &'static str,
    /// Moves.
    pub betza: &'static str,
    /// Role for the host.
    pub role: Role,
    /// Centipawns.
    pub value: i32,
}

/// Type number of Fairy-Stockfish's pawn (with double steps, en passant, promotion).
pub const PAWN: u16 = 1;
/// The shogi pawn (the only piece `shogiPawnDropMateIllegal` concerns).
pub const SHOGI_PAWN: u16 = 19;
/// The royal king.
pub const KING: u16 = 200;
/// The knight (shatar: a mate by knights alone is a foul; its check is a shak).
pub const KNIGHT: u16 = 2;
/// The bishop (`dropOppositeColoredBishop`).
pub const BISHOP: u16 = 3;
/// The rook (castling partner).
pub const ROOK: u16 = 4;
/// The fers (Ouk Khmer's met, with its first double step).
pub const FERS: u16 = 6;
/// The bers (shatar: its check is a shak).
pub const BERS: u16 = 11;
/// "Every piece type" in a piece list (`*`), as Fairy-Stockfish's `ALL_PIECES`.
pub const ALL_PIECES: u16 = 0;
/// First custom piece (`customPiece1`).
pub const CUSTOM: u16 = 100;
/// How many custom pieces Fairy-Stockfish allows.
pub const CUSTOM_COUNT: u16 = 25;

/// The built-in piece types this plugin supports.
pub const NAMED: &[Named] = &[
    Named {
        ty: 1,
        key: "pawn",
        betza: "fmWfcF",
        role: Role::PAWN,
        value: 100,
    },
    Named {
        ty: 2,
        key: "knight",
        betza: "N",
        role: Role::KNIGHT,
        value: 300,
    },
    Named {
        ty: 3,
        key: "bishop",
        betza: "B",
        role: Role::BISHOP,
        value: 330,
    },
    Named {
        ty: 4,
        key: "rook",
        betza: "R",
        role: Role::ROOK,
        value: 500,
    },
    Named {
        ty: 5,
        key: "queen",
        betza: "Q",
        role: Role::QUEEN,
        value: 900,
    },
    Named {
        ty: 6,
        key: "fers",
        betza: "F",
        role: Role::OTHER,
        value: 150,
    },
    Named {
        ty: 7,
        key: "alfil",
        betza: "A",
        role: Role::OTHER,
        value: 120,
    },
    Named {
        ty: 8,
        key: "fersAlfil",
        betza: "FA",
        role: Role::OTHER,
        value: 250,
    },
    Named {
        ty: 9,
        key: "silver",
        betza: "FfW",
        role: Role::OTHER,
        value: 250,
    },
    Named {
        ty: 10,
        key: "aiwok",
        betza: "RNF",
        role: Role::OTHER,
        value: 900,
    },
    Named {
        ty: 11,
        key: "bers",
        betza: "RF",
        role: Role::OTHER,
        value: 700,
    },
    Named {
        ty: 12,
        key: "archbishop",
        betza: "BN",
        role: Role::OTHER,
        value: 800,
    },
    Named {
        ty: 13,
        key: "chancellor",
        betza: "RN",
        role: Role::OTHER,
        value: 850,
    },
    Named {
        ty: 14,
        key: "amazon",
        betza: "QN",
        role: Role::OTHER,
        value: 1200,
    },
    Named {
        ty: 15,
        key: "knibis",
        betza: "mNcB",
        role: Role::OTHER,
        value: 300,
    },
    Named {
        ty: 16,
        key: "biskni",
        betza: "mBcN",
        role: Role::OTHER,
        value: 300,
    },
    Named {
        ty: 17,
        key: "kniroo",
        betza: "mNcR",
        role: Role::OTHER,
        value: 400,
    },
    Named {
        ty: 18,
        key: "rookni",
        betza: "mRcN",
        role: Role::OTHER,
        value: 400,
    },
    Named {
        ty: 19,
        key: "shogiPawn",
        betza: "fW",
        role: Role::OTHER,
        value: 90,
    },
    Named {
        ty: 20,
        key: "lance",
        betza: "fR",
        role: Role::OTHER,
        value: 250,
    },
    Named {
        ty: 21,
        key: "shogiKnight",
        betza: "fN",
        role: Role::OTHER,
        value: 250,
    },
    Named {
        ty: 22,
        key: "gold",
        betza: "WfF",
        role: Role::OTHER,
        value: 300,
    },
    Named {
        ty: 23,
        key: "dragonHorse",
        betza: "BW",
        role: Role::OTHER,
        value: 600,
    },
    Named {
        ty: 24,
        key: "clobber",
        betza: "cW",
        role: Role::OTHER,
        value: 100,
    },
    Named {
        ty: 25,
        key: "breakthrough",
        betza: "fmWfF",
        role: Role::OTHER,
        value: 100,
    },
    Named {
        ty: 26,
        key: "immobile",
        betza: "",
        role: Role::OTHER,
        value: 50,
    },
    Named {
        ty: 27,
        key: "cannon",
        betza: "mRcpR",
        role: Role::OTHER,
        value: 450,
    },
    Named {
        ty: JANGGI_CANNON,
        key: "janggiCannon",
        betza: "pR",
        role: Role::OTHER,
        value: 500,
    },
    Named {
        ty: SOLDIER,
        key: "soldier",
        betza: "fsW",
        role: Role::OTHER,
        value: 200,
    },
    Named {
        ty: HORSE,
        key: "horse",
        betza: "nN",
        role: Role::OTHER,
        value: 270,
    },
    Named {
        ty: 31,
        key: "elephant",
        betza: "nA",
        role: Role::OTHER,
        value: 120,
    },
    Named {
        ty: JANGGI_ELEPHANT,
        key: "janggiElephant",
        betza: "nZ",
        role: Role::OTHER,
        value: 200,
    },
    Named {
        ty: 33,
        key: "banner",
        betza: "RcpRnN",
        role: Role::OTHER,
        value: 800,
    },
    Named {
        ty: WAZIR,
        key: "wazir",
        betza: "W",
        role: Role::OTHER,
        value: 120,
    },
    Named {
        ty: 35,
        key: "commoner",
        betza: "K",
        role: Role::COMMONER,
        value: 300,
    },
    Named {
        ty: 36,
        key: "centaur",
        betza: "KN",
        role: Role::OTHER,
        value: 600,
    },
    Named {
        ty: KING,
        key: "king",
        betza: "K",
        role: Role::KING,
        value: 0,
    },
];

/// Piece keys Fairy-Stockfish has that this plugin refuses (none left).
pub const REFUSED_PIECES: &[&str] = &[];

/// The janggi cannon: `pR`, but it neither jumps nor takes another janggi cannon.
pub const JANGGI_CANNON: u16 = 28;

/// The xiangqi soldier: `fsW`, its sideways steps only from `soldierPromotionRank` on.
pub const SOLDIER: u16 = 29;
/// The wazir (`W`; janggi's advisor).
pub const WAZIR: u16 = 34;
/// The xiangqi horse (`nN`).
pub const HORSE: u16 = 30;
/// The janggi elephant (`nZ`).
pub const JANGGI_ELEPHANT: u16 = 32;

/// A piece of the variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceSpec {
    /// Lower-case letter.
    pub letter: char,
    /// Betza notation of its moves.
    pub betza: String,
    /// Config key (`rook`, `customPiece2`).
    pub key: String,
    /// Where it was defined.
    pub loc: Option<Loc>,
    /// A second letter (lower case) that FEN also reads and SAN writes: Fairy-Stockfish's
    /// `pieceToCharSynonyms`, which its C++ built-ins set (xiangqi's horse `h` and elephant
    /// `e`) and no key of its ini language does; houserules reads it from the extension key
    /// `pieceToCharSynonyms = n:h b:e`. Redefining the piece clears it.
    pub synonym: Option<char>,
}

/// A game value from the point of view of the side it concerns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// Win.
    Win,
    /// Draw.
    Draw,
    /// Loss.
    Loss,
}

impl Value {
    /// The opposite point of view.
    pub fn negate(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
        }
    }
}

/// Everything a section can set.
#[derive(Debug, Clone)]
pub struct Spec {
    /// Pieces by type number.
    pub pieces: BTreeMap<u16, PieceSpec>,
    /// Ranks.
    pub max_rank: u8,
    /// Files.
    pub max_file: u8,
    /// Start position.
    pub start_fen: String,
    /// Castling allowed.
    pub castling: bool,
    /// Pawn double steps.
    pub double_step: bool,
    /// Where pawns may double-step, per colour.
    pub double_step_region: [SquareSet; 2],
    /// Drops allowed.
    pub piece_drops: bool,
    /// Captured pieces go to the capturer's hand.
    pub captures_to_hand: bool,
    /// Bughouse's second board (`twoBoards`): the partner's captures fill the hand, which one
    /// board cannot see. On this board it only marks promoted pawns (`Q~` in the FEN), as in
    /// Fairy-Stockfish, whose other uses of it are its engine's (virtual drops in search, not
    /// in its legal moves).
    pub two_boards: bool,
    /// With captures to hand, a captured promoted piece goes to hand as what it is, not as
    /// the pawn it was (Fairy-Stockfish's `dropLoop`, `loop` and `chessgi`).
    pub drop_loop: bool,
    /// Pawns (type pawn) may be dropped on the first rank.
    pub first_rank_pawn_drops: bool,
    /// Pawns (type pawn) may be dropped in the promotion zone.
    pub promotion_zone_pawn_drops: bool,
    /// A shogi pawn's drop may not mate.
    pub shogi_pawn_drop_mate_illegal: bool,
    /// No move or drop to a square where the piece could never move again.
    pub immobility_illegal: bool,
    /// The piece type that may not be dropped on a file holding `drop_no_doubled_count` of it.
    pub drop_no_doubled: Option<u16>,
    /// See `drop_no_doubled`.
    pub drop_no_doubled_count: u32,
    /// Promotion zones.
    pub promotion_region: [SquareSet; 2],
    /// Types promoting like pawns.
    pub promotion_pawn_types: Vec<u16>,
    /// The types that take en passant (Fairy-Stockfish's `enPassantTypes`): the pawn, custom
    /// pieces with `e` in their Betza, or what `pawnTypes` or `enPassantTypes` name (the
    /// pawn takes en passant in any case; a custom piece takes with its capture-only moves).
    pub en_passant_types: Vec<u16>,
    /// What pawns promote to (chess style).
    pub promotion_piece_types: Vec<u16>,
    /// Shogi-style promotions: type -> promoted type.
    pub promoted_piece_type: Vec<(u16, u16)>,
    /// Pawn promotion compulsory.
    pub mandatory_pawn_promotion: bool,
    /// Shogi-style promotion compulsory.
    pub mandatory_piece_promotion: bool,
    /// Value of stalemate for the stalemated side.
    pub stalemate_value: Value,
    /// Value of checkmate for the mated side.
    pub checkmate_value: Value,
    /// n-move rule in full moves (0 = off).
    pub n_move_rule: u32,
    /// Types whose moves reset the n-move counter.
    pub n_move_rule_types: Vec<u16>,
    /// n-fold repetition (0 = off).
    pub n_fold_rule: u32,
    /// Value of repetition for the side to move.
    pub n_fold_value: Value,
    /// The repetition value is White's, whoever is to move.
    pub n_fold_value_absolute: bool,
    /// The side checking throughout a repetition loses it.
    pub perpetual_check_illegal: bool,
    /// Pieces in a row that win (0 = off).
    pub connect_n: u32,
    /// Types that count for connect-N (`None`: all).
    pub connect_piece_types: Option<Vec<u16>>,
    /// Castling: the king's destination files, [king side, queen side].
    pub castling_king_dest: [u8; 2],
    /// Castling rank, counted from each side's own first rank (0 = first).
    pub castling_rank: u8,
    /// File of the castling piece when several stand on the castling rank.
    pub castling_king_file: u8,
    /// The piece type that castles.
    pub castling_king_piece: u16,
    /// The piece types it castles with.
    pub castling_rook_pieces: Vec<u16>,
    /// Where a FEN's `K` / `Q` starts looking for the castling rook, [king side, queen side].
    pub castling_rook_files: [u8; 2],
    /// If a capture is legal, only captures are.
    pub must_capture: bool,
    /// If a drop is legal, only drops are (of `must_drop_type` when set).
    pub must_drop: bool,
    /// The type `must_drop` concerns (`ALL_PIECES`: any).
    pub must_drop_type: u16,
    /// Moves may give check.
    pub checking: bool,
    /// Drops may give check.
    pub drop_checks: bool,
    /// Where pieces may be dropped, per colour.
    pub drop_region: [Option<SquareSet>; 2],
    /// Value of extinction for the side whose pieces went extinct (`None`: no extinction rule).
    pub extinction_value: Option<Value>,
    /// Types that count for extinction (`ALL_PIECES`: all pieces together).
    pub extinction_piece_types: Vec<u16>,
    /// Extinct at this many pieces (board and hand) or fewer.
    pub extinction_piece_count: u32,
    /// ... while the opponent has at least this many.
    pub extinction_opponent_piece_count: u32,
    /// The side to move needs one more of the opponent's pieces to be extinct.
    pub extinction_claim: bool,
    /// The last pieces of the extinction types are royal.
    pub extinction_pseudo_royal: bool,
    /// With pseudo-royal pieces, all pieces of the extinction types attacked at once is a
    /// check too (`dupleCheck`, [`crate::duple_check`]).
    pub duple_check: bool,
    /// Shatar's mating rules: no mate by knights alone, a shak in the series of checks, else
    /// a draw (`shatarMateRule`, [`crate::shatar`]).
    pub shatar_mate_rule: bool,
    /// Rooks are dropped on the first rank only (`sittuyinRookDrop`, [`crate::sittuyin`]).
    pub sittuyin_rook_drop: bool,
    /// Sittuyin's promotions in place or a step away (`sittuyinPromotion`,
    /// [`crate::sittuyin`]).
    pub sittuyin_promotion: bool,
    /// Pieces leaving their first square may bring a piece from hand onto it (`gating`).
    pub gating: bool,
    /// Gating from the hand, S-chess style (`seirawanGating`, [`crate::gating`]).
    pub seirawan_gating: bool,
    /// Ouk Khmer's first-move king leap and met double step (`cambodianMoves`,
    /// [`crate::cambodian`]).
    pub cambodian_moves: bool,
    /// Chess960 castling notation (`chess960`): castling written king takes rook (`f1j1`)
    /// and the castling field's rights as the rooks' files (`JAja`), as Fairy-Stockfish's
    /// `caparandom`. The rules are the model's, which castles from any squares.
    pub chess960: bool,
    /// The flag piece per colour (`ALL_PIECES`: any).
    pub flag_piece: [u16; 2],
    /// Flag region per colour.
    pub flag_region: [SquareSet; 2],
    /// Flag pieces needed in the region.
    pub flag_piece_count: u32,
    /// A full flag region with one flag piece in it also wins.
    pub flag_piece_blocked_win: bool,
    /// The opponent gets one more move to reach its flag region too.
    pub flag_move: bool,
    /// Flag pieces must not be attacked to count.
    pub flag_piece_safe: bool,
    /// Stalemate is valued by piece count.
    pub stalemate_piece_count: bool,
    /// Captures explode: the capturer and every adjacent piece but pawns (and
    /// `blast_immune_types`) leave the board.
    pub blast_on_capture: bool,
    /// Types no explosion removes.
    pub blast_immune_types: Vec<u16>,
    /// Types that cannot capture their own type (`mutuallyImmuneTypes`,
    /// [`crate::mutually_immune`]).
    pub mutually_immune_types: Vec<u16>,
    /// Checks are counted (the FEN's `3+3` field: checks each side still has to give);
    /// giving the last one wins.
    pub check_counting: bool,
    /// A side without legal moves, not in check, passes (per colour; see `crate::pass`).
    pub pass_on_stalemate: [bool; 2],
    /// Per-colour promotion and n-move piece sets (see `crate::colours`).
    pub by_colour: crate::colours::ByColour,
    /// Most pieces of a type a side may have for a promotion to it (see
    /// `crate::promotion_limit`).
    pub promotion_limit: Vec<(u16, u32)>,
    /// Connection rules besides `connect_n` (see `crate::connect`).
    pub connect: crate::connect::ConnectRules,
    /// Value of connecting for the side that connects.
    pub connect_value: Value,
    /// Draws decided by material (see `crate::material`).
    pub material_counting: Option<crate::material::MaterialCounting>,
    /// South-east Asian counting (see `crate::counting`).
    pub counting_rule: Option<crate::counting::CountingRule>,
    /// Piece types that turn to stone when they capture (see `crate::petrify`).
    pub petrify_on_capture_types: Vec<u16>,
    /// Where en passant rights may be, by the colour that may take (`None`: everywhere).
    pub en_passant_region: [Option<SquareSet>; 2],
    /// Where pawns may step three squares (see `crate::triple_step`).
    pub triple_step_region: [SquareSet; 2],
    /// Castling slots whose castling wins (see `crate::castling_rules`).
    pub castling_wins: [bool; 4],
    /// Castling takes the opponent's right on that side.
    pub opposite_castling: bool,
    /// Bishops must be dropped on both colours (see `crate::setup_drops`).
    pub drop_opposite_colored_bishop: bool,
    /// A king or rook dropped on its castling square gains the castling right.
    pub castling_dropped_piece: bool,
    /// Mobility regions by piece type, per colour (`mobilityRegion{White,Black}{Piece}`): the
    /// piece moves, is dropped and attacks only there. An empty set is no restriction.
    pub mobility_region: BTreeMap<u16, [SquareSet; 2]>,
    /// Kings may not face each other on an open line (`flyingGeneral`).
    pub flying_general: bool,
    /// A king in check may only capture its one checker (`makpongRule`, [`crate::makpong`]).
    pub makpong_rule: bool,
    /// From this rank on (0-based, each side's own count) soldiers also step sideways.
    pub soldier_promotion_rank: u8,
    /// `diagonalLines`: squares between which the wazir, soldier, rook and janggi cannon
    /// (and a king of the wazir type) also move diagonally (the janggi palace's lines; see
    /// [`crate::lines`]).
    pub diagonal_lines: SquareSet,
    /// `kingType = wazir` (a houserules extension for Fairy-Stockfish's C++ `kingType`): the
    /// king moves as the wazir type, so it steps orthogonally and takes the wazir's
    /// `diagonalLines`. Defining the king again sets it back.
    pub king_type_wazir: bool,
    /// `pass`, `passWhite`, `passBlack`: the side may pass instead of moving (see
    /// [`crate::pass`]).
    pub pass: [bool; 2],
    /// `bikjangRule`: kings facing each other after both of the last two positions end the
    /// game (see [`crate::bikjang`]).
    pub bikjang_rule: bool,
    /// `moveRepetitionIllegal`: moving one piece back and forth loses (see
    /// [`crate::move_repetition`]).
    pub move_repetition_illegal: bool,
    /// `chasingRule = axf` (xiangqi's perpetual chase rule, see [`crate::chasing`]).
    pub chasing_rule_axf: bool,
    /// Walls put after each move (`wallingRule`; see [`crate::walling`]).
    pub walling_rule: Option<crate::walling::WallingRule>,
    /// Where walls may go, per colour.
    pub walling_region: [SquareSet; 2],
    /// A move or a wall, not both.
    pub wall_or_move: bool,
    /// Placement games' rules (`enclosingDrop` ...; see [`crate::placement`]).
    pub placement: crate::placement::Placement,
    /// Promoted pieces demote (`pieceDemotion`; see [`crate::demotion`]).
    pub piece_demotion: bool,
    /// Pieces may be dropped promoted (`dropPromoted`; see [`crate::drop_promoted`]).
    pub drop_promoted: bool,
    /// Shogi-style promotions on captures only (`piecePromotionOnCapture`; see
    /// [`crate::promotion_on_capture`]).
    pub piece_promotion_on_capture: bool,
    /// Last location of each key (inherited ones included), for compile-time errors.
    pub locs: HashMap<String, Loc>,
}

fn rank_set(rank: u8) -> SquareSet {
    (0..16).map(|f| Square::new(f, rank)).collect()
}

impl Spec {
    /// Whether `ty` is one of the extinction piece types (`*`: every type).
    pub fn is_extinction_type(&self, ty: u16) -> bool {
        self.extinction_piece_types
            .iter()
            .any(|&t| t == ty || t == ALL_PIECES)
    }

    /// Fairy-Stockfish's defaults for a section without parent: no pieces, chess rules.
    pub fn empty() -> Spec {
        Spec {
            pieces: BTreeMap::new(),
            max_rank: 8,
            max_file: 8,
            start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string(),
            castling: true,
            double_step: true,
            double_step_region: [rank_set(1), rank_set(6)],
            piece_drops: false,
            captures_to_hand: false,
            two_boards: false,
            drop_loop: false,
            first_rank_pawn_drops: false,
            promotion_zone_pawn_drops: false,
            shogi_pawn_drop_mate_illegal: false,
            immobility_illegal: false,
            drop_no_doubled: None,
            drop_no_doubled_count: 1,
            promotion_region: [rank_set(7), rank_set(0)],
            promotion_pawn_types: vec![PAWN],
            en_passant_types: vec![PAWN],
            promotion_piece_types: Vec::new(),
            promoted_piece_type: Vec::new(),
            mandatory_pawn_promotion: true,
            mandatory_piece_promotion: false,
            stalemate_value: Value::Draw,
            checkmate_value: Value::Loss,
            n_move_rule: 50,
            n_move_rule_types: vec![PAWN],
            n_fold_rule: 3,
            n_fold_value: Value::Draw,
            n_fold_value_absolute: false,
            perpetual_check_illegal: false,
            connect_n: 0,
            connect_piece_types: None,
            castling_king_dest: [6, 2],
            castling_rank: 0,
            castling_king_file: 4,
            castling_king_piece: KING,
            castling_rook_pieces: vec![ROOK],
            castling_rook_files: [11, 0],
            must_capture: false,
            must_drop: false,
            must_drop_type: ALL_PIECES,
            checking: true,
            drop_checks: true,
            drop_region: [None, None],
            extinction_value: None,
            extinction_piece_types: Vec::new(),
            extinction_piece_count: 0,
            extinction_opponent_piece_count: 0,
            extinction_claim: false,
            extinction_pseudo_royal: false,
            duple_check: false,
            shatar_mate_rule: false,
            sittuyin_rook_drop: false,
            sittuyin_promotion: false,
            gating: false,
            seirawan_gating: false,
            cambodian_moves: false,
            chess960: false,
            flag_piece: [ALL_PIECES; 2],
            flag_region: [SquareSet::EMPTY; 2],
            flag_piece_count: 1,
            flag_piece_blocked_win: false,
            flag_move: false,
            flag_piece_safe: false,
            stalemate_piece_count: false,
            check_counting: false,
            blast_on_capture: false,
            blast_immune_types: Vec::new(),
            mutually_immune_types: Vec::new(),
            pass_on_stalemate: [false; 2],
            by_colour: Default::default(),
            promotion_limit: Vec::new(),
            connect: Default::default(),
            connect_value: Value::Win,
            material_counting: None,
            counting_rule: None,
            petrify_on_capture_types: Vec::new(),
            en_passant_region: [None; 2],
            triple_step_region: [SquareSet::EMPTY; 2],
            castling_wins: [false; 4],
            opposite_castling: false,
            drop_opposite_colored_bishop: false,
            castling_dropped_piece: false,
            mobility_region: BTreeMap::new(),
            flying_general: false,
            makpong_rule: false,
            soldier_promotion_rank: 0,
            diagonal_lines: SquareSet::EMPTY,
            king_type_wazir: false,
            pass: [false; 2],
            bikjang_rule: false,
            move_repetition_illegal: false,
            chasing_rule_axf: false,
            walling_rule: None,
            walling_region: [SquareSet([u64::MAX; 4]); 2],
            wall_or_move: false,
            placement: crate::placement::Placement::default(),
            piece_demotion: false,
            drop_promoted: false,
            piece_promotion_on_capture: false,
            locs: HashMap::new(),
        }
    }

    /// The built-in `chess` parent.
    pub fn chess() -> Spec {
        let mut s = Spec::empty();
        for (ty, key, l) in [
            (1, "pawn", 'p'),
            (2, "knight", 'n'),
            (3, "bishop", 'b'),
            (4, "rook", 'r'),
            (5, "queen", 'q'),
            (KING, "king", 'k'),
        ] {
            s.pieces.insert(
                ty,
                PieceSpec {
                    letter: l,
                    betza: named(ty).map(|n| n.betza).unwrap_or("").to_string(),
                    key: key.to_string(),
                    loc: None,
                    synonym: None,
                },
            );
        }
        s.promotion_piece_types = vec![5, 4, 3, 2];
        s
    }

    /// The type number of a piece letter.
    pub fn type_of_letter(&self, c: char) -> Option<u16> {
        let c = c.to_ascii_lowercase();
        self.pieces
            .iter()
            .find(|(_, p)| p.letter == c)
            .map(|(t, _)| *t)
    }

    fn add_piece(&mut self, ty: u16, letter: char, betza: String, key: &str, loc: &Loc) {
        if let Some(old) = self.type_of_letter(letter) {
            self.remove_piece(old);
        }
        self.pieces.insert(
            ty,
            PieceSpec {
                letter: letter.to_ascii_lowercase(),
                betza,
                key: key.to_string(),
                loc: Some(loc.clone()),
                synonym: None,
            },
        );
    }

    /// `pieceToCharSynonyms = n:h b:e` (a houserules extension; Fairy-Stockfish ignores keys
    /// it does not know, so a file with it still loads there): each piece letter with its
    /// synonym; `-` clears them all. A synonym may not be another piece's letter (a FEN
    /// letter would name two pieces).
    fn set_synonyms(&mut self, v: &str) -> Result<(), String> {
        if v.trim() == "-" {
            for p in self.pieces.values_mut() {
                p.synonym = None;
            }
            return Ok(());
        }
        let mut pairs = Vec::new();
        for pair in v.split_whitespace() {
            let (piece, synonym) = match pair.split_once(':') {
                Some((a, b)) if a.chars().count() == 1 && b.chars().count() == 1 => {
                    (a.chars().next(), b.chars().next())
                }
                _ => (None, None),
            };
            let (Some(piece), Some(synonym)) = (piece, synonym) else {
                return Err(format!(
                    "`{pair}`: expected a piece letter, `:` and its synonym (`n:h`)"
                ));
            };
            if !synonym.is_ascii_alphabetic() {
                return Err(format!("`{pair}`: a synonym is a letter"));
            }
            let ty = self
                .type_of_letter(piece)
                .ok_or_else(|| format!("`{piece}` is not a piece letter of this variant"))?;
            if let Some(other) = self.type_of_letter(synonym) {
                if other != ty {
                    return Err(format!(
                        "`{pair}`: `{synonym}` is already the letter of `{}`",
                        self.pieces[&other].key
                    ));
                }
            }
            pairs.push((ty, synonym.to_ascii_lowercase()));
        }
        if pairs.is_empty() {
            return Err("expected `letter:synonym` pairs or `-`".into());
        }
        for (ty, synonym) in pairs {
            if let Some(p) = self.pieces.get_mut(&ty) {
                p.synonym = Some(synonym);
            }
        }
        Ok(())
    }

    fn remove_piece(&mut self, ty: u16) {
        self.pieces.remove(&ty);
        self.promotion_piece_types.retain(|t| *t != ty);
        self.by_colour.remove(ty);
    }

    /// Applies a section's entries on top of these settings. Every problem is reported, one
    /// message (`FILE:LINE: key `KEY`: why`) each; a refused entry leaves the setting as it
    /// was and the others still apply.
    pub fn apply(&mut self, section: &Section) -> Vec<String> {
        if let Some(e) = &section.error {
            return vec![e.clone()];
        }
        let mut problems = Vec::new();
        let err = |e: &Entry, why: String| format!("{}: key `{}`: {why}", e.loc, e.key);
        // Pass 1: piece keys, in piece-type order.
        let mut piece_entries: Vec<(u16, &Entry)> = Vec::new();
        for e in &section.entries {
            if let Some(n) = NAMED.iter().find(|n| n.key == e.key) {
                piece_entries.push((n.ty, e));
            } else if let Some(num) = e.key.strip_prefix("customPiece") {
                match num.parse::<u16>() {
                    Ok(n) if (1..=CUSTOM_COUNT).contains(&n) => {
                        piece_entries.push((CUSTOM + n - 1, e))
                    }
                    _ => problems.push(err(
                        e,
                        format!("custom pieces are numbered 1 to {CUSTOM_COUNT}"),
                    )),
                }
            } else if REFUSED_PIECES.contains(&e.key.as_str()) {
                problems.push(err(
                    e,
                    "this piece type (its moves follow special rules) is not supported".into(),
                ));
            }
        }
        piece_entries.sort_by_key(|(t, _)| *t);
        // Later duplicates of a key win: keep the last entry per type.
        let mut last: BTreeMap<u16, &Entry> = BTreeMap::new();
        for (t, e) in piece_entries {
            last.insert(t, e);
        }
        for (ty, e) in last {
            self.locs.insert(e.key.clone(), e.loc.clone());
            if let Err(why) = self.apply_piece(ty, e) {
                problems.push(err(e, why));
            }
        }
        // Pass 2: every other key; `enPassantTypes` after `pawnTypes`, which also sets it
        // (Fairy-Stockfish's order, whatever the order in the file).
        let (late, early): (Vec<&Entry>, Vec<&Entry>) = section
            .entries
            .iter()
            .filter(|e| {
                !(NAMED.iter().any(|n| n.key == e.key)
                    || e.key.starts_with("customPiece")
                    || REFUSED_PIECES.contains(&e.key.as_str()))
            })
            .partition(|e| e.key == "enPassantTypes");
        for e in early.into_iter().chain(late) {
            self.locs.insert(e.key.clone(), e.loc.clone());
            if let Err(why) = self.apply_option(e) {
                problems.push(err(e, why));
            }
        }
        problems
    }

    /// A piece key: `letter`, `letter:betza` (custom pieces) or `-` (removed).
    fn apply_piece(&mut self, ty: u16, e: &Entry) -> Result<(), String> {
        let v = e.value.as_str();
        let first = v.chars().next().unwrap_or('-');
        if v == "-" {
            self.remove_piece(ty);
            return Ok(());
        }
        if !first.is_ascii_alphabetic() {
            return Err(format!("`{v}` does not start with a piece letter"));
        }
        // `king = k:BETZA`: a royal king with its own moves (Fairy-Stockfish's custom royal
        // piece); it castles and is checked like the king.
        let custom_king = ty == KING && v.len() > 1;
        let betza = if (CUSTOM..KING).contains(&ty) || custom_king {
            let Some(b) = v.get(1..).and_then(|r| r.strip_prefix(':')) else {
                return Err("expected `letter:betza`".into());
            };
            crate::engine::movement(ty, b, self)?;
            // `e` makes a custom piece an en passant capturer (Fairy-Stockfish's parser).
            if (CUSTOM..KING).contains(&ty)
                && b.contains('e')
                && !self.en_passant_types.contains(&ty)
            {
                self.en_passant_types.push(ty);
            }
            b.to_string()
        } else {
            if v.len() > 1 {
                return Err(format!("expected one letter, found `{v}`"));
            }
            named(ty).map(|n| n.betza).unwrap_or("").to_string()
        };
        if ty == KING {
            self.king_type_wazir = false;
        }
        self.add_piece(ty, first, betza, &e.key, &e.loc);
        Ok(())
    }

    /// `kingType = wazir | king` (see [`Spec::king_type_wazir`]).
    fn set_king_type(&mut self, v: &str) -> Result<(), String> {
        let (wazir, betza) = match v {
            "wazir" => (true, "W"),
            "king" => (false, "K"),
            _ => {
                return Err(format!(
                    "`{v}` is not a king type this plugin knows (wazir, king)"
                ))
            }
        };
        let king = self
            .pieces
            .get_mut(&KING)
            .ok_or_else(|| "the variant has no king".to_string())?;
        king.betza = betza.to_string();
        self.king_type_wazir = wazir;
        Ok(())
    }

    /// Fairy-Stockfish's own consistency checks (its `check` command) that concern keys this
    /// plugin reads: each is a problem of the section.
    pub fn contradictions(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        // Xiangqi's chasing rule names xiangqi's piece types (see crate::chasing).
        if self.chasing_rule_axf {
            if let Some(why) = crate::chasing::unsupported(self) {
                out.push(("chasingRule", why));
            }
        }
        if self.check_counting && !self.checking {
            out.push((
                "checkCounting",
                "checkCounting = true requires checking = true".to_string(),
            ));
        }
        if self.move_repetition_illegal && (self.check_counting || self.shatar_mate_rule) {
            // All three keep their state in the same slots of the position.
            out.push((
                "moveRepetitionIllegal",
                "moveRepetitionIllegal with checkCounting or shatarMateRule is not supported"
                    .to_string(),
            ));
        }
        if self.shatar_mate_rule && self.check_counting {
            // Both keep their state in the same slots of the position.
            out.push((
                "shatarMateRule",
                "shatarMateRule with checkCounting is not supported".to_string(),
            ));
        }
        if self.blast_on_capture && self.pieces.contains_key(&KING) {
            out.push((
                "blastOnCapture",
                "kings cannot be used with blastOnCapture (use a commoner as the king)".to_string(),
            ));
        }
        if self.walling_rule.is_some() && self.piece_drops {
            out.push((
                "wallingRule",
                "pieceDrops and any walling are incompatible".to_string(),
            ));
        }
        if self.walling_rule == Some(crate::walling::WallingRule::Duck)
            && self.pieces.contains_key(&KING)
        {
            out.push((
                "wallingRule",
                "can not use kings with wallingRule = duck".to_string(),
            ));
        }
        if self.placement.flip.is_some() && self.pieces.contains_key(&KING) {
            out.push((
                "flipEnclosedPieces",
                "can not use kings with flipEnclosedPieces".to_string(),
            ));
        }
        out.extend(crate::demotion::contradiction(self));
        out.extend(crate::promotion_on_capture::contradiction(self));
        if self.counting_rule.is_some() && self.castling_wins.contains(&true) {
            out.push((
                "countingRule",
                "countingRule with castlingWins is not supported (both keep their state in \
                 the same slot of the position)"
                    .to_string(),
            ));
        }
        if self.castling && self.castling_rank >= self.max_rank {
            out.push((
                "castlingRank",
                "inconsistent settings: castlingRank > maxRank".to_string(),
            ));
        }
        if self.castling && self.castling_king_dest[1] > self.castling_king_dest[0] {
            out.push((
                "castlingQueensideFile",
                "inconsistent settings: castlingQueensideFile > castlingKingsideFile".to_string(),
            ));
        }
        out
    }

    fn piece_set(&self, v: &str) -> Result<Vec<u16>, String> {
        let mut out = Vec::new();
        for c in v.chars().filter(|c| !c.is_whitespace()) {
            if c == '-' {
                continue;
            }
            if c == '*' {
                if !out.contains(&ALL_PIECES) {
                    out.push(ALL_PIECES)
                }
                continue;
            }
            match self.type_of_letter(c) {
                Some(t) => {
                    if !out.contains(&t) {
                        out.push(t)
                    }
                }
                None => return Err(format!("`{c}` is not a piece letter of this variant")),
            }
        }
        Ok(out)
    }

    /// One piece type: a letter, `*` (any) or `-` (any, as Fairy-Stockfish reads it).
    fn piece_type(&self, v: &str) -> Result<u16, String> {
        let mut c = v.chars();
        match (c.next(), c.next()) {
            (Some('*' | '-'), None) => Ok(ALL_PIECES),
            (Some(l), None) => self
                .type_of_letter(l)
                .ok_or_else(|| format!("`{l}` is not a piece letter of this variant")),
            _ => Err(format!("expected one piece letter, found `{v}`")),
        }
    }

    fn apply_option(&mut self, e: &Entry) -> Result<(), String> {
        let v = e.value.as_str();
        match e.key.as_str() {
            // Display-only settings of Fairy-Stockfish: no effect on the rules.
            "variantTemplate" | "pieceToCharTable" | "pocketSize" | "pieceValueMg"
            | "pieceValueEg" => {}
            "maxRank" => {
                let n: u8 = v
                    .parse()
                    .map_err(|_| format!("`{v}` is not a number of ranks"))?;
                if !(1..=10).contains(&n) {
                    return Err(format!("{n} ranks: Fairy-Stockfish allows 1 to 10"));
                }
                self.max_rank = n;
            }
            "maxFile" => {
                let n: u8 = if let Ok(n) = v.parse() {
                    n
                } else if v.len() == 1 && v.as_bytes()[0].is_ascii_lowercase() {
                    v.as_bytes()[0] - b'a' + 1
                } else {
                    return Err(format!(
                        "`{v}` is neither a number of files nor a file letter"
                    ));
                };
                if !(1..=12).contains(&n) {
                    return Err(format!(
                        "{n} files: Fairy-Stockfish allows 1 to 12 (a to l)"
                    ));
                }
                self.max_file = n;
            }
            "startFen" => self.start_fen = v.to_string(),
            "pawnTypes" => {
                let s = self.piece_set(v)?;
                self.promotion_pawn_types = s.clone();
                self.en_passant_types = s.clone();
                self.n_move_rule_types = s;
                self.by_colour.pawn_types = [None, None];
                self.by_colour.n_move_types = [None, None];
            }
            "enPassantTypes" => self.en_passant_types = self.piece_set(v)?,
            "promotionPawnTypes" => {
                self.promotion_pawn_types = self.piece_set(v)?;
                self.by_colour.pawn_types = [None, None];
            }
            "promotionPieceTypes" => {
                self.promotion_piece_types = self.piece_set(v)?;
                self.by_colour.piece_types = [None, None];
            }
            "nMoveRuleTypes" => {
                self.n_move_rule_types = self.piece_set(v)?;
                self.by_colour.n_move_types = [None, None];
            }
            "promotionPawnTypesWhite" => self.by_colour.pawn_types[0] = Some(self.piece_set(v)?),
            "promotionPawnTypesBlack" => self.by_colour.pawn_types[1] = Some(self.piece_set(v)?),
            "promotionPieceTypesWhite" => self.by_colour.piece_types[0] = Some(self.piece_set(v)?),
            "promotionPieceTypesBlack" => self.by_colour.piece_types[1] = Some(self.piece_set(v)?),
            "nMoveRuleTypesWhite" => self.by_colour.n_move_types[0] = Some(self.piece_set(v)?),
            "nMoveRuleTypesBlack" => self.by_colour.n_move_types[1] = Some(self.piece_set(v)?),
            "connectPieceTypes" => self.connect_piece_types = Some(self.piece_set(v)?),
            "doubleStep" => self.double_step = boolean(v)?,
            "doubleStepRegionWhite" => self.double_step_region[0] = region(v)?,
            "doubleStepRegionBlack" => self.double_step_region[1] = region(v)?,
            "castling" => self.castling = boolean(v)?,
            "pieceDrops" => self.piece_drops = boolean(v)?,
            "capturesToHand" => self.captures_to_hand = boolean(v)?,
            "twoBoards" => self.two_boards = boolean(v)?,
            "dropLoop" => self.drop_loop = boolean(v)?,
            "firstRankPawnDrops" => self.first_rank_pawn_drops = boolean(v)?,
            "promotionZonePawnDrops" => self.promotion_zone_pawn_drops = boolean(v)?,
            "shogiPawnDropMateIllegal" => self.shogi_pawn_drop_mate_illegal = boolean(v)?,
            "immobilityIllegal" => self.immobility_illegal = boolean(v)?,
            "mandatoryPawnPromotion" => self.mandatory_pawn_promotion = boolean(v)?,
            "mandatoryPiecePromotion" => self.mandatory_piece_promotion = boolean(v)?,
            "nFoldValueAbsolute" => self.n_fold_value_absolute = boolean(v)?,
            "perpetualCheckIllegal" => self.perpetual_check_illegal = boolean(v)?,
            "dropNoDoubled" => {
                self.drop_no_doubled = if v == "-" {
                    None
                } else {
                    let mut c = v.chars();
                    match (c.next(), c.next()) {
                        (Some(l), None) => Some(self.type_of_letter(l).ok_or_else(|| {
                            format!("`{l}` is not a piece letter of this variant")
                        })?),
                        _ => return Err(format!("expected one piece letter, found `{v}`")),
                    }
                }
            }
            // 0 is valid: no file is free of that many, so the piece is never dropped.
            "dropNoDoubledCount" => self.drop_no_doubled_count = count(v)?,
            "promotionRegionWhite" => self.promotion_region[0] = region(v)?,
            "promotionRegionBlack" => self.promotion_region[1] = region(v)?,
            "promotionRegion" => {
                return Err(
                    "Fairy-Stockfish has no such key: use promotionRegionWhite and \
                     promotionRegionBlack"
                        .into(),
                )
            }
            "promotedPieceType" => {
                // Entry by entry over what the parent set (Fairy-Stockfish merges it).
                let mut map = std::mem::take(&mut self.promoted_piece_type);
                for tok in v.split_whitespace() {
                    let (a, b) = tok
                        .split_once(':')
                        .filter(|(a, b)| a.chars().count() == 1 && b.chars().count() == 1)
                        .ok_or_else(|| format!("`{tok}` is not `piece:promoted`"))?;
                    let from = self.piece_set(a)?;
                    let to = self.piece_set(b)?;
                    match (from.first(), to.first()) {
                        (Some(&f), to) => {
                            map.retain(|&(x, _)| x != f);
                            if let Some(&t) = to {
                                map.push((f, t));
                            }
                        }
                        _ => return Err(format!("`{tok}` names no piece")),
                    }
                }
                self.promoted_piece_type = map;
            }
            "stalemateValue" => self.stalemate_value = value(v)?,
            "checkmateValue" => self.checkmate_value = value(v)?,
            "nFoldValue" => self.n_fold_value = value(v)?,
            "nMoveRule" => self.n_move_rule = count(v)?,
            "nFoldRule" => self.n_fold_rule = count(v)?,
            "connectN" => self.connect_n = count(v)?,
            "castlingKingsideFile" => self.castling_king_dest[0] = file(v)?,
            "castlingQueensideFile" => self.castling_king_dest[1] = file(v)?,
            "castlingRookKingsideFile" => self.castling_rook_files[0] = file(v)?,
            "castlingRookQueensideFile" => self.castling_rook_files[1] = file(v)?,
            "castlingKingFile" => self.castling_king_file = file(v)?,
            "castlingRank" => self.castling_rank = rank(v)?,
            "castlingKingPiece" => self.castling_king_piece = self.piece_type(v)?,
            "castlingRookPieces" => self.castling_rook_pieces = self.piece_set(v)?,
            "mustCapture" => self.must_capture = boolean(v)?,
            "mustDrop" => self.must_drop = boolean(v)?,
            "mustDropType" => self.must_drop_type = self.piece_type(v)?,
            "checking" => self.checking = boolean(v)?,
            "dropChecks" => self.drop_checks = boolean(v)?,
            "dropRegionWhite" => self.drop_region[0] = Some(region(v)?),
            "dropRegionBlack" => self.drop_region[1] = Some(region(v)?),
            "extinctionValue" => self.extinction_value = value_or_none(v)?,
            "extinctionPieceTypes" => self.extinction_piece_types = self.piece_set(v)?,
            "extinctionPieceCount" => self.extinction_piece_count = count(v)?,
            "extinctionOpponentPieceCount" => self.extinction_opponent_piece_count = count(v)?,
            "extinctionClaim" => self.extinction_claim = boolean(v)?,
            "extinctionPseudoRoyal" => self.extinction_pseudo_royal = boolean(v)?,
            "dupleCheck" => self.duple_check = boolean(v)?,
            "shatarMateRule" => self.shatar_mate_rule = boolean(v)?,
            "sittuyinRookDrop" => self.sittuyin_rook_drop = boolean(v)?,
            "sittuyinPromotion" => self.sittuyin_promotion = boolean(v)?,
            "gating" => self.gating = boolean(v)?,
            "seirawanGating" => self.seirawan_gating = boolean(v)?,
            "cambodianMoves" => self.cambodian_moves = boolean(v)?,
            "flagPiece" => self.flag_piece = [self.piece_type(v)?; 2],
            "flagPieceWhite" => self.flag_piece[0] = self.piece_type(v)?,
            "flagPieceBlack" => self.flag_piece[1] = self.piece_type(v)?,
            "flagRegion" => self.flag_region = [region(v)?; 2],
            "flagRegionWhite" => self.flag_region[0] = region(v)?,
            "flagRegionBlack" => self.flag_region[1] = region(v)?,
            "flagPieceCount" => self.flag_piece_count = count(v)?,
            "flagPieceBlockedWin" => self.flag_piece_blocked_win = boolean(v)?,
            "flagMove" => self.flag_move = boolean(v)?,
            "flagPieceSafe" => self.flag_piece_safe = boolean(v)?,
            "stalematePieceCount" => self.stalemate_piece_count = boolean(v)?,
            "checkCounting" => self.check_counting = boolean(v)?,
            "blastOnCapture" => self.blast_on_capture = boolean(v)?,
            "blastImmuneTypes" => self.blast_immune_types = self.piece_set(v)?,
            "mutuallyImmuneTypes" => self.mutually_immune_types = self.piece_set(v)?,
            "connectHorizontal" => self.connect.horizontal = boolean(v)?,
            "connectVertical" => self.connect.vertical = boolean(v)?,
            "connectDiagonal" => self.connect.diagonal = boolean(v)?,
            "connectNxN" => self.connect.nxn = count(v)?,
            "collinearN" => self.connect.collinear = count(v)?,
            "connectRegion1White" => self.connect.regions[0][0] = region(v)?,
            "connectRegion2White" => self.connect.regions[0][1] = region(v)?,
            "connectRegion1Black" => self.connect.regions[1][0] = region(v)?,
            "connectRegion2Black" => self.connect.regions[1][1] = region(v)?,
            "connectValue" => self.connect_value = value(v)?,
            "castlingWins" => self.castling_wins = crate::castling_rules::parse_rights(v)?,
            "oppositeCastling" => self.opposite_castling = boolean(v)?,
            "dropOppositeColoredBishop" => self.drop_opposite_colored_bishop = boolean(v)?,
            "castlingDroppedPiece" => self.castling_dropped_piece = boolean(v)?,
            // Chess960 castling: the rules model castles from any king and rook squares
            // already; the key changes how castling is written (see `Spec::chess960`).
            "chess960" => self.chess960 = boolean(v)?,
            "materialCounting" => self.material_counting = crate::material::parse(v)?,
            "countingRule" => self.counting_rule = crate::counting::parse(v)?,
            "petrifyOnCaptureTypes" => self.petrify_on_capture_types = self.piece_set(v)?,
            "enPassantRegion" => self.en_passant_region = [Some(region(v)?); 2],
            "enPassantRegionWhite" => self.en_passant_region[0] = Some(region(v)?),
            "enPassantRegionBlack" => self.en_passant_region[1] = Some(region(v)?),
            "tripleStepRegionWhite" => self.triple_step_region[0] = region(v)?,
            "tripleStepRegionBlack" => self.triple_step_region[1] = region(v)?,
            "promotionLimit" => {
                // Per type, over the parent's limits (Fairy-Stockfish keeps the others:
                // opulent's rook limit comes from grand).
                for (ty, n) in self.parse_promotion_limit(v)? {
                    match self.promotion_limit.iter_mut().find(|(t, _)| *t == ty) {
                        Some(e) => e.1 = n,
                        None => self.promotion_limit.push((ty, n)),
                    }
                }
            }
            "pieceDemotion" => self.piece_demotion = boolean(v)?,
            "dropPromoted" => self.drop_promoted = boolean(v)?,
            "piecePromotionOnCapture" => self.piece_promotion_on_capture = boolean(v)?,
            "passOnStalemate" => self.pass_on_stalemate = [boolean(v)?; 2],
            "passOnStalemateWhite" => self.pass_on_stalemate[0] = boolean(v)?,
            "passOnStalemateBlack" => self.pass_on_stalemate[1] = boolean(v)?,
            "flyingGeneral" => self.flying_general = boolean(v)?,
            "makpongRule" => self.makpong_rule = boolean(v)?,
            "pieceToCharSynonyms" => self.set_synonyms(v)?,
            "soldierPromotionRank" => self.soldier_promotion_rank = rank(v)?,
            "diagonalLines" => self.diagonal_lines = region(v)?,
            "kingType" => self.set_king_type(v)?,
            "pass" => self.pass = [boolean(v)?; 2],
            "passWhite" => self.pass[0] = boolean(v)?,
            "passBlack" => self.pass[1] = boolean(v)?,
            "bikjangRule" => self.bikjang_rule = boolean(v)?,
            "moveRepetitionIllegal" => self.move_repetition_illegal = boolean(v)?,
            // Refused in `contradictions` (a child may set it back to `none`).
            "chasingRule" => {
                self.chasing_rule_axf = match v {
                    "none" => false,
                    "axf" => true,
                    _ => return Err(format!("`{v}` is not a chasing rule (none, axf)")),
                }
            }
            k if k.starts_with("mobilityRegion") => {
                let (color, ty) = mobility_key(k)?;
                self.mobility_region
                    .entry(ty)
                    .or_insert([SquareSet::EMPTY; 2])[color] = region(v)?;
            }
            "wallingRule" => self.walling_rule = crate::walling::WallingRule::parse(v)?,
            "wallingRegion" => self.walling_region = [region(v)?; 2],
            "wallingRegionWhite" => self.walling_region[0] = region(v)?,
            "wallingRegionBlack" => self.walling_region[1] = region(v)?,
            "wallOrMove" => self.wall_or_move = boolean(v)?,
            "enclosingDrop" => self.placement.drop_rule = crate::placement::Enclosing::parse(v)?,
            "enclosingDropStart" => self.placement.drop_start = region(v)?,
            "flipEnclosedPieces" => self.placement.flip = crate::placement::Enclosing::parse(v)?,
            "adjudicateFullBoard" => self.placement.adjudicate_full_board = boolean(v)?,
            // Not a Fairy-Stockfish key: its C++ built-in `ataxx` sets it (see `placement`).
            "freeDrops" => self.placement.free_drops = boolean(v)?,
            _ => return Err("unsupported key (this plugin does not implement it)".into()),
        }
        Ok(())
    }
}

/// `mobilityRegion{White,Black}{Piece}`: the colour index and the piece type, named as its
/// piece key with a capital (`King`, `Fers`, `CustomPiece3`).
fn mobility_key(key: &str) -> Result<(usize, u16), String> {
    let rest = key.strip_prefix("mobilityRegion").unwrap_or(key);
    let (color, name) = if let Some(n) = rest.strip_prefix("White") {
        (0, n)
    } else if let Some(n) = rest.strip_prefix("Black") {
        (1, n)
    } else {
        return Err("expected mobilityRegionWhite... or mobilityRegionBlack...".into());
    };
    let mut chars = name.chars();
    let piece: String = match chars.next() {
        Some(c) if c.is_ascii_uppercase() => c.to_ascii_lowercase().to_string() + chars.as_str(),
        _ => return Err(format!("`{name}` is not a capitalized piece name")),
    };
    if let Some(n) = NAMED.iter().find(|n| n.key == piece) {
        return Ok((color, n.ty));
    }
    if let Some(Ok(n)) = piece.strip_prefix("customPiece").map(str::parse::<u16>) {
        if (1..=CUSTOM_COUNT).contains(&n) {
            return Ok((color, CUSTOM + n - 1));
        }
    }
    Err(format!(
        "`{name}` is not a piece type of Fairy-Stockfish this plugin supports"
    ))
}

/// The named piece type with this number.
pub fn named(ty: u16) -> Option<&'static Named> {
    NAMED.iter().find(|n| n.ty == ty)
}

fn boolean(v: &str) -> Result<bool, String> {
    match v {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("`{v}` is not true or false")),
    }
}

/// A file: a letter (`g`) or a number from 1.
fn file(v: &str) -> Result<u8, String> {
    let n = match v.parse::<u8>() {
        Ok(n) if n >= 1 => n - 1,
        _ => match v.as_bytes() {
            [c @ b'a'..=b'l'] => c - b'a',
            _ => return Err(format!("`{v}` is not a file (a to l, or 1 to 12)")),
        },
    };
    if n > 11 {
        return Err(format!("`{v}` is not a file (a to l, or 1 to 12)"));
    }
    Ok(n)
}

/// A rank, from 1.
fn rank(v: &str) -> Result<u8, String> {
    match v.parse::<u8>() {
        Ok(n @ 1..=10) => Ok(n - 1),
        _ => Err(format!("`{v}` is not a rank (1 to 10)")),
    }
}

/// `win`, `loss`, `draw`, or `none` (the rule is off).
fn value_or_none(v: &str) -> Result<Option<Value>, String> {
    if v == "none" {
        Ok(None)
    } else {
        value(v).map(Some)
    }
}

fn count(v: &str) -> Result<u32, String> {
    v.parse()
        .map_err(|_| format!("`{v}` is not a whole number >= 0"))
}

fn value(v: &str) -> Result<Value, String> {
    match v {
        "win" => Ok(Value::Win),
        "loss" => Ok(Value::Loss),
        "draw" => Ok(Value::Draw),
        _ => Err(format!("`{v}` is not win, loss or draw")),
    }
}

/// A region: squares (`a1`), whole ranks (`*6`), whole files (`a*`), separated by spaces.
pub fn region(v: &str) -> Result<SquareSet, String> {
    let mut s = SquareSet::EMPTY;
    for tok in v.split_whitespace() {
        if tok == "-" {
            continue;
        }
        let bad = || format!("`{tok}` is not a square, `*N` rank or `f*` file");
        let mut chars = tok.chars();
        let f = chars.next().ok_or_else(bad)?;
        let rest: &str = chars.as_str();
        let file = match f {
            '*' => None,
            'a'..='p' => Some(f as u8 - b'a'),
            _ => return Err(bad()),
        };
        let rank = if rest == "*" {
            None
        } else {
            let r: u8 = rest.parse().map_err(|_| bad())?;
            if !(1..=15).contains(&r) {
                return Err(bad());
            }
            Some(r - 1)
        };
        for ff in 0..16u8 {
            for rr in 0..15u8 {
                if file.is_none_or(|x| x == ff) && rank.is_none_or(|x| x == rr) {
                    s.insert(Square::new(ff, rr));
                }
            }
        }
    }
    Ok(s)
}
