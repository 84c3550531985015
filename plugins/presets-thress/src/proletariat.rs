//! proletariat — Every piece moves like a pawn (ThressGame `proletariat`).
//!
//! RULINGS: every piece except the king moves and captures as a pawn of its colour: one step
//! forward to an empty square, one step diagonally forward to capture; the double step and en
//! passant stay with real pawns; only real pawns promote; a non-pawn on the last rank has no
//! forward move. As a transform: every piece that is neither king nor pawn moves as `fmWfcF`.
//!
//! The engine's evaluation (`evaluate`): the host counts each piece at the value the variant
//! declares, a queen at nine pawns, but here a queen is one more pawn-mover, and one that has
//! reached its last rank can neither move nor capture again. Without this term the engine
//! promoted every pawn it could (a "queen" for a pawn) and marched its pieces onto the last
//! rank, where the lone enemy king ate them: games against a random mover ran to the ply
//! limit. The term values every piece but the king as one pawn-mover, a stranded one at a
//! quarter of that, and rewards what a checkmate by pawn-movers needs: pieces still below the
//! enemy king (a pawn-mover only ever attacks forward) and squares around it attacked.
//!
//! A lone king boxed on the last ranks is mated by a run of checks, each from a pawn-mover
//! stepping up beside it, guarded, with the flights covered; a quiet move that takes its
//! last square is stalemate. So the side with more pieces also keeps checkers in reserve (two
//! ranks below that king: pieces pushed beside or past it give no more checks) and brings its
//! own king to it, best two ranks straight below it (the opposition), where it guards the
//! squares under the enemy king and each checker that arrives there.

use crate::Meta;
use houserules_plugin_api::abi_stable::std_types::ROption;
use houserules_plugin_api::{
    geometry, Color, Position, PresetRules, Role, RulesModel, Square, SquareSet, VariantInfo,
};

pub(crate) const META: Meta = Meta {
    id: "proletariat",
    name: "Proletariat",
    description: "Every piece but the king moves and captures like a pawn (one step forward, \
                  diagonal captures); double steps, en passant and promotion stay with the real \
                  pawns.",
    incompatible: &[],
    options: crate::no_options,
    evaluates: true,
};

/// What one pawn-mover is worth, whatever its kind (centipawns).
const MOVER_WORTH: i32 = 100;
/// What a non-pawn on its last rank is worth: it cannot move or capture, it only blocks.
const STRANDED_WORTH: i32 = 25;
/// Per rank a pawn-mover has advanced (short of its last rank).
const ADVANCE: i32 = 3;
/// Per pawn-mover still below the enemy king (it can still come to attack it).
const BELOW_KING: i32 = 12;
/// Per square the enemy king can walk to through squares not attacked (and not held by its own
/// side): a checkmate by pawn-movers needs the king boxed in.
const KING_BOX: i32 = 10;
/// Per square the kings are nearer each other, for the side with more pieces.
const KING_NEAR: i32 = 30;
/// For the side with more pieces, its king two ranks below the enemy king on the same file
/// (half on a neighbouring file): from there it guards the three squares below that king and
/// every pawn-mover that steps up beside it to give check.
const KING_OPPOSITION: i32 = 60;
/// Per pawn-mover two ranks below the enemy king, within three files of it: the next step
/// brings it beside the king, where it gives check. Pieces already beside or above the king
/// can give no more checks, so a net needs these held back, not pushed on.
const CHECKER_IN_RESERVE: i32 = 25;
/// The eight steps of a king.
const NEIGHBOURS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The preset, with what its evaluation needs of the variant's piece table.
pub struct Proletariat {
    /// Per piece kind: its role is king (moves as before, is what checkmate aims at).
    king: Vec<bool>,
    /// Per piece kind: a real pawn (keeps its double step and promotion).
    pawn: Vec<bool>,
    /// Per piece kind: the value the host's evaluation counts it at.
    declared: Vec<i32>,
}

impl Proletariat {
    /// The preset for `variant`.
    pub fn new(variant: &VariantInfo) -> Proletariat {
        let pieces = &variant.pieces;
        Proletariat {
            king: pieces.iter().map(|p| p.role == Role::KING).collect(),
            pawn: pieces.iter().map(|p| p.role == Role::PAWN).collect(),
            declared: pieces
                .iter()
                .map(|p| if p.royal { 0 } else { p.value.max(0) })
                .collect(),
        }
    }

    fn is(&self, table: &[bool], kind: u8) -> bool {
        table.get(kind as usize).copied().unwrap_or(false)
    }

