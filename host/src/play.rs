//! Playing a game in the terminal: `human` and `random` sides, scripted moves, and the game
//! written as a record that [`crate::analyze`] reads back unchanged.

use crate::analyze::rules_tags;
use crate::error::HostError;
use crate::game::Game;
use crate::notation::{parse_move, san, san_core};
use crate::pgn::{write_record, WrittenMove};
use crate::pipeline::{Pipeline, PresetSpec};
use houserules_plugin_api::{Color, Position, Square};
use std::io::{BufRead, Write};

/// Who plays a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Player {
    /// Moves typed on standard input.
    Human,
    /// A uniformly random legal move (seeded).
    Random,
}

impl std::str::FromStr for Player {
    type Err = String;
    fn from_str(s: &str) -> Result<Player, String> {
        match s {
            "human" => Ok(Player::Human),
            "random" => Ok(Player::Random),
            _ => Err(format!("`{s}`: expected `human` or `random`")),
        }
    }
}

impl Player {
    /// The name written in the record.
    pub fn name(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Random => "random",
        }
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
    /// Moves to play first (SAN or coordinate form).
    pub moves: Vec<String>,
    /// Stop after this many plies (0 = no limit).
    pub max_plies: u32,
    /// Show the board after each move.
    pub show: bool,
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
    /// Why it ended: the rules' reason, `quit`, `end of input`, `ply limit`, `end of moves`.
    pub termination: String,
}

/// The board as text, rank by rank, White's pieces in upper case.
pub fn board_text(p: &Pipeline, pos: &Position) -> String {
    let mut s = String::new();
    for r in (0..pos.ranks()).rev() {
        s.push_str(&format!("{:>3} ", r + 1));
        for f in 0..pos.files() {
            let c = pos.get(Square::new(f, r));
            let ch = if c.is_hole() {
                ' '
            } else if let Some(k) = c.kind() {
                let l = p
                    .info
                    .pieces
                    .get(k as usize)
                    .map(|t| t.letter())
                    .unwrap_or('?');
                if c.color() == Some(Color::White) {
                    l
                } else {
                    l.to_ascii_lowercase()
                }
            } else {
                '.'
            };
            s.push(ch);
            s.push(' ');
        }
        s.push('\n');
    }
    s.push_str("    ");
    for f in 0..pos.files() {
        s.push((b'a' + f) as char);
        s.push(' ');
    }
    s.push('\n');
    s
}

fn sorted_sans(p: &Pipeline, pos: &Position, legal: &[houserules_plugin_api::Move]) -> String {
    let mut v: Vec<String> = legal
        .iter()
        .filter_map(|&m| san_core(p, pos, m, legal).ok())
        .collect();
    v.sort();
    v.join(" ")
}

