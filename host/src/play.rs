//! Playing a game in the terminal: people at the keyboard and automatic players, scripted
//! moves, and the game written as a record that [`crate::analyze`] reads back unchanged.
//!
//! The screen is plain text that fits 80 columns: the board (attributes such as hit points as
//! a digit beside each piece, the last move in brackets), the variant's letters, the move
//! list, and a prompt that says whose turn it is, check, and which half-move of a multi-move
//! turn is due. Colour (reverse video for the last move) is only added on a terminal and never
//! with `NO_COLOR` set ([`color_wanted`]).
//!
//! # Players
//!
//! A side is played by a [`Player`]: [`Player::Human`] at the keyboard (the loop reads moves
//! and commands), or an automatic player — anything implementing [`AutoPlayer`], made by
//! [`Player::automatic`]. To add a kind of player (an engine), add a variant to [`Player`]
//! (with its `FromStr` spelling and [`Player::name`]) and return its [`AutoPlayer`] from
//! [`Player::automatic`]; the loop, undo, draw offers and the record need nothing else.

use crate::analyze::rules_tags;
use crate::describe::wrap;
use crate::engine::player::{EnginePlayer, EngineSpec};
use crate::error::HostError;
use crate::game::Game;
use crate::notation::{move_texts, parse_move, san, san_core};
use crate::pgn::{movetext_tokens, write_record, WrittenMove};
use crate::pipeline::{Pipeline, PresetSpec};
use houserules_plugin_api::{attr, Color, Event, HookSet, Move, Position, Square};
use std::io::{BufRead, IsTerminal, Write};

/// Who plays a side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Player {
    /// Moves typed on standard input.
    Human,
    /// A uniformly random legal move (seeded).
    Random,
    /// The search engine (`engine`, `engine:movetime=500`, `engine:depth=6,threads=2`).
    Engine(Box<EngineSpec>),
}

impl std::str::FromStr for Player {
    type Err = String;
    fn from_str(s: &str) -> Result<Player, String> {
        match s {
            "human" => Ok(Player::Human),
            "random" => Ok(Player::Random),
            _ if s == "engine" || s.starts_with("engine:") => s.parse().map(|e| Player::Engine(Box::new(e))),
            _ => Err(format!(
                "`{s}`: expected `human`, `random`, `engine` or `engine:LIMITS` (e.g. engine:movetime=500)"
            )),
        }
    }
}

impl Player {
    /// The name written in the record's `White` / `Black` tag.
    pub fn name(&self) -> String {
        match self {
            Player::Human => "human".to_string(),
            Player::Random => "random".to_string(),
            Player::Engine(spec) => format!("houserules {spec}"),
        }
    }

    /// Whether the player draws on the game's seed (the record then carries a `Seed` tag,
    /// and `play` prints the seed it chose).
    pub fn uses_seed(&self) -> bool {
        match self {
            Player::Random => true,
            Player::Engine(spec) => spec.random.is_some_and(|n| n > 0),
            Player::Human => false,
        }
    }

    /// The automatic player for this side by `p`'s rules (`seed` already differs per side;
    /// `corpus`: one game of many); `None` for a person at the keyboard.
    pub fn automatic<'p>(
        &self,
        p: &'p Pipeline,
        seed: u64,
        corpus: bool,
    ) -> Result<Option<Box<dyn AutoPlayer + 'p>>, HostError> {
        Ok(match self {
            Player::Human => None,
            Player::Random => Some(Box::new(RandomPlayer(Rng::new(seed)))),
            Player::Engine(spec) => Some(Box::new(EnginePlayer::new(p, spec, seed, corpus)?)),
        })
    }
}

