//! Squares, colours, board cells and the [`Position`] every plugin reads and writes.

use abi_stable::{std_types::RVec, StableAbi};

/// Widest board a position can hold (files a..p).
pub const MAX_FILES: u8 = 16;
/// Tallest board a position can hold (ranks 1..15).
pub const MAX_RANKS: u8 = 15;
/// Number of cells in [`Position`]'s board array (16 files x 16 rows; row 15 is never used).
pub const CELLS: usize = 256;

/// One of the two players.
#[repr(u8)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first in the standard start positions.
    White = 0,
    /// The other side.
    Black = 1,
}

impl Color {
    /// The other colour.
    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    /// 0 for White, 1 for Black: an index into per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
    /// White for 0, Black otherwise.
    #[inline]
    pub const fn from_index(i: usize) -> Color {
        if i == 0 {
            Color::White
        } else {
            Color::Black
        }
    }
    /// `"white"` or `"black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
    /// `'w'` or `'b'`, as in FEN.
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
    /// +1 for White (towards higher ranks), -1 for Black.
    #[inline]
    pub const fn forward(self) -> i8 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

/// A square of the board: file in the low 4 bits, rank in the high 4 bits (a1 = 0, b1 = 1,
/// a2 = 16). [`Square::NONE`] stands for "no square".
#[repr(transparent)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// "No square" (rank 15 does not exist on any board).
    pub const NONE: Square = Square(0xFF);

    /// The square on `file` (0 = a) and `rank` (0 = rank 1).
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square((rank << 4) | (file & 15))
    }
    /// File index, 0 = a.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 15
    }
    /// Rank index, 0 = rank 1.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 4
    }
    /// Index into [`Position`]'s cell array.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// Whether this is [`Square::NONE`].
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0xFF
    }
    /// `Some(self)` unless this is [`Square::NONE`].
    #[inline]
    pub const fn to_option(self) -> Option<Square> {
        if self.is_none() {
            None
        } else {
            Some(self)
        }
    }
    /// The square `df` files and `dr` ranks away, if it lies within `files` x `ranks`.
    /// Holes are not considered here; see [`Position::offset`].
    #[inline]
    pub const fn offset_within(self, df: i8, dr: i8, files: u8, ranks: u8) -> Option<Square> {
        let f = self.file() as i16 + df as i16;
        let r = self.rank() as i16 + dr as i16;
        if f < 0 || r < 0 || f >= files as i16 || r >= ranks as i16 {
            None
        } else {
            Some(Square::new(f as u8, r as u8))
        }
    }
    /// Algebraic name, e.g. `e4`, `j10`.
    pub fn name(self) -> String {
        let mut s = String::with_capacity(3);
        self.push_name(&mut s);
        s
    }
    /// Appends the algebraic name ([`Square::name`]) to `s`, without a temporary string
    /// (notation and FEN writers name squares at every ply).
    #[inline]
    pub fn push_name(self, s: &mut String) {
        self.write_name(|b| s.push(b as char));
    }
    /// The algebraic name ([`Square::name`]) byte by byte (ASCII) to `out`: writers of bytes
    /// name squares without a string.
    #[inline]
    pub fn write_name(self, mut out: impl FnMut(u8)) {
        if self.is_none() {
            out(b'-');
            return;
        }
        out(b'a' + self.file());
        let n = self.rank() as u32 + 1;
        if n >= 100 {
            out(b'0' + (n / 100) as u8);
        }
        if n >= 10 {
            out(b'0' + (n / 10 % 10) as u8);
        }
        out(b'0' + (n % 10) as u8);
    }
    /// Parses an algebraic square name (`e4`, `j10`); `None` if malformed or off the
    /// maximal board.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() < 2 || b.len() > 3 || !b[0].is_ascii_lowercase() {
            return None;
        }
        let file = b[0] - b'a';
        let rank: u8 = s[1..].parse().ok()?;
        if file >= MAX_FILES || rank == 0 || rank > MAX_RANKS || s[1..].starts_with('0') {
            return None;
        }
        Some(Square::new(file, rank - 1))
    }
}

