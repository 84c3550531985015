//! The engine as a `play` player: `engine`, `engine:movetime=500`, `engine:depth=6,threads=2`.

use super::{skill, Engine, EngineConfig, Limits, Score, SearchInfo};
use crate::error::HostError;
use crate::game::Game;
use crate::notation::san;
use crate::pipeline::Pipeline;
use crate::play::{AutoPlayer, Rng};
use houserules_plugin_api::Move;
use std::io::Write;
use std::sync::atomic::AtomicBool;

/// How an engine player plays: search limits, engine set-up, random opening moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSpec {
    /// Limits of each search.
    pub limits: Limits,
    /// Threads and hash.
    pub config: EngineConfig,
    /// Its first this-many moves are random (seeded), so that a corpus of engine games does
    /// not repeat one game; `None`: 0 in a single game, 1 when `play --games` makes many.
    pub random: Option<u32>,
    /// Playing strength, 0 to 20 ([`super::skill`]); 20 (full strength) by default.
    pub level: u8,
}

/// The limits of a plain `engine`.
pub const DEFAULT_LIMITS: &str = "movetime=1000";

impl std::str::FromStr for EngineSpec {
    type Err = String;

    /// `engine` or `engine:FIELDS`: the fields of [`Limits`] plus `threads=N`, `hash=MB`,
    /// `random=N` and `level=N` (0 to 20).
    fn from_str(s: &str) -> Result<EngineSpec, String> {
        let fields = match s.split_once(':') {
            None if s == "engine" => "",
            Some(("engine", rest)) => rest,
            _ => return Err(format!("`{s}`: expected `engine` or `engine:FIELDS`")),
        };
        let mut config = EngineConfig::default();
        let mut random = None;
        let mut level = skill::FULL;
        let mut rest = Vec::new();
        for field in fields.split(',').map(str::trim).filter(|f| !f.is_empty()) {
            let number = |v: &str, min: u64, max: u64| -> Result<u64, String> {
                v.parse::<u64>()
                    .ok()
                    .filter(|n| (min..=max).contains(n))
                    .ok_or_else(|| {
                        format!("engine field `{field}`: expected a number from {min} to {max}")
                    })
            };
            match field.split_once('=') {
                Some(("threads", v)) => config.threads = number(v, 1, 64)? as usize,
                Some(("hash", v)) => config.hash_mb = number(v, 1, 65536)? as usize,
                Some(("random", v)) => random = Some(number(v, 0, 1000)? as u32),
                Some(("level", v)) => level = number(v, 0, skill::FULL as u64)? as u8,
                _ => rest.push(field),
            }
        }
        let text = if rest.is_empty() {
            DEFAULT_LIMITS.to_string()
        } else {
            rest.join(",")
        };
        let limits: Limits = text
            .parse()
            .map_err(|e: super::LimitsError| e.to_string())?;
        Ok(EngineSpec {
            limits,
            config,
            random,
            level,
        })
    }
}

impl std::fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "engine:{}", self.limits)?;
        if self.config.threads != 1 {
            write!(f, ",threads={}", self.config.threads)?;
        }
        if let Some(r) = self.random {
            write!(f, ",random={r}")?;
        }
        if self.level != skill::FULL {
            write!(f, ",level={}", self.level)?;
        }
        Ok(())
    }
}

/// An engine playing one side of a game.
pub struct EnginePlayer<'p> {
    engine: Engine<'p>,
    limits: Limits,
    level: u8,
    random_moves: u32,
    rng: Rng,
    moves_made: u32,
    last_score: Option<Score>,
}

impl<'p> EnginePlayer<'p> {
    /// The player for `spec` by `pipeline`'s rules; `corpus`: one of many games.
    pub fn new(
        pipeline: &'p Pipeline,
        spec: &EngineSpec,
        seed: u64,
        corpus: bool,
    ) -> Result<EnginePlayer<'p>, HostError> {
        Ok(EnginePlayer {
            engine: Engine::new(pipeline, spec.config)?,
            limits: spec.limits,
            level: spec.level,
            random_moves: spec.random.unwrap_or(corpus as u32),
            rng: Rng::new(seed),
            moves_made: 0,
            last_score: None,
        })
    }
}

/// The principal variation in SAN from the game's position (as far as it replays).
fn pv_text(game: &Game<'_>, pv: &[Move]) -> String {
    let p = game.pipeline();
    let mut pos = game.position.clone();
    let mut words = Vec::new();
    let mut legal = abi_stable::std_types::RVec::new();
    for &m in pv {
        if p.legal_moves(&pos, &mut legal).is_err() || !legal.contains(&m) {
            break;
        }
        let Ok(text) = san(p, &pos, m, &legal) else {
            break;
        };
        words.push(text);
        let mut fx = houserules_plugin_api::MoveEffects::new(pos.side_to_move, false);
        if p.apply(&mut pos, m, &mut fx).is_err() {
            break;
        }
    }
    words.join(" ")
}

/// One line per completed depth: depth, score, nodes, speed, time, main line.
pub fn info_line(game: &Game<'_>, info: &SearchInfo) -> String {
    format!(
        "  depth {:>2}/{:<2} {:>7}  {:>9} nodes {:>7} nps {:>6.2}s  {}",
        info.depth,
        info.seldepth,
        info.score.to_string(),
        info.nodes,
        info.nps,
        info.time.as_secs_f64(),
        pv_text(game, &info.pv)
    )
}

impl AutoPlayer for EnginePlayer<'_> {
    fn choose(&mut self, game: &Game<'_>, legal: &[Move]) -> Result<Move, HostError> {
        self.choose_showing(game, legal, None)
    }

    fn choose_showing(
        &mut self,
        game: &Game<'_>,
        legal: &[Move],
        out: Option<&mut dyn Write>,
    ) -> Result<Move, HostError> {
        self.moves_made += 1;
        if self.moves_made <= self.random_moves {
            return Ok(legal[self.rng.below(legal.len())]);
        }
        let stop = AtomicBool::new(false);
        let mut out = out;
        let r = if self.level < skill::FULL {
            let r = self.engine.choose_at_level(
                game,
                &self.limits,
                self.level,
                &mut self.rng,
                &stop,
            )?;
            if let Some(o) = out {
                let _ = writeln!(
                    o,
                    "  level {} ({} plies): {} {}",
                    self.level,
                    r.depth,
                    pv_text(game, &r.pv),
                    r.score
                );
                let _ = o.flush();
            }
            r
        } else {
            self.engine.search(game, &self.limits, &stop, &mut |info| {
                if let Some(o) = out.as_mut() {
                    let _ = writeln!(o, "{}", info_line(game, info));
                    let _ = o.flush();
                }
            })?
        };
        self.last_score = Some(r.score);
        // The search returns a move whenever one is legal; fall back to the first otherwise.
        Ok(r.best.filter(|m| legal.contains(m)).unwrap_or(legal[0]))
    }

    /// Accepts a draw when its last search saw itself clearly worse.
    fn accepts_draw(&mut self, _game: &Game<'_>) -> bool {
        match self.last_score {
            Some(Score::Cp(cp)) => cp <= -150,
            Some(Score::Mate(n)) => n < 0,
            None => false,
        }
    }

    fn moves_taken_back(&mut self, _game: &Game<'_>) {
        self.last_score = None;
    }
}
