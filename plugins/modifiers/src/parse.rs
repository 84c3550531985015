//! Reading custom modifier descriptors: JSON text to a validated [`Descriptor`]
//! (`docs/modifiers.md`).
//!
//! The JSON is walked by hand rather than deserialized into derived types so that every error
//! names the JSON path of the offending node or field: a descriptor author has no other way to
//! find a typo in a file nobody compiles.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::descriptor::{
    AppliesTo, BoardTopology, CmpOp, ColorFilter, Condition, Descriptor, DescriptorError, Node,
    NodeKind, Relation, SeedValue, SquareFilter, SquareRef, Target, Trigger, TriggerKind,
    MAX_DEPTH, MAX_NODES, MAX_SEEDABLE, VERSION,
};

/// The descriptors of the catalogue, built into the plugin: `(id, JSON text)`, in the order of
/// `docs/modifiers.md`. Each file is named after its id.
pub const EXAMPLES: &[(&str, &str)] = &[
    ("berserker", include_str!("../examples/berserker.json")),
    ("nomad", include_str!("../examples/nomad.json")),
    ("decay", include_str!("../examples/decay.json")),
    ("re-arm", include_str!("../examples/re-arm.json")),
    (
        "promotion-feast",
        include_str!("../examples/promotion-feast.json"),
    ),
    (
        "stay-as-pawn",
        include_str!("../examples/stay-as-pawn.json"),
    ),
    ("panic-mode", include_str!("../examples/panic-mode.json")),
    (
        "berserker-king",
        include_str!("../examples/berserker-king.json"),
    ),
    ("vampire", include_str!("../examples/vampire.json")),
    (
        "pacman-style",
        include_str!("../examples/pacman-style.json"),
    ),
    (
        "stun-counter",
        include_str!("../examples/stun-counter.json"),
    ),
    (
        "center-bonus",
        include_str!("../examples/center-bonus.json"),
    ),
    ("king-row", include_str!("../examples/king-row.json")),
    ("kamikaze", include_str!("../examples/kamikaze.json")),
    ("martyr", include_str!("../examples/martyr.json")),
];

/// Longest id and attribute name, in bytes.
const MAX_NAME_BYTES: usize = 31;
/// Deepest nesting of conditions (`all` / `any` / `not`) in one `if`, the `if` itself being 1.
const MAX_CONDITION_DEPTH: usize = 8;
/// Highest square index accepted as written; the board size is only known at game setup.
const MAX_SQUARE_INDEX: i64 = 255;
/// Highest file of a predicate (16 files, a-p).
const MAX_FILE: i64 = 15;
/// Highest rank of a predicate (15 ranks).
const MAX_RANK: i64 = 14;

/// Trigger kinds in stage order, for the list of known kinds in messages.
const TRIGGERS_BY_STAGE: [TriggerKind; 10] = [
    TriggerKind::Damaged,
    TriggerKind::Capture,
    TriggerKind::Captured,
    TriggerKind::Promotion,
    TriggerKind::Move,
    TriggerKind::MovedOntoSquare,
    TriggerKind::CheckReceived,
    TriggerKind::CheckDelivered,
    TriggerKind::TurnEnd,
    TriggerKind::TurnStart,
];

/// Parses and validates a descriptor. `source` names the file in errors.
///
/// A JSON syntax error is reported at `line:column`; every other error at the JSON path of the
/// node or field at fault (`$.primitives[0].params.delta`), with the reason.
pub fn parse(source: &str, text: &str) -> Result<Descriptor, DescriptorError> {
    let value: Value = serde_json::from_str(text).map_err(|e| DescriptorError {
        source: source.to_string(),
        at: format!("{}:{}", e.line(), e.column()),
        why: format!("JSON syntax error: {}", syntax_message(&e)),
    })?;
    descriptor(&value).map_err(|f| DescriptorError {
        source: source.to_string(),
        at: f.at,
        why: f.why,
    })
}

/// serde_json's message without its " at line L column C" suffix, which `at` already carries.
fn syntax_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    full.strip_suffix(&suffix).unwrap_or(&full).to_string()
}

/// An error before the file name is attached.
#[derive(Debug)]
struct Fail {
    at: String,
    why: String,
}

type Res<T> = Result<T, Fail>;

fn fail<T>(at: &str, why: impl Into<String>) -> Res<T> {
    Err(Fail {
        at: at.to_string(),
        why: why.into(),
    })
}

fn descriptor(v: &Value) -> Res<Descriptor> {
    let o = object(v, "$")?;
    // The version comes first: a file of another version may legitimately have fields this
    // plugin does not know, and "unsupported version" is the useful message then.
    match required(o, "$", "version")? {
        Value::Number(n) if n.is_i64() || n.is_u64() => {
            if n.as_i64() != Some(VERSION) {
                return fail(
                    "$.version",
                    format!("version {n} is not supported (this plugin reads version {VERSION})"),
                );
            }
        }
        other => {
            return fail(
                "$.version",
                format!("expected an integer, found {}", found(other)),
            )
        }
    }
    known_fields(
        o,
        "$",
        &[
            "appliesTo",
            "description",
            "id",
            "name",
            "primitives",
            "version",
        ],
    )?;
    let id = string(required(o, "$", "id")?, "$.id")?;
    if !is_id(id) {
        return fail(
            "$.id",
            format!(
                "invalid id {}: expected [a-z0-9][a-z0-9-]*, at most {MAX_NAME_BYTES} bytes",
                ticked(id)
            ),
        );
    }
    let name = match o.get("name") {
        Some(n) => string(n, "$.name")?.to_string(),
        None => id.to_string(),
    };
    let description = match o.get("description") {
        Some(d) => string(d, "$.description")?.to_string(),
        None => String::new(),
    };
    let applies_to = match o.get("appliesTo") {
        Some(a) => applies_to(a, "$.appliesTo")?,
        None => AppliesTo::default(),
    };
    let items = non_empty(required(o, "$", "primitives")?, "$.primitives", "node")?;
    // The node cap is checked on the raw JSON before anything else about the nodes, so an
    // oversized file gets the count error even if it is also too deep somewhere.
    let count: usize = items.iter().map(count_nodes).sum();
    if count > MAX_NODES {
        return fail(
            "$",
            format!("{count} primitive nodes (at most {MAX_NODES})"),
        );
    }
    let mut walker = Walker::default();
    let primitives = walker.nodes(items, "$.primitives", 1)?;
    check_aura_targets(&primitives)?;
    Ok(Descriptor {
        id: id.to_string(),
        name,
        description,
        applies_to,
        primitives,
        node_count: walker.nodes,
        seedable_count: walker.seedable,
    })
}

/// Counts a node and the nodes nested in it, as far as the raw JSON shows them. Only the
/// arrays that really hold nodes for the node's kind are followed, so a misplaced array is
/// reported as an unknown field rather than counted.
fn count_nodes(node: &Value) -> usize {
    let nested = |p: &Value, key: &str| {
        p.get(key)
            .and_then(Value::as_array)
            .map_or(0, |a| a.iter().map(count_nodes).sum())
    };
    let kind = node
        .get("kind")
        .and_then(Value::as_str)
        .and_then(Kind::parse);
    let nested = match (kind, node.get("params")) {
        (Some(Kind::Trigger(_)), Some(p)) => nested(p, "primitives"),
        (Some(Kind::Conditional), Some(p)) => nested(p, "then") + nested(p, "else"),
        _ => 0,
    };
    1 + nested
}

/// A primitive kind as written in `kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Trigger(TriggerKind),
    AddToAttribute,
    SeedAttribute,
    AddAura,
    SetCaptureFlag,
    Conditional,
    SetBoardTopology,
}

const EFFECTS: [(Kind, &str); 6] = [
    (Kind::AddToAttribute, "add-to-attribute"),
    (Kind::SeedAttribute, "seed-attribute"),
    (Kind::AddAura, "add-aura"),
    (Kind::SetCaptureFlag, "set-capture-flag"),
    (Kind::Conditional, "conditional"),
    (Kind::SetBoardTopology, "set-board-topology"),
];

impl Kind {
    fn parse(name: &str) -> Option<Kind> {
        EFFECTS
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(k, _)| *k)
            .or_else(|| {
                TriggerKind::ALL
                    .iter()
                    .find(|(_, n)| *n == name)
                    .map(|(k, _)| Kind::Trigger(*k))
            })
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Trigger(t) => t.name(),
            _ => EFFECTS
                .iter()
                .find(|(k, _)| *k == self)
                .map_or("", |(_, n)| *n),
        }
    }
}

/// Every kind name, effects first then triggers in stage order.
fn known_kinds_list() -> impl Iterator<Item = &'static str> {
    let effects = EFFECTS.iter().map(|(_, n)| *n);
    let triggers = TRIGGERS_BY_STAGE.iter().map(|t| t.name());
    effects.chain(triggers)
}

fn known_kinds() -> String {
    known_kinds_list().collect::<Vec<_>>().join(", ")
}

/// Walks the nodes in document order (depth first, pre-order), numbering the seedable ones.
#[derive(Default)]
struct Walker {
    nodes: usize,
    seedable: usize,
}

impl Walker {
    fn nodes(&mut self, items: &[Value], at: &str, depth: usize) -> Res<Vec<Node>> {
        items
            .iter()
            .enumerate()
            .map(|(i, v)| self.node(v, index(at, i), depth))
            .collect()
    }