impl std::fmt::Display for Square {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// What stands on one cell of the board: nothing, a hole (off-board), or a piece given by its
/// kind (index into the variant's piece table, below 127) and colour.
#[repr(transparent)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Cell(pub u8);

impl Cell {
    /// An empty square.
    pub const EMPTY: Cell = Cell(0);
    /// A hole: not part of the board. Stops slides and steps; nothing lands there.
    pub const HOLE: Cell = Cell(1);

    /// A piece of `kind` (index into the piece table) and `color`.
    #[inline]
    pub const fn piece(kind: u8, color: Color) -> Cell {
        Cell(2 + (kind << 1) + color as u8)
    }
    /// Whether the cell is an empty square.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Whether the cell is a hole.
    #[inline]
    pub const fn is_hole(self) -> bool {
        self.0 == 1
    }
    /// Whether a piece stands here.
    #[inline]
    pub const fn is_piece(self) -> bool {
        self.0 >= 2
    }
    /// Piece kind, if a piece stands here.
    #[inline]
    pub const fn kind(self) -> Option<u8> {
        if self.0 >= 2 {
            Some((self.0 - 2) >> 1)
        } else {
            None
        }
    }
    /// Piece colour, if a piece stands here.
    #[inline]
    pub const fn color(self) -> Option<Color> {
        if self.0 >= 2 {
            Some(if (self.0 - 2) & 1 == 0 {
                Color::White
            } else {
                Color::Black
            })
        } else {
            None
        }
    }
    /// Whether a piece of `color` stands here.
    #[inline]
    pub const fn is_color(self, color: Color) -> bool {
        self.0 >= 2 && ((self.0 - 2) & 1) == color as u8
    }
}

/// A set of squares (one bit per cell of the 256-cell array).
#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SquareSet(pub [u64; 4]);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet([0; 4]);
    /// Adds a square.
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0[sq.index() >> 6] |= 1u64 << (sq.index() & 63);
    }
    /// Removes a square.
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0[sq.index() >> 6] &= !(1u64 << (sq.index() & 63));
    }
    /// Membership test.
    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        !sq.is_none() && self.0[sq.index() >> 6] & (1u64 << (sq.index() & 63)) != 0
    }
    /// Whether no square is in the set.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }
    /// The squares in both sets.
    #[inline]
    pub fn intersection(self, other: SquareSet) -> SquareSet {
        SquareSet(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }
    /// The squares of this set that are not in `other`.
    #[inline]
    pub fn difference(self, other: SquareSet) -> SquareSet {
        SquareSet(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }
    /// Number of squares in the set.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    /// The squares, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        (0..4).flat_map(move |w| {
            let mut bits = self.0[w];
            std::iter::from_fn(move || {
                if bits == 0 {
                    None
                } else {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    Some(Square((w as u32 * 64 + b) as u8))
                }
            })
        })
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut s = SquareSet::EMPTY;
        for sq in iter {
            s.insert(sq);
        }
        s
    }
}

/// A short ASCII name stored inline (at most 31 bytes): attribute names such as `Hp`, and the
/// owners and keys of plugin state. Inline so that copying a position never allocates for it.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Name {
    len: u8,
    bytes: [u8; 31],
}

impl Name {
    /// Builds a name; `None` if it is longer than 31 bytes or not ASCII.
    pub const fn new(s: &str) -> Option<Name> {
        let b = s.as_bytes();
        if b.len() > 31 {
            return None;
        }
        let mut bytes = [0u8; 31];
        let mut i = 0;
        while i < b.len() {
            if !b[i].is_ascii() {
                return None;
            }
            bytes[i] = b[i];
            i += 1;
        }
        Some(Name {
            len: b.len() as u8,
            bytes,
        })
    }
    /// Builds a name from a literal known to be valid; panics at compile time otherwise.
    pub const fn lit(s: &str) -> Name {
        match Name::new(s) {
            Some(n) => n,
            None => panic!("name longer than 31 bytes or not ASCII"),
        }
    }
    /// The name as a string slice.
    pub fn as_str(&self) -> &str {
        // Only ASCII bytes are ever stored.
        std::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or("")
    }
}

