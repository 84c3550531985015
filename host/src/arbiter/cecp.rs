//! The arbiter's side of XBoard / CECP v2: an XBoard engine in a match.
//!
//! The engine is kept in force mode: before each of its moves it is sent the moves it has
//! not seen (`usermove`), its clock (`time`, `otim`) and `go`; after its `move` it is put
//! back in force mode, so it never thinks on its own. Its claims (`1-0 {...}`) are not
//! taken: the pipeline ends every game, and a claim when it is asked to move is a claim the
//! rules do not give (it loses). `resign` loses the game.
//!
//! XBoard has no options for layouts, presets or modifiers: an XBoard engine plays a plain
//! variant, named as XBoard names it (`normal` for chess), which it must list in its
//! `variants` feature.

use super::{EngineSpec, Forfeit, MatchError, Pipe, RulesOptions, TimeControl, HANDSHAKE};
use std::time::{Duration, Instant};

/// How long an engine that has not sent `feature done=0` is given to send its features
/// (CECP: two seconds, after which an engine is taken for one of protocol version 1).
const FEATURES_WAIT: Duration = Duration::from_secs(2);

/// The features of CECP v2 the arbiter uses (off by default, as in CECP).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Features {
    myname: Option<String>,
    /// `variants` (XBoard's names); `None`: not given (chess only).
    variants: Option<Vec<String>>,
    usermove: bool,
    setboard: bool,
    ping: bool,
    san: bool,
}

/// The `NAME=VALUE` pairs of a `feature` line, a value in double quotes keeping its spaces.
fn feature_pairs(text: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    let mut rest = text.trim_start();
    while let Some(eq) = rest.find('=') {
        // The word before `=` (a stray word before it is passed over).
        let name = rest[..eq]
            .split_whitespace()
            .last()
            .unwrap_or_default()
            .to_string();
        let after = &rest[eq + 1..];
        let (value, tail) = if let Some(quoted) = after.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            }
        } else {
            match after.find(char::is_whitespace) {
                Some(end) => (&after[..end], &after[end..]),
                None => (after, ""),
            }
        };
        if !name.is_empty() {
            pairs.push((name, value.to_string()));
        }
        rest = tail.trim_start();
    }
    pairs
}

/// The text of `level`'s increment: whole seconds as such, else with decimals.
fn seconds(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        d.as_secs().to_string()
    } else {
        format!("{:.3}", d.as_secs_f64())
            .trim_end_matches('0')
            .to_string()
    }
}

