//! Fairy-Stockfish's `materialCounting`: a game that would end in a draw by the n-move rule,
//! repetition (with a drawn `nFoldValue`), stalemate (with a drawn value) or two passes in a
//! row is decided instead: `unweighted` (more pieces on the board win, as many draw),
//! `whitedrawodds` (White wins), `blackdrawodds` (Black wins). `janggi` (weighted janggi
//! material) needs janggi's pieces and is refused here.

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
}

/// Reads the key's value (`none`: off).
pub fn parse(v: &str) -> Result<Option<MaterialCounting>, String> {
    match v {
        "none" => Ok(None),
        "unweighted" => Ok(Some(MaterialCounting::Unweighted)),
        "whitedrawodds" => Ok(Some(MaterialCounting::WhiteDrawOdds)),
        "blackdrawodds" => Ok(Some(MaterialCounting::BlackDrawOdds)),
        "janggi" => Err("`janggi` counting needs janggi's pieces (not supported)".into()),
        _ => Err(format!(
            "`{v}` is not none, unweighted, whitedrawodds or blackdrawodds"
        )),
    }
}

impl MaterialCounting {
    /// The result instead of a draw, given the pieces on the board (White's, Black's).
    pub fn outcome(self, pieces: [u32; 2], reason: &str) -> Outcome {
        let reason = format!("{reason}, material counting");
        match self {
            MaterialCounting::WhiteDrawOdds => Outcome::win(Color::White, &reason),
            MaterialCounting::BlackDrawOdds => Outcome::win(Color::Black, &reason),
            MaterialCounting::Unweighted => match pieces[0].cmp(&pieces[1]) {
                std::cmp::Ordering::Greater => Outcome::win(Color::White, &reason),
                std::cmp::Ordering::Less => Outcome::win(Color::Black, &reason),
                std::cmp::Ordering::Equal => Outcome::draw(&reason),
            },
        }
    }
}