impl std::fmt::Debug for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

/// Well-known attribute names with a meaning shared by several plugins.
pub mod attr {
    use super::Name;
    /// Hit points (piece-hp): a piece whose Hp reaches 0 is removed.
    pub const HP: Name = Name::lit("Hp");
    /// Stable piece identity, given to every piece at game start when a plugin asks for it.
    pub const ID: Name = Name::lit("Id");
    /// Set to 1 once a piece has moved (any move), for rules about first moves.
    pub const MOVED: Name = Name::lit("Moved");
}

/// An integer attribute of the piece standing on `square` (hit points, "has moved", counters
/// of custom modifiers ...). Attributes travel with their piece through
/// [`Position::move_piece`] and vanish with it through [`Position::clear`].
#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Attribute {
    /// Where the piece stands.
    pub square: Square,
    /// Attribute name.
    pub name: Name,
    /// Value.
    pub value: i32,
}

/// A value of plugin state that is part of the position (and so of its FEN and of repetition):
/// e.g. "first promotion already happened". `owner` is the plugin-defined owner (preset id).
#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StateEntry {
    /// Preset or variant id that owns the entry.
    pub owner: Name,
    /// Key within the owner.
    pub key: Name,
    /// Value.
    pub value: i64,
}

/// Castling right slots of [`Position::castling`]: the square of the rook that may still castle.
pub mod castle_slot {
    /// White, towards the h-side.
    pub const WHITE_KING_SIDE: usize = 0;
    /// White, towards the a-side.
    pub const WHITE_QUEEN_SIDE: usize = 1;
    /// Black, towards the h-side.
    pub const BLACK_KING_SIDE: usize = 2;
    /// Black, towards the a-side.
    pub const BLACK_QUEEN_SIDE: usize = 3;
}

/// Private words a variant may use to cache a faster representation of the board (bitboards).
/// Every generic mutation of [`Position`] marks the cache stale; the variant re-derives it.
#[repr(C, align(8))]
#[derive(StableAbi, Clone, Copy, PartialEq, Eq, Debug)]
pub struct Accel {
    /// Raw words, meaningful only to the variant that wrote them.
    pub words: [u64; 16],
}