    fn node(&mut self, v: &Value, at: String, depth: usize) -> Res<Node> {
        if depth > MAX_DEPTH {
            return fail(&at, format!("nesting deeper than {MAX_DEPTH} levels"));
        }
        let o = object(v, &at)?;
        known_fields(o, &at, &["kind", "params"])?;
        let kind_at = field(&at, "kind");
        let name = string(required(o, &at, "kind")?, &kind_at)?;
        let Some(kind) = Kind::parse(name) else {
            return fail(
                &kind_at,
                format!(
                    "unknown primitive kind {} (known: {})",
                    ticked(name),
                    known_kinds()
                ),
            );
        };
        self.nodes += 1;
        // The slot is taken before the children are walked: bits follow document order.
        let seedable = match kind {
            Kind::Trigger(_) | Kind::AddAura => true,
            Kind::Conditional => depth == 1,
            _ => false,
        };
        let slot = if seedable {
            if self.seedable >= MAX_SEEDABLE {
                return fail(
                    &at,
                    format!(
                        "more than {MAX_SEEDABLE} seedable nodes \
                         (triggers, auras, top-level conditionals)"
                    ),
                );
            }
            self.seedable += 1;
            u8::try_from(self.seedable - 1).ok()
        } else {
            None
        };
        let params_at = field(&at, "params");
        // Every kind has a required parameter, so `params` can never be left out.
        let Some(params) = o.get("params") else {
            return fail(
                &params_at,
                format!(
                    "missing required field `params` ({} has required parameters)",
                    kind.name()
                ),
            );
        };
        let p = object(params, &params_at)?;
        let kind = match kind {
            Kind::Trigger(t) => NodeKind::Trigger(self.trigger(t, p, &params_at, depth)?),
            Kind::AddToAttribute => add_to_attribute(p, &params_at)?,
            Kind::SeedAttribute => seed_attribute(p, &params_at)?,
            Kind::AddAura => add_aura(p, &params_at)?,
            Kind::SetCaptureFlag => {
                known_fields(p, &params_at, &["flag"])?;
                let flag_at = field(&params_at, "flag");
                let flag = integer(required(p, &params_at, "flag")?, &flag_at, 0, 1)?;
                NodeKind::SetCaptureFlag { flag: flag as i32 }
            }
            Kind::Conditional => self.conditional(p, &params_at, depth)?,
            Kind::SetBoardTopology => {
                if depth != 1 {
                    return fail(
                        &at,
                        "set-board-topology changes the board for the whole game: it can only be \
                         a top-level primitive"
                            .to_string(),
                    );
                }
                known_fields(p, &params_at, &["topology"])?;
                let t_at = field(&params_at, "topology");
                let name = string(required(p, &params_at, "topology")?, &t_at)?;
                let topology = match name {
                    "wrap-files" => BoardTopology::WrapFiles,
                    other => {
                        return fail(
                            &t_at,
                            format!("unknown topology {} (known: wrap-files)", ticked(other)),
                        )
                    }
                };
                NodeKind::SetBoardTopology { topology }
            }
        };
        Ok(Node {
            path: at,
            slot,
            kind,
        })
    }

    fn trigger(
        &mut self,
        kind: TriggerKind,
        p: &Map<String, Value>,
        at: &str,
        depth: usize,
    ) -> Res<Trigger> {
        let allowed: &[&str] = match kind {
            TriggerKind::TurnStart | TriggerKind::TurnEnd => &["color", "primitives"],
            TriggerKind::MovedOntoSquare => &["filter", "primitives"],
            k if k.has_pair_event() => &["primitives", "target"],
            _ => &["primitives"],
        };
        // A parameter of another trigger is the likeliest unknown field: say where it belongs.
        for (name, owners) in [
            ("color", "on-turn-start and on-turn-end"),
            ("filter", "on-moved-onto-square"),
            (
                "target",
                "on-capture, on-captured, on-check-received and on-check-delivered",
            ),
        ] {
            if p.contains_key(name) && !allowed.contains(&name) {
                return fail(
                    &field(at, name),
                    format!(
                        "unknown field `{name}` for {} (allowed: {}; \
                         `{name}` is only for {owners})",
                        kind.name(),
                        allowed.join(", ")
                    ),
                );
            }
        }
        known_fields(p, at, allowed)?;
        let color = match p.get("color") {
            Some(c) => color_filter(c, &field(at, "color"))?,
            None => ColorFilter::Both,
        };
        let filter = if kind == TriggerKind::MovedOntoSquare {
            let f = required(p, at, "filter")?;
            Some(square_filter(f, &field(at, "filter"))?)
        } else {
            None
        };
        let target = match p.get("target") {
            Some(t) => target(t, &field(at, "target"))?,
            None => Target::SelfPiece,
        };
        let items_at = field(at, "primitives");
        let items = non_empty(required(p, at, "primitives")?, &items_at, "node")?;
        let primitives = self.nodes(items, &items_at, depth + 1)?;
        Ok(Trigger {
            kind,
            color,
            filter,
            target,
            primitives,
        })
    }

    fn conditional(&mut self, p: &Map<String, Value>, at: &str, depth: usize) -> Res<NodeKind> {
        known_fields(p, at, &["else", "if", "then"])?;
        let cond = condition(required(p, at, "if")?, &field(at, "if"), 1)?;
        let then_at = field(at, "then");
        let then = non_empty(required(p, at, "then")?, &then_at, "node")?;
        let then = self.nodes(then, &then_at, depth + 1)?;
        let otherwise = match p.get("else") {
            Some(e) => {
                let else_at = field(at, "else");
                self.nodes(array(e, &else_at)?, &else_at, depth + 1)?
            }
            None => Vec::new(),
        };
        Ok(NodeKind::Conditional {
            cond,
            then,
            otherwise,
        })
    }
}

fn add_to_attribute(p: &Map<String, Value>, at: &str) -> Res<NodeKind> {
    known_fields(p, at, &["attr", "delta"])?;
    let attr_at = field(at, "attr");
    let attr = attr_name(required(p, at, "attr")?, &attr_at)?;
    if attr == "PieceType" {
        return fail(
            &attr_at,
            "`PieceType` cannot be changed by add-to-attribute \
             (use seed-attribute with a piece name)",
        );
    }
    let delta = int32(required(p, at, "delta")?, &field(at, "delta"))?;
    Ok(NodeKind::AddToAttribute { attr, delta })
}

fn seed_attribute(p: &Map<String, Value>, at: &str) -> Res<NodeKind> {
    known_fields(p, at, &["attr", "value"])?;
    let attr = attr_name(required(p, at, "attr")?, &field(at, "attr"))?;
    let value_at = field(at, "value");
    let v = required(p, at, "value")?;
    let value = if attr == "PieceType" {
        if !v.is_string() {
            return fail(
                &value_at,
                format!(
                    "expected a piece name or role for `PieceType`, found {}",
                    found(v)
                ),
            );
        }
        SeedValue::PieceType(piece_name(v, &value_at)?)
    } else if v.is_string() {
        return fail(
            &value_at,
            format!(
                "expected an integer, found {} (only `PieceType` takes a piece name)",
                found(v)
            ),
        );
    } else {
        SeedValue::Int(int32(v, &value_at)?)
    };
    Ok(NodeKind::SeedAttribute { attr, value })
}

fn add_aura(p: &Map<String, Value>, at: &str) -> Res<NodeKind> {
    known_fields(p, at, &["delta", "radius", "relation", "targetAttr"])?;
    let radius = integer(required(p, at, "radius")?, &field(at, "radius"), 1, 7)?;
    let target_at = field(at, "targetAttr");
    let target_attr = attr_name(required(p, at, "targetAttr")?, &target_at)?;
    if matches!(target_attr.as_str(), "Hp" | "PieceType" | "CaptureFlag") {
        return fail(
            &target_at,
            format!(
                "`{target_attr}` cannot be an aura target \
                 (auras may not change Hp, PieceType or CaptureFlag)"
            ),
        );
    }
    let delta = int32(required(p, at, "delta")?, &field(at, "delta"))?;
    let relation = match p.get("relation") {
        Some(r) => one_of(
            r,
            &field(at, "relation"),
            &[
                ("ally", Relation::Ally),
                ("enemy", Relation::Enemy),
                ("all", Relation::All),
            ],
        )?,
        None => Relation::Ally,
    };
    Ok(NodeKind::AddAura {
        radius: radius as u8,
        target_attr,
        delta,
        relation,
    })
}

/// Aura targets are derived (recomputed from the auras), so a write by another effect would be
/// overwritten at the next recomputation: refuse it at the writing node.
fn check_aura_targets(nodes: &[Node]) -> Res<()> {
    let mut targets = BTreeSet::new();
    visit(nodes, &mut |n| {
        if let NodeKind::AddAura { target_attr, .. } = &n.kind {
            targets.insert(target_attr.clone());
        }
        Ok(())
    })?;
    visit(nodes, &mut |n| {
        let (attr, by) = match &n.kind {
            NodeKind::AddToAttribute { attr, .. } => (attr, "add-to-attribute"),
            NodeKind::SeedAttribute { attr, .. } => (attr, "seed-attribute"),
            _ => return Ok(()),
        };
        if targets.contains(attr) {
            return fail(
                &format!("{}.params.attr", n.path),
                format!("`{attr}` is an aura target (derived); it cannot be changed by {by}"),
            );
        }
        Ok(())
    })
}

/// Calls `f` on every node, in document order (pre-order).
fn visit(nodes: &[Node], f: &mut dyn FnMut(&Node) -> Res<()>) -> Res<()> {
    for n in nodes {
        f(n)?;
        match &n.kind {
            NodeKind::Trigger(t) => visit(&t.primitives, f)?,
            NodeKind::Conditional {
                then, otherwise, ..
            } => {
                visit(then, f)?;
                visit(otherwise, f)?;
            }
            _ => {}
        }
    }
    Ok(())
}

