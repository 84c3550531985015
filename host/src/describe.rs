//! What a rule does, in words: `houserules describe ID` for variants, layouts, presets and
//! custom modifiers, the one-line summaries of `houserules list`, and the check that a preset
//! can change anything at all in the chosen variant.
//!
//! The host knows no rules, so every word about a rule comes from its plugin: the
//! description of the manifest, the `details` and `layout:<id>` entries of `extra` (API 1.2,
//! [`houserules_plugin_api::EXTRA_DETAILS`]), option descriptions. What the host adds is what
//! it knows itself: what a hook, a stage and a mode mean, the board and piece table the
//! variant reports, requirements, and example commands it has checked.
//!
//! A preset cannot affect a variant when the variant has none of the pieces the preset says it
//! acts on ([`houserules_plugin_api::EXTRA_ROLES`]), or when a role option names a role the
//! variant lacks. That is declared data compared with the piece table — the host never guesses
//! from behaviour — so a preset that declares no roles is never reported.

use crate::error::{nearest, HostError};
use crate::loader::{LoadedPlugin, Registry};
use crate::pipeline::{Pipeline, PresetSpec};
use houserules_plugin_api::{
    parse_roles, OptionKind, PresetInfo, Role, VariantFlags, VariantInfo, EXTRA_DETAILS,
    EXTRA_ERROR, EXTRA_LAYOUT_PREFIX, EXTRA_ROLES, EXTRA_SOURCE,
};
use serde::Serialize;

/// What each hook does, in a few words (the hook contract, docs/hooks.md).
pub fn hook_meaning(name: &str) -> &'static str {
    match name {
        "get_royal_pieces" => "decides which pieces are royal",
        "filter_legal_moves" => "removes some legal moves (compulsory capture, ...)",
        "should_filter_self_check" => "decides whether a move may leave a royal attacked",
        "on_check_game_result" => "declares, suppresses or replaces results",
        "should_advance_turn" => "may keep the turn with the mover (multi-move turns)",
        "on_before_move" => "acts before a move is made",
        "on_after_move" => "acts after each move",
        "override_piece_moves" => "takes over the moves of some pieces",
        "get_extra_moves" => "adds moves",
        "get_legal_move_modifiers" => "changes the generated moves",
        "setup_position" => "sets up attributes or state when a game starts",
        "is_attacked" => "adds attacks (for check)",
        "apply_move" => "makes moves the variant cannot make",
        "protected_royals" => "lets some royals be left attacked",
        "on_after_move_with" => "asks about attacks and check after a move",
        "transform_model" => "changes the rules model (movement, board, royalty, promotion)",
        "evaluate" => "adds its own terms to the engine's evaluation",
        _ => "(a hook this host does not know)",
    }
}

/// Names of the `on_after_move` stages, by number (see `houserules_plugin_api::stage`).
pub const STAGE_NAMES: [&str; 13] = [
    "resolve",
    "aura",
    "damaged",
    "capture",
    "captured",
    "promotion",
    "move",
    "moved-onto-square",
    "check-received",
    "check-delivered",
    "conditional",
    "turn-end",
    "turn-start",
];

/// What a preset's mode (`PresetInfo::mode`, the catalogue's term) means.
pub fn mode_meaning(mode: &str) -> &'static str {
    match mode {
        "additive" => "adds to the variant's rules and takes none away",
        "override" => "replaces part of the variant's rules",
        "hybrid" => "adds to the variant's rules and replaces part of them",
        "hook" | "hooks" => {
            "changes the game through the pipeline's hooks: royalty, turns, results"
        }
        _ => "the plugin's own term",
    }
}

/// The first sentence of `text` (initials such as "B." do not end it), for one-line listings.
pub fn first_sentence(text: &str) -> &str {
    let t = text.trim();
    let bytes = t.as_bytes();
    let mut i = 0;
    while let Some(k) = t[i..].find(". ") {
        let end = i + k;
        // The word before the period.
        let word_start = t[..end].rfind([' ', '(']).map(|w| w + 1).unwrap_or(0);
        let word = &t[word_start..end];
        let initial = word.len() == 1 && word.as_bytes()[0].is_ascii_uppercase();
        let abbreviation = matches!(word, "e.g" | "i.e" | "etc" | "vs" | "cf");
        let next_upper = bytes
            .get(end + 2)
            .is_some_and(|c| c.is_ascii_uppercase() || !c.is_ascii());
        if !initial && !abbreviation && next_upper {
            return &t[..end + 1];
        }
        i = end + 2;
    }
    t
}