/// A game position, as exchanged between the host and every plugin.
///
/// The board is an array of 256 [`Cell`]s indexed by [`Square`]; only the `files` x `ranks`
/// rectangle is used, and holes inside it are [`Cell::HOLE`]. The rest is the usual state of a
/// chess-like game (side to move, castling rights as rook squares, en passant squares, clocks,
/// hands) plus open-ended, copy-cheap extension data: per-piece [`Attribute`]s and plugin
/// [`StateEntry`]s. Copying a position never allocates unless attributes or state are in use.
///
/// Mutate the board through the methods ([`Position::set`], [`Position::move_piece`],
/// [`Position::clear`]): they keep attributes attached to their pieces and mark the variant's
/// acceleration cache stale.
///
/// ```
/// use houserules_plugin_api::{attr, Cell, Color, Position, Square};
///
/// let mut pos = Position::empty(8, 8);
/// let (e4, e5) = (Square::parse("e4").unwrap(), Square::parse("e5").unwrap());
/// pos.set(e4, Cell::piece(0, Color::White));
/// pos.set_attribute(e4, attr::HP, 2);
/// pos.move_piece(e4, e5);
/// // The attribute travels with its piece ...
/// assert_eq!(pos.attribute(e5, attr::HP), Some(2));
/// assert!(pos.get(e4).is_empty());
/// // ... and vanishes with it.
/// pos.clear(e5);
/// assert!(pos.attributes().is_empty());
/// ```
#[repr(C)]
#[derive(StableAbi, PartialEq, Eq, Debug)]
pub struct Position {
    cells: [Cell; CELLS],
    files: u8,
    ranks: u8,
    /// Side to move.
    pub side_to_move: Color,
    /// Which half-move of a multi-move turn comes next (0 = the first). Written in FEN by
    /// presets that give several half-moves per turn.
    pub turn_phase: u8,
    /// Castling rights: the rook squares (see [`castle_slot`]); [`Square::NONE`] if lost.
    pub castling: [Square; 4],
    /// En passant: the square passed over by the last double step, or [`Square::NONE`].
    pub ep_passed: Square,
    /// En passant: where the piece that may be taken en passant stands (the landing square).
    /// Without `ep_passed` there is no right: a variant may keep the landing square of a
    /// double step here for its own notation (the Fairy-Stockfish plugin writes a right no
    /// capture can use in its FEN, as Fairy-Stockfish does), and it does not count for
    /// repetition ([`Position::same_for_repetition`]).
    pub ep_victim: Square,
    /// Half-moves since the last capture or pawn move (n-move rule).
    pub halfmove_clock: u16,
    /// Full-move number, starting at 1, incremented after Black's turn.
    pub fullmove_number: u16,
    /// Pieces in hand, by colour and piece kind (kinds 0..31).
    pub hands: [[u8; 32]; 2],
    /// Small variant-defined state (e.g. pistol shots left), part of the position.
    pub variant_state: [u32; 4],
    accel_valid: u8,
    accel: Accel,
    attributes: RVec<Attribute>,
    state: RVec<StateEntry>,
}

impl Clone for Position {
    fn clone(&self) -> Position {
        Position {
            attributes: self.attributes.clone(),
            state: self.state.clone(),
            ..*self
        }
    }

    /// Copies `source` into `self` reusing its attribute and state buffers: trying many
    /// moves from one position copies it once per move, without allocating.
    fn clone_from(&mut self, source: &Position) {
        let mut attributes = std::mem::take(&mut self.attributes);
        let mut state = std::mem::take(&mut self.state);
        copy_list(&mut attributes, &source.attributes);
        copy_list(&mut state, &source.state);
        *self = Position {
            attributes,
            state,
            ..*source
        };
    }
}

impl Position {
    /// An empty `files` x `ranks` board (clamped to the maximum), White to move, no rights.
    pub fn empty(files: u8, ranks: u8) -> Position {
        Position {
            cells: [Cell::EMPTY; CELLS],
            files: files.clamp(1, MAX_FILES),
            ranks: ranks.clamp(1, MAX_RANKS),
            side_to_move: Color::White,
            turn_phase: 0,
            castling: [Square::NONE; 4],
            ep_passed: Square::NONE,
            ep_victim: Square::NONE,
            halfmove_clock: 0,
            fullmove_number: 1,
            hands: [[0; 32]; 2],
            variant_state: [0; 4],
            accel_valid: 0,
            accel: Accel { words: [0; 16] },
            attributes: RVec::new(),
            state: RVec::new(),
        }
    }