fn applies_to(v: &Value, at: &str) -> Res<AppliesTo> {
    let o = object(v, at)?;
    known_fields(o, at, &["color", "pieces", "squares"])?;
    let pieces = match o.get("pieces") {
        Some(p) => {
            let p_at = field(at, "pieces");
            // An empty list would read as "no piece" but mean "every piece": refuse it.
            non_empty(p, &p_at, "piece name")?
                .iter()
                .enumerate()
                .map(|(i, name)| piece_name(name, &index(&p_at, i)))
                .collect::<Res<Vec<_>>>()?
        }
        None => Vec::new(),
    };
    let color = match o.get("color") {
        Some(c) => color_filter(c, &field(at, "color"))?,
        None => ColorFilter::Both,
    };
    let squares = match o.get("squares") {
        Some(s) => Some(square_filter(s, &field(at, "squares"))?),
        None => None,
    };
    Ok(AppliesTo {
        pieces,
        color,
        squares,
    })
}

fn color_filter(v: &Value, at: &str) -> Res<ColorFilter> {
    one_of(
        v,
        at,
        &[
            ("white", ColorFilter::White),
            ("black", ColorFilter::Black),
            ("both", ColorFilter::Both),
        ],
    )
}

fn square_filter(v: &Value, at: &str) -> Res<SquareFilter> {
    let o = object(v, at)?;
    let kind_at = field(at, "kind");
    match string(required(o, at, "kind")?, &kind_at)? {
        "squares" => {
            known_fields(o, at, &["kind", "squares"])?;
            Ok(SquareFilter::Squares(squares(
                required(o, at, "squares")?,
                &field(at, "squares"),
            )?))
        }
        "predicate" => {
            known_fields(o, at, &["file", "kind", "rank"])?;
            let coordinate = |name: &str, max: i64| -> Res<Option<u8>> {
                o.get(name)
                    .map(|c| integer(c, &field(at, name), 0, max).map(|c| c as u8))
                    .transpose()
            };
            let file = coordinate("file", MAX_FILE)?;
            let rank = coordinate("rank", MAX_RANK)?;
            if file.is_none() && rank.is_none() {
                return fail(at, "a predicate needs `file`, `rank` or both");
            }
            Ok(SquareFilter::Predicate { file, rank })
        }
        other => fail(
            &kind_at,
            format!(
                "unknown square filter kind {} (known: squares, predicate)",
                ticked(other)
            ),
        ),
    }
}

fn squares(v: &Value, at: &str) -> Res<Vec<SquareRef>> {
    non_empty(v, at, "square")?
        .iter()
        .enumerate()
        .map(|(i, s)| square(s, &index(at, i)))
        .collect()
}

fn square(v: &Value, at: &str) -> Res<SquareRef> {
    match v {
        Value::Number(_) => integer(v, at, 0, MAX_SQUARE_INDEX).map(|i| SquareRef::Index(i as u16)),
        Value::String(s) if is_square_name(s) => Ok(SquareRef::Name(s.clone())),
        Value::String(s) => fail(
            at,
            format!(
                "invalid square name {}: expected a file a-p and a rank 1-15, like `d5`",
                ticked(s)
            ),
        ),
        other => fail(
            at,
            format!(
                "expected a square index (0 to {MAX_SQUARE_INDEX}) or name (like \"d5\"), found {}",
                found(other)
            ),
        ),
    }
}

/// `a1` .. `p15`: a file letter a-p, then a rank 1-15 without a leading zero.
fn is_square_name(s: &str) -> bool {
    let mut chars = s.chars();
    let file_ok = chars.next().is_some_and(|c| ('a'..='p').contains(&c));
    let rank = chars.as_str();
    file_ok
        && !rank.starts_with('0')
        && rank.bytes().all(|b| b.is_ascii_digit())
        && rank.parse::<u8>().is_ok_and(|r| (1..=15).contains(&r))
}

fn target(v: &Value, at: &str) -> Res<Target> {
    match v {
        Value::String(s) => match s.as_str() {
            "self" => Ok(Target::SelfPiece),
            "attacker" => Ok(Target::Attacker),
            "defender" => Ok(Target::Defender),
            _ => fail(
                at,
                format!(
                    "unknown target {} (allowed: \"self\", \"attacker\", \"defender\", \
                     {{\"squares\": [...]}}, {{\"relation\": ...}})",
                    quoted(s)
                ),
            ),
        },
        Value::Object(o) => {
            let has_squares = o.contains_key("squares");
            let has_relation = o.contains_key("relation");
            if has_squares && has_relation {
                return fail(at, "a target has `squares` or `relation`, not both");
            }
            if has_squares {
                known_fields(o, at, &["squares"])?;
                let sq = squares(required(o, at, "squares")?, &field(at, "squares"))?;
                return Ok(Target::Squares(sq));
            }
            if !has_relation {
                return fail(at, "a target object needs `squares` or `relation`");
            }
            known_fields(o, at, &["filter", "relation"])?;
            let relation = one_of(
                required(o, at, "relation")?,
                &field(at, "relation"),
                &[("ally", Relation::Ally), ("enemy", Relation::Enemy)],
            )?;
            let piece_type = match o.get("filter") {
                Some(f) => {
                    let f_at = field(at, "filter");
                    let fo = object(f, &f_at)?;
                    known_fields(fo, &f_at, &["pieceType"])?;
                    fo.get("pieceType")
                        .map(|p| piece_name(p, &field(&f_at, "pieceType")))
                        .transpose()?
                }
                None => None,
            };
            Ok(Target::Relation {
                relation,
                piece_type,
            })
        }
        other => fail(
            at,
            format!(
                "expected a target (\"self\", \"attacker\", \"defender\" or an object), found {}",
                found(other)
            ),
        ),
    }
}

const ATTR_CONDITION: [&str; 3] = ["attr", "op", "value"];
const SINGLE_CONDITIONS: [&str; 9] = [
    "attacker",
    "defender",
    "pieceType",
    "color",
    "inCheck",
    "promotedTo",
    "all",
    "any",
    "not",
];

fn condition(v: &Value, at: &str, depth: usize) -> Res<Condition> {
    if depth > MAX_CONDITION_DEPTH {
        return fail(
            at,
            format!("conditions nested deeper than {MAX_CONDITION_DEPTH} levels"),
        );
    }
    let o = object(v, at)?;
    let allowed: Vec<&str> = ATTR_CONDITION
        .iter()
        .chain(SINGLE_CONDITIONS.iter())
        .copied()
        .collect();
    known_fields(o, at, &allowed)?;
    // Which shapes the keys belong to: exactly one shape may be used.
    let mut shapes: Vec<&str> = Vec::new();
    for k in o.keys() {
        let shape = if ATTR_CONDITION.contains(&k.as_str()) {
            "attr"
        } else {
            k.as_str()
        };
        if !shapes.contains(&shape) {
            shapes.push(shape);
        }
    }
    match shapes.as_slice() {
        [] => {
            return fail(
                at,
                "empty condition: expected {\"attr\", \"op\", \"value\"}, pieceType, color, \
                 inCheck, promotedTo, attacker, defender, all, any or not",
            )
        }
        [_] => {}
        [a, b, ..] => {
            return fail(
                at,
                format!(
                    "a condition has exactly one shape; found `{a}` and `{b}` \
                     (combine conditions with `all`)"
                ),
            )
        }
    }
    let sub = |name: &str| field(at, name);
    let one = |name: &str| -> Res<&Value> { required(o, at, name) };
    match shapes[0] {
        "attr" => {
            let attr_at = sub("attr");
            let attr = attr_name(one("attr")?, &attr_at)?;
            if attr == "PieceType" {
                return fail(
                    &attr_at,
                    "`PieceType` is not an integer attribute; use {\"pieceType\": ...}",
                );
            }
            let op = one_of(
                one("op")?,
                &sub("op"),
                &[
                    ("==", CmpOp::Eq),
                    ("!=", CmpOp::Ne),
                    ("<", CmpOp::Lt),
                    ("<=", CmpOp::Le),
                    (">", CmpOp::Gt),
                    (">=", CmpOp::Ge),
                ],
            )?;
            let value = int32(one("value")?, &sub("value"))?;
            Ok(Condition::Attr { attr, op, value })
        }
        "pieceType" => Ok(Condition::PieceType(piece_name(
            one("pieceType")?,
            &sub("pieceType"),
        )?)),
        "promotedTo" => Ok(Condition::PromotedTo(piece_name(
            one("promotedTo")?,
            &sub("promotedTo"),
        )?)),
        "color" => Ok(Condition::Color(one_of(
            one("color")?,
            &sub("color"),
            &[("white", ColorFilter::White), ("black", ColorFilter::Black)],
        )?)),
        "inCheck" => Ok(Condition::InCheck(boolean(
            one("inCheck")?,
            &sub("inCheck"),
        )?)),
        "not" => Ok(Condition::Not(Box::new(condition(
            one("not")?,
            &sub("not"),
            depth + 1,
        )?))),
        "attacker" => Ok(Condition::Attacker(Box::new(condition(
            one("attacker")?,
            &sub("attacker"),
            depth + 1,
        )?))),
        "defender" => Ok(Condition::Defender(Box::new(condition(
            one("defender")?,
            &sub("defender"),
            depth + 1,
        )?))),
        list => {
            let list_at = sub(list);
            let conds = non_empty(one(list)?, &list_at, "condition")?
                .iter()
                .enumerate()
                .map(|(i, c)| condition(c, &index(&list_at, i), depth + 1))
                .collect::<Res<Vec<_>>>()?;
            Ok(if list == "all" {
                Condition::All(conds)
            } else {
                Condition::Any(conds)
            })
        }
    }
}