/// A player that chooses its moves itself (random mover, engine).
pub trait AutoPlayer {
    /// Chooses one of `legal` (never empty) in the current position of `game`.
    fn choose(&mut self, game: &Game<'_>, legal: &[Move]) -> Result<Move, HostError>;
    /// [`AutoPlayer::choose`], showing its thinking on `out` when given (default: shows
    /// nothing).
    fn choose_showing(
        &mut self,
        game: &Game<'_>,
        legal: &[Move],
        _out: Option<&mut dyn Write>,
    ) -> Result<Move, HostError> {
        self.choose(game, legal)
    }
    /// Whether it accepts the draw its opponent offers now (default: no).
    fn accepts_draw(&mut self, _game: &Game<'_>) -> bool {
        false
    }
    /// Moves were taken back (`undo`); `game` is the game as it now stands.
    fn moves_taken_back(&mut self, _game: &Game<'_>) {}
}

/// Plays a uniformly random legal move.
struct RandomPlayer(Rng);

impl AutoPlayer for RandomPlayer {
    fn choose(&mut self, _game: &Game<'_>, legal: &[Move]) -> Result<Move, HostError> {
        Ok(legal[self.0.below(legal.len())])
    }
}

/// A small seeded generator (SplitMix64): the same seed gives the same game everywhere.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// How a game is played.
#[derive(Debug, Clone)]
pub struct Setup {
    /// White's player; `None` stops the game when White is to move after the scripted moves.
    pub white: Option<Player>,
    /// Black's player.
    pub black: Option<Player>,
    /// Seed of the random players.
    pub seed: u64,
    /// Moves to play first (SAN, coordinate or long algebraic form).
    pub moves: Vec<String>,
    /// Stop after this many plies (0 = no limit).
    pub max_plies: u32,
    /// Show the board after each move.
    pub show: bool,
    /// Use colour on the board ([`color_wanted`]).
    pub color: bool,
    /// Repeat each line read after its prompt (input that is not a terminal: the transcript
    /// then reads as a session would).
    pub echo: bool,
    /// The record's `Date` tag (`YYYY.MM.DD`); `None`: today.
    pub date: Option<String>,
    /// One game of many (`play --games`): engine players open with a random move unless
    /// their `random=` says otherwise.
    pub corpus: bool,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            white: Some(Player::Human),
            black: Some(Player::Human),
            seed: 0,
            moves: Vec::new(),
            max_plies: 1000,
            show: true,
            color: false,
            echo: false,
            date: None,
            corpus: false,
        }
    }
}

impl Setup {
    /// Whether any player draws on the seed.
    pub fn uses_seed(&self) -> bool {
        [&self.white, &self.black]
            .iter()
            .any(|p| p.as_ref().is_some_and(Player::uses_seed))
    }
}

/// Whether to colour the terminal board: standard output is a terminal, `NO_COLOR` is unset
/// or empty (<https://no-color.org>), and `TERM` is not `dumb`.
pub fn color_wanted() -> bool {
    std::io::stdout().is_terminal()
        && !matches!(std::env::var_os("NO_COLOR"), Some(v) if !v.is_empty())
        && !matches!(std::env::var_os("TERM"), Some(t) if t == "dumb")
}

/// A finished (or stopped) game.
#[derive(Debug, Clone)]
pub struct Played {
    /// The start position.
    pub start: Position,
    /// The moves, as written in the record.
    pub moves: Vec<WrittenMove>,
    /// The result token (`*` when the game was stopped).
    pub result: String,
    /// Why it ended: the rules' reason, `White resigns`, `draw agreed`, `draw claimed
    /// (n-fold-repetition)`, `quit`, `end of input`, `ply limit`, `end of moves`.
    pub termination: String,
}

/// How the board is drawn.
#[derive(Debug, Clone, Copy, Default)]
pub struct View<'a> {
    /// Black at the bottom.
    pub flipped: bool,
    /// Squares of the last move (drawn in brackets, and in reverse video with colour).
    pub marked: &'a [Square],
    /// ANSI colour.
    pub color: bool,
}

/// `White` or `Black`.
fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The piece letter of a cell (upper case for White).
fn piece_letter(p: &Pipeline, kind: u8, color: Option<Color>) -> char {
    let l = p
        .info
        .pieces
        .get(kind as usize)
        .map(|t| t.letter())
        .unwrap_or('?');
    if color == Some(Color::White) {
        l
    } else {
        l.to_ascii_lowercase()
    }
}