    /// Number of files.
    #[inline]
    pub fn files(&self) -> u8 {
        self.files
    }
    /// Number of ranks.
    #[inline]
    pub fn ranks(&self) -> u8 {
        self.ranks
    }
    /// Whether `sq` is a square of the board (inside the rectangle and not a hole).
    #[inline]
    pub fn on_board(&self, sq: Square) -> bool {
        !sq.is_none()
            && sq.file() < self.files
            && sq.rank() < self.ranks
            && !self.cells[sq.index()].is_hole()
    }
    /// The square `df` files and `dr` ranks from `sq`, if it is on the board (not a hole).
    #[inline]
    pub fn offset(&self, sq: Square, df: i8, dr: i8) -> Option<Square> {
        let to = sq.offset_within(df, dr, self.files, self.ranks)?;
        if self.cells[to.index()].is_hole() {
            None
        } else {
            Some(to)
        }
    }
    /// Every square of the board (holes excluded), a1 first, rank by rank.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        // One flat pass over the used rows of the cell array: hooks call this per position.
        let files = self.files;
        self.cells[..self.ranks as usize * 16]
            .iter()
            .enumerate()
            .filter_map(move |(i, c)| {
                ((i & 15) < files as usize && !c.is_hole()).then_some(Square(i as u8))
            })
    }
    /// What stands on `sq` ([`Cell::HOLE`] for squares off the board).
    #[inline]
    pub fn get(&self, sq: Square) -> Cell {
        if sq.is_none() || sq.file() >= self.files || sq.rank() >= self.ranks {
            Cell::HOLE
        } else {
            self.cells[sq.index()]
        }
    }
    /// The raw cell array (256 cells, indexed by [`Square`]).
    #[inline]
    pub fn cells(&self) -> &[Cell; CELLS] {
        &self.cells
    }
    /// Puts `cell` on `sq` (a piece, [`Cell::EMPTY`] or [`Cell::HOLE`]). Attributes of a piece
    /// that stood there are dropped.
    pub fn set(&mut self, sq: Square, cell: Cell) {
        if sq.is_none() || sq.file() >= self.files || sq.rank() >= self.ranks {
            return;
        }
        self.accel_valid = 0;
        if !self.attributes.is_empty() {
            keep_only(&mut self.attributes, |a| a.square != sq);
        }
        self.cells[sq.index()] = cell;
    }
    /// Empties `sq`, dropping the attributes of the piece there; returns what stood there.
    pub fn clear(&mut self, sq: Square) -> Cell {
        let old = self.get(sq);
        if old.is_piece() {
            self.set(sq, Cell::EMPTY);
        }
        old
    }
    /// Moves the piece on `from` to `to` with its attributes. Whatever stood on `to` is
    /// removed (with its attributes).
    pub fn move_piece(&mut self, from: Square, to: Square) {
        if from == to {
            return;
        }
        let cell = self.get(from);
        self.set(to, cell);
        self.cells[from.index()] = Cell::EMPTY;
        for a in self.attributes.iter_mut() {
            if a.square == from {
                a.square = to;
            }
        }
    }
    /// Writes a cell without touching attributes or the acceleration cache. For variants
    /// that keep their cache in step themselves (see [`Position::accel_mut`]). `sq` must be
    /// on the board (cells off it stay empty: [`Position::repetition_hash`] skips them).
    #[inline]
    pub fn set_raw(&mut self, sq: Square, cell: Cell) {
        self.cells[sq.index()] = cell;
    }
    /// Whether per-piece attributes are in use (then variants must move them with pieces).
    #[inline]
    pub fn has_attributes(&self) -> bool {
        !self.attributes.is_empty()
    }

    /// All attributes.
    pub fn attributes(&self) -> &[Attribute] {
        &self.attributes
    }
    /// The attribute `name` of the piece on `sq`.
    pub fn attribute(&self, sq: Square, name: Name) -> Option<i32> {
        self.attributes
            .iter()
            .find(|a| a.square == sq && a.name == name)
            .map(|a| a.value)
    }
    /// Sets the attribute `name` of the piece on `sq`.
    pub fn set_attribute(&mut self, sq: Square, name: Name, value: i32) {
        if let Some(a) = self
            .attributes
            .iter_mut()
            .find(|a| a.square == sq && a.name == name)
        {
            a.value = value;
        } else {
            self.attributes.push(Attribute {
                square: sq,
                name,
                value,
            });
        }
    }
    /// Removes the attribute `name` of the piece on `sq`.
    pub fn remove_attribute(&mut self, sq: Square, name: Name) {
        keep_only(&mut self.attributes, |a| {
            !(a.square == sq && a.name == name)
        });
    }
    /// Moves attributes of `from` to `to` (dropping those already on `to`). For variants
    /// that move cells with [`Position::set_raw`].
    pub fn move_attributes(&mut self, from: Square, to: Square) {
        if self.attributes.is_empty() || from == to {
            return;
        }
        // One pass: those on `to` go, those on `from` move there.
        let mut kept = 0;
        for i in 0..self.attributes.len() {
            let sq = self.attributes[i].square;
            if sq == to {
                continue;
            }
            if kept != i {
                self.attributes[kept] = self.attributes[i];
            }
            if sq == from {
                self.attributes[kept].square = to;
            }
            kept += 1;
        }
        self.attributes.truncate(kept);
    }
    /// Drops every attribute of the piece on `sq`.
    pub fn drop_attributes(&mut self, sq: Square) {
        if !self.attributes.is_empty() {
            keep_only(&mut self.attributes, |a| a.square != sq);
        }
    }

    /// All plugin state entries.
    pub fn state(&self) -> &[StateEntry] {
        &self.state
    }
    /// A plugin state value.
    pub fn state_value(&self, owner: Name, key: Name) -> Option<i64> {
        self.state
            .iter()
            .find(|e| e.owner == owner && e.key == key)
            .map(|e| e.value)
    }
    /// Sets a plugin state value.
    pub fn set_state_value(&mut self, owner: Name, key: Name, value: i64) {
        if let Some(e) = self
            .state
            .iter_mut()
            .find(|e| e.owner == owner && e.key == key)
        {
            e.value = value;
        } else {
            self.state.push(StateEntry { owner, key, value });
        }
    }

    /// Pieces of `kind` in `color`'s hand.
    #[inline]
    pub fn in_hand(&self, color: Color, kind: u8) -> u8 {
        self.hands[color.index()][kind as usize & 31]
    }

    /// The variant's cache, if it is valid.
    #[inline]
    pub fn accel(&self) -> Option<&Accel> {
        if self.accel_valid != 0 {
            Some(&self.accel)
        } else {
            None
        }
    }
    /// Writable access to the cache; the caller promises to leave it consistent with the
    /// cells, and it is marked valid.
    #[inline]
    pub fn accel_mut(&mut self) -> &mut Accel {
        self.accel_valid = 1;
        &mut self.accel
    }
    /// Marks the cache stale.
    #[inline]
    pub fn invalidate_accel(&mut self) {
        self.accel_valid = 0;
    }

    /// Squares holding a piece of `color`, with the piece kinds.
    pub fn pieces_of(&self, color: Color) -> impl Iterator<Item = (Square, u8)> + '_ {
        // Cells outside the used files are always empty, so no bounds test is needed.
        self.cells[..self.ranks as usize * 16]
            .iter()
            .enumerate()
            .filter_map(move |(i, c)| {
                if c.is_color(color) {
                    Some((Square(i as u8), (c.0 - 2) >> 1))
                } else {
                    None
                }
            })
    }

    /// Whether two positions are the same for repetition: board, side, phase, castling,
    /// en passant, hands, variant state, attributes and plugin state (clocks excluded).
    pub fn same_for_repetition(&self, other: &Position) -> bool {
        self.cells == other.cells
            && self.side_to_move == other.side_to_move
            && self.turn_phase == other.turn_phase
            && self.castling == other.castling
            && self.ep_passed == other.ep_passed
            && self.hands == other.hands
            && self.variant_state == other.variant_state
            && sorted_attributes(&self.attributes) == sorted_attributes(&other.attributes)
            && sorted_state(&self.state) == sorted_state(&other.state)
    }

    /// A 64-bit hash of what [`Position::same_for_repetition`] compares. Cheap (a
    /// multiply-rotate over 8-byte words: replaying records hashes every ply); not
    /// collision-resistant against crafted input, which repetition counting does not need.
    pub fn repetition_hash(&self) -> u64 {
        const K: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut h: u64 = 0;
        let mut mix = |w: u64| h = (h.rotate_left(5) ^ w).wrapping_mul(K);
        let word = |b: &[u8]| {
            let mut w = [0u8; 8];
            w[..b.len()].copy_from_slice(b);
            u64::from_le_bytes(w)
        };
        // The cells on the board only: the rest of the array is always empty ([`Position::set`]
        // refuses squares off the board). Of each rank's 16 cells, the first 8 on boards of
        // 8 files or fewer (most boards: half the words).
        let used = self.ranks as usize * 16;
        let wide = self.files > 8;
        for row in self.cells[..used].chunks_exact(16) {
            mix(u64::from_le_bytes(std::array::from_fn(|j| row[j].0)));
            if wide {
                mix(u64::from_le_bytes(std::array::from_fn(|j| row[8 + j].0)));
            }
        }
        mix(word(&[
            self.side_to_move as u8,
            self.turn_phase,
            self.ep_passed.0,
            self.castling[0].0,
            self.castling[1].0,
            self.castling[2].0,
            self.castling[3].0,
        ]));
        // Empty hands (every variant without drops) hash as nothing.
        let hands: [u64; 8] = std::array::from_fn(|i| {
            let side = &self.hands[i / 4];
            word(&side[(i % 4) * 8..(i % 4) * 8 + 8])
        });
        if hands.iter().any(|&w| w != 0) {
            for w in hands {
                mix(w);
            }
        }
        let v = self.variant_state;
        mix(v[0] as u64 | (v[1] as u64) << 32);
        mix(v[2] as u64 | (v[3] as u64) << 32);
        if !self.attributes.is_empty() || !self.state.is_empty() {
            // A sum of strongly mixed entries: the same entries in any order hash alike,
            // with no sorting or allocation (attributes change on every ply of hit points).
            let mut sum: u64 = 0;
            for a in self.attributes.iter() {
                let w = [
                    1,
                    a.square.0 as u64 | (a.value as u32 as u64) << 8,
                    name_word(&a.name, 0),
                    name_word(&a.name, 1),
                    name_word(&a.name, 2),
                    name_word(&a.name, 3),
                ];
                sum = sum.wrapping_add(entry_hash(&w));
            }
            for e in self.state.iter() {
                let w = [
                    2,
                    e.value as u64,
                    name_word(&e.owner, 0),
                    name_word(&e.owner, 1),
                    name_word(&e.owner, 2),
                    name_word(&e.owner, 3),
                    name_word(&e.key, 0),
                    name_word(&e.key, 1),
                    name_word(&e.key, 2),
                    name_word(&e.key, 3),
                ];
                sum = sum.wrapping_add(entry_hash(&w));
            }
            mix(sum);
        }
        h
    }
}