    /// The terms for `color`'s pieces (positive: good for `color`).
    fn side_terms(&self, pos: &Position, color: Color, enemy_kings: &[Square]) -> i32 {
        let last = pos.ranks() as i32 - 1;
        let forward = if color == Color::White { 1 } else { -1 };
        let mut attacked = SquareSet::default();
        let mut score = 0;
        let mark = |set: &mut SquareSet, f: i32, r: i32| {
            if (0..pos.files() as i32).contains(&f) && (0..=last).contains(&r) {
                set.insert(Square::new(f as u8, r as u8));
            }
        };
        for (sq, kind) in pos.pieces_of(color) {
            let (f, r) = (sq.file() as i32, sq.rank() as i32);
            if self.is(&self.king, kind) {
                for df in -1..=1 {
                    for dr in -1..=1 {
                        mark(&mut attacked, f + df, r + dr);
                    }
                }
                continue;
            }
            let advanced = if color == Color::White { r } else { last - r };
            let pawn = self.is(&self.pawn, kind);
            let declared = self.declared.get(kind as usize).copied().unwrap_or(0);
            // Replace the host's declared value by the pawn-mover's worth.
            let worth = if !pawn && advanced == last {
                STRANDED_WORTH
            } else {
                MOVER_WORTH + ADVANCE * advanced
            };
            score += worth - declared;
            mark(&mut attacked, f - 1, r + forward);
            mark(&mut attacked, f + 1, r + forward);
            let below = enemy_kings
                .iter()
                .filter(|k| (k.rank() as i32 - r) * forward > 0)
                .count();
            score += BELOW_KING * below.min(1) as i32;
            let in_reserve = enemy_kings
                .iter()
                .any(|k| (k.rank() as i32 - r) * forward == 2 && (k.file() as i32 - f).abs() <= 3);
            if in_reserve {
                score += CHECKER_IN_RESERVE;
            }
        }
        // The squares each enemy king can walk to through squares we do not attack (its
        // own pieces block it): the smaller its box, the nearer a checkmate.
        let blocked = |sq: Square| attacked.contains(sq) || pos.get(sq).is_color(color.opposite());
        for &k in enemy_kings {
            let mut region = SquareSet::default();
            region.insert(k);
            let mut frontier = vec![k];
            while let Some(sq) = frontier.pop() {
                let (f, r) = (sq.file() as i32, sq.rank() as i32);
                for (df, dr) in NEIGHBOURS {
                    let (nf, nr) = (f + df, r + dr);
                    if !(0..pos.files() as i32).contains(&nf) || !(0..=last).contains(&nr) {
                        continue;
                    }
                    let n = Square::new(nf as u8, nr as u8);
                    if !region.contains(n) && !blocked(n) {
                        region.insert(n);
                        frontier.push(n);
                    }
                }
            }
            score -= KING_BOX * region.len() as i32;
        }
        score
    }

    fn kings_of(&self, pos: &Position, color: Color) -> Vec<Square> {
        pos.pieces_of(color)
            .filter(|&(_, kind)| self.is(&self.king, kind))
            .map(|(sq, _)| sq)
            .collect()
    }
}

impl PresetRules for Proletariat {
    fn transform_model(&self, model: &mut RulesModel) -> Result<(), String> {
        for p in model
            .pieces
            .iter_mut()
            .filter(|p| p.role != Role::KING && p.role != Role::PAWN)
        {
            p.betza = "fmWfcF".into();
            p.betza_black = ROption::RNone;
            p.bounce = false;
        }
        Ok(())
    }