/// The base time of `level`: minutes, or `MIN:SEC`.
fn level_base(d: Duration) -> String {
    let secs = d.as_secs();
    if secs.is_multiple_of(60) {
        (secs / 60).to_string()
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

/// A running XBoard engine.
pub struct XboardEngine {
    spec: EngineSpec,
    /// Its `myname`, else its command.
    pub name: String,
    pipe: Pipe,
    features: Features,
    /// Moves of the current game it has been sent or has played.
    known: usize,
    /// The last `ping` number.
    pings: u32,
}

impl XboardEngine {
    /// Starts an engine, reads its features, sets its options and checks that it can play
    /// the rules.
    pub fn start(spec: &EngineSpec, rules: &RulesOptions) -> Result<XboardEngine, MatchError> {
        let fail = |reason: String| MatchError::Engine {
            command: spec.command.clone(),
            reason,
        };
        if rules.layout.is_some() || rules.presets.is_some() || rules.modifiers.is_some() {
            return Err(fail(
                "an XBoard engine plays a variant as it is: layouts, presets and modifiers \
                 travel as UCI options"
                    .into(),
            ));
        }
        let mut e = XboardEngine {
            spec: spec.clone(),
            name: spec.command.clone(),
            pipe: Pipe::spawn(&spec.command).map_err(fail)?,
            features: Features::default(),
            known: 0,
            pings: 0,
        };
        e.handshake()
            .map_err(|r| fail(format!("during `protover 2`: {r}")))?;
        if let Some(n) = &e.features.myname {
            e.name = n.clone();
        }
        if e.features.san {
            return Err(fail(
                "it asks for moves in SAN (`feature san=1`), which the arbiter does not send"
                    .into(),
            ));
        }
        let wanted = crate::xboard::xboard_name(&rules.variant);
        let offered = match &e.features.variants {
            Some(v) => v.iter().any(|n| n == wanted),
            None => wanted == "normal",
        };
        if !offered {
            return Err(fail(format!(
                "it does not offer the variant `{wanted}` (its variants: {})",
                e.features
                    .variants
                    .as_ref()
                    .map_or("normal only".to_string(), |v| v.join(","))
            )));
        }
        for (k, v) in spec.options.clone() {
            e.pipe
                .send(&format!("option {k}={v}"))
                .map_err(|r| fail(r.to_string()))?;
        }
        e.sync().map_err(|r| fail(r.to_string()))?;
        Ok(e)
    }

    /// `xboard`, `protover 2`, and the `feature` lines up to `done=1` (or two seconds of
    /// silence without `done=0`); every feature is accepted.
    fn handshake(&mut self) -> Result<(), Forfeit> {
        self.pipe.send("xboard")?;
        self.pipe.send("protover 2")?;
        let started = Instant::now();
        let mut waiting_for_done = false;
        loop {
            let deadline = if waiting_for_done {
                started + HANDSHAKE
            } else {
                started + FEATURES_WAIT
            };
            let line = match self.pipe.recv(deadline) {
                Ok(l) => l,
                // No `done=1` in time: protocol version 1, or an engine that forgot it.
                Err(Forfeit::Time(_)) if !waiting_for_done => return Ok(()),
                Err(e) => return Err(e),
            };
            let Some(rest) = line.trim().strip_prefix("feature ") else {
                continue;
            };
            let mut done = false;
            for (name, value) in feature_pairs(rest) {
                self.pipe.send(&format!("accepted {name}"))?;
                let on = value == "1";
                match name.as_str() {
                    "myname" => self.features.myname = Some(value),
                    "variants" => {
                        self.features.variants = Some(
                            value
                                .split(',')
                                .map(|v| v.trim().to_string())
                                .filter(|v| !v.is_empty())
                                .collect(),
                        )
                    }
                    "usermove" => self.features.usermove = on,
                    "setboard" => self.features.setboard = on,
                    "ping" => self.features.ping = on,
                    "san" => self.features.san = on,
                    "done" if on => done = true,
                    "done" => waiting_for_done = true,
                    _ => {}
                }
            }
            if done {
                return Ok(());
            }
        }
    }

    /// `ping N` → `pong N` where the engine offers `ping`: everything sent before is done.
    fn sync(&mut self) -> Result<(), Forfeit> {
        if !self.features.ping {
            return Ok(());
        }
        self.pings += 1;
        let n = self.pings;
        self.pipe.send(&format!("ping {n}"))?;
        let deadline = Instant::now() + HANDSHAKE;
        let pong = format!("pong {n}");
        loop {
            if self.pipe.recv(deadline)?.trim() == pong {
                return Ok(());
            }
        }
    }

    /// Sets up a game: `new`, the variant, force mode, the start (`setboard`, when it is not
    /// the variant's own), the time control.
    pub fn new_game(
        &mut self,
        variant: &str,
        start_fen: Option<&str>,
        chess960: bool,
        time: &TimeControl,
    ) -> Result<(), Forfeit> {
        self.pipe.drain();
        self.known = 0;
        if chess960 {
            return Err(Forfeit::Unsupported(
                "a Chess960 start is not sent to XBoard engines".into(),
            ));
        }
        self.pipe.send("new")?;
        let name = crate::xboard::xboard_name(variant);
        if name != "normal" {
            self.pipe.send(&format!("variant {name}"))?;
        }
        self.pipe.send("force")?;
        if let Some(fen) = start_fen {
            if !self.features.setboard {
                return Err(Forfeit::Unsupported(
                    "it cannot be given a start position (no `feature setboard=1`)".into(),
                ));
            }
            self.pipe.send(&format!("setboard {fen}"))?;
        }
        match *time {
            // Whole seconds (`run_match` checks).
            TimeControl::MoveTime(t) => self.pipe.send(&format!("st {}", t.as_secs().max(1)))?,
            TimeControl::Clock {
                base,
                increment,
                moves,
            } => self.pipe.send(&format!(
                "level {} {} {}",
                moves.unwrap_or(0),
                level_base(base),
                seconds(increment)
            ))?,
        }
        self.sync()
    }

    /// Asks for a move: the game's `moves` it has not seen (XBoard's squares), its clock and
    /// the opponent's (`own`, `opponent`) when the game has clocks, then `go`; waits up to
    /// `allowed` for `move M`. Returns the move text and the time taken.
    pub fn think(
        &mut self,
        moves: &[String],
        clock: Option<(Duration, Duration)>,
        allowed: Duration,
    ) -> Result<(String, Duration), Forfeit> {
        self.pipe.drain();
        for m in moves.get(self.known..).unwrap_or_default() {
            let line = if self.features.usermove {
                format!("usermove {m}")
            } else {
                m.clone()
            };
            self.pipe.send(&line)?;
        }
        self.known = moves.len();
        if let Some((own, opponent)) = clock {
            self.pipe.send(&format!("time {}", own.as_millis() / 10))?;
            self.pipe
                .send(&format!("otim {}", opponent.as_millis() / 10))?;
        }
        self.pipe.send("go")?;
        let started = Instant::now();
        let deadline = started + allowed;
        let mut legs = String::new();
        loop {
            let line = self.pipe.recv_during_move(started, deadline)?;
            let text = line.trim();
            if let Some(m) = text.strip_prefix("move ") {
                legs.push_str(m.trim());
                // A move of several legs (amazons' move and arrow) may come as one `move`
                // line per leg, each but the last ending with a comma (Fairy-Stockfish).
                if legs.ends_with(',') {
                    continue;
                }
                self.known += 1;
                // Back to force mode: it thinks only when asked.
                self.pipe.send("force")?;
                return Ok((legs, started.elapsed()));
            }
            if text.starts_with("Illegal move") || text.starts_with("Error") {
                return Err(Forfeit::Illegal(format!(
                    "it refused the game so far: `{text}`"
                )));
            }
            if text == "resign" {
                return Err(Forfeit::Resigned);
            }
            if ["1-0", "0-1", "1/2-1/2"]
                .iter()
                .any(|r| text.starts_with(r))
            {
                return Err(Forfeit::Illegal(format!(
                    "it claimed `{text}`, which the rules do not give"
                )));
            }
            // Thinking output, `telluser`, comments: not the move.
        }
    }

    /// Ends the process (after `quit`, a short wait, then kill).
    pub fn stop(self) {
        self.pipe.quit("quit");
    }

    /// Kills the process; its spec, to start it again.
    pub(super) fn kill(self) -> EngineSpec {
        self.pipe.kill();
        self.spec
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_lines() {
        let p = feature_pairs(
            r#"myname="Fairy-Max 5.0b" variants="normal,shatranj,capablanca" usermove=1 done=0"#,
        );
        assert_eq!(
            p,
            [
                ("myname".to_string(), "Fairy-Max 5.0b".to_string()),
                ("variants".into(), "normal,shatranj,capablanca".into()),
                ("usermove".into(), "1".into()),
                ("done".into(), "0".into()),
            ]
        );
        assert_eq!(
            feature_pairs("setboard=1"),
            [("setboard".into(), "1".into())]
        );
        // An unclosed quote takes the rest; a stray word before a name is passed over.
        assert_eq!(
            feature_pairs(r#"stray ping=1 myname="x y"#),
            [
                ("ping".to_string(), "1".to_string()),
                ("myname".into(), "x y".into())
            ]
        );
    }

    #[test]
    fn time_texts() {
        assert_eq!(seconds(Duration::from_secs(3)), "3");
        assert_eq!(seconds(Duration::from_millis(100)), "0.1");
        assert_eq!(seconds(Duration::from_millis(1250)), "1.25");
        assert_eq!(level_base(Duration::from_secs(300)), "5");
        assert_eq!(level_base(Duration::from_secs(90)), "1:30");
        assert_eq!(level_base(Duration::from_secs(5)), "0:05");
    }
}