// ---- names ----

fn is_id(s: &str) -> bool {
    let mut bytes = s.bytes();
    s.len() <= MAX_NAME_BYTES
        && bytes
            .next()
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && bytes.all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

fn attr_name(v: &Value, at: &str) -> Res<String> {
    let s = string(v, at)?;
    let mut bytes = s.bytes();
    let ok = s.len() <= MAX_NAME_BYTES
        && bytes.next().is_some_and(|b| b.is_ascii_uppercase())
        && bytes.all(|b| b.is_ascii_alphanumeric());
    if !ok {
        return fail(
            at,
            format!(
                "invalid attribute name {}: expected an upper-case letter, then letters and \
                 digits, at most {MAX_NAME_BYTES} bytes (like `Hp`)",
                ticked(s)
            ),
        );
    }
    Ok(s.to_string())
}

/// Piece names and roles are resolved against the variant at game setup; here only their
/// spelling is checked.
fn piece_name(v: &Value, at: &str) -> Res<String> {
    let s = string(v, at)?;
    // Piece tables name pieces freely (`slip rook`, `promoted pawn`): any short printable
    // name is accepted here and resolved against the variant when a game is set up.
    let ok = !s.trim().is_empty() && s.len() <= 64 && !s.chars().any(char::is_control);
    if !ok {
        return fail(
            at,
            format!(
                "invalid piece name {}: expected a piece name or role (like `queen`), \
                 1 to 64 printable characters",
                ticked(s)
            ),
        );
    }
    Ok(s.to_string())
}

// ---- typed access to JSON values ----

/// `path.name`, or `path["name"]` when the name is not a plain identifier (so the path stays
/// unambiguous for odd keys).
fn field(path: &str, name: &str) -> String {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        format!("{path}.{name}")
    } else {
        format!("{path}[{}]", Value::from(name))
    }
}

fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

/// Longest user text quoted in a message, in characters.
const MAX_QUOTED_CHARS: usize = 40;

/// User text cut to [`MAX_QUOTED_CHARS`], with `…` when cut.
fn shorten(s: &str) -> String {
    if s.chars().count() > MAX_QUOTED_CHARS {
        let head: String = s.chars().take(MAX_QUOTED_CHARS).collect();
        format!("{head}…")
    } else {
        s.to_string()
    }
}

/// A name or kind as written, in backticks (as `docs/modifiers.md` shows them).
fn ticked(s: &str) -> String {
    format!("`{}`", shorten(s))
}

/// A string value as a JSON literal.
fn quoted(s: &str) -> String {
    Value::from(shorten(s)).to_string()
}

/// How a value is shown after "found".
fn found(v: &Value) -> String {
    match v {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => quoted(s),
        Value::Array(a) if a.is_empty() => "an empty array".to_string(),
        Value::Array(_) => "an array".to_string(),
        Value::Object(_) => "an object".to_string(),
    }
}

fn object<'a>(v: &'a Value, at: &str) -> Res<&'a Map<String, Value>> {
    v.as_object().ok_or_else(|| Fail {
        at: at.to_string(),
        why: format!("expected an object, found {}", found(v)),
    })
}

fn string<'a>(v: &'a Value, at: &str) -> Res<&'a str> {
    v.as_str().ok_or_else(|| Fail {
        at: at.to_string(),
        why: format!("expected a string, found {}", found(v)),
    })
}

fn boolean(v: &Value, at: &str) -> Res<bool> {
    v.as_bool().ok_or_else(|| Fail {
        at: at.to_string(),
        why: format!("expected true or false, found {}", found(v)),
    })
}

fn array<'a>(v: &'a Value, at: &str) -> Res<&'a [Value]> {
    v.as_array().map(Vec::as_slice).ok_or_else(|| Fail {
        at: at.to_string(),
        why: format!("expected an array, found {}", found(v)),
    })
}

fn non_empty<'a>(v: &'a Value, at: &str, what: &str) -> Res<&'a [Value]> {
    let items = array(v, at)?;
    if items.is_empty() {
        return fail(
            at,
            format!("expected at least one {what}, found an empty array"),
        );
    }
    Ok(items)
}

/// An integer in `lo..=hi`; floats (even `1.0`) are refused so the file says what it means.
fn integer(v: &Value, at: &str, lo: i64, hi: i64) -> Res<i64> {
    let Value::Number(n) = v else {
        return fail(at, format!("expected an integer, found {}", found(v)));
    };
    match n.as_i64() {
        Some(i) if (lo..=hi).contains(&i) => Ok(i),
        _ if n.is_f64() => fail(at, format!("expected an integer, found {n}")),
        _ if lo.checked_add(1) == Some(hi) => fail(at, format!("expected {lo} or {hi}, found {n}")),
        _ => fail(
            at,
            format!("expected an integer from {lo} to {hi}, found {n}"),
        ),
    }
}

fn int32(v: &Value, at: &str) -> Res<i32> {
    integer(v, at, i32::MIN.into(), i32::MAX.into()).map(|i| i as i32)
}

fn one_of<T: Copy>(v: &Value, at: &str, options: &[(&str, T)]) -> Res<T> {
    let names = || {
        options
            .iter()
            .map(|(n, _)| quoted(n))
            .collect::<Vec<_>>()
            .join(", ")
    };
    v.as_str()
        .and_then(|s| options.iter().find(|(n, _)| *n == s))
        .map(|(_, t)| *t)
        .ok_or_else(|| Fail {
            at: at.to_string(),
            why: format!("expected one of {}, found {}", names(), found(v)),
        })
}

fn required<'a>(o: &'a Map<String, Value>, at: &str, name: &str) -> Res<&'a Value> {
    o.get(name).ok_or_else(|| Fail {
        at: field(at, name),
        why: format!("missing required field `{name}`"),
    })
}

