//! Fairy-Stockfish's `promotionLimit` (`a:1 c:1 q:1 r:2 b:2 n:2`): a pawn (chess style) or a
//! piece (shogi style) may promote to a type only while its side has fewer than that many of
//! the type on the board (promoted pieces of the type count; pieces in hand do not).

use crate::spec::Spec;

impl Spec {
    /// Reads `letter:count` pairs; the letters are the section's pieces at this point (the
    /// limit belongs to the piece type, as in Fairy-Stockfish).
    pub fn parse_promotion_limit(&self, v: &str) -> Result<Vec<(u16, u32)>, String> {
        let mut out: Vec<(u16, u32)> = Vec::new();
        for tok in v.split_whitespace() {
            let bad = || format!("`{tok}` is not `piece:count`");
            let (letter, n) = tok.split_once(':').ok_or_else(bad)?;
            let mut chars = letter.chars();
            let (Some(l), None) = (chars.next(), chars.next()) else {
                return Err(bad());
            };
            let ty = self
                .type_of_letter(l)
                .ok_or_else(|| format!("`{l}` is not a piece letter of this variant"))?;
            let n: u32 = n.parse().map_err(|_| bad())?;
            out.retain(|&(t, _)| t != ty);
            out.push((ty, n));
        }
        Ok(out)
    }

    /// The promotion limit of piece type `ty` (`None`: no limit; 0 is no limit too, as in
    /// Fairy-Stockfish).
    pub fn promotion_limit_of(&self, ty: u16) -> Option<u32> {
        self.promotion_limit
            .iter()
            .find(|&&(t, n)| t == ty && n > 0)
            .map(|&(_, n)| n)
    }
}