/// Keeps the entries `keep` accepts, in order, in place (abi_stable's `RVec::retain` goes
/// through a draining iterator, several times slower on these short lists).
fn keep_only<T: Copy>(v: &mut RVec<T>, mut keep: impl FnMut(&T) -> bool) {
    let mut kept = 0;
    for i in 0..v.len() {
        if keep(&v[i]) {
            if kept != i {
                v[kept] = v[i];
            }
            kept += 1;
        }
    }
    v.truncate(kept);
}

/// Makes `to` a copy of `from`, in its own buffer (one block copy, not a push per entry).
fn copy_list<T: Copy>(to: &mut RVec<T>, from: &[T]) {
    to.truncate(from.len());
    let have = to.len();
    to.as_mut_slice().copy_from_slice(&from[..have]);
    to.extend_from_slice(&from[have..]);
}

/// Word `i` (0..4) of a name: its length and 31 bytes, 8 bytes a word.
fn name_word(n: &Name, i: usize) -> u64 {
    let mut b = [0u8; 8];
    for (j, x) in b.iter_mut().enumerate() {
        let k = i * 8 + j;
        *x = if k == 0 { n.len } else { n.bytes[k - 1] };
    }
    u64::from_le_bytes(b)
}

/// A well-mixed hash of a few words (murmur3's finalizer after each word), so that sums of
/// entry hashes do not cancel.
fn entry_hash(words: &[u64]) -> u64 {
    let mut h: u64 = 0x243F_6A88_85A3_08D3;
    for &w in words {
        h ^= w;
        h ^= h >> 33;
        h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^= h >> 33;
        h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        h ^= h >> 33;
    }
    h
}