/// Words wrapped at `width` columns, every line indented by `indent` spaces; paragraphs
/// (separated by an empty line) stay apart.
pub fn wrap(text: &str, width: usize, indent: usize) -> String {
    wrap_hanging(text, width, indent, indent)
}

/// [`wrap`] with the first line of each paragraph indented by `first` and the others by `rest`.
pub fn wrap_hanging(text: &str, width: usize, first: usize, rest: usize) -> String {
    let mut out = String::new();
    for (n, para) in text.split("\n\n").enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let mut line = String::new();
        let mut indent = first;
        for word in para.split_whitespace() {
            if !line.is_empty() && indent + line.chars().count() + 1 + word.chars().count() > width
            {
                out.push_str(&" ".repeat(indent));
                out.push_str(&line);
                out.push('\n');
                line.clear();
                indent = rest;
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        if !line.is_empty() {
            out.push_str(&" ".repeat(indent));
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

fn plural(role: &str) -> String {
    format!("{role}s")
}

/// Why the preset `info` with option values `options` cannot change anything in a game of
/// `variant`, if it cannot (see the module docs); `None` when it may.
pub fn cannot_affect(
    info: &PresetInfo,
    options: &[(String, String)],
    variant: &VariantInfo,
) -> Option<String> {
    let has = |r: Role| variant.pieces.iter().any(|t| t.role == r);
    // Roles that do not parse are the plugin's mistake (check-plugin reports it): no warning.
    if let Some(Ok(alternatives)) = info.extra_value(EXTRA_ROLES).map(parse_roles) {
        if !alternatives.is_empty() && !alternatives.iter().any(|alt| alt.iter().all(|&r| has(r))) {
            let wanted: Vec<String> = alternatives
                .iter()
                .map(|alt| {
                    alt.iter()
                        .map(|r| plural(r.name()))
                        .collect::<Vec<_>>()
                        .join(" and ")
                })
                .collect();
            return Some(format!(
                "it acts on {}, and `{}` has no such pieces",
                wanted.join(" or "),
                variant.id
            ));
        }
    }
    for o in info.options.iter().filter(|o| o.kind == OptionKind::ROLE) {
        let value = options
            .iter()
            .find(|(k, _)| k == o.key.as_str())
            .map(|(_, v)| v.as_str())
            .unwrap_or(o.default.as_str());
        if let Some(r) = Role::parse(value) {
            if r != Role::OTHER && !has(r) {
                return Some(format!(
                    "its option {}={value} names {}, and `{}` has none",
                    o.key,
                    plural(value),
                    variant.id
                ));
            }
        }
    }
    None
}

/// The active presets of `p` that cannot change anything in its variant, with the reason.
pub fn inert_presets(p: &Pipeline) -> Vec<(String, String)> {
    p.presets
        .iter()
        .filter_map(|a| {
            cannot_affect(&a.info, &a.options, &p.info).map(|w| (a.info.id.to_string(), w))
        })
        .collect()
}

/// An option of a preset, documented.
#[derive(Debug, Clone, Serialize)]
pub struct OptionDoc {
    /// Key.
    pub key: String,
    /// Type (`int`, `bool`, `choice`, `role`, `text`).
    #[serde(rename = "type")]
    pub kind: String,
    /// Default value.
    pub default: String,
    /// Allowed values (choices, roles, or `min..=max`).
    pub values: String,
    /// What it does.
    pub description: String,
}

/// A hook a preset implements, with what it means.
#[derive(Debug, Clone, Serialize)]
pub struct HookDoc {
    /// Hook name.
    pub name: String,
    /// What it does.
    pub meaning: String,
}

/// A piece type of a variant.
#[derive(Debug, Clone, Serialize)]
pub struct PieceDoc {
    /// Letter (White's, upper case).
    pub letter: String,
    /// Name.
    pub name: String,
    /// Role.
    pub role: String,
    /// Value in centipawns.
    pub value: i32,
    /// Royal by default.
    pub royal: bool,
}

/// A layout of a variant.
#[derive(Debug, Clone, Serialize)]
pub struct LayoutDoc {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Start position.
    pub fen: String,
    /// The variant's words about it (may be empty).
    pub description: String,
}

/// The description of one id.
#[derive(Debug, Clone, Serialize, Default)]
pub struct Description {
    /// `variant`, `layout`, `preset` or `custom modifier`.
    pub kind: &'static str,
    /// The id.
    pub id: String,
    /// Human name.
    pub name: String,
    /// Id of the plugin that provides it.
    pub plugin: String,
    /// One line (the description's first sentence).
    pub summary: String,
    /// The plugin's description.
    pub description: String,
    /// Further paragraphs: the rule in full (edge cases, rulings).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<String>,
    /// Why it cannot be used (a broken variant or descriptor).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Preset: catalogue category.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub category: String,
    /// Preset: catalogue mode.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub mode: String,
    /// Preset: what the mode means.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub mode_meaning: String,
    /// Preset: options with defaults.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<OptionDoc>,
    /// Preset: presets that must also be active.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub requires: Vec<String>,
    /// Preset: presets that may not be active with it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub incompatible_with: Vec<String>,
    /// Preset: the hooks it implements.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hooks: Vec<HookDoc>,
    /// Preset: the `on_after_move` stages it handles.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stages: Vec<String>,
    /// Preset: the piece roles it acts on (`knight`, `bishop+knight` ...); absent: any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acts_on: Option<String>,
    /// Preset: the layout used when none is given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preferred_layout: Option<String>,
    /// Custom modifier: the file it was read from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Variant: board width and height.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<(u8, u8)>,
    /// Variant: the piece table.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pieces: Vec<PieceDoc>,
    /// Variant: layouts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub layouts: Vec<LayoutDoc>,
    /// Variant: draw rules and capabilities the host applies or knows.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
    /// Layout: its variant.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// Layout: its start position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// Layout or variant: presets that choose it (or one of its layouts) when none is given.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub preferred_by: Vec<String>,
    /// Preset, with `--variant`: why it cannot change anything in that variant.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
    /// Example commands (each checked to assemble).
    pub examples: Vec<String>,
}

fn paragraphs(text: &str) -> Vec<String> {
    text.split("\n\n")
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect()
}

fn option_doc(o: &houserules_plugin_api::OptionSpec) -> OptionDoc {
    let values = match o.kind {
        OptionKind::INT => format!("{}..={}", o.min, o.max),
        OptionKind::BOOL => "true, false".to_string(),
        OptionKind::CHOICE => o
            .choices
            .iter()
            .map(|c| c.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        OptionKind::ROLE => "pawn, knight, bishop, rook, queen, king, commoner".to_string(),
        _ => "any text".to_string(),
    };
    OptionDoc {
        key: o.key.to_string(),
        kind: o.kind.name().to_string(),
        default: o.default.to_string(),
        values,
        description: o.description.to_string(),
    }
}

/// Variant infos, built once per variant (a broken one gives its error).
fn variant_infos(reg: &Registry) -> Vec<(&LoadedPlugin, String, Result<VariantInfo, String>)> {
    reg.variants()
        .map(|(pl, v)| {
            let info = Pipeline::build(reg, v.id.as_str(), None, &[])
                .map(|p| p.info.clone())
                .map_err(|e| e.to_string());
            (pl, v.id.to_string(), info)
        })
        .collect()
}

/// The preset `info` after the presets it requires, with default options.
pub fn with_requirements(info: &PresetInfo) -> Vec<PresetSpec> {
    let spec = |id: &str| PresetSpec {
        id: id.to_string(),
        options: Vec::new(),
    };
    let mut specs: Vec<PresetSpec> = info.requires.iter().map(|r| spec(r.as_str())).collect();
    specs.push(spec(info.id.as_str()));
    specs
}

/// The example commands of a preset, on the first variant (chess first) on which it and its
/// requirements assemble; none if there is none.
fn preset_example(reg: &Registry, info: &PresetInfo, variant: Option<&str>) -> Vec<String> {
    let specs = with_requirements(info);
    let mut candidates: Vec<String> = Vec::new();
    if let Some(v) = variant {
        candidates.push(v.to_string());
    } else {
        candidates.push("chess".to_string());
        candidates.extend(reg.variants().map(|(_, v)| v.id.to_string()));
    }
    let Some(v) = candidates
        .iter()
        .find(|v| Pipeline::build(reg, v, None, &specs).is_ok())
    else {
        return Vec::new();
    };
    let vflag = if v == "chess" {
        String::new()
    } else {
        format!(" --variant {v}")
    };
    let presets: String = specs
        .iter()
        .map(|s| format!(" --preset {}", s.id))
        .collect();
    let mut out = vec![format!("houserules play{vflag}{presets} --black random")];
    // One option set to something other than its default, when there is a clear one.
    for o in info.options.iter() {
        let other = match o.kind {
            OptionKind::CHOICE => o
                .choices
                .iter()
                .find(|c| **c != o.default)
                .map(|c| c.to_string()),
            OptionKind::BOOL => Some(
                if o.default.as_str() == "true" {
                    "false"
                } else {
                    "true"
                }
                .to_string(),
            ),
            OptionKind::ROLE => Some(
                if o.default.as_str() == "knight" {
                    "rook"
                } else {
                    "knight"
                }
                .to_string(),
            ),
            OptionKind::INT => (o.min..=o.max)
                .find(|n| n.to_string() != o.default.as_str())
                .map(|n| n.to_string()),
            _ => None,
        };
        if let Some(value) = other {
            let mut with = specs.clone();
            if let Some(last) = with.last_mut() {
                last.options.push((o.key.to_string(), value.clone()));
            }
            if Pipeline::build(reg, v, None, &with).is_ok() {
                let presets: String = with.iter().map(|s| format!(" --preset {s}")).collect();
                out.push(format!("houserules perft{vflag}{presets} --depth 3"));
                break;
            }
        }
    }
    if out.len() == 1 {
        out.push(format!("houserules perft{vflag}{presets} --depth 3"));
    }
    out
}

fn describe_preset(
    reg: &Registry,
    pl: &LoadedPlugin,
    p: &PresetInfo,
    variant: Option<&str>,
) -> Description {
    let custom = p.is_custom_modifier();
    let mut d = Description {
        kind: if custom { "custom modifier" } else { "preset" },
        id: p.id.to_string(),
        name: p.name.to_string(),
        plugin: pl.id().to_string(),
        summary: first_sentence(p.description.as_str()).to_string(),
        description: p
            .description
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
        details: p
            .extra_value(EXTRA_DETAILS)
            .map(paragraphs)
            .unwrap_or_default(),
        error: p.extra_value(EXTRA_ERROR).map(str::to_string),
        category: p.category.to_string(),
        mode: p.mode.to_string(),
        mode_meaning: mode_meaning(p.mode.as_str()).to_string(),
        options: p.options.iter().map(option_doc).collect(),
        requires: p.requires.iter().map(|s| s.to_string()).collect(),
        incompatible_with: p.incompatible_with.iter().map(|s| s.to_string()).collect(),
        hooks: p
            .hooks
            .names()
            .into_iter()
            .map(|n| HookDoc {
                name: n.to_string(),
                meaning: hook_meaning(n).to_string(),
            })
            .collect(),
        stages: STAGE_NAMES
            .iter()
            .enumerate()
            .filter(|(i, _)| p.after_move_stages & (1 << i) != 0)
            .map(|(_, n)| n.to_string())
            .collect(),
        acts_on: p.extra_value(EXTRA_ROLES).map(str::to_string),
        preferred_layout: p
            .preferred_layout
            .as_ref()
            .map(|s| s.to_string())
            .into_option(),
        source: if custom {
            p.extra_value(EXTRA_SOURCE).map(str::to_string)
        } else {
            None
        },
        ..Default::default()
    };
    // Other presets that cannot be active with this one, whichever side declared it.
    for (_, q) in reg.presets() {
        if q.incompatible_with.iter().any(|x| x == &p.id)
            && !d.incompatible_with.iter().any(|x| x == q.id.as_str())
        {
            d.incompatible_with.push(q.id.to_string());
        }
    }
    if d.error.is_none() {
        d.examples = preset_example(reg, p, variant);
        if custom {
            if let Some(src) = &d.source {
                if !src.starts_with("builtin:") {
                    d.examples
                        .push(format!("houserules --modifier {src} play --black random"));
                }
            }
        }
    }
    if let Some(v) = variant {
        if let Ok(pipe) = Pipeline::build(reg, v, None, &[]) {
            d.warning = cannot_affect(p, &[], &pipe.info);
        }
    }
    d
}

fn variant_rules(info: &VariantInfo) -> Vec<String> {
    let mut r = Vec::new();
    match (info.n_move_rule, info.n_move_automatic) {
        (0, 0) => {}
        (c, a) if c == a => r.push(format!("{c}-move rule: a draw after {c} moves without a capture or pawn move")),
        (0, a) => r.push(format!("{a}-move rule: an automatic draw after {a} moves without a capture or pawn move")),
        (c, 0) => r.push(format!("{c}-move rule: a draw may be claimed after {c} moves without a capture or pawn move")),
        (c, a) => r.push(format!(
            "{c}-move rule: a draw may be claimed after {c} moves without a capture or pawn move; automatic after {a}"
        )),
    }
    match (info.n_fold_rule, info.n_fold_automatic) {
        (0, 0) => {}
        (c, a) if c == a => r.push(format!("a position occurring {c} times is a draw")),
        (0, a) => r.push(format!(
            "a position occurring {a} times is an automatic draw"
        )),
        (c, 0) => r.push(format!(
            "a draw may be claimed when a position occurs {c} times"
        )),
        (c, a) => r.push(format!(
            "a draw may be claimed when a position occurs {c} times; automatic at {a}"
        )),
    }
    if info.flags.contains(VariantFlags::DROPS) {
        r.push("captured pieces go to the capturer's hand and may be dropped".to_string());
    }
    if info.flags.contains(VariantFlags::STATIC_RESULTS) {
        r.push("a game can end in a position that still has legal moves".to_string());
    }
    if info.flags.contains(VariantFlags::OWN_REPETITION) {
        r.push("the variant rules on repetition itself".to_string());
    }
    if info
        .flags
        .contains(VariantFlags::REPETITION_SINCE_CLOCK_RESET)
    {
        r.push(
            "a repetition counts only the positions since the halfmove clock was last reset"
                .to_string(),
        );
    }
    r
}

fn layout_words(info: &VariantInfo, id: &str) -> String {
    let key = format!("{EXTRA_LAYOUT_PREFIX}{id}");
    info.extra
        .iter()
        .find(|e| e.key.as_str() == key)
        .map(|e| e.value.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn preferring(reg: &Registry, layout_ids: &[String]) -> Vec<String> {
    reg.presets()
        .filter(|(_, p)| {
            p.preferred_layout
                .as_ref()
                .into_option()
                .is_some_and(|l| layout_ids.iter().any(|x| x == l.as_str()))
        })
        .map(|(_, p)| p.id.to_string())
        .collect()
}

fn derived_summary(info: &VariantInfo) -> String {
    let names: Vec<String> = info
        .pieces
        .iter()
        .map(|t| format!("{} {}", t.letter(), t.name))
        .collect();
    format!(
        "A game on a {}x{} board with {} piece types ({}).",
        info.files,
        info.ranks,
        info.pieces.len(),
        names.join(", ")
    )
}

fn describe_variant(
    reg: &Registry,
    pl: &LoadedPlugin,
    id: &str,
    name: &str,
    info: &Result<VariantInfo, String>,
) -> Description {
    let mut d = Description {
        kind: "variant",
        id: id.to_string(),
        name: name.to_string(),
        plugin: pl.id().to_string(),
        ..Default::default()
    };
    match info {
        Err(e) => {
            d.error = Some(e.clone());
            d.summary = format!("cannot be built: {e}");
        }
        Ok(info) => {
            d.description = info
                .description
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            d.summary = if d.description.is_empty() {
                derived_summary(info)
            } else {
                first_sentence(&d.description).to_string()
            };
            if d.description.is_empty() {
                d.description = d.summary.clone();
            }
            d.details = info
                .extra
                .iter()
                .find(|e| e.key.as_str() == EXTRA_DETAILS)
                .map(|e| paragraphs(e.value.as_str()))
                .unwrap_or_default();
            d.board = Some((info.files, info.ranks));
            d.pieces = info
                .pieces
                .iter()
                .map(|t| PieceDoc {
                    letter: t.letter().to_string(),
                    name: t.name.to_string(),
                    role: t.role.name().to_string(),
                    value: t.value,
                    royal: t.royal,
                })
                .collect();
            d.layouts = info
                .layouts
                .iter()
                .map(|l| LayoutDoc {
                    id: l.id.to_string(),
                    name: l.name.to_string(),
                    fen: l.fen.to_string(),
                    description: layout_words(info, l.id.as_str()),
                })
                .collect();
            d.rules = variant_rules(info);
            let ids: Vec<String> = d.layouts.iter().map(|l| l.id.clone()).collect();
            d.preferred_by = preferring(reg, &ids);
            let flag = if id == "chess" {
                String::new()
            } else {
                format!(" --variant {id}")
            };
            d.examples = vec![
                format!("houserules play{flag} --black random"),
                format!("houserules perft{flag} --depth 3"),
            ];
        }
    }
    d
}

fn describe_layout(
    reg: &Registry,
    pl: &LoadedPlugin,
    variant: &str,
    info: &VariantInfo,
    index: usize,
) -> Description {
    let l = &info.layouts[index];
    let words = layout_words(info, l.id.as_str());
    let flag = if variant == "chess" {
        String::new()
    } else {
        format!(" --variant {variant}")
    };
    Description {
        kind: "layout",
        id: l.id.to_string(),
        name: l.name.to_string(),
        plugin: pl.id().to_string(),
        summary: if words.is_empty() {
            format!("A starting layout of {}.", info.name)
        } else {
            first_sentence(&words).to_string()
        },
        description: if words.is_empty() {
            format!(
                "A starting layout of {}{}.",
                info.name,
                if index == 0 { " (its default)" } else { "" }
            )
        } else {
            words
        },
        variant: Some(variant.to_string()),
        fen: Some(l.fen.to_string()),
        preferred_by: preferring(reg, &[l.id.to_string()]),
        examples: vec![format!(
            "houserules play{flag} --layout {} --black random",
            l.id
        )],
        ..Default::default()
    }
}

/// Describes the variant, preset, custom modifier or layout `id` (a layout of `variant` when
/// given; with a preset, `variant` is the variant its example and applicability refer to).
pub fn describe(reg: &Registry, id: &str, variant: Option<&str>) -> Result<Description, HostError> {
    if variant.is_none() {
        if let Some((pl, v)) = reg.variants().find(|(_, v)| v.id.as_str() == id) {
            let info = Pipeline::build(reg, id, None, &[])
                .map(|p| p.info.clone())
                .map_err(|e| e.to_string());
            return Ok(describe_variant(reg, pl, id, v.name.as_str(), &info));
        }
    }
    if let Some((pl, p)) = reg.presets().find(|(_, p)| p.id.as_str() == id) {
        if let Some(v) = variant {
            if !reg.variants().any(|(_, x)| x.id.as_str() == v) {
                return Err(unknown_variant(reg, v));
            }
        }
        return Ok(describe_preset(reg, pl, p, variant));
    }
    let infos = variant_infos(reg);
    if let Some(v) = variant {
        if !infos.iter().any(|(_, vid, _)| vid == v) {
            return Err(unknown_variant(reg, v));
        }
    }
    let mut layouts = Vec::new();
    for (pl, vid, info) in &infos {
        if variant.is_some_and(|v| v != vid) {
            continue;
        }
        if let Ok(info) = info {
            if let Some(i) = info.layouts.iter().position(|l| l.id.as_str() == id) {
                layouts.push((*pl, vid.clone(), info.clone(), i));
            }
        }
    }
    match layouts.len() {
        1 => {
            let (pl, vid, info, i) = &layouts[0];
            Ok(describe_layout(reg, pl, vid, info, *i))
        }
        0 => {
            let mut all: Vec<String> = reg.variants().map(|(_, v)| v.id.to_string()).collect();
            all.extend(reg.presets().map(|(_, p)| p.id.to_string()));
            for (_, _, info) in &infos {
                if let Ok(info) = info {
                    all.extend(info.layouts.iter().map(|l| l.id.to_string()));
                }
            }
            Err(HostError::Unknown {
                what: "variant, preset or layout",
                id: id.to_string(),
                suggestion: nearest(id, all.iter().map(String::as_str)),
            })
        }
        _ => Err(HostError::Ambiguous {
            id: id.to_string(),
            reason: format!(
                "it is a layout of several variants ({}): add --variant V",
                layouts
                    .iter()
                    .map(|(_, v, _, _)| v.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
    }
}

fn unknown_variant(reg: &Registry, v: &str) -> HostError {
    HostError::Unknown {
        what: "variant",
        id: v.to_string(),
        suggestion: nearest(v, reg.variants().map(|(_, x)| x.id.as_str())),
    }
}

/// Every id `describe` answers for, as (kind, id, variant for a layout).
pub fn all_ids(reg: &Registry) -> Vec<(&'static str, String, Option<String>)> {
    let mut out = Vec::new();
    for (_, vid, info) in variant_infos(reg) {
        out.push(("variant", vid.clone(), None));
        if let Ok(info) = info {
            for l in info.layouts.iter() {
                out.push(("layout", l.id.to_string(), Some(vid.clone())));
            }
        }
    }
    for (_, p) in reg.presets() {
        out.push(("preset", p.id.to_string(), None));
    }
    out
}

impl Description {
    /// The description as text for an 80-column terminal.
    pub fn text(&self) -> String {
        const W: usize = 80;
        let mut s = String::new();
        let what = match (self.kind, &self.variant) {
            ("layout", Some(v)) => format!("layout of `{v}`"),
            (k, _) => k.to_string(),
        };
        s.push_str(&wrap_hanging(
            &format!(
                "{} — {} ({what}, plugin {})",
                self.id, self.name, self.plugin
            ),
            W,
            0,
            2,
        ));
        s.push('\n');
        if let Some(e) = &self.error {
            s.push_str(&wrap(&format!("Cannot be used: {e}"), W, 2));
            s.push('\n');
        }
        if !self.description.is_empty() {
            s.push_str(&wrap(&self.description, W, 2));
            s.push('\n');
        }
        for p in &self.details {
            s.push_str(&wrap(p, W, 2));
            s.push('\n');
        }
        if let Some(w) = &self.warning {
            s.push_str(&wrap(
                &format!("Warning: it cannot change anything here: {w}."),
                W,
                2,
            ));
            s.push('\n');
        }
        let field = |s: &mut String, name: &str, value: &str| {
            s.push_str(&wrap_hanging(&format!("{name}: {value}"), W, 0, 2));
        };
        if let Some((f, r)) = self.board {
            field(&mut s, "Board", &format!("{f}x{r}"));
        }
        if !self.pieces.is_empty() {
            s.push_str("Pieces (White upper case, Black lower case):\n");
            for p in &self.pieces {
                s.push_str(&format!(
                    "  {}  {}{}{} (value {})\n",
                    p.letter,
                    p.name,
                    if p.role != "other" && p.role != p.name {
                        format!(", {}", p.role)
                    } else {
                        String::new()
                    },
                    if p.royal { ", royal" } else { "" },
                    p.value
                ));
            }
        }
        if !self.layouts.is_empty() {
            s.push_str("Layouts (the first is the default):\n");
            for l in &self.layouts {
                s.push_str(&format!("  {} — {}\n    {}\n", l.id, l.name, l.fen));
                if !l.description.is_empty() {
                    s.push_str(&wrap(&l.description, W, 4));
                }
            }
        }
        if !self.rules.is_empty() {
            s.push_str("Rules the host applies:\n");
            for r in &self.rules {
                s.push_str(&wrap(r, W, 2));
            }
        }
        if let Some(f) = &self.fen {
            field(&mut s, "Start position", f);
        }
        if !self.category.is_empty() {
            field(&mut s, "Category", &self.category);
        }
        if !self.mode.is_empty() {
            field(
                &mut s,
                "Mode",
                &format!("{} — {}", self.mode, self.mode_meaning),
            );
        }
        if self.kind == "preset" || self.kind == "custom modifier" {
            if self.options.is_empty() {
                field(&mut s, "Options", "none");
            } else {
                s.push_str("Options (--preset ID:key=value,...):\n");
                for o in &self.options {
                    s.push_str(&wrap(
                        &format!(
                            "{}: {} ({}; default {}) — {}",
                            o.key, o.kind, o.values, o.default, o.description
                        ),
                        W,
                        2,
                    ));
                }
            }
            field(&mut s, "Requires", &list_or_none(&self.requires));
            field(
                &mut s,
                "Incompatible with",
                &list_or_none(&self.incompatible_with),
            );
            field(
                &mut s,
                "Acts on",
                &match &self.acts_on {
                    Some(r) => format!(
                        "pieces of role {}",
                        r.replace(',', " or ").replace('+', " and ")
                    ),
                    None => "any variant".to_string(),
                },
            );
            if let Some(l) = &self.preferred_layout {
                field(
                    &mut s,
                    "Preferred layout",
                    &format!("{l} (used when no --layout is given)"),
                );
            }
            if let Some(src) = &self.source {
                field(&mut s, "Read from", src);
            }
            if self.hooks.is_empty() {
                field(&mut s, "Hooks", "none");
            } else {
                s.push_str("Hooks:\n");
                for h in &self.hooks {
                    let stages = if h.name == "on_after_move" && !self.stages.is_empty() {
                        format!(" (stages: {})", self.stages.join(", "))
                    } else {
                        String::new()
                    };
                    s.push_str(&wrap(&format!("{}{stages} — {}", h.name, h.meaning), W, 2));
                }
            }
        }
        if !self.preferred_by.is_empty() {
            field(&mut s, "Chosen by presets", &self.preferred_by.join(", "));
        }
        if !self.examples.is_empty() {
            s.push_str("Example:\n");
            for e in &self.examples {
                s.push_str(&format!("  {e}\n"));
            }
        }
        s
    }
}

fn list_or_none(v: &[String]) -> String {
    if v.is_empty() {
        "none".to_string()
    } else {
        v.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use houserules_plugin_api::{HookSet, OptionSpec, OptionValue, PieceType};

    /// Every hook the API defines is explained (a new hook needs its words here).
    #[test]
    fn every_known_hook_has_a_meaning() {
        for name in HookSet::KNOWN.names() {
            assert_ne!(
                hook_meaning(name),
                "(a hook this host does not know)",
                "{name}"
            );
        }
    }

    #[test]
    fn first_sentences_skip_initials() {
        assert_eq!(
            first_sentence("Jared B. McComb's game. It is orthogonal."),
            "Jared B. McComb's game."
        );
        assert_eq!(first_sentence("One (e.g. two). Three."), "One (e.g. two).");
        assert_eq!(first_sentence("No period at all"), "No period at all");
    }

    #[test]
    fn wrapping_keeps_to_the_width() {
        let t = "word ".repeat(40);
        for line in wrap(&t, 30, 4).lines() {
            assert!(line.len() <= 30 && line.starts_with("    word"), "{line}");
        }
        assert_eq!(wrap("a\n\nb", 80, 0), "a\n\nb\n");
    }

    fn variant(roles: &[Role]) -> VariantInfo {
        VariantInfo {
            id: "v".into(),
            pieces: roles
                .iter()
                .map(|&r| PieceType::new('X', "x", r, 1))
                .collect(),
            ..Default::default()
        }
    }

    fn preset(roles: &str) -> PresetInfo {
        PresetInfo {
            id: "p".into(),
            extra: vec![OptionValue {
                key: EXTRA_ROLES.into(),
                value: roles.into(),
            }]
            .into(),
            ..Default::default()
        }
    }

    #[test]
    fn roles_decide_whether_a_preset_can_act() {
        let v = variant(&[Role::KING, Role::ROOK, Role::BISHOP]);
        assert!(cannot_affect(&preset("knight"), &[], &v)
            .unwrap()
            .contains("knights"));
        assert!(cannot_affect(&preset("bishop,queen"), &[], &v).is_none());
        assert!(cannot_affect(&preset("bishop+knight"), &[], &v).is_some());
        assert!(cannot_affect(&preset("rook"), &[], &v).is_none());
        assert!(
            cannot_affect(&PresetInfo::default(), &[], &v).is_none(),
            "no roles: any variant"
        );
        let mut p = PresetInfo::default();
        p.options.push(OptionSpec {
            key: "target".into(),
            kind: OptionKind::ROLE,
            default: "pawn".into(),
            choices: Default::default(),
            min: 0,
            max: 0,
            description: "".into(),
        });
        assert!(cannot_affect(&p, &[], &v).unwrap().contains("target=pawn"));
        assert!(cannot_affect(&p, &[("target".into(), "rook".into())], &v).is_none());
    }
}