/// Plays a game: the scripted moves, then the players in turn, until the rules end the game,
/// a human types `quit` (or the input ends), the ply limit is reached, or the side to move
/// has no player. The board goes to `out` after each move when `setup.show`.
pub fn play(
    p: &Pipeline,
    start: Position,
    setup: &Setup,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Played, HostError> {
    let mut game = Game::new(p, start.clone());
    let mut rng = Rng::new(setup.seed);
    let mut moves = Vec::new();
    let mut script = setup.moves.iter();
    if setup.show {
        let _ = writeln!(out, "{}", board_text(p, &game.position));
    }
    let termination;
    let mut result = "*".to_string();
    loop {
        let status = game.status()?;
        if let Some(o) = &status.outcome {
            // Scripted moves after the end are an error, never dropped.
            if let Some(text) = script.next() {
                return Err(HostError::BadMove {
                    text: text.clone(),
                    reason: format!(
                        "ply {}: the game is over ({} by {})",
                        moves.len() + 1,
                        o.winner.pgn(),
                        o.reason
                    ),
                });
            }
            result = o.winner.pgn().to_string();
            termination = o.reason.to_string();
            break;
        }
        if setup.max_plies > 0 && moves.len() as u32 >= setup.max_plies {
            termination = "ply limit".to_string();
            break;
        }
        let legal = game.legal_moves()?;
        let pos = game.position.clone();
        let side = pos.side_to_move;
        let m = if let Some(text) = script.next() {
            parse_move(p, &pos, text, &legal).map_err(|e| match e {
                HostError::BadMove { text, reason } => HostError::BadMove {
                    text,
                    reason: format!("ply {}: {reason}", moves.len() + 1),
                },
                other => other,
            })?
        } else {
            let player = if side == Color::White {
                setup.white
            } else {
                setup.black
            };
            match player {
                None => {
                    termination = "end of moves".to_string();
                    break;
                }
                Some(Player::Random) => legal[rng.below(legal.len())],
                Some(Player::Human) => {
                    let mut chosen = None;
                    let mut quit = None;
                    while chosen.is_none() {
                        let _ = write!(
                            out,
                            "{} to move{} (move, `moves` or `quit`): ",
                            side.name(),
                            if status.in_check { ", in check" } else { "" }
                        );
                        let _ = out.flush();
                        let mut line = String::new();
                        let n = input.read_line(&mut line).unwrap_or(0);
                        let t = line.trim();
                        if n == 0 {
                            quit = Some("end of input");
                            break;
                        }
                        match t {
                            "" => continue,
                            "quit" | "exit" => {
                                quit = Some("quit");
                                break;
                            }
                            "moves" | "?" => {
                                let _ = writeln!(out, "legal: {}", sorted_sans(p, &pos, &legal));
                                continue;
                            }
                            _ => {}
                        }
                        match parse_move(p, &pos, t, &legal) {
                            Ok(m) => chosen = Some(m),
                            Err(HostError::BadMove { text, reason }) => {
                                let _ = writeln!(out, "`{text}` is not a move here: {reason}");
                                let _ = writeln!(out, "legal: {}", sorted_sans(p, &pos, &legal));
                            }
                            Err(e) => return Err(e),
                        }
                    }
                    match (chosen, quit) {
                        (Some(m), _) => m,
                        (None, q) => {
                            if q == Some("end of input") {
                                let _ = writeln!(out);
                            }
                            termination = q.unwrap_or("quit").to_string();
                            break;
                        }
                    }
                }
            }
        };
        let s = san(p, &pos, m, &legal)?;
        moves.push(WrittenMove {
            white: side == Color::White,
            fullmove: pos.fullmove_number as u32,
            san: s.clone(),
        });
        game.play(m)?;
        if setup.show {
            let number = if side == Color::White {
                format!("{}.", pos.fullmove_number)
            } else {
                format!("{}...", pos.fullmove_number)
            };
            let _ = writeln!(out, "{number} {s}\n{}", board_text(p, &game.position));
        }
    }
    if setup.show {
        let _ = writeln!(out, "Result: {result} ({termination})");
    }
    Ok(Played {
        start,
        moves,
        result,
        termination,
    })
}

/// The record of a played game: the roster (`Event` "houserules play"), the players, the rule
/// tags, `SetUp`/`FEN` when the game did not start from the layout, and `Seed` when a random
/// player took part.
pub fn record(
    p: &Pipeline,
    specs: &[PresetSpec],
    layout_given: bool,
    played: &Played,
    setup: &Setup,
    round: u32,
    from_fen: bool,
) -> Result<String, HostError> {
    let name = |pl: Option<Player>| pl.map(Player::name).unwrap_or("?").to_string();
    let mut tags = vec![
        ("Event".to_string(), "houserules play".to_string()),
        ("Round".to_string(), round.to_string()),
        ("White".to_string(), name(setup.white)),
        ("Black".to_string(), name(setup.black)),
    ];
    tags.extend(rules_tags(p, specs, layout_given));
    if from_fen {
        tags.push(("SetUp".to_string(), "1".to_string()));
        tags.push(("FEN".to_string(), p.write_fen(&played.start)?));
    }
    if setup.white == Some(Player::Random) || setup.black == Some(Player::Random) {
        tags.push(("Seed".to_string(), setup.seed.to_string()));
    }
    Ok(write_record(&tags, &played.moves, &played.result))
}

#[cfg(test)]
mod tests {
    use super::Rng;

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
}
