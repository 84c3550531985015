//! The rules in words, for `houserules describe`: each preset's details (the catalogue's
//! description, its edge cases and the rulings, as implemented — see docs/presets-v1.md) and
//! the piece roles it acts on (API 1.2 `extra` keys `details` and `roles`).

use houserules_plugin_api::PresetInfo;

/// (id, roles the preset acts on — empty: any variant —, details).
const WORDS: [(&str, &str, &str); 15] = [
    (
        "pawns-move-backward",
        "pawn",
        "Besides its normal moves, a pawn may step one square straight backward to an empty \
         square, onto any rank, its own first rank included. A backward step never captures \
         and never creates an en passant square; it resets the 50-move clock like every pawn \
         move, and a pawn that later reaches the far rank still promotes.\n\n\
         A pawn that has moved — any move, backward included — never double-steps again, even \
         when it is back on its home rank; the FEN records such pawns as `{Moved:e2=1}`. \
         Incompatible with double-pawn-sprint, whose two-square moves would make the pawn's \
         direction ambiguous.",
    ),
    (
        "double-pawn-sprint",
        "pawn",
        "A pawn may advance two squares straight forward from any rank, not only from its home \
         rank, when both squares are empty; it cannot jump over a piece. The sprint creates an \
         en passant square on the passed square for exactly one ply, as the home-rank double \
         step does, and a sprint that reaches the last rank promotes. Incompatible with \
         pawns-move-backward.",
    ),
    (
        "pawn-diagonal-no-capture",
        "pawn",
        "Besides its normal moves, a pawn may step one square diagonally forward to an empty \
         square without capturing. Diagonal captures are unchanged, a friendly piece still \
         blocks the square, and the quiet step may give check, mate or promote on the last \
         rank. It never creates an en passant square.\n\n\
         A diagonal step onto the en passant square is the en passant capture itself — one \
         move, which captures — so where that capture is illegal (a pin), the step is too.",
    ),
    (
        "knights-leap-twice",
        "knight",
        "A knight may make two knight leaps in one move, landing on any square two leaps away \
         whose intermediate square is empty (any of the paths); single leaps stay legal. The \
         intermediate square is never captured — only an enemy on the landing square is — and \
         the knight never ends on its own starting square. Double leaps give check like any \
         other move, and one destination is one move however many paths reach it (`Nb1c4`).",
    ),
    (
        "bishops-ignore-color",
        "bishop",
        "Besides its diagonal slides, a bishop may make a single one-square orthogonal step \
         (north, south, east or west) to an empty or enemy-occupied square, and so change the \
         colour of its diagonals. The step is exactly one square: the bishop gains no rook \
         slides. It counts as an ordinary piece move for the 50-move rule.",
    ),
    (
        "rook-warp",
        "rook",
        "A rook whose path to the board edge is entirely empty may warp in that direction: it \
         lands on the first square at the opposite end of the same rank or file (a rook on d4 \
         warping north lands on d1) if that square is empty or holds an enemy piece, which it \
         captures. One warp square per direction; a rook standing on an edge warps out of it at \
         once, so from the start position Ra1xa8 is legal. Where a warp lands on a square the \
         rook reaches normally, only the normal move is listed. Castling is unchanged. \
         Incompatible with wrap-board.",
    ),
    (
        "wrap-board",
        "",
        "The board is a vertical cylinder: the a-file and the h-file are adjacent, for every \
         piece and every kind of move — slides, steps, leaps, pawn captures and en passant (a \
         white pawn on a5 takes a black pawn that double-stepped to h5 on h6). Ranks do not \
         wrap, a slide stops before returning to its own square, and castling is unchanged. \
         Checks and castling through attacked squares are judged with the wrapped moves. Moves \
         other presets add wrap too. Incompatible with rook-warp.",
    ),
    (
        "queen-splits",
        "queen",
        "When a queen captures, it splits: a rook of its colour stands on the capture square and \
         a bishop of its colour on the first empty square next to it, searched clockwise from \
         north (N, NE, E, SE, S, SW, W, NW, always from White's point of view). With no empty \
         neighbour the bishop is forfeit. The split is part of the move, so legality, check and \
         mate are judged on the board after it; a promotion to queen that captures splits too. \
         Both pieces keep the queen's attributes and have no castling rights.",
    ),
    (
        "king-heals",
        "king",
        "At the end of its owner's turn, a king that is not in check regains 1 HP, up to 3 HP; \
         kings start with 1 HP (piece-hp). Healing comes once per turn end, after poison \
         (poisoned-squares), and not at all while the king is attacked. Checkmate still ends \
         the game for a king at 1 HP; more HP only gives the king more hits to take. Requires \
         piece-hp.",
    ),
    (
        "explosive-rook",
        "rook",
        "When a rook captures, it detonates: every other piece, of either colour, on the same \
         rank or file within 2 squares of the capture square is removed; the rook itself \
         survives on the capture square. Detonations do not chain, and only a piece that was a \
         rook before the move detonates (a promotion to rook does not). Blowing up one's own \
         king is legal and loses; if both kings go, the side that moved loses. Incompatible \
         with piece-hp, whose captures only damage.",
    ),
    (
        "capture-to-win",
        "",
        "The first player to capture any enemy piece — a pawn as much as a queen, en passant \
         and capturing promotions included — wins at once. Checkmate is no win: a side with no \
         legal move, checkmated or stalemated, draws. Kings stay royal, so a move may still not \
         leave one's own king attacked. Incompatible with last-piece-standing.",
    ),
    (
        "last-piece-standing",
        "",
        "A player wins when the opponent has no piece left. Kings are ordinary pieces: there is \
         no check, no pin and no checkmate, a king may move into attack and be captured, and \
         castling never asks whether squares are attacked. A player with no legal move loses. \
         Two bare kings play on until the 50-move or repetition rules end the game: there is \
         no insufficient-material draw. Incompatible with capture-to-win.",
    ),
    (
        "piece-hp",
        "",
        "Every piece has hit points (the `Hp` attribute): kings start with 1, every other piece \
         with 2. A capture deals 1 damage instead of removing the piece: the attacker always \
         lands on the target square, a piece brought to 0 HP is removed, and a survivor is \
         pushed to the first empty square around it, clockwise from north (N, NE, E, SE, S, \
         SW, W, NW), or removed if there is none. An en passant capture damages the pawn on its \
         own square.\n\n\
         A king at 1 HP is protected as usual (check, mate, no moving into attack); a king \
         with 2 HP or more may be left attacked, since one hit is survivable, and capturing it \
         only damages it. Promoted pieces keep the pawn's HP; a pushed king loses its castling \
         rights. The FEN carries the hit points (`{Hp:e4=1,...}`). Incompatible with \
         explosive-rook.",
    ),
    (
        "knight-immunity",
        "bishop+knight",
        "A bishop may never capture an enemy knight (nor may a pawn promoting to a bishop on \
         that capture). For check and pins the bishop's diagonal still passes through knights \
         of the other colour, so a knight can neither shield its king from a bishop nor block a \
         bishop's check. Knights may capture bishops, and queens are not restricted.",
    ),
    (
        "poisoned-squares",
        "",
        "The four centre squares (d4, d5, e4, e5) are poisoned: at the end of a player's turn, \
         every piece of that player standing on one loses 1 HP, and a piece at 0 HP is \
         removed. A piece that only passes through is unharmed, and poison strikes once per \
         turn. Kings are poisoned too: a king killed by poison loses the game, and the move \
         that led there is legal. Poison comes before king-heals' healing. Requires piece-hp.",
    ),
];

/// `info` with its words and roles added (unchanged for an id without words).
pub(crate) fn with_words(info: PresetInfo) -> PresetInfo {
    match WORDS.iter().find(|(id, _, _)| *id == info.id.as_str()) {
        Some((_, roles, details)) => info.with_words(details, roles),
        None => info,
    }
}

#[cfg(test)]
mod tests {
    use super::WORDS;
    use houserules_plugin_api::parse_roles;

    #[test]
    fn every_preset_has_words_and_roles_that_parse() {
        for m in crate::ALL {
            let w = WORDS.iter().find(|(id, _, _)| *id == m.id);
            let (_, roles, details) = w.unwrap_or_else(|| panic!("no words for {}", m.id));
            assert!(details.len() > 100, "{}", m.id);
            parse_roles(roles).unwrap_or_else(|e| panic!("{}: {e}", m.id));
        }
    }
}
