//! The rules in words, for `houserules describe`: each preset's details (the catalogue's
//! gallery entry, the rulings and this pack's own rulings, as implemented — see
//! docs/presets-gallery.md) and the piece roles it acts on (API 1.2 `extra` keys `details` and
//! `roles`).

use houserules_plugin_api::PresetInfo;

/// (id, roles the preset acts on — empty: any variant —, details).
const WORDS: [(&str, &str, &str); 14] = [
    (
        "knightmate-rules",
        "knight",
        "Every knight — promoted knights too — is royal instead of the king: a knight may not \
         be left attacked, and checkmate is a royal knight attacked with no legal move. A side \
         whose last knight is captured has lost. The king is an ordinary piece: it may be \
         captured, left attacked and moved into attack; it still castles, and as it is not \
         royal its path is not checked. Best with the knightmate layout (the queen replaced by \
         a third knight), which the preset chooses when no layout is given.",
    ),
    (
        "coregal",
        "queen",
        "Both the king and the queen (promoted queens too) are royal: a check on either must be \
         answered, pins work for both, and checkmate is either one attacked with no legal move. \
         If the queen is lost, the king alone stays royal and the game goes on as chess. Agrees \
         with Fairy-Stockfish's coregal.",
    ),
    (
        "dual-king",
        "king",
        "Two kings per side, every king royal and protected: a move may leave neither king \
         attacked, and checkmating either king ends the game (the strong form). Castling \
         rights belong to the king on the e-file. The rule is chess's own with several kings; \
         the preset brings the dual-classic layout (each queen replaced by a second king on \
         d1/d8), chosen when no layout is given.",
    ),
    (
        "weak-dual-king",
        "king",
        "Two kings per side, but losing one is survivable: a side is in check only when every \
         one of its remaining kings is attacked. A king may therefore be left attacked, even \
         sacrificed, while another is safe; checkmate is every king attacked with no legal \
         move, and a side with no king left has lost. With one king left the rules are chess. \
         Uses the dual-classic layout when no layout is given.",
    ),
    (
        "double-move",
        "",
        "Each side plays two half-moves per turn: White, White, Black, Black, ... Each half-move \
         is a full move with its own legality. A half-move that gives check ends the turn at \
         once, so a check the opponent cannot answer is checkmate and ends the game. A side \
         with no legal move at the start of its turn is stalemated; one with no legal second \
         half-move passes the turn. An en passant right created by a first half-move expires \
         with the second. The FEN records which half-move is next (`{@host.phase=1}`), and a \
         record writes one move number per turn (`1. e4 d4 1... d5 Bg4`). Incompatible with \
         monster-rules.",
    ),
    (
        "monster-rules",
        "",
        "Asymmetric multi-move turns: the sides in `scope` play two half-moves per turn, the \
         other side one, with double-move's rules for each half-move (a checking half-move \
         ends the turn). scope=white (the default) is Monster Chess, White's king and four \
         pawns against the full army of the monster layout, chosen when no layout is given; \
         scope=black flips the asymmetry; scope=both is double-move. Incompatible with \
         double-move.",
    ),
    (
        "first-promotion-wins",
        "pawn",
        "The first player to promote a pawn wins at once; the first promotion locks the \
         result, even over a mate it gives, and later promotions change nothing. The \
         self-check filter stays, so a pinned pawn cannot promote. Best with the pawns-only \
         layout (kings and eight pawns each), chosen when no layout is given.",
    ),
    (
        "suicide-chess",
        "",
        "Losing chess (antichess): lose all your pieces to win. Captures are compulsory — if \
         any capture is legal, en passant included, the mover must capture, choosing among the \
         captures. Kings are not royal: no check, no mate, kings may be captured, and castling \
         never asks about attacked squares. A side with no piece left wins, and so does a side \
         with no legal move. Pawns promote to queen, rook, bishop or knight. No \
         insufficient-material draw.",
    ),
    (
        "capture-all",
        "",
        "Capture every enemy piece to win. Kings are not royal: no check, no mate, kings may be \
         captured. Captures are not compulsory. The side to move with no piece left has lost; \
         a side with no legal move is stalemated (a draw). No insufficient-material draw: two \
         bare kings can still capture each other.",
    ),
    (
        "extinction-chess",
        "",
        "Win by wiping out every enemy piece of one type, the `target` option (a piece role, \
         default pawn). After a move, if the mover's own target type is extinct (its last pawn \
         promoted, say) the mover loses; otherwise, if the opponent's is, the mover wins. \
         Extinction is decided by the move, before mate or stalemate. The king stays royal and \
         checkmate still wins. A target role the variant lacks is refused.",
    ),
    (
        "berolina-pawns",
        "pawn",
        "Berolina pawns for the sides in `scope` (default both): a pawn moves one square \
         diagonally forward without capturing, two squares diagonally forward in one direction \
         from its home rank over an empty square, and captures one square straight forward; a \
         move reaching the last rank promotes. En passant follows Parton (1952): after a \
         double step, an enemy pawn may capture onto the passed square on the very next move, \
         removing the pawn that stepped. The FEN writes such a right in Fairy-Stockfish's \
         two-square form. Incompatible with berolina-pawns-2.",
    ),
    (
        "berolina-pawns-2",
        "pawn",
        "Berolina pawns, as berolina-pawns, for the sides in `scope` (default both), that may \
         also capture sideways: one square along the rank onto an enemy on an adjacent file. \
         Sideways captures neither create nor take en passant rights. Incompatible with \
         berolina-pawns.",
    ),
    (
        "bouncing-pieces",
        "bishop,queen",
        "Bishops' and queens' diagonal rays reflect once off the a- and h-file edges: a ray \
         that would leave the board sideways flips its file direction and continues from the \
         edge square until it meets a friend, captures an enemy or leaves the board. \
         Orthogonal rays are unchanged. A capture through a bounce is an attack, so a bounced \
         check is check. Incompatible with bouncing-pieces-2 and wrap-board.",
    ),
    (
        "bouncing-pieces-2",
        "bishop,queen",
        "As bouncing-pieces, but the diagonal rays of bishops and queens also reflect off \
         ranks 1 and 8, at most twice per ray; a ray that reaches a corner stops there. \
         Incompatible with bouncing-pieces and wrap-board.",
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
