//! Fairy-Stockfish's `materialCounting`: a game that would end in a draw by the n-move rule,
//! repetition (with a drawn `nFoldValue`), stalemate (with a drawn value) or two passes in a
//! row is decided instead: `unweighted` (more pieces on the board win, as many draw),
//! `whitedrawodds` (White wins), `blackdrawodds` (Black wins), `janggi` (points on the board:
//! rook 13, janggi cannon 7, horse 5, janggi elephant 3, wazir 3, soldier 2; Black, the second
//! player, wins a tie and half a point more: White needs more than one point ahead).

use crate::spec;
use houserules_plugin_api::{Color, Outcome};

/// The adjudication.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaterialCounting {
    /// More pieces on the board win.
    Unweighted,
    /// White wins.
    WhiteDrawOdds,
    /// Black wins.
    BlackDrawOdds,
    /// Janggi's points (see the module).
    Janggi,
}

/// Reads the key's value (`none`: off).
pub fn parse(v: &str) -> Result<Option<MaterialCounting>, String> {
    match v {
        "none" => Ok(None),
        "unweighted" => Ok(Some(MaterialCounting::Unweighted)),
        "whitedrawodds" => Ok(Some(MaterialCounting::WhiteDrawOdds)),
        "blackdrawodds" => Ok(Some(MaterialCounting::BlackDrawOdds)),
        "janggi" => Ok(Some(MaterialCounting::Janggi)),
        _ => Err(format!(
            "`{v}` is not none, unweighted, whitedrawodds, blackdrawodds or janggi"
        )),
    }
}

impl MaterialCounting {
    /// What a piece of Fairy-Stockfish type `ty` counts (a piece on the board).
    pub fn weight(self, ty: u16) -> i64 {
        match self {
            MaterialCounting::Janggi => match ty {
                spec::ROOK => 13,
                spec::JANGGI_CANNON => 7,
                spec::HORSE => 5,
                spec::JANGGI_ELEPHANT => 3,
                spec::WAZIR => 3,
                spec::SOLDIER => 2,
                _ => 0,
            },
            _ => 1,
        }
    }

    /// The result instead of a draw, given White's count minus Black's (see
    /// [`MaterialCounting::weight`]).
    pub fn outcome(self, balance: i64, reason: &str) -> Outcome {
        let reason = format!("{reason}, material counting");
        match self {
            MaterialCounting::WhiteDrawOdds => Outcome::win(Color::White, &reason),
            MaterialCounting::BlackDrawOdds => Outcome::win(Color::Black, &reason),
            MaterialCounting::Janggi if balance > 1 => Outcome::win(Color::White, &reason),
            MaterialCounting::Janggi => Outcome::win(Color::Black, &reason),
            MaterialCounting::Unweighted => match balance.cmp(&0) {
                std::cmp::Ordering::Greater => Outcome::win(Color::White, &reason),
                std::cmp::Ordering::Less => Outcome::win(Color::Black, &reason),
                std::cmp::Ordering::Equal => Outcome::draw(&reason),
            },
        }
    }
}