/// The attribute shown beside each piece: `Hp` when any piece has it, else the most common
/// attribute of the position (none when there are none).
fn shown_attribute(pos: &Position) -> Option<houserules_plugin_api::Name> {
    let attrs = pos.attributes();
    if attrs.is_empty() {
        return None;
    }
    if attrs.iter().any(|a| a.name == attr::HP) {
        return Some(attr::HP);
    }
    let mut counts: Vec<(houserules_plugin_api::Name, usize)> = Vec::new();
    for a in attrs {
        match counts.iter_mut().find(|(n, _)| *n == a.name) {
            Some((_, c)) => *c += 1,
            None => counts.push((a.name, 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.as_str().cmp(b.0.as_str())));
    counts.first().map(|(n, _)| *n)
}

fn attribute_digit(v: i32) -> char {
    match v {
        0..=9 => (b'0' + v as u8) as char,
        10.. => '+',
        _ => '-',
    }
}

/// The board as text: ranks top to bottom (White's side at the bottom unless flipped), four
/// columns per square (`[` mark, piece letter or `.`, attribute digit, `]` mark), file
/// letters below; holes are blank. Under the board: what the digit means, and the other
/// attributes of the pieces.
pub fn board_view(p: &Pipeline, pos: &Position, view: View<'_>) -> String {
    let shown = shown_attribute(pos);
    let files: Vec<u8> = if view.flipped {
        (0..pos.files()).rev().collect()
    } else {
        (0..pos.files()).collect()
    };
    let ranks: Vec<u8> = if view.flipped {
        (0..pos.ranks()).collect()
    } else {
        (0..pos.ranks()).rev().collect()
    };
    let mut s = String::new();
    for &r in &ranks {
        s.push_str(&format!("{:>3} ", r + 1));
        for &f in &files {
            let sq = Square::new(f, r);
            let c = pos.get(sq);
            let marked = view.marked.contains(&sq);
            let (letter, digit) = if c.is_hole() {
                (' ', ' ')
            } else if let Some(k) = c.kind() {
                let d = shown
                    .and_then(|n| pos.attribute(sq, n))
                    .map(attribute_digit)
                    .unwrap_or(' ');
                (piece_letter(p, k, c.color()), d)
            } else {
                ('.', ' ')
            };
            let cell = if marked {
                format!("[{letter}{digit}]")
            } else {
                format!(" {letter}{digit} ")
            };
            if marked && view.color {
                s.push_str(&format!("\x1b[7m{cell}\x1b[0m"));
            } else {
                s.push_str(&cell);
            }
        }
        // The rank number closes the line (no trailing blanks).
        let len = s.trim_end_matches(' ').len();
        s.truncate(len);
        s.push_str(&format!(" {}\n", r + 1));
    }
    s.push_str("    ");
    for &f in &files {
        s.push_str(&format!(" {}  ", (b'a' + f) as char));
    }
    let len = s.trim_end().len();
    s.truncate(len);
    s.push('\n');
    if let Some(n) = shown {
        s.push_str(&format!(
            "The digit beside a piece is its {}{}.\n",
            n.as_str(),
            if n == attr::HP { " (hit points)" } else { "" }
        ));
    }
    let mut others: Vec<String> = Vec::new();
    for a in pos.attributes() {
        if Some(a.name) == shown || a.name == attr::ID {
            continue;
        }
        let entry = format!("{}={}", a.square, a.value);
        match others
            .iter_mut()
            .find(|o| o.starts_with(&format!("{}:", a.name.as_str())))
        {
            Some(o) => {
                o.push(',');
                o.push_str(&entry);
            }
            None => others.push(format!("{}:{entry}", a.name.as_str())),
        }
    }
    if !others.is_empty() {
        s.push_str(&wrap(
            &format!("Other attributes: {}", others.join(" ")),
            80,
            0,
        ));
    }
    s
}

/// The board as text, White at the bottom, nothing marked, no colour (for `houserules moves`).
pub fn board_text(p: &Pipeline, pos: &Position) -> String {
    board_view(p, pos, View::default())
}

/// The variant's letters: `K king, Q queen, ...` (White's in upper case), wrapped at 80.
pub fn legend(p: &Pipeline) -> String {
    let mut seen: Vec<char> = Vec::new();
    let mut parts: Vec<String> = Vec::new();
    for t in p.info.pieces.iter() {
        let l = t.letter();
        if seen.contains(&l) {
            continue;
        }
        seen.push(l);
        // Glued, so that a line never breaks inside one piece's entry.
        let entry = format!("{l} {}{}", t.name, if t.royal { " (royal)" } else { "" });
        parts.push(entry.replace(' ', "\u{1}"));
    }
    wrap(
        &format!(
            "Pieces (White upper case, Black lower case): {}.",
            parts.join(", ")
        ),
        80,
        0,
    )
    .replace('\u{1}', " ")
}

const HELP: &str = "\
Type a move (Nf3, exd5, O-O, e8=Q, or g1f3, e2-e4), or one of these commands:
  moves   list the legal moves          fen     print the position as FEN
  undo    take back your last move      flip    turn the board around
  draw    offer a draw (or claim one)   board   show the board again
  resign  give up the game              help    this text
  quit    stop the game unfinished (the record says *)";

fn sorted_sans(p: &Pipeline, pos: &Position, legal: &[Move]) -> String {
    let mut v: Vec<String> = legal
        .iter()
        .filter_map(|&m| san_core(p, pos, m, legal).ok())
        .collect();
    v.sort();
    v.join(" ")
}

/// What a person at the keyboard decided.
enum Decision {
    Move(Move),
    Undo,
    Resign,
    Draw(String),
    Stop(&'static str),
}

/// The state of a game being played.
struct Session<'p, 'io> {
    p: &'p Pipeline,
    game: Game<'p>,
    /// Games before each move, for `undo`.
    before: Vec<Game<'p>>,
    moves: Vec<WrittenMove>,
    marked: Vec<Square>,
    flipped: bool,
    setup: &'io Setup,
    out: &'io mut dyn Write,
}

impl<'p> Session<'p, '_> {
    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
    }

    fn show_board(&mut self) {
        let view = View {
            flipped: self.flipped,
            marked: &self.marked,
            color: self.setup.color,
        };
        let b = board_view(self.p, &self.game.position, view);
        let _ = write!(self.out, "{b}");
    }

    /// The last lines of the move list.
    fn show_moves(&mut self) {
        if self.moves.is_empty() {
            return;
        }
        let text = wrap(
            &format!("Moves: {}", movetext_tokens(&self.moves).join(" ")),
            80,
            0,
        );
        let lines: Vec<&str> = text.lines().collect();
        let from = lines.len().saturating_sub(3);
        let shown = lines[from..].join("\n");
        self.say(&shown);
    }

    /// What happened besides the move itself (damage, pushes, removals ...).
    fn show_events(&mut self, events: &[Event]) {
        let parts: Vec<String> = events
            .iter()
            .filter(|e| e.kind.name() != "capture" && e.kind.name() != "castle")
            .map(|e| {
                let piece = e
                    .piece
                    .kind()
                    .map(|k| piece_letter(self.p, k, e.piece.color()).to_string())
                    .unwrap_or_default();
                let mut s = format!("{} {piece} {}", e.kind.name(), e.square);
                if !e.to.is_none() {
                    s.push_str(&format!("-{}", e.to));
                }
                if !e.note.as_str().is_empty() {
                    s.push_str(&format!(" {}", e.note.as_str()));
                }
                if e.value != 0 {
                    s.push_str(&format!(" ({})", e.value));
                }
                s
            })
            .collect();
        if !parts.is_empty() {
            let text = wrap(&format!("Also: {}", parts.join("; ")), 80, 0);
            let _ = write!(self.out, "{text}");
        }
    }

    fn player(&self, side: Color) -> Option<&Player> {
        match side {
            Color::White => self.setup.white.as_ref(),
            Color::Black => self.setup.black.as_ref(),
        }
    }

    /// Whether the pipeline can keep the turn with the mover (multi-move turns).
    fn multi_move(&self) -> bool {
        self.p
            .presets
            .iter()
            .any(|a| a.info.hooks.contains(HookSet::SHOULD_ADVANCE_TURN))
    }

    fn prompt_line(&self, in_check: bool) -> String {
        let pos = &self.game.position;
        let mut s = format!("{} to move", side_name(pos.side_to_move));
        if in_check {
            s.push_str(", in check");
        }
        if pos.turn_phase > 0 || self.multi_move() {
            s.push_str(&format!(
                " (half-move {} of the turn)",
                pos.turn_phase as u32 + 1
            ));
        }
        s.push_str(" — move, or `help`: ");
        s
    }

    /// Takes back the last move and, while the side to move then is automatic, the moves
    /// before it, so that a person is to move again.
    fn undo(&mut self) -> bool {
        if self.before.is_empty() {
            return false;
        }
        loop {
            let Some(g) = self.before.pop() else { break };
            self.game = g;
            self.moves.pop();
            let side = self.game.position.side_to_move;
            let automatic = self.player(side).is_some_and(|p| *p != Player::Human);
            if !automatic || self.before.is_empty() {
                break;
            }
        }
        self.marked.clear();
        true
    }

    /// Asks the person to move for a move or command until one decides something.
    fn ask(
        &mut self,
        legal: &[Move],
        in_check: bool,
        claimable: Option<&str>,
        input: &mut dyn BufRead,
        autos: &mut [Option<Box<dyn AutoPlayer + 'p>>; 2],
    ) -> Result<Decision, HostError> {
        let p = self.p;
        loop {
            let prompt = self.prompt_line(in_check);
            let _ = write!(self.out, "{prompt}");
            let _ = self.out.flush();
            let Some(line) = crate::text_lines::next_line(input) else {
                let _ = writeln!(self.out);
                return Ok(Decision::Stop("end of input"));
            };
            if self.setup.echo {
                let _ = writeln!(self.out, "{}", line.trim_end());
            }
            let texts = move_texts(line.trim());
            let t = match texts.as_slice() {
                [] => continue,
                [one] => *one,
                _ => {
                    self.say("One move at a time, please.");
                    continue;
                }
            };
            let pos = self.game.position.clone();
            match t.to_ascii_lowercase().as_str() {
                "quit" | "exit" => return Ok(Decision::Stop("quit")),
                "help" | "?" => {
                    self.say(HELP);
                    let l = legend(p);
                    let _ = write!(self.out, "{l}");
                    continue;
                }
                "moves" | "legal" => {
                    let list = sorted_sans(p, &pos, legal);
                    let text = wrap(&format!("Legal moves: {list}"), 80, 0);
                    let _ = write!(self.out, "{text}");
                    continue;
                }
                "fen" => {
                    let f = p.write_fen(&pos)?;
                    self.say(&f);
                    continue;
                }
                "flip" => {
                    self.flipped = !self.flipped;
                    self.show_board();
                    continue;
                }
                "board" => {
                    self.show_board();
                    self.show_moves();
                    continue;
                }
                "undo" | "takeback" => return Ok(Decision::Undo),
                "resign" => return Ok(Decision::Resign),
                "draw" => {
                    if let Some(c) = claimable {
                        return Ok(Decision::Draw(format!("draw claimed ({c})")));
                    }
                    let side = pos.side_to_move;
                    let other = side.opposite();
                    match self.player(other).cloned() {
                        Some(Player::Human) => {
                            let _ = write!(
                                self.out,
                                "{} offers a draw. {}, do you accept? (yes/no): ",
                                side_name(side),
                                side_name(other)
                            );
                            let _ = self.out.flush();
                            let Some(answer) = crate::text_lines::next_line(input) else {
                                let _ = writeln!(self.out);
                                return Ok(Decision::Stop("end of input"));
                            };
                            if self.setup.echo {
                                let _ = writeln!(self.out, "{}", answer.trim_end());
                            }
                            if matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
                                return Ok(Decision::Draw("draw agreed".to_string()));
                            }
                            self.say(&format!("{} declines the draw.", side_name(other)));
                        }
                        Some(_) => {
                            let accepted = autos[other.index()]
                                .as_mut()
                                .is_some_and(|a| a.accepts_draw(&self.game));
                            if accepted {
                                return Ok(Decision::Draw("draw agreed".to_string()));
                            }
                            self.say(&format!("{} declines the draw.", side_name(other)));
                        }
                        None => self.say("There is nobody to offer a draw to."),
                    }
                    continue;
                }
                _ => {}
            }
            match parse_move(p, &pos, t, legal) {
                Ok(m) => return Ok(Decision::Move(m)),
                Err(HostError::BadMove { text, reason }) => {
                    let msg = wrap(&format!("`{text}` is not a move here: {reason}"), 80, 0);
                    let _ = write!(self.out, "{msg}");
                    self.say("(`moves` lists the legal moves, `help` the commands)");
                }
                Err(e) => return Err(e),
            }
        }
    }
}

/// Plays a game: the scripted moves, then the players in turn, until the rules end the game,
/// a person resigns, agrees or claims a draw, or types `quit` (or the input ends), the ply
/// limit is reached, or the side to move has no player. The board goes to `out` after each
/// move when `setup.show`.
pub fn play(
    p: &Pipeline,
    start: Position,
    setup: &Setup,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Played, HostError> {
    // Each side's automatic player gets its own stream from the seed.
    let mut autos: [Option<Box<dyn AutoPlayer + '_>>; 2] = [
        match &setup.white {
            Some(pl) => pl.automatic(p, setup.seed, setup.corpus)?,
            None => None,
        },
        match &setup.black {
            Some(pl) => pl.automatic(p, setup.seed ^ 0x5DEE_CE66_D1CE_5EED, setup.corpus)?,
            None => None,
        },
    ];
    let mut s = Session {
        p,
        game: Game::new(p, start.clone()),
        before: Vec::new(),
        moves: Vec::new(),
        marked: Vec::new(),
        flipped: setup.white.as_ref() != Some(&Player::Human)
            && setup.black.as_ref() == Some(&Player::Human),
        setup,
        out,
    };
    let mut script = setup.moves.iter();
    let interactive = setup.show
        && [&setup.white, &setup.black]
            .iter()
            .any(|p| p.as_ref() == Some(&Player::Human));
    if setup.show {
        let mut title = p.info.name.to_string();
        if !p.presets.is_empty() {
            let ids: Vec<&str> = p.presets.iter().map(|a| a.info.id.as_str()).collect();
            title.push_str(&format!(" with {}", ids.join(", ")));
        }
        s.say(&title);
        let l = legend(p);
        let _ = write!(s.out, "{l}");
        if interactive {
            s.say("Type `help` for the commands.");
        }
        s.show_board();
    }
    let termination;
    let mut result = "*".to_string();
    loop {
        let status = s.game.status()?;
        if let Some(o) = &status.outcome {
            // Scripted moves after the end are an error, never dropped.
            if let Some(text) = script.next() {
                return Err(HostError::BadMove {
                    text: text.clone(),
                    reason: format!(
                        "ply {}: the game is over ({} by {})",
                        s.moves.len() + 1,
                        o.winner.pgn(),
                        o.reason
                    ),
                });
            }
            result = o.winner.pgn().to_string();
            termination = o.reason.to_string();
            break;
        }
        if setup.max_plies > 0 && s.moves.len() as u32 >= setup.max_plies {
            termination = "ply limit".to_string();
            break;
        }
        let legal = s.game.legal_moves()?;
        let pos = s.game.position.clone();
        let side = pos.side_to_move;
        let m = if let Some(text) = script.next() {
            parse_move(p, &pos, text, &legal).map_err(|e| match e {
                HostError::BadMove { text, reason } => HostError::BadMove {
                    text,
                    reason: format!("ply {}: {reason}", s.moves.len() + 1),
                },
                other => other,
            })?
        } else {
            match s.player(side).cloned() {
                None => {
                    termination = "end of moves".to_string();
                    break;
                }
                Some(Player::Human) => {
                    let claim = status.claimable.as_deref();
                    match s.ask(&legal, status.in_check, claim, input, &mut autos)? {
                        Decision::Move(m) => m,
                        Decision::Undo => {
                            if s.undo() {
                                for a in autos.iter_mut().flatten() {
                                    a.moves_taken_back(&s.game);
                                }
                                s.say("Taken back.");
                                s.show_board();
                                s.show_moves();
                            } else {
                                s.say("There is no move to take back.");
                            }
                            continue;
                        }
                        Decision::Resign => {
                            result = match side {
                                Color::White => "0-1",
                                Color::Black => "1-0",
                            }
                            .to_string();
                            termination = format!("{} resigns", side_name(side));
                            break;
                        }
                        Decision::Draw(why) => {
                            result = "1/2-1/2".to_string();
                            termination = why;
                            break;
                        }
                        Decision::Stop(why) => {
                            termination = why.to_string();
                            break;
                        }
                    }
                }
                Some(_) => match autos[side.index()].as_mut() {
                    Some(a) => {
                        let out = if setup.show {
                            Some(&mut *s.out as &mut dyn Write)
                        } else {
                            None
                        };
                        a.choose_showing(&s.game, &legal, out)?
                    }
                    None => {
                        termination = "end of moves".to_string();
                        break;
                    }
                },
            }
        };
        let text = san(p, &pos, m, &legal)?;
        s.before.push(s.game.clone());
        s.moves.push(WrittenMove {
            white: side == Color::White,
            fullmove: pos.fullmove_number as u32,
            san: text.clone(),
        });
        let events = s.game.play(m)?;
        s.marked = if m.is_drop() {
            vec![m.to]
        } else if m.is_castle() {
            vec![m.from, m.via]
        } else {
            vec![m.from, m.destination()]
        };
        if setup.show {
            let number = if side == Color::White {
                format!("{}.", pos.fullmove_number)
            } else {
                format!("{}...", pos.fullmove_number)
            };
            s.say(&format!("{number} {text}"));
            s.show_events(&events);
            s.show_board();
            s.show_moves();
        }
    }
    if setup.show {
        s.say(&format!("Result: {result} ({termination})"));
    }
    Ok(Played {
        start,
        moves: s.moves,
        result,
        termination,
    })
}

/// Today's date as PGN writes it (`YYYY.MM.DD`), in local time where the system says, else
/// UTC.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let (y, m, d) = local_date(secs).unwrap_or_else(|| civil_from_days(secs.div_euclid(86_400)));
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(unix)]
fn local_date(secs: i64) -> Option<(i64, u32, u32)> {
    let t: libc::time_t = secs as libc::time_t;
    // SAFETY: `localtime_r` writes into the `tm` we own and reads only `t`.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::localtime_r(&t, &mut tm) };
    if r.is_null() {
        return None;
    }
    Some((
        tm.tm_year as i64 + 1900,
        tm.tm_mon as u32 + 1,
        tm.tm_mday as u32,
    ))
}

#[cfg(not(unix))]
fn local_date(_secs: i64) -> Option<(i64, u32, u32)> {
    None
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// The record of a played game: the roster (`Event` "houserules play", today's `Date`), the
/// players, the rule tags, `SetUp`/`FEN` when the game did not start from the layout, and
/// `Seed` when a player drew on it.
pub fn record(
    p: &Pipeline,
    specs: &[PresetSpec],
    layout_given: bool,
    played: &Played,
    setup: &Setup,
    round: u32,
    from_fen: bool,
) -> Result<String, HostError> {
    let name = |pl: &Option<Player>| {
        pl.as_ref()
            .map(Player::name)
            .unwrap_or_else(|| "?".to_string())
    };
    let mut tags = vec![
        ("Event".to_string(), "houserules play".to_string()),
        ("Date".to_string(), setup.date.clone().unwrap_or_else(today)),
        ("Round".to_string(), round.to_string()),
        ("White".to_string(), name(&setup.white)),
        ("Black".to_string(), name(&setup.black)),
    ];
    tags.extend(rules_tags(p, specs, layout_given));
    if from_fen {
        tags.push(("SetUp".to_string(), "1".to_string()));
        tags.push(("FEN".to_string(), p.write_fen(&played.start)?));
    }
    if setup.uses_seed() {
        tags.push(("Seed".to_string(), setup.seed.to_string()));
    }
    Ok(write_record(&tags, &played.moves, &played.result))
}

#[cfg(test)]
mod tests {
    use super::{civil_from_days, Rng};

    #[test]
    fn rng_is_reproducible_and_in_range() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for n in 1..200 {
            let x = a.below(n);
            assert_eq!(x, b.below(n));
            assert!(x < n);
        }
    }

    #[test]
    fn dates_from_day_counts() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }
}