    fn evaluate(&self, pos: &Position) -> i32 {
        let white_kings = self.kings_of(pos, Color::White);
        let black_kings = self.kings_of(pos, Color::Black);
        let mut score = self.side_terms(pos, Color::White, &black_kings)
            - self.side_terms(pos, Color::Black, &white_kings);
        // The side with more pieces brings its king to the enemy king: pawn-movers cover
        // only the squares ahead of them, the king covers the rest of a mating net.
        if let (Some(w), Some(b)) = (white_kings.first(), black_kings.first()) {
            let distance = geometry::king_distance(*w, *b);
            let near = KING_NEAR * (pos.files().max(pos.ranks()) as i32 - distance);
            let movers = |c| {
                pos.pieces_of(c)
                    .filter(|&(_, k)| !self.is(&self.king, k))
                    .count()
            };
            let lead = (movers(Color::White) as i32 - movers(Color::Black) as i32).signum();
            score += near * lead;
            // The stronger side's king and the enemy king, and the stronger side's forward.
            let (ours, theirs, forward) = if lead > 0 { (w, b, 1) } else { (b, w, -1) };
            let files_apart = (ours.file() as i32 - theirs.file() as i32).abs();
            if lead != 0
                && (theirs.rank() as i32 - ours.rank() as i32) * forward == 2
                && files_apart <= 1
            {
                score += lead * KING_OPPOSITION / (1 + files_apart);
            }
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;

    #[test]
    fn proletariat_pieces_move_like_pawns() {
        let p = pipe(&["proletariat"]);
        // From the start: 8 pawns x 2 and the back-rank pieces blocked by pawns: 16 moves.
        assert_eq!(perft_fen(&p, START, 1), 16);
        let d = destinations(&p, "4k3/8/8/2p5/3Q4/8/8/4K3 w - - 0 1", "d4");
        assert_eq!(d, ["c5", "d5"], "one step forward, a diagonal capture");
        // No double step, no promotion for a non-pawn.
        assert_eq!(
            destinations(&p, "4k3/8/8/8/8/8/3N4/4K3 w - - 0 1", "d2"),
            ["d3"]
        );
        assert!(destinations(&p, "3Rk3/8/8/8/8/8/8/4K3 w - - 0 1", "d8").is_empty());
        // Real pawns keep theirs.
        assert!(has(&p, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4"));
        assert!(has(&p, "k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q"));
        // Black pieces go down the board.
        assert_eq!(
            destinations(&p, "4k3/8/8/3q4/8/8/8/4K3 b - - 0 1", "d5"),
            ["d4"]
        );
    }

    #[test]
    fn proletariat_checks_are_pawn_checks() {
        let p = pipe(&["proletariat"]);
        // A queen diagonally in front of the king gives check; one straight ahead does not.
        let f = "8/8/8/4k3/3Q4/8/8/4K3 b - - 0 1";
        assert!(p
            .royal_attacked(&pos(&p, f), houserules_plugin_api::Color::Black)
            .unwrap());
        let g = "8/8/8/3k4/3Q4/8/8/4K3 b - - 0 1";
        assert!(!p
            .royal_attacked(&pos(&p, g), houserules_plugin_api::Color::Black)
            .unwrap());
    }

    /// The hook's terms plus the values the host counts for the pieces (its material term
    /// without centrality).
    fn worth(p: &houserules_host::Pipeline, f: &str) -> i32 {
        let position = pos(p, f);
        let declared: i32 = position
            .squares()
            .filter_map(|s| {
                let c = position.get(s);
                let (kind, color) = (c.kind()?, c.color()?);
                let t = &p.info.pieces[kind as usize];
                let v = if t.royal { 0 } else { t.value };
                Some(if color == houserules_plugin_api::Color::White {
                    v
                } else {
                    -v
                })
            })
            .sum();
        p.evaluation_terms(&position).unwrap() + declared
    }

    #[test]
    fn proletariat_evaluation_counts_every_piece_as_a_pawn_mover() {
        let p = pipe(&["proletariat"]);
        assert!(p.has_evaluation_terms());
        // A queen and a knight on the same square are worth the same.
        let queen = worth(&p, "7k/8/8/8/3Q4/8/8/K7 w - - 0 1");
        let knight = worth(&p, "7k/8/8/8/3N4/8/8/K7 w - - 0 1");
        assert_eq!(queen, knight);
        // Promoting is no gain: a pawn on the 7th is worth more than a queen on the 8th,
        // which can neither move nor capture.
        let pawn = worth(&p, "7k/3P4/8/8/8/8/8/K7 w - - 0 1");
        let promoted = worth(&p, "3Q3k/8/8/8/8/8/8/K7 w - - 0 1");
        assert!(pawn > promoted + 50, "{pawn} {promoted}");
    }

    #[test]
    fn proletariat_evaluation_boxes_the_enemy_king() {
        let p = pipe(&["proletariat"]);
        // The same three knights: covering the squares below the king, or far from it.
        let boxing = worth(&p, "7k/8/4NNN1/8/8/8/8/K7 w - - 0 1");
        let away = worth(&p, "7k/8/8/8/8/4NNN1/8/K7 w - - 0 1");
        assert!(boxing > away, "{boxing} {away}");
        // The terms are the same for either colour (the board turned round).
        let white = worth(&p, "7k/8/4NNN1/8/8/8/8/K7 w - - 0 1");
        let black = worth(&p, "k7/8/8/8/8/4nnn1/8/7K b - - 0 1");
        assert_eq!(white, -black);
    }

    #[test]
    fn proletariat_evaluation_keeps_checkers_in_reserve() {
        let p = pipe(&["proletariat"]);
        // A knight two ranks below the king (its next step gives check beside it) is worth
        // more than the same knight one rank further on, beside the king, where it gives no
        // more checks: the reserve outweighs the rank it would gain.
        let reserve = worth(&p, "4k3/8/2N5/8/8/8/8/K7 w - - 0 1");
        let spent = worth(&p, "4k3/2N5/8/8/8/8/8/K7 w - - 0 1");
        assert!(reserve > spent, "{reserve} {spent}");
        // Four files away it is no checker of this king.
        let aside = worth(&p, "4k3/8/N7/8/8/8/8/K7 w - - 0 1");
        assert!(reserve > aside, "{reserve} {aside}");
    }

    #[test]
    fn proletariat_evaluation_brings_the_king_to_the_opposition() {
        let p = pipe(&["proletariat"]);
        // White's king two squares from the Black king each time (the same nearness and the
        // same squares covered): straight below it is best, a file off next, two files off
        // (on the same rank as the opposition square) least.
        let straight = worth(&p, "4k3/8/4K3/8/8/8/N7/8 w - - 0 1");
        let beside = worth(&p, "4k3/8/3K4/8/8/8/N7/8 w - - 0 1");
        let off = worth(&p, "4k3/8/2K5/8/8/8/N7/8 w - - 0 1");
        assert!(
            straight > beside && beside > off,
            "{straight} {beside} {off}"
        );
        // The same for Black, the side with more pieces there (the board turned round).
        let black = worth(&p, "8/n7/8/8/8/4k3/8/4K3 b - - 0 1");
        assert_eq!(straight, -black);
    }
}