/// Attributes in a canonical order: equal positions compare equal however they were reached.
fn sorted_attributes(a: &[Attribute]) -> Vec<(Square, &str, i32)> {
    let mut v: Vec<(Square, &str, i32)> = a
        .iter()
        .map(|x| (x.square, x.name.as_str(), x.value))
        .collect();
    v.sort_unstable();
    v
}

fn sorted_state(a: &[StateEntry]) -> Vec<(&str, &str, i64)> {
    let mut v: Vec<(&str, &str, i64)> = a
        .iter()
        .map(|x| (x.owner.as_str(), x.key.as_str(), x.value))
        .collect();
    v.sort_unstable();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).expect("a square")
    }

    fn with_hp(entries: &[(&str, i32)]) -> Position {
        let mut p = Position::empty(8, 8);
        for (i, &(s, hp)) in entries.iter().enumerate() {
            p.set(sq(s), Cell::piece(i as u8 % 5, Color::White));
            p.set_attribute(sq(s), attr::HP, hp);
        }
        p
    }

    #[test]
    fn repetition_hash_ignores_attribute_order_but_not_values() {
        let a = with_hp(&[("a1", 2), ("b2", 1), ("c3", 3)]);
        let mut b = a.clone();
        // Same attributes, listed in another order.
        b.attributes.reverse();
        assert!(a.same_for_repetition(&b));
        assert_eq!(a.repetition_hash(), b.repetition_hash());
        let mut c = a.clone();
        c.set_attribute(sq("b2"), attr::HP, 2);
        assert!(!a.same_for_repetition(&c));
        assert_ne!(a.repetition_hash(), c.repetition_hash());
        // Swapped values between two pieces is another position.
        let d = with_hp(&[("a1", 1), ("b2", 2), ("c3", 3)]);
        assert_ne!(a.repetition_hash(), d.repetition_hash());
    }

    #[test]
    fn square_sets_intersect_and_subtract_in_every_word() {
        // a1 (word 0), h8's cell 119 (word 1), and cells 200 and 255 (words 3).
        let a: SquareSet = [0u8, 119, 200, 255].into_iter().map(Square).collect();
        let b: SquareSet = [119u8, 200, 7].into_iter().map(Square).collect();
        let both: Vec<u8> = a.intersection(b).iter().map(|s| s.0).collect();
        assert_eq!(both, [119, 200]);
        let only_a: Vec<u8> = a.difference(b).iter().map(|s| s.0).collect();
        assert_eq!(only_a, [0, 255]);
        assert!(a.difference(a).is_empty());
    }

    #[test]
    fn clone_from_reuses_buffers_and_copies_everything() {
        let big = with_hp(&[("a1", 2), ("b2", 1), ("c3", 3), ("d4", 4)]);
        let small = with_hp(&[("h8", 5)]);
        let mut scratch = big.clone();
        scratch.clone_from(&small);
        assert_eq!(scratch, small);
        scratch.clone_from(&big);
        assert_eq!(scratch, big);
        assert_eq!(scratch.attributes().len(), 4);
    }

    #[test]
    fn moving_attributes_keeps_others_and_drops_the_target_square() {
        let mut p = with_hp(&[("a1", 2), ("b2", 1), ("c3", 3)]);
        p.move_attributes(sq("a1"), sq("b2"));
        assert_eq!(p.attribute(sq("b2"), attr::HP), Some(2));
        assert_eq!(p.attribute(sq("a1"), attr::HP), None);
        assert_eq!(p.attribute(sq("c3"), attr::HP), Some(3));
        assert_eq!(p.attributes().len(), 2);
    }
}