/// Refuses any key outside `allowed`: a misspelt field must not silently do nothing.
fn known_fields(o: &Map<String, Value>, at: &str, allowed: &[&str]) -> Res<()> {
    match o.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(k) => fail(
            &field(at, k),
            format!(
                "unknown field {} (allowed: {})",
                ticked(k),
                allowed.join(", ")
            ),
        ),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Descriptor {
        parse("t.json", text).unwrap_or_else(|e| panic!("rejected: {e}\n{text}"))
    }

    /// Asserts the error's path and that its reason contains `why`.
    #[track_caller]
    fn rejects(text: &str, at: &str, why: &str) -> DescriptorError {
        let e = match parse("bad.json", text) {
            Ok(d) => panic!("accepted: {d:?}\n{text}"),
            Err(e) => e,
        };
        assert_eq!(e.source, "bad.json");
        assert_eq!(e.at, at, "wrong path; reason: {}", e.why);
        assert!(e.why.contains(why), "reason {:?} lacks {why:?}", e.why);
        e
    }

    /// A descriptor around these top-level nodes.
    fn doc(nodes: &[String]) -> String {
        format!(
            r#"{{"version": 1, "id": "t", "primitives": [{}]}}"#,
            nodes.join(", ")
        )
    }

    fn add(attr: &str, delta: i32) -> String {
        format!(
            r#"{{"kind": "add-to-attribute", "params": {{"attr": "{attr}", "delta": {delta}}}}}"#
        )
    }

    fn aura(attr: &str) -> String {
        format!(
            r#"{{"kind": "add-aura", "params": {{"radius": 1, "targetAttr": "{attr}", "delta": 1}}}}"#
        )
    }

    /// A trigger with extra params (`"color": "white", ` …, may be empty) and children.
    fn on(kind: &str, extra: &str, children: &[String]) -> String {
        format!(
            r#"{{"kind": "{kind}", "params": {{{extra}"primitives": [{}]}}}}"#,
            children.join(", ")
        )
    }

    fn cond(cond: &str, then: &[String], otherwise: Option<&[String]>) -> String {
        let otherwise = otherwise
            .map(|e| format!(r#", "else": [{}]"#, e.join(", ")))
            .unwrap_or_default();
        format!(
            r#"{{"kind": "conditional", "params": {{"if": {cond}, "then": [{}]{otherwise}}}}}"#,
            then.join(", ")
        )
    }

    /// A descriptor with one on-move node holding `node`.
    fn in_on_move(node: &str) -> String {
        doc(&[on("on-move", "", &[node.to_string()])])
    }

    /// A descriptor with one on-move → conditional with this condition.
    fn with_condition(c: &str) -> String {
        in_on_move(&cond(c, &[add("X", 1)], None))
    }

    /// A descriptor with one on-moved-onto-square with this filter.
    fn with_filter(filter: &str) -> String {
        doc(&[on(
            "on-moved-onto-square",
            &format!(r#""filter": {filter}, "#),
            &[add("X", 1)],
        )])
    }

    /// A descriptor with one on-capture with this target.
    fn with_target(target: &str) -> String {
        doc(&[on(
            "on-capture",
            &format!(r#""target": {target}, "#),
            &[add("X", 1)],
        )])
    }

    // ---- the examples ----

    #[test]
    fn every_example_parses() {
        assert_eq!(EXAMPLES.len(), 15);
        for (id, text) in EXAMPLES {
            let d = parse(&format!("builtin:examples/{id}.json"), text)
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(d.id, *id, "file name and id differ");
            assert!(!d.description.is_empty(), "{id} has no description");
            assert_ne!(d.name, d.id, "{id} has no human name");
        }
    }

    #[test]
    fn examples_directory_holds_exactly_the_builtins() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .expect("examples directory")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        let mut ids: Vec<String> = EXAMPLES
            .iter()
            .map(|(id, _)| format!("{id}.json"))
            .collect();
        ids.sort();
        assert_eq!(files, ids);
    }

    fn example(id: &str) -> Descriptor {
        let text = EXAMPLES
            .iter()
            .find(|(i, _)| *i == id)
            .map(|(_, t)| *t)
            .expect("example");
        ok(text)
    }

    fn trigger(n: &Node) -> &Trigger {
        match &n.kind {
            NodeKind::Trigger(t) => t,
            other => panic!("not a trigger: {other:?}"),
        }
    }

    #[test]
    fn decay_example_is_modelled_fully() {
        let d = example("decay");
        let expected = Descriptor {
            id: "decay".into(),
            name: "Decay".into(),
            description: d.description.clone(),
            applies_to: AppliesTo {
                pieces: vec!["queen".into()],
                color: ColorFilter::Both,
                squares: None,
            },
            primitives: vec![Node {
                path: "$.primitives[0]".into(),
                slot: Some(0),
                kind: NodeKind::Trigger(Trigger {
                    kind: TriggerKind::TurnEnd,
                    color: ColorFilter::Both,
                    filter: None,
                    target: Target::SelfPiece,
                    primitives: vec![Node {
                        path: "$.primitives[0].params.primitives[0]".into(),
                        slot: None,
                        kind: NodeKind::AddToAttribute {
                            attr: "Hp".into(),
                            delta: -1,
                        },
                    }],
                }),
            }],
            node_count: 2,
            seedable_count: 1,
        };
        assert_eq!(d, expected);
    }

    #[test]
    fn re_arm_example_structure() {
        let d = example("re-arm");
        assert_eq!(d.applies_to.color, ColorFilter::White);
        assert_eq!((d.node_count, d.seedable_count), (9, 2));
        let capture = trigger(&d.primitives[0]);
        assert_eq!(capture.kind, TriggerKind::Capture);
        assert_eq!(
            capture.primitives[0].kind,
            NodeKind::SetCaptureFlag { flag: 1 }
        );
        assert_eq!(
            capture.primitives[1].kind,
            NodeKind::SeedAttribute {
                attr: "Reload".into(),
                value: SeedValue::Int(2)
            }
        );
        let end = trigger(&d.primitives[1]);
        assert_eq!(
            (end.kind, end.color),
            (TriggerKind::TurnEnd, ColorFilter::White)
        );
        // Re-arming must be tested before the countdown, or a fresh capture re-arms at once.
        let NodeKind::Conditional { cond, then, .. } = &end.primitives[0].kind else {
            panic!("conditional expected")
        };
        assert_eq!(
            *cond,
            Condition::Attr {
                attr: "Reload".into(),
                op: CmpOp::Eq,
                value: 1
            }
        );
        assert_eq!(then[0].kind, NodeKind::SetCaptureFlag { flag: 0 });
        let NodeKind::Conditional { cond, .. } = &end.primitives[1].kind else {
            panic!("conditional expected")
        };
        assert!(matches!(
            cond,
            Condition::Attr {
                op: CmpOp::Ge,
                value: 2,
                ..
            }
        ));
        // Nested conditionals are not seedable.
        assert_eq!(end.primitives[0].slot, None);
    }

    #[test]
    fn targets_and_filters_of_the_examples() {
        let stun = example("stun-counter");
        assert_eq!(trigger(&stun.primitives[0]).target, Target::SelfPiece);
        assert_eq!(trigger(&stun.primitives[1]).target, Target::Defender);
        assert_eq!(
            trigger(&example("kamikaze").primitives[0]).target,
            Target::Attacker
        );
        assert_eq!(
            trigger(&example("martyr").primitives[0]).target,
            Target::Relation {
                relation: Relation::Ally,
                piece_type: Some("queen".into())
            }
        );
        assert_eq!(
            trigger(&example("center-bonus").primitives[0]).filter,
            Some(SquareFilter::Squares(
                [27, 28, 35, 36].map(SquareRef::Index).to_vec()
            ))
        );
        let king_row = example("king-row");
        let t = trigger(&king_row.primitives[0]);
        assert_eq!(
            t.filter,
            Some(SquareFilter::Predicate {
                file: None,
                rank: Some(7)
            })
        );
        assert_eq!(
            t.primitives[0].kind,
            NodeKind::AddAura {
                radius: 1,
                target_attr: "HpBonus".into(),
                delta: 1,
                relation: Relation::Ally
            }
        );
        assert_eq!(king_row.seedable_count, 2);
        let stay = example("stay-as-pawn");
        assert_eq!(
            trigger(&stay.primitives[0]).primitives[0].kind,
            NodeKind::SeedAttribute {
                attr: "PieceType".into(),
                value: SeedValue::PieceType("pawn".into())
            }
        );
    }

    #[test]
    fn schema_lists_the_same_kinds() {
        let schema: Value = serde_json::from_str(include_str!("../descriptor.schema.json"))
            .unwrap_or_else(|e| panic!("schema is not JSON: {e}"));
        let listed: BTreeSet<&str> = schema["$defs"]["node"]["properties"]["kind"]["enum"]
            .as_array()
            .expect("kind enum")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let known: BTreeSet<&str> = known_kinds_list().collect();
        assert_eq!(listed, known);
    }

    // ---- valid descriptors ----

    #[test]
    fn numbers_slots_in_document_order_and_records_paths() {
        let text = doc(&[
            on(
                "on-capture",
                "",
                &[
                    add("A", 1),
                    on("on-move", "", &[aura("B")]),
                    cond(r#"{"inCheck": true}"#, &[add("C", 1)], Some(&[aura("D")])),
                ],
            ),
            cond(
                r#"{"color": "white"}"#,
                &[aura("E")],
                Some(&[on("on-turn-end", "", &[add("G", 1)])]),
            ),
            aura("F"),
        ]);
        let d = ok(&text);
        let mut seen = Vec::new();
        visit(&d.primitives, &mut |n| {
            seen.push((n.path.clone(), n.slot));
            Ok(())
        })
        .expect("visit");
        let expected: Vec<(String, Option<u8>)> = [
            ("$.primitives[0]", Some(0)),
            ("$.primitives[0].params.primitives[0]", None),
            ("$.primitives[0].params.primitives[1]", Some(1)),
            (
                "$.primitives[0].params.primitives[1].params.primitives[0]",
                Some(2),
            ),
            // A nested conditional is not seedable; an aura in its `else` is.
            ("$.primitives[0].params.primitives[2]", None),
            ("$.primitives[0].params.primitives[2].params.then[0]", None),
            (
                "$.primitives[0].params.primitives[2].params.else[0]",
                Some(3),
            ),
            // A top-level conditional is; `then` comes before `else`.
            ("$.primitives[1]", Some(4)),
            ("$.primitives[1].params.then[0]", Some(5)),
            ("$.primitives[1].params.else[0]", Some(6)),
            ("$.primitives[1].params.else[0].params.primitives[0]", None),
            ("$.primitives[2]", Some(7)),
        ]
        .iter()
        .map(|(p, s)| (p.to_string(), *s))
        .collect();
        assert_eq!(seen, expected);
        assert_eq!((d.node_count, d.seedable_count), (12, 8));
    }

    #[test]
    fn defaults_when_optional_fields_are_missing() {
        let d = ok(&doc(&[on("on-turn-start", "", &[add("X", 1)])]));
        assert_eq!(d.name, "t");
        assert_eq!(d.description, "");
        assert_eq!(d.applies_to, AppliesTo::default());
        let t = trigger(&d.primitives[0]);
        assert_eq!(
            (t.color, &t.target, &t.filter),
            (ColorFilter::Both, &Target::SelfPiece, &None)
        );
        let d = ok(&in_on_move(
            r#"{"kind": "add-aura", "params": {"radius": 7, "targetAttr": "Bonus", "delta": -3, "relation": "all"}}"#,
        ));
        assert!(matches!(
            trigger(&d.primitives[0]).primitives[0].kind,
            NodeKind::AddAura {
                radius: 7,
                delta: -3,
                relation: Relation::All,
                ..
            }
        ));
    }

    #[test]
    fn accepts_every_applies_to_field() {
        let d = ok(
            r#"{"version": 1, "id": "x", "appliesTo": {"pieces": ["queen", "rook"],
            "color": "black", "squares": {"kind": "predicate", "file": 0, "rank": 7}},
            "primitives": [{"kind": "on-move", "params": {"primitives": [
              {"kind": "add-to-attribute", "params": {"attr": "X", "delta": 1}}]}}]}"#,
        );
        assert_eq!(
            d.applies_to,
            AppliesTo {
                pieces: vec!["queen".into(), "rook".into()],
                color: ColorFilter::Black,
                squares: Some(SquareFilter::Predicate {
                    file: Some(0),
                    rank: Some(7)
                }),
            }
        );
    }

    #[test]
    fn accepts_every_target_form() {
        let cases = [
            (r#""self""#, Target::SelfPiece),
            (r#""attacker""#, Target::Attacker),
            (r#""defender""#, Target::Defender),
            (
                r#"{"squares": [0, "h8"]}"#,
                Target::Squares(vec![SquareRef::Index(0), SquareRef::Name("h8".into())]),
            ),
            (
                r#"{"relation": "enemy"}"#,
                Target::Relation {
                    relation: Relation::Enemy,
                    piece_type: None,
                },
            ),
        ];
        for (text, expected) in cases {
            let d = ok(&with_target(text));
            assert_eq!(trigger(&d.primitives[0]).target, expected, "{text}");
        }
        for kind in ["on-captured", "on-check-received", "on-check-delivered"] {
            ok(&doc(&[on(
                kind,
                r#""target": "attacker", "#,
                &[add("X", 1)],
            )]));
        }
    }

    #[test]
    fn accepts_every_condition_form() {
        let c = r#"{"all": [{"attr": "Hp", "op": "<=", "value": 1}, {"pieceType": "queen"},
            {"any": [{"color": "black"}, {"inCheck": false}]}, {"not": {"promotedTo": "knight"}}]}"#;
        let d = ok(&with_condition(c));
        let NodeKind::Conditional { cond, .. } = &trigger(&d.primitives[0]).primitives[0].kind
        else {
            panic!("conditional expected")
        };
        assert_eq!(
            *cond,
            Condition::All(vec![
                Condition::Attr {
                    attr: "Hp".into(),
                    op: CmpOp::Le,
                    value: 1
                },
                Condition::PieceType("queen".into()),
                Condition::Any(vec![
                    Condition::Color(ColorFilter::Black),
                    Condition::InCheck(false)
                ]),
                Condition::Not(Box::new(Condition::PromotedTo("knight".into()))),
            ])
        );
    }

    #[test]
    fn accepts_square_names_and_indices_at_the_limits() {
        let d = ok(&with_filter(
            r#"{"kind": "squares", "squares": ["a1", "p15", "d5", 0, 255]}"#,
        ));
        let Some(SquareFilter::Squares(sq)) = &trigger(&d.primitives[0]).filter else {
            panic!("squares expected")
        };
        assert_eq!(sq.len(), 5);
        assert_eq!(sq[4], SquareRef::Index(255));
        ok(&with_filter(
            r#"{"kind": "predicate", "file": 15, "rank": 14}"#,
        ));
    }

    #[test]
    fn accepts_depth_3_and_50_nodes_and_31_seedables() {
        // on-turn-end > conditional > trigger > … would be 4; 3 is the most.
        ok(&doc(&[on(
            "on-move",
            "",
            &[on("on-capture", "", &[add("X", 1)])],
        )]));
        let d = ok(&doc(&[on("on-move", "", &vec![add("X", 1); 49])]));
        assert_eq!(d.node_count, 50);
        let d = ok(&doc(&[on("on-move", "", &vec![aura("B"); 30])]));
        assert_eq!(d.seedable_count, 31);
        assert_eq!(trigger(&d.primitives[0]).primitives[29].slot, Some(30));
    }

    #[test]
    fn accepts_ids_of_31_bytes() {
        let id = "a".repeat(31);
        ok(&doc(&[aura("B")]).replace(r#""id": "t""#, &format!(r#""id": "{id}""#)));
        ok(&doc(&[aura("B")]).replace(r#""id": "t""#, r#""id": "9-lives-""#));
    }

    // ---- syntax and top level ----

    #[test]
    fn rejects_syntax_error_with_line_column() {
        let e = rejects(
            "{\n  \"version\": 1\n  \"id\": \"x\"\n}",
            "3:3",
            "JSON syntax error: expected `,` or `}`",
        );
        assert_eq!(e.why, "JSON syntax error: expected `,` or `}`");
        assert_eq!(
            e.to_string(),
            "bad.json:3:3: JSON syntax error: expected `,` or `}`"
        );
        rejects("", "1:0", "JSON syntax error: EOF while parsing a value");
        rejects("{} {}", "1:4", "JSON syntax error: trailing characters");
    }

    #[test]
    fn rejects_version_2() {
        let text = doc(&[aura("B")]).replace(r#""version": 1"#, r#""version": 2"#);
        let e = rejects(
            &text,
            "$.version",
            "version 2 is not supported (this plugin reads version 1)",
        );
        assert_eq!(
            e.to_string(),
            "bad.json: $.version: version 2 is not supported (this plugin reads version 1)"
        );
    }

    #[test]
    fn version_is_checked_before_unknown_fields() {
        rejects(
            r#"{"version": 3, "id": "x", "hooks": [], "primitives": []}"#,
            "$.version",
            "version 3 is not supported",
        );
    }

    #[test]
    fn rejects_missing_or_mistyped_version() {
        rejects(
            r#"{"id": "x", "primitives": []}"#,
            "$.version",
            "missing required field `version`",
        );
        rejects(
            r#"{"version": "1", "id": "x", "primitives": []}"#,
            "$.version",
            r#"expected an integer, found "1""#,
        );
        rejects(
            r#"{"version": 1.0, "id": "x", "primitives": []}"#,
            "$.version",
            "expected an integer, found 1.0",
        );
    }

    #[test]
    fn rejects_non_object_root() {
        rejects("[1]", "$", "expected an object, found an array");
    }

    #[test]
    fn rejects_unknown_top_level_field() {
        let text = doc(&[aura("B")]).replace(r#""id": "t""#, r#""id": "t", "primitive": []"#);
        let e = rejects(&text, "$.primitive", "");
        assert_eq!(
            e.why,
            "unknown field `primitive` (allowed: appliesTo, description, id, name, primitives, version)"
        );
        let text = doc(&[aura("B")]).replace(r#""id": "t""#, r#""id": "t", "my key": 1"#);
        rejects(&text, r#"$["my key"]"#, "unknown field `my key`");
    }

    #[test]
    fn rejects_bad_id() {
        let with_id =
            |id: &str| doc(&[aura("B")]).replace(r#""id": "t""#, &format!(r#""id": {id}"#));
        for id in [
            r#""Decay""#,
            r#""-x""#,
            r#""""#,
            r#""a_b""#,
            r#""caf\u00e9""#,
        ] {
            rejects(&with_id(id), "$.id", "invalid id");
        }
        rejects(
            &with_id(&format!("\"{}\"", "a".repeat(32))),
            "$.id",
            "at most 31 bytes",
        );
        rejects(&with_id("7"), "$.id", "expected a string, found 7");
        rejects(
            r#"{"version": 1, "primitives": []}"#,
            "$.id",
            "missing required field `id`",
        );
    }

    #[test]
    fn rejects_mistyped_name_and_description() {
        let text = doc(&[aura("B")]).replace(r#""id": "t""#, r#""id": "t", "name": 5"#);
        rejects(&text, "$.name", "expected a string, found 5");
        let text = doc(&[aura("B")]).replace(r#""id": "t""#, r#""id": "t", "description": null"#);
        rejects(&text, "$.description", "expected a string, found null");
    }

    #[test]
    fn rejects_bad_applies_to() {
        let with = |a: &str| {
            doc(&[aura("B")]).replace(r#""id": "t""#, &format!(r#""id": "t", "appliesTo": {a}"#))
        };
        rejects(
            &with(r#"{"piece": ["queen"]}"#),
            "$.appliesTo.piece",
            "unknown field `piece` (allowed: color, pieces, squares)",
        );
        rejects(
            &with(r#"{"pieces": []}"#),
            "$.appliesTo.pieces",
            "expected at least one piece name",
        );
        rejects(
            &with(r#"{"pieces": ["queen", " "]}"#),
            "$.appliesTo.pieces[1]",
            "invalid piece name ` `",
        );
        rejects(
            &with(r#"{"color": "red"}"#),
            "$.appliesTo.color",
            r#"expected one of "white", "black", "both", found "red""#,
        );
        rejects(
            &with(r#"{"squares": {"kind": "predicate"}}"#),
            "$.appliesTo.squares",
            "a predicate needs `file`, `rank` or both",
        );
        rejects(
            &with("[]"),
            "$.appliesTo",
            "expected an object, found an empty array",
        );
    }

    #[test]
    fn rejects_empty_or_missing_primitives() {
        rejects(
            r#"{"version": 1, "id": "x", "primitives": []}"#,
            "$.primitives",
            "expected at least one node, found an empty array",
        );
        rejects(
            r#"{"version": 1, "id": "x"}"#,
            "$.primitives",
            "missing required field `primitives`",
        );
        rejects(
            &doc(&[on("on-move", "", &[])]),
            "$.primitives[0].params.primitives",
            "expected at least one node",
        );
        rejects(
            &in_on_move(&cond(r#"{"inCheck": true}"#, &[], None)),
            "$.primitives[0].params.primitives[0].params.then",
            "expected at least one node",
        );
    }

    // ---- nodes ----

    #[test]
    fn rejects_unknown_kind_with_known_list() {
        let text = doc(&[on(
            "on-move",
            "",
            &[
                add("X", 1),
                r#"{"kind": "add-hp", "params": {}}"#.to_string(),
            ],
        )]);
        let e = rejects(
            &text,
            "$.primitives[0].params.primitives[1].kind",
            "unknown primitive kind `add-hp` (known: add-to-attribute, seed-attribute, add-aura, set-capture-flag, conditional, set-board-topology, on-damaged, ",
        );
        for (_, name) in TriggerKind::ALL {
            assert!(e.why.contains(name), "{name} missing from {}", e.why);
        }
    }

    #[test]
    fn rejects_malformed_nodes() {
        rejects(
            &doc(&["3".into()]),
            "$.primitives[0]",
            "expected an object, found 3",
        );
        rejects(
            &doc(&[r#"{"params": {}}"#.into()]),
            "$.primitives[0].kind",
            "missing required field `kind`",
        );
        rejects(
            &doc(&[r#"{"kind": 1, "params": {}}"#.into()]),
            "$.primitives[0].kind",
            "expected a string, found 1",
        );
        rejects(
            &doc(&[r#"{"kind": "on-move", "parms": {}}"#.into()]),
            "$.primitives[0].parms",
            "unknown field `parms` (allowed: kind, params)",
        );
    }

    #[test]
    fn rejects_missing_params() {
        rejects(
            &doc(&[r#"{"kind": "on-move"}"#.into()]),
            "$.primitives[0].params",
            "missing required field `params` (on-move has required parameters)",
        );
        rejects(
            &in_on_move(r#"{"kind": "set-capture-flag", "params": [1]}"#),
            "$.primitives[0].params.primitives[0].params",
            "expected an object, found an array",
        );
    }

    #[test]
    fn rejects_wrong_type_with_path() {
        let text = doc(&[
            aura("B"),
            aura("C"),
            r#"{"kind": "add-to-attribute", "params": {"attr": "Hp", "delta": "one"}}"#.into(),
        ]);
        let e = rejects(
            &text,
            "$.primitives[2].params.delta",
            r#"expected an integer, found "one""#,
        );
        assert_eq!(
            e.to_string(),
            r#"bad.json: $.primitives[2].params.delta: expected an integer, found "one""#
        );
        rejects(
            &in_on_move(&add("X", 1).replace("1}", "1.5}")),
            "$.primitives[0].params.primitives[0].params.delta",
            "expected an integer, found 1.5",
        );
        rejects(
            &in_on_move(&add("X", 1).replace("1}", "2147483648}")),
            "$.primitives[0].params.primitives[0].params.delta",
            "expected an integer from -2147483648 to 2147483647, found 2147483648",
        );
        rejects(
            &in_on_move(&add("X", 1).replace("1}", "18446744073709551615}")),
            "$.primitives[0].params.primitives[0].params.delta",
            "found 18446744073709551615",
        );
        ok(&in_on_move(&add("X", 1).replace("1}", "-2147483648}")));
    }

    #[test]
    fn rejects_unknown_field_in_params() {
        rejects(
            &in_on_move(
                r#"{"kind": "add-to-attribute", "params": {"attr": "X", "delta": 1, "amount": 2}}"#,
            ),
            "$.primitives[0].params.primitives[0].params.amount",
            "unknown field `amount` (allowed: attr, delta)",
        );
        rejects(
            &doc(&[on("on-move", r#""primitivs": [], "#, &[add("X", 1)])]),
            "$.primitives[0].params.primitivs",
            "unknown field `primitivs` (allowed: primitives)",
        );
        rejects(
            &in_on_move(
                &cond(r#"{"inCheck": true}"#, &[add("X", 1)], None)
                    .replace(r#""then""#, r#""otherwise": [], "then""#),
            ),
            "$.primitives[0].params.primitives[0].params.otherwise",
            "unknown field `otherwise` (allowed: else, if, then)",
        );
    }

    #[test]
    fn rejects_depth_4_with_path() {
        let text = doc(&[on(
            "on-move",
            "",
            &[on(
                "on-capture",
                "",
                &[on("on-damaged", "", &[add("X", 1)])],
            )],
        )]);
        rejects(
            &text,
            "$.primitives[0].params.primitives[0].params.primitives[0].params.primitives[0]",
            "nesting deeper than 3 levels",
        );
    }

    #[test]
    fn rejects_depth_4_through_conditionals_with_path() {
        let inner = cond(r#"{"inCheck": true}"#, &[add("X", 1)], Some(&[add("Y", 1)]));
        let text = doc(&[cond(
            r#"{"inCheck": false}"#,
            &[add("Z", 1)],
            Some(&[cond(r#"{"inCheck": true}"#, &[add("X", 1)], Some(&[inner]))]),
        )]);
        rejects(
            &text,
            "$.primitives[0].params.else[0].params.else[0].params.then[0]",
            "nesting deeper than 3 levels",
        );
    }

    #[test]
    fn rejects_51_nodes_at_root() {
        let e = rejects(
            &doc(&[on("on-move", "", &vec![add("X", 1); 50])]),
            "$",
            "51 primitive nodes (at most 50)",
        );
        assert_eq!(e.why, "51 primitive nodes (at most 50)");
        assert_eq!(
            e.to_string(),
            "bad.json: $: 51 primitive nodes (at most 50)"
        );
    }

    #[test]
    fn node_count_error_comes_before_depth_error() {
        let too_deep = on(
            "on-move",
            "",
            &[on("on-move", "", &[on("on-move", "", &[add("X", 1)])])],
        );
        let mut nodes = vec![too_deep];
        nodes.extend(vec![aura("B"); 47]);
        rejects(&doc(&nodes), "$", "51 primitive nodes (at most 50)");
    }

    #[test]
    fn rejects_32nd_seedable_node_with_path() {
        rejects(
            &doc(&[on("on-move", "", &vec![aura("B"); 31])]),
            "$.primitives[0].params.primitives[30]",
            "more than 31 seedable nodes (triggers, auras, top-level conditionals)",
        );
        // Top-level conditionals count too.
        let mut nodes = vec![aura("B"); 31];
        nodes.push(cond(r#"{"inCheck": true}"#, &[add("X", 1)], None));
        rejects(
            &doc(&nodes),
            "$.primitives[31]",
            "more than 31 seedable nodes",
        );
    }

    // ---- triggers ----

    #[test]
    fn rejects_missing_filter() {
        rejects(
            &doc(&[on("on-moved-onto-square", "", &[add("X", 1)])]),
            "$.primitives[0].params.filter",
            "missing required field `filter`",
        );
    }

    #[test]
    fn rejects_filter_on_other_triggers() {
        rejects(
            &doc(&[on("on-move", r#""filter": {"kind": "predicate", "rank": 1}, "#, &[add("X", 1)])]),
            "$.primitives[0].params.filter",
            "unknown field `filter` for on-move (allowed: primitives; `filter` is only for on-moved-onto-square)",
        );
    }

    #[test]
    fn rejects_target_on_on_move() {
        rejects(
            &doc(&[on("on-move", r#""target": "self", "#, &[add("X", 1)])]),
            "$.primitives[0].params.target",
            "unknown field `target` for on-move",
        );
        for kind in [
            "on-damaged",
            "on-promotion",
            "on-turn-end",
            "on-moved-onto-square",
        ] {
            let e = parse(
                "bad.json",
                &doc(&[on(kind, r#""target": "attacker", "#, &[add("X", 1)])]),
            )
            .expect_err(kind);
            assert_eq!(e.at, "$.primitives[0].params.target", "{kind}");
        }
    }

    #[test]
    fn rejects_color_outside_turn_triggers() {
        rejects(
            &doc(&[on("on-capture", r#""color": "white", "#, &[add("X", 1)])]),
            "$.primitives[0].params.color",
            "`color` is only for on-turn-start and on-turn-end",
        );
        rejects(
            &doc(&[on("on-turn-start", r#""color": "White", "#, &[add("X", 1)])]),
            "$.primitives[0].params.color",
            r#"expected one of "white", "black", "both", found "White""#,
        );
    }

    #[test]
    fn rejects_bad_targets() {
        let at = "$.primitives[0].params.target";
        rejects(
            &with_target(r#""victim""#),
            at,
            r#"unknown target "victim""#,
        );
        rejects(&with_target("3"), at, "expected a target");
        rejects(
            &with_target("{}"),
            at,
            "a target object needs `squares` or `relation`",
        );
        rejects(
            &with_target(r#"{"squares": [1], "relation": "ally"}"#),
            at,
            "not both",
        );
        rejects(
            &with_target(r#"{"relation": "all"}"#),
            "$.primitives[0].params.target.relation",
            r#"expected one of "ally", "enemy", found "all""#,
        );
        rejects(
            &with_target(r#"{"relation": "ally", "pieceType": "queen"}"#),
            "$.primitives[0].params.target.pieceType",
            "unknown field `pieceType` (allowed: filter, relation)",
        );
        rejects(
            &with_target(r#"{"relation": "ally", "filter": {"type": "queen"}}"#),
            "$.primitives[0].params.target.filter.type",
            "unknown field `type` (allowed: pieceType)",
        );
        rejects(
            &with_target(r#"{"relation": "ally", "filter": {"pieceType": ""}}"#),
            "$.primitives[0].params.target.filter.pieceType",
            "invalid piece name ``",
        );
        rejects(
            &with_target(r#"{"squares": []}"#),
            "$.primitives[0].params.target.squares",
            "expected at least one square",
        );
        rejects(
            &with_target(r#"{"squares": ["z1"]}"#),
            "$.primitives[0].params.target.squares[0]",
            "invalid square name `z1`",
        );
    }

    // ---- square filters ----

    #[test]
    fn rejects_bad_square_filters() {
        let f = "$.primitives[0].params.filter";
        rejects(
            &with_filter(r#"{"kind": "square", "squares": [1]}"#),
            &format!("{f}.kind"),
            "unknown square filter kind `square` (known: squares, predicate)",
        );
        rejects(
            &with_filter(r#"{"squares": [1]}"#),
            &format!("{f}.kind"),
            "missing required field `kind`",
        );
        rejects(
            &with_filter(r#"{"kind": "squares", "squares": []}"#),
            &format!("{f}.squares"),
            "expected at least one square",
        );
        rejects(
            &with_filter(r#"{"kind": "squares", "squares": [1], "rank": 2}"#),
            &format!("{f}.rank"),
            "unknown field `rank` (allowed: kind, squares)",
        );
        rejects(
            &with_filter(r#"{"kind": "squares", "squares": [1, 256]}"#),
            &format!("{f}.squares[1]"),
            "expected an integer from 0 to 255, found 256",
        );
        rejects(
            &with_filter(r#"{"kind": "squares", "squares": [-1]}"#),
            &format!("{f}.squares[0]"),
            "found -1",
        );
        rejects(
            &with_filter(r#"{"kind": "squares", "squares": [true]}"#),
            &format!("{f}.squares[0]"),
            "expected a square index (0 to 255) or name",
        );
        for name in ["a0", "a16", "q1", "a01", "D5", "d", "5", "d5 ", "d+5"] {
            rejects(
                &with_filter(&format!(r#"{{"kind": "squares", "squares": ["{name}"]}}"#)),
                &format!("{f}.squares[0]"),
                &format!("invalid square name `{name}`"),
            );
        }
        rejects(
            &with_filter(r#"{"kind": "predicate"}"#),
            f,
            "a predicate needs `file`, `rank` or both",
        );
        rejects(
            &with_filter(r#"{"kind": "predicate", "file": 16}"#),
            &format!("{f}.file"),
            "expected an integer from 0 to 15, found 16",
        );
        rejects(
            &with_filter(r#"{"kind": "predicate", "rank": 15}"#),
            &format!("{f}.rank"),
            "expected an integer from 0 to 14, found 15",
        );
        rejects(
            &with_filter(r#"{"kind": "predicate", "rank": 1, "squares": [1]}"#),
            &format!("{f}.squares"),
            "unknown field `squares` (allowed: file, kind, rank)",
        );
    }

    // ---- effects ----

    #[test]
    fn rejects_bad_attribute_names() {
        let at = "$.primitives[0].params.primitives[0].params.attr";
        for name in ["hp", "Hp_2", "", "Hp-x", "Ärger"] {
            rejects(&in_on_move(&add(name, 1)), at, "invalid attribute name");
        }
        rejects(
            &in_on_move(&add(&format!("A{}", "b".repeat(31)), 1)),
            at,
            "at most 31 bytes",
        );
        ok(&in_on_move(&add(&format!("A{}", "b".repeat(30)), 1)));
    }

    #[test]
    fn rejects_add_to_piece_type() {
        rejects(
            &in_on_move(&add("PieceType", 1)),
            "$.primitives[0].params.primitives[0].params.attr",
            "`PieceType` cannot be changed by add-to-attribute",
        );
    }

    #[test]
    fn checks_seed_attribute_values() {
        let seed = |attr: &str, value: &str| {
            in_on_move(&format!(
                r#"{{"kind": "seed-attribute", "params": {{"attr": "{attr}", "value": {value}}}}}"#
            ))
        };
        let at = "$.primitives[0].params.primitives[0].params.value";
        rejects(
            &seed("PieceType", "3"),
            at,
            "expected a piece name or role for `PieceType`, found 3",
        );
        rejects(&seed("PieceType", r#""""#), at, "invalid piece name ``");
        rejects(
            &seed("Hp", r#""five""#),
            at,
            r#"expected an integer, found "five" (only `PieceType` takes a piece name)"#,
        );
        rejects(&seed("Hp", "true"), at, "expected an integer, found true");
        rejects(
            &in_on_move(r#"{"kind": "seed-attribute", "params": {"attr": "Hp"}}"#),
            at,
            "missing required field `value`",
        );
        let d = ok(&seed("PieceType", r#""shogi-pawn2""#));
        assert_eq!(
            trigger(&d.primitives[0]).primitives[0].kind,
            NodeKind::SeedAttribute {
                attr: "PieceType".into(),
                value: SeedValue::PieceType("shogi-pawn2".into())
            }
        );
    }

    #[test]
    fn checks_add_aura_params() {
        let with =
            |params: &str| in_on_move(&format!(r#"{{"kind": "add-aura", "params": {params}}}"#));
        let p = "$.primitives[0].params.primitives[0].params";
        rejects(
            &with(r#"{"radius": 0, "targetAttr": "B", "delta": 1}"#),
            &format!("{p}.radius"),
            "expected an integer from 1 to 7, found 0",
        );
        rejects(
            &with(r#"{"radius": 8, "targetAttr": "B", "delta": 1}"#),
            &format!("{p}.radius"),
            "found 8",
        );
        for attr in ["Hp", "PieceType", "CaptureFlag"] {
            rejects(
                &with(&format!(
                    r#"{{"radius": 1, "targetAttr": "{attr}", "delta": 1}}"#
                )),
                &format!("{p}.targetAttr"),
                &format!("`{attr}` cannot be an aura target"),
            );
        }
        rejects(
            &with(r#"{"radius": 1, "targetAttr": "B", "delta": 1, "relation": "foe"}"#),
            &format!("{p}.relation"),
            r#"expected one of "ally", "enemy", "all", found "foe""#,
        );
        rejects(
            &with(r#"{"radius": 1, "targetAttr": "B"}"#),
            &format!("{p}.delta"),
            "missing required field `delta`",
        );
        rejects(
            &with(r#"{"radius": 1, "attr": "B", "delta": 1}"#),
            &format!("{p}.attr"),
            "unknown field `attr` (allowed: delta, radius, relation, targetAttr)",
        );
    }

    #[test]
    fn checks_set_capture_flag() {
        let with = |flag: &str| {
            in_on_move(&format!(
                r#"{{"kind": "set-capture-flag", "params": {{"flag": {flag}}}}}"#
            ))
        };
        let at = "$.primitives[0].params.primitives[0].params.flag";
        rejects(&with("2"), at, "expected 0 or 1, found 2");
        rejects(&with("true"), at, "expected an integer, found true");
        ok(&with("0"));
    }

    #[test]
    fn rejects_aura_target_conflict() {
        // The writer comes before the aura in document order …
        let e = rejects(
            &doc(&[on("on-move", "", &[add("HpBonus", 1)]), aura("HpBonus")]),
            "$.primitives[0].params.primitives[0].params.attr",
            "`HpBonus` is an aura target (derived); it cannot be changed by add-to-attribute",
        );
        assert_eq!(
            e.why,
            "`HpBonus` is an aura target (derived); it cannot be changed by add-to-attribute"
        );
        // … or after it, nested anywhere.
        let seed = r#"{"kind": "seed-attribute", "params": {"attr": "HpBonus", "value": 0}}"#;
        rejects(
            &doc(&[
                on("on-move", "", &[aura("HpBonus")]),
                cond(
                    r#"{"inCheck": true}"#,
                    &[add("X", 1)],
                    Some(&[seed.to_string()]),
                ),
            ]),
            "$.primitives[1].params.else[0].params.attr",
            "`HpBonus` is an aura target (derived); it cannot be changed by seed-attribute",
        );
        // Reading it in a condition is fine.
        ok(&doc(&[
            aura("HpBonus"),
            cond(
                r#"{"attr": "HpBonus", "op": ">", "value": 0}"#,
                &[add("X", 1)],
                None,
            ),
        ]));
    }

    // ---- conditions ----

    #[test]
    fn rejects_bad_conditions() {
        let c = "$.primitives[0].params.primitives[0].params.if";
        rejects(&with_condition("{}"), c, "empty condition");
        rejects(&with_condition("true"), c, "expected an object, found true");
        let e = rejects(
            &with_condition(r#"{"color": "white", "pieceType": "queen"}"#),
            c,
            "",
        );
        assert_eq!(
            e.why,
            "a condition has exactly one shape; found `color` and `pieceType` \
             (combine conditions with `all`)"
        );
        rejects(
            &with_condition(r#"{"attr": "Hp", "op": "<", "value": 1, "inCheck": true}"#),
            c,
            "exactly one shape",
        );
        let e = rejects(
            &with_condition(r#"{"colour": "white"}"#),
            &format!("{c}.colour"),
            "",
        );
        assert_eq!(
            e.why,
            "unknown field `colour` (allowed: attr, op, value, attacker, defender, pieceType, \
             color, inCheck, promotedTo, all, any, not)"
        );
        rejects(
            &with_condition(r#"{"color": "both"}"#),
            &format!("{c}.color"),
            r#"expected one of "white", "black", found "both""#,
        );
        rejects(
            &with_condition(r#"{"inCheck": "yes"}"#),
            &format!("{c}.inCheck"),
            r#"expected true or false, found "yes""#,
        );
        rejects(
            &with_condition(r#"{"attr": "Hp", "op": "=", "value": 1}"#),
            &format!("{c}.op"),
            r#"expected one of "==", "!=", "<", "<=", ">", ">=", found "=""#,
        );
        rejects(
            &with_condition(r#"{"attr": "Hp", "value": 1}"#),
            &format!("{c}.op"),
            "missing required field `op`",
        );
        rejects(
            &with_condition(r#"{"attr": "Hp", "op": "<", "value": 1.5}"#),
            &format!("{c}.value"),
            "expected an integer, found 1.5",
        );
        rejects(
            &with_condition(r#"{"attr": "PieceType", "op": "==", "value": 1}"#),
            &format!("{c}.attr"),
            "`PieceType` is not an integer attribute",
        );
        rejects(
            &with_condition(r#"{"all": []}"#),
            &format!("{c}.all"),
            "expected at least one condition",
        );
        rejects(
            &with_condition(r#"{"any": [{"inCheck": true}, {"pieceType": "\t"}]}"#),
            &format!("{c}.any[1].pieceType"),
            "invalid piece name",
        );
        rejects(
            &with_condition(r#"{"not": [{"inCheck": true}]}"#),
            &format!("{c}.not"),
            "expected an object, found an array",
        );
        rejects(
            &in_on_move(
                r#"{"kind": "conditional", "params": {"then": [{"kind": "set-capture-flag", "params": {"flag": 0}}]}}"#,
            ),
            c,
            "missing required field `if`",
        );
    }

    #[test]
    fn condition_nesting_is_capped_at_8() {
        let nested = |depth: usize| {
            let mut c = r#"{"inCheck": true}"#.to_string();
            for _ in 1..depth {
                c = format!(r#"{{"not": {c}}}"#);
            }
            c
        };
        ok(&with_condition(&nested(8)));
        let path = format!(
            "$.primitives[0].params.primitives[0].params.if{}",
            ".not".repeat(8)
        );
        rejects(
            &with_condition(&nested(9)),
            &path,
            "conditions nested deeper than 8 levels",
        );
    }
}
