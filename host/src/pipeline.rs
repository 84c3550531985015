//! A game's rules: one variant plus an ordered list of presets, assembled from what is loaded.
//!
//! The pipeline per ply (DESIGN.md): generate (variant, `override_piece_moves`,
//! `get_extra_moves`, `get_legal_move_modifiers`) → legality (each candidate made in full and
//! dropped if it leaves a royal of the mover attacked, unless `should_filter_self_check` says
//! no) → `filter_legal_moves` → apply (`on_before_move`, the variant or a preset's
//! `apply_move`, `on_after_move` by stage) → `should_advance_turn` → results.
//!
//! When no active preset touches movement, royalty, attacks or move effects, the pipeline is
//! *plain* and uses the variant's own legal generator and attack test: that is the fast path.

use crate::error::{nearest, HostError};
use crate::history::HistoryFacts;
use crate::loader::Registry;
use abi_stable::std_types::{ROption, RResult, RSlice, RStr, RVec};
use houserules_plugin_api::{
    host_query, stage, Cell, Color, Decision, DescribedLine, Event, EventKind, GenRequest, HookSet,
    HostQuery, Layout, Move, MoveEffects, MoveFlags, OptionValue, Outcome, OutcomeContext,
    PluginError, Position, PresetBox, PresetInfo, ReplayedLine, RulesModel, Square, SquareSet,
    VariantBox, VariantFlags, VariantInfo, EXTRA_MOVEMENT, EXTRA_SEARCH_MOVE_DETAIL,
    EXTRA_SEARCH_PRUNING_DEPTH, EXTRA_SEARCH_QUIET_PRUNING, MOVEMENT_ADDITIVE, MOVEMENT_NONE,
};
use std::cell::RefCell;

/// The pruning depth an [`EXTRA_SEARCH_PRUNING_DEPTH`] value asks for: a whole number from 2
/// to 16, else none (a value this host cannot use is ignored, as unknown keys are).
fn pruning_depth_asked(value: &str) -> Option<i32> {
    value
        .trim()
        .parse::<i32>()
        .ok()
        .filter(|d| (2..=16).contains(d))
}

/// A preset as asked for on the command line or in a record: `id[:key=value,...]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PresetSpec {
    /// Preset id.
    pub id: String,
    /// Options as given.
    pub options: Vec<(String, String)>,
}

impl std::str::FromStr for PresetSpec {
    type Err = HostError;
    fn from_str(arg: &str) -> Result<Self, HostError> {
        let arg = arg.trim();
        let (id, rest) = match arg.split_once(':') {
            Some((id, rest)) => (id, Some(rest)),
            None => (arg, None),
        };
        let bad = |reason: &str| HostError::BadPresetArg {
            arg: arg.to_string(),
            reason: reason.to_string(),
        };
        if id.is_empty() {
            return Err(bad("the preset id is empty"));
        }
        let mut options = Vec::new();
        if let Some(rest) = rest {
            for kv in rest.split(',').filter(|s| !s.trim().is_empty()) {
                let (k, v) = kv
                    .split_once('=')
                    .ok_or_else(|| bad(&format!("`{kv}` is not key=value")))?;
                options.push((k.trim().to_string(), v.trim().to_string()));
            }
        }
        Ok(PresetSpec {
            id: id.to_string(),
            options,
        })
    }
}

impl std::fmt::Display for PresetSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.id)?;
        for (i, (k, v)) in self.options.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

/// Parses a comma-separated `Presets` tag value: `a, b:k=v, c:k=v;k2=v2` is ambiguous with
/// commas inside options, so options inside a tag are separated by `;` or `,` after `=`.
pub fn parse_preset_list(text: &str) -> Result<Vec<PresetSpec>, HostError> {
    let mut out: Vec<PresetSpec> = Vec::new();
    for part in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        // `k=v` without a preset id continues the previous preset's options.
        if !part.contains(':') && part.contains('=') {
            if let Some(last) = out.last_mut() {
                let (k, v) = part.split_once('=').unwrap_or((part, ""));
                last.options
                    .push((k.trim().to_string(), v.trim().to_string()));
                continue;
            }
        }
        out.push(part.replace(';', ",").parse()?);
    }
    Ok(out)
}

/// One active preset.
pub struct ActivePreset {
    /// Catalogue metadata.
    pub info: PresetInfo,
    /// Every option with its value (defaults filled in).
    pub options: Vec<(String, String)>,
    /// Id of the plugin that provides it.
    pub plugin: String,
    object: PresetBox,
}

/// The assembled rules of one game.
pub struct Pipeline {
    variant: VariantBox,
    /// Id of the plugin that provides the variant.
    variant_plugin: String,
    /// The variant's description.
    pub info: VariantInfo,
    /// The layout in use.
    pub layout: Layout,
    /// Active presets, ordered so that requirements come first.
    pub presets: Vec<ActivePreset>,
    /// Messages for the user (e.g. "using the preset's preferred layout").
    pub notes: Vec<String>,
    hooks: HookSet,
    plain: bool,
    movement_changed: bool,
    /// Movement is changed only by `get_extra_moves` (no override, no modifier): attack tests
    /// use the variant's own test plus the added moves.
    extra_moves_only: bool,
    /// Every preset only adds moves and reports their captures through `is_attacked`
    /// ([`MOVEMENT_ADDITIVE`]): legal moves are the variant's legal moves (tested against
    /// the added attacks only) plus the added moves, each tested in full.
    additive: bool,
    /// The cell bytes that hold a royal piece, by colour.
    royal_cells: RoyalCells,
    has_default_royalty: bool,
    stage_order: Vec<(u8, Vec<usize>)>,
    check_all: bool,
    /// The transformed rules model, if a preset transformed it.
    model: Option<RulesModel>,
}

/// `PresetInfo::extra` key by which a preset asks for the "all royals" check rule
/// (weak-dual-king): a side is in check only when **every** protected royal is attacked, so
/// the self-check filter drops only moves that leave every royal attacked, and checkmate is
/// every royal attacked with no legal move.
pub const EXTRA_CHECK_RULE: &str = "check-rule";

/// A call into a plugin: `call!(kind, rules id, plugin id, "hook", expression)` notes which
/// plugin code runs while the expression is evaluated (for the supervisor's fault reports,
/// see [`crate::fault`]) and turns the plugin's error into a [`HostError`].
macro_rules! call {
    ($kind:literal, $who:expr, $plugin:expr, $hook:expr, $e:expr $(,)?) => {{
        let _running = crate::fault::enter($kind, $who, $plugin, $hook);
        ffi_call($kind, $who, $plugin, $hook, $e)
    }};
}

impl ActivePreset {
    /// A call of this preset's hook `hook`: `f` given the preset's object, supervised as
    /// [`call!`] says.
    #[inline]
    fn call<T>(
        &self,
        hook: &'static str,
        f: impl FnOnce(&PresetBox) -> RResult<T, PluginError>,
    ) -> Result<T, HostError> {
        call!(
            "preset",
            self.info.id.as_str(),
            self.plugin.as_str(),
            hook,
            f(&self.object)
        )
    }
}

/// The result of a call into a plugin: its error as a [`HostError`]; a caught panic becomes
/// [`HostError::PluginPanic`], which names the plugin and the hook.
fn ffi_call<T>(
    kind: &'static str,
    who: &str,
    plugin: &str,
    hook: &'static str,
    r: RResult<T, PluginError>,
) -> Result<T, HostError> {
    r.into_result().map_err(|e| {
        let message = e.message.to_string();
        if message.starts_with("plugin panicked in ") {
            HostError::PluginPanic {
                id: who.to_string(),
                kind,
                plugin: plugin.to_string(),
                hook,
                message,
            }
        } else {
            HostError::plugin(who, e)
        }
    })
}

impl Pipeline {
    /// Assembles a pipeline from the registry: the variant, a layout (or the variant's
    /// default, or the preferred layout of a preset), and presets with their options,
    /// checking ids, options, requirements and incompatibilities.
    pub fn build(
        registry: &Registry,
        variant_id: &str,
        layout: Option<&str>,
        presets: &[PresetSpec],
    ) -> Result<Pipeline, HostError> {
        let (plugin, _) = registry
            .variants()
            .find(|(_, v)| v.id.as_str() == variant_id)
            .ok_or_else(|| HostError::Unknown {
                what: "variant",
                id: variant_id.to_string(),
                suggestion: nearest(variant_id, registry.variants().map(|(_, v)| v.id.as_str())),
            })?;
        let mut variant = call!(
            "variant",
            variant_id,
            plugin.id(),
            "new_variant",
            (plugin.module.new_variant())(RStr::from_str(variant_id))
        )?;
        let info = call!("variant", variant_id, plugin.id(), "info", variant.info())?;
        let newer =
            |what: &'static str, id: &str, pl: &crate::loader::LoadedPlugin, detail: String| {
                HostError::NeedsNewerHost {
                    what,
                    id: id.to_string(),
                    detail: format!(
                    "{detail} (its plugin `{}` was built for plugin API {}, this host speaks {})",
                    pl.id(),
                    pl.manifest.api_version,
                    houserules_plugin_api::API_VERSION
                ),
                }
            };
        if info.flags.0 & !VariantFlags::KNOWN.0 != 0 {
            return Err(newer(
                "variant",
                variant_id,
                plugin,
                format!(
                    "unknown variant flags {:#x}",
                    info.flags.0 & !VariantFlags::KNOWN.0
                ),
            ));
        }

        // Resolve presets and options.
        type Chosen<'r> = (
            PresetInfo,
            Vec<(String, String)>,
            &'r crate::loader::LoadedPlugin,
        );
        let mut chosen: Vec<Chosen> = Vec::new();
        for spec in presets {
            if chosen.iter().any(|(i, _, _)| i.id.as_str() == spec.id) {
                return Err(HostError::DuplicatePreset(spec.id.clone()));
            }
            let (pl, pinfo) = registry
                .presets()
                .find(|(_, p)| p.id.as_str() == spec.id)
                .ok_or_else(|| HostError::Unknown {
                    what: "preset",
                    id: spec.id.clone(),
                    suggestion: nearest(&spec.id, registry.presets().map(|(_, p)| p.id.as_str())),
                })?;
            if pinfo.hooks.0 & !HookSet::KNOWN.0 != 0 {
                return Err(newer(
                    "preset",
                    &spec.id,
                    pl,
                    format!("unknown hooks {:#x}", pinfo.hooks.0 & !HookSet::KNOWN.0),
                ));
            }
            if pinfo.after_move_stages & !stage::KNOWN != 0 {
                return Err(newer(
                    "preset",
                    &spec.id,
                    pl,
                    format!(
                        "unknown after-move stages {:#x}",
                        pinfo.after_move_stages & !stage::KNOWN
                    ),
                ));
            }
            let mut values: Vec<(String, String)> = Vec::new();
            for (k, v) in &spec.options {
                let opt = pinfo
                    .options
                    .iter()
                    .find(|o| o.key.as_str() == k)
                    .ok_or_else(|| HostError::BadOption {
                        preset: spec.id.clone(),
                        key: k.clone(),
                        reason: match nearest(k, pinfo.options.iter().map(|o| o.key.as_str())) {
                            Some(s) => format!("unknown option (did you mean `{s}`?)"),
                            None if pinfo.options.is_empty() => {
                                "unknown option (this preset takes none)".to_string()
                            }
                            None => format!(
                                "unknown option (known: {})",
                                pinfo
                                    .options
                                    .iter()
                                    .map(|o| o.key.as_str())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        },
                    })?;
                opt.validate(v).map_err(|reason| HostError::BadOption {
                    preset: spec.id.clone(),
                    key: k.clone(),
                    reason,
                })?;
                values.push((k.clone(), v.clone()));
            }
            for o in pinfo.options.iter() {
                if !values.iter().any(|(k, _)| k == o.key.as_str()) {
                    values.push((o.key.to_string(), o.default.to_string()));
                }
            }
            chosen.push((pinfo.clone(), values, pl));
        }
        // Requirements and incompatibilities.
        for (p, _, _) in &chosen {
            for r in p.requires.iter() {
                if !chosen.iter().any(|(q, _, _)| q.id == *r) {
                    return Err(HostError::MissingRequirement {
                        preset: p.id.to_string(),
                        requires: r.to_string(),
                    });
                }
            }
        }
        for (i, (p, _, _)) in chosen.iter().enumerate() {
            for (q, _, _) in chosen.iter().skip(i + 1) {
                if p.incompatible_with.contains(&q.id) || q.incompatible_with.contains(&p.id) {
                    return Err(HostError::Incompatible2 {
                        a: p.id.to_string(),
                        b: q.id.to_string(),
                    });
                }
            }
        }
        // Order: a preset comes after what it requires; otherwise as given.
        let mut ordered: Vec<usize> = Vec::new();
        while ordered.len() < chosen.len() {
            let before = ordered.len();
            for (i, (p, _, _)) in chosen.iter().enumerate() {
                if ordered.contains(&i) {
                    continue;
                }
                let ready = p.requires.iter().all(|r| {
                    ordered
                        .iter()
                        .any(|&j| chosen[j].0.id.as_str() == r.as_str())
                });
                if ready {
                    ordered.push(i);
                }
            }
            if ordered.len() == before {
                // A requirement cycle: keep the rest in the given order.
                let rest: Vec<usize> = (0..chosen.len()).filter(|i| !ordered.contains(i)).collect();
                ordered.extend(rest);
            }
        }

        let mut notes = Vec::new();
        // Layout: asked for, else a preset's preferred one, else the variant's first.
        let layout_id: Option<String> = match layout {
            Some(l) => Some(l.to_string()),
            None => chosen.iter().find_map(|(p, _, _)| {
                if let ROption::RSome(l) = &p.preferred_layout {
                    if info.layouts.iter().any(|x| x.id == *l) {
                        notes.push(format!(
                            "using layout `{l}`, preferred by preset `{}`",
                            p.id
                        ));
                        return Some(l.to_string());
                    }
                }
                None
            }),
        };
        let layout = match layout_id {
            Some(l) => info
                .layouts
                .iter()
                .find(|x| x.id.as_str() == l)
                .cloned()
                .ok_or_else(|| HostError::Unknown {
                    what: "layout",
                    id: l.clone(),
                    suggestion: nearest(&l, info.layouts.iter().map(|x| x.id.as_str())),
                })?,
            None => info
                .layouts
                .first()
                .cloned()
                .ok_or_else(|| HostError::Plugin {
                    plugin: variant_id.to_string(),
                    message: "the variant declares no layout".to_string(),
                })?,
        };

        let mut active = Vec::new();
        for i in ordered {
            let (pinfo, values, pl) = &chosen[i];
            let ov: RVec<OptionValue> = values
                .iter()
                .map(|(k, v)| OptionValue {
                    key: k.as_str().into(),
                    value: v.as_str().into(),
                })
                .collect();
            let object = call!(
                "preset",
                pinfo.id.as_str(),
                pl.id(),
                "new_preset",
                (pl.module.new_preset())(RStr::from_str(pinfo.id.as_str()), ov, &info)
            )?;
            active.push(ActivePreset {
                info: pinfo.clone(),
                options: values.clone(),
                plugin: pl.id().to_string(),
                object,
            });
        }
        let model = Pipeline::transform_model(&mut variant, variant_id, plugin.id(), &active)?;
        let mut p = Pipeline::assemble(variant, info, layout, active, notes);
        p.variant_plugin = plugin.id().to_string();
        if let Some(m) = model {
            p.use_model(m);
        }
        Ok(p)
    }

    /// The presets' transforms of the variant's rules model, in pipeline order, handed back to
    /// the variant (API 1.2). `None` when no preset transforms the model.
    fn transform_model(
        variant: &mut VariantBox,
        variant_id: &str,
        variant_plugin: &str,
        presets: &[ActivePreset],
    ) -> Result<Option<RulesModel>, HostError> {
        let mut transforming = presets
            .iter()
            .filter(|p| p.info.hooks.contains(HookSet::TRANSFORM_MODEL))
            .peekable();
        let Some(first) = transforming.peek() else {
            return Ok(None);
        };
        let mut model = call!(
            "variant",
            variant_id,
            variant_plugin,
            "rules_model",
            variant.rules_model()
        )?
        .into_option()
        .ok_or_else(|| HostError::NoRulesModel {
            variant: variant_id.to_string(),
            preset: first.info.id.to_string(),
        })?;
        for p in transforming {
            p.call("transform_model", |o| o.transform_model(&mut model))?
                .into_result()
                .map_err(|reason| HostError::Transform {
                    preset: p.info.id.to_string(),
                    reason: reason.to_string(),
                })?;
        }
        call!(
            "variant",
            variant_id,
            variant_plugin,
            "set_model",
            variant.set_model(&model)
        )?
        .into_result()
        .map_err(|reason| HostError::Transform {
            preset: format!("(the variant `{variant_id}` refused the transformed model)"),
            reason: reason.to_string(),
        })?;
        Ok(Some(model))
    }

    /// Takes the royal set and the check rule from the transformed model.
    fn use_model(&mut self, model: RulesModel) {
        self.royal_cells = RoyalCells::of(model.pieces.iter().map(|p| p.royal));
        self.has_default_royalty = model.has_royalty();
        if model.check == houserules_plugin_api::model::check_rule::ALL {
            // The variant plays the rule itself; the host's check facts and results follow.
            self.check_all = true;
        }
        self.model = Some(model);
    }

    /// Whether presets change movement, royalty or move effects through hooks (not through
    /// the rules model): the variant's dead-position tables may not hold then.
    fn rules_changed_by_hooks(&self) -> bool {
        self.movement_changed
            || self.hooks.intersects(
                HookSet::GET_ROYAL_PIECES
                    .with(HookSet::SHOULD_FILTER_SELF_CHECK)
                    .with(HookSet::PROTECTED_ROYALS)
                    .with(HookSet::IS_ATTACKED)
                    .with(HookSet::ON_BEFORE_MOVE)
                    .with(HookSet::SHOULD_ADVANCE_TURN),
            )
            || (self.hooks.contains(HookSet::ON_AFTER_MOVE) && !self.additive_effects_only())
    }

    /// Every after-move hook in force places no piece (the presets say `movement=none` or
    /// `movement=additive`).
    fn additive_effects_only(&self) -> bool {
        self.presets.iter().all(|p| {
            !p.info.hooks.contains(HookSet::ON_AFTER_MOVE)
                || matches!(
                    p.info.extra_value(EXTRA_MOVEMENT),
                    Some(MOVEMENT_NONE) | Some(MOVEMENT_ADDITIVE)
                )
        })
    }

    /// The rules model the variant plays after the presets' transforms (API 1.2); `None`
    /// when no preset transforms it.
    pub fn model(&self) -> Option<&RulesModel> {
        self.model.as_ref()
    }

    /// The rules model in force: the transformed one, else the variant's own (`None` when the
    /// variant publishes none). For descriptions of the pieces to other programs (XBoard's
    /// `piece` command).
    pub fn rules_model_in_force(&self) -> Result<Option<RulesModel>, HostError> {
        if let Some(m) = &self.model {
            return Ok(Some(m.clone()));
        }
        Ok(self
            .variant_call("rules_model", |v| v.rules_model())?
            .into_option())
    }

    fn assemble(
        variant: VariantBox,
        info: VariantInfo,
        layout: Layout,
        presets: Vec<ActivePreset>,
        notes: Vec<String>,
    ) -> Pipeline {
        let hooks = presets
            .iter()
            .fold(HookSet::default(), |h, p| h.with(p.info.hooks));
        let movement_changed = hooks.intersects(HookSet::MOVEMENT.with(HookSet::APPLY_MOVE));
        let extra_moves_only = movement_changed
            && !hooks
                .intersects(HookSet::OVERRIDE_PIECE_MOVES.with(HookSet::GET_LEGAL_MOVE_MODIFIERS));
        let plain = !hooks.intersects(
            HookSet::MOVEMENT
                .with(HookSet::GET_ROYAL_PIECES)
                .with(HookSet::SHOULD_FILTER_SELF_CHECK)
                .with(HookSet::IS_ATTACKED)
                .with(HookSet::PROTECTED_ROYALS)
                .with(HookSet::APPLY_MOVE)
                .with(HookSet::ON_BEFORE_MOVE)
                .with(HookSet::ON_AFTER_MOVE)
                .with(HookSet::SHOULD_ADVANCE_TURN),
        );
        let check_all = presets
            .iter()
            .any(|p| p.info.extra_value(EXTRA_CHECK_RULE) == Some("all"));
        let plain = plain && !check_all;
        // Hooks that cannot change which moves are legal.
        let neutral = HookSet::SETUP_POSITION
            .with(HookSet::FILTER_LEGAL_MOVES)
            .with(HookSet::ON_CHECK_GAME_RESULT)
            .with(HookSet::TRANSFORM_MODEL)
            .with(HookSet::EVALUATE);
        let recording = neutral
            .with(HookSet::ON_AFTER_MOVE)
            .with(HookSet::AFTER_MOVE_QUERY);
        let adding = recording
            .with(HookSet::GET_EXTRA_MOVES)
            .with(HookSet::IS_ATTACKED)
            .with(HookSet::GET_LEGAL_MOVE_MODIFIERS);
        let additive = !plain
            && !check_all
            && presets.iter().all(|p| {
                let allowed = match p.info.extra_value(EXTRA_MOVEMENT) {
                    Some(MOVEMENT_ADDITIVE) => adding,
                    Some(MOVEMENT_NONE) => recording,
                    _ => neutral,
                };
                p.info.hooks.0 & !allowed.0 == 0
            });
        let royal_cells = RoyalCells::of(info.pieces.iter().map(|t| t.royal));
        let has_default_royalty = info.pieces.iter().any(|t| t.royal);
        let mut stage_order = Vec::new();
        for st in houserules_plugin_api::stage::ALL {
            let mut idx: Vec<usize> = presets
                .iter()
                .enumerate()
                .filter(|(_, p)| {
                    p.info.hooks.contains(HookSet::ON_AFTER_MOVE)
                        && p.info.after_move_stages & (1 << st) != 0
                })
                .map(|(i, _)| i)
                .collect();
            idx.sort_by_key(|&i| presets[i].info.priority);
            if !idx.is_empty() {
                stage_order.push((st, idx));
            }
        }
        Pipeline {
            variant,
            variant_plugin: String::new(),
            info,
            layout,
            presets,
            notes,
            hooks,
            plain,
            movement_changed,
            extra_moves_only,
            additive,
            royal_cells,
            has_default_royalty,
            stage_order,
            check_all,
            model: None,
        }
    }

    /// The variant id.
    pub fn variant_id(&self) -> &str {
        self.info.id.as_str()
    }

    /// Whether the variant's own legal generator and attack test are used (no preset
    /// changes movement, royalty, attacks or move effects).
    pub fn is_plain(&self) -> bool {
        self.plain
    }

    /// Whether the additive path is in use (every preset only adds moves, see
    /// [`MOVEMENT_ADDITIVE`]).
    pub fn is_additive(&self) -> bool {
        self.additive
    }

    /// Uses the generic path even where the plain or additive one applies (pseudo-legal
    /// moves, every candidate made and tested through the pipeline): the reference that tests
    /// of fast paths compare against.
    pub fn force_generic_path(&mut self) {
        self.additive = false;
        self.plain = false;
    }

    fn each(&self, hook: HookSet) -> impl Iterator<Item = &ActivePreset> {
        self.presets
            .iter()
            .filter(move |p| p.info.hooks.contains(hook))
    }

    fn vname(&self) -> &str {
        self.info.id.as_str()
    }

    /// A call of the variant's hook `hook`: `f` given the variant's object, supervised as
    /// [`call!`] says.
    #[inline]
    fn variant_call<T>(
        &self,
        hook: &'static str,
        f: impl FnOnce(&VariantBox) -> RResult<T, PluginError>,
    ) -> Result<T, HostError> {
        call!(
            "variant",
            self.vname(),
            self.variant_plugin.as_str(),
            hook,
            f(&self.variant)
        )
    }

    /// The variant's move generator, supervised like every plugin call.
    fn generate(
        &self,
        pos: &Position,
        req: &GenRequest,
        out: &mut RVec<Move>,
    ) -> Result<(), HostError> {
        self.variant_call("generate", |v| v.generate(pos, req, out))
    }

    /// Whether the variant replays whole main lines itself ([`Pipeline::replay_line`]): it
    /// declares [`VariantFlags::REPLAYS_LINES`] (API 1.6) and no preset is active (a preset's
    /// hooks act at every ply, which only the move-by-move path runs).
    pub fn replays_lines(&self) -> bool {
        self.presets.is_empty() && self.info.flags.contains(VariantFlags::REPLAYS_LINES)
    }

    /// The variant's own replay of the SAN `tokens` from `pos`
    /// ([`houserules_plugin_api::VariantRules::replay_line`]): the plies up to the first token
    /// it did not resolve. `None` when the pipeline does not replay lines or the variant
    /// declined.
    pub fn replay_line(
        &self,
        pos: &Position,
        tokens: &[&str],
    ) -> Result<Option<ReplayedLine>, HostError> {
        if !self.replays_lines() {
            return Ok(None);
        }
        self.line_call("replay_line", tokens, |v, t| v.replay_line(pos, t))
    }

    /// Calls the variant's line hook `hook` (`replay_line`, `describe_line`) with `tokens`.
    fn line_call<T>(
        &self,
        hook: &'static str,
        tokens: &[&str],
        f: impl FnOnce(&VariantBox, RSlice<'_, RStr<'_>>) -> RResult<ROption<T>, PluginError>,
    ) -> Result<Option<T>, HostError> {
        let tokens: Vec<RStr<'_>> = tokens.iter().map(|t| RStr::from_str(t)).collect();
        let line = self.variant_call(hook, |v| f(v, RSlice::from_slice(&tokens)))?;
        Ok(line.into_option())
    }

    /// Whether the variant also describes the lines it replays
    /// ([`Pipeline::describe_line`]): it declares [`VariantFlags::DESCRIBES_LINES`] (API 1.7)
    /// besides replaying lines.
    pub fn describes_lines(&self) -> bool {
        self.replays_lines() && self.info.flags.contains(VariantFlags::DESCRIBES_LINES)
    }

    /// The variant's own replay of the SAN `tokens` from `pos` with the texts of every ply
    /// ([`houserules_plugin_api::VariantRules::describe_line`]). `None` when the pipeline does
    /// not describe lines or the variant declined.
    pub fn describe_line(
        &self,
        pos: &Position,
        tokens: &[&str],
    ) -> Result<Option<DescribedLine>, HostError> {
        if !self.describes_lines() {
            return Ok(None);
        }
        self.line_call("describe_line", tokens, |v, t| v.describe_line(pos, t))
    }

    /// Whether the variant or a preset adds terms to the engine's evaluation (API 1.3).
    pub fn has_evaluation_terms(&self) -> bool {
        self.info.flags.contains(VariantFlags::EVALUATES) || self.hooks.contains(HookSet::EVALUATE)
    }

    /// The terms the variant ([`VariantFlags::EVALUATES`]) and the presets
    /// ([`HookSet::EVALUATE`]) add to the engine's evaluation, in centipawns for White.
    pub fn evaluation_terms(&self, pos: &Position) -> Result<i32, HostError> {
        let mut total = 0i32;
        if self.info.flags.contains(VariantFlags::EVALUATES) {
            let v = self.variant_call("evaluate", |v| v.evaluate(pos))?;
            total = total.saturating_add(v);
        }
        for p in self.each(HookSet::EVALUATE) {
            let v = p.call("evaluate", |o| o.evaluate(pos))?;
            total = total.saturating_add(v);
        }
        Ok(total)
    }

    /// Parses a FEN through the variant (no preset setup is run: a FEN is a full position).
    /// Error columns count characters (variants and the extension reader count bytes, which
    /// is the same for the ASCII a valid FEN is made of; here they become characters).
    pub fn parse_fen(&self, fen: &str) -> Result<Position, HostError> {
        self.parse_fen_bytes(fen).map_err(|e| match e {
            HostError::Fen { fen, mut error } => {
                let byte = (error.column as usize).min(fen.len());
                let chars = fen.as_bytes()[..byte]
                    .iter()
                    .filter(|b| (**b & 0xC0) != 0x80)
                    .count();
                error.column = chars as u32;
                HostError::Fen { fen, error }
            }
            other => other,
        })
    }

    /// [`Pipeline::parse_fen`] with error columns in bytes.
    fn parse_fen_bytes(&self, fen: &str) -> Result<Position, HostError> {
        let (core, ext) = crate::fen::split_extension(fen);
        // En passant as stored by the presets' rules (see `host_en_passant`): a two-square
        // field is read by the host; a one-square field the variant judged unusable by its
        // own rules is kept when it is consistent.
        let mut two_squares = None;
        let mut single = None;
        let stripped;
        let core = if self.host_en_passant() {
            if let Some((c, passed, victim)) = crate::fen::take_two_square_ep(core) {
                two_squares = Some((passed, victim));
                stripped = c;
                stripped.as_str()
            } else {
                single = crate::fen::single_square_ep(core);
                core
            }
        } else {
            core
        };
        // With presets in force the variant only reads the setup; the pipeline validates it.
        let r = if self.presets.is_empty() {
            self.variant_call("parse_fen", |v| v.parse_fen(RStr::from_str(core)))?
        } else {
            self.variant_call("parse_setup", |v| v.parse_setup(RStr::from_str(core)))?
        };
        let mut pos = r.into_result().map_err(|error| HostError::Fen {
            fen: fen.to_string(),
            error,
        })?;
        if let Some((a, b)) = two_squares {
            let them = pos.side_to_move.opposite();
            // The passed square is the empty one; the other holds the piece to take.
            let (passed, victim) = if pos.get(a).is_empty() {
                (a, b)
            } else {
                (b, a)
            };
            if !pos.on_board(passed)
                || !pos.get(passed).is_empty()
                || !pos.get(victim).is_color(them)
            {
                let column = crate::fen::ep_field_column(fen).unwrap_or(0) as u32;
                return Err(HostError::Fen {
                    fen: fen.to_string(),
                    error: houserules_plugin_api::FenError::new(
                        3,
                        column,
                        format!(
                            "en passant {a}{b}: one square must be empty and the other hold \
                             a {} piece",
                            them.name()
                        ),
                    ),
                });
            }
            pos.ep_passed = passed;
            pos.ep_victim = victim;
            pos.invalidate_accel();
        } else if let Some(passed) =
            single.filter(|_| pos.ep_passed.is_none() && self.model.is_none())
        {
            // (A variant playing a transformed model judged the square by the rules in force.)
            let them = pos.side_to_move.opposite();
            if let Some(victim) = pos.offset(passed, 0, them.forward()) {
                if pos.get(passed).is_empty() && pos.get(victim).is_color(them) {
                    pos.ep_passed = passed;
                    pos.ep_victim = victim;
                    pos.invalidate_accel();
                }
            }
        }
        if let Some(ext) = ext {
            crate::fen::apply_extension(&mut pos, ext, core.len() + 1).map_err(|error| {
                HostError::Fen {
                    fen: fen.to_string(),
                    error,
                }
            })?;
        }
        if self.host_en_passant() {
            self.normalize_ep(&mut pos)?;
        }
        // The side that just moved cannot have left a protected royal attacked.
        let waiting = pos.side_to_move.opposite();
        if self.royal_attacked(&pos, waiting)? {
            let column = core.find(char::is_whitespace).unwrap_or(0) as u32 + 1;
            return Err(HostError::Fen {
                fen: fen.to_string(),
                error: houserules_plugin_api::FenError::new(
                    1,
                    column,
                    format!(
                        "{} is in check but it is {}'s move",
                        waiting.name(),
                        pos.side_to_move.name()
                    ),
                ),
            });
        }
        Ok(pos)
    }

    /// Keeps an en passant right only when the rules in force give the side to move an en
    /// passant capture (legal; or pseudo-legal where the rules model records rights that way),
    /// so that a FEN and the position it reads into agree with what the rules make of it.
    fn normalize_ep(&self, pos: &mut Position) -> Result<(), HostError> {
        if pos.ep_passed.is_none() {
            return Ok(());
        }
        let pseudo = self
            .model
            .as_ref()
            .is_some_and(|m| m.en_passant == houserules_plugin_api::model::ep_policy::PSEUDO);
        let mut moves = RVec::new();
        if pseudo {
            self.pseudo_moves(pos, pos.side_to_move, &mut moves)?;
        } else {
            self.legal_moves(pos, &mut moves)?;
        }
        if !moves
            .iter()
            .any(|m| m.flags.contains(MoveFlags::EN_PASSANT))
        {
            pos.ep_passed = Square::NONE;
            pos.ep_victim = Square::NONE;
            pos.invalidate_accel();
        }
        Ok(())
    }

    /// Writes a FEN (the variant's, plus the host's extension for attributes and state).
    pub fn write_fen(&self, pos: &Position) -> Result<String, HostError> {
        let mut s = self
            .variant_call("write_fen", |v| v.write_fen(pos))?
            .to_string();
        if self.host_en_passant() {
            crate::fen::write_ep_field(&mut s, pos);
        }
        crate::fen::write_extension(pos, &mut s);
        Ok(s)
    }

    /// Whether the host writes and reads the en passant field as the position stores it:
    /// when presets are active (their rules, not the variant's, decide which en passant
    /// captures exist — Berolina pawns take on a square whose victim stands diagonally
    /// behind it, kingless sides of suicide chess may take) and the variant has no two-square
    /// field of its own. One square when the victim stands right behind the passed square,
    /// else Fairy-Stockfish's two-square form: both squares in board order (`c3d4`, `f5g6`).
    fn host_en_passant(&self) -> bool {
        (!self.plain || self.model.is_some())
            && !self.info.flags.contains(VariantFlags::TWO_SQUARE_EP)
    }

    /// The start position of the layout, with the presets' setup applied.
    pub fn start_position(&self) -> Result<Position, HostError> {
        self.game_start(self.layout.fen.as_str())
    }

    /// The position a game starting from `fen` starts in: the FEN with the presets' setup
    /// applied. Setup hooks seed only what the FEN does not say already (a FEN written by
    /// houserules carries its attributes and state), so this is idempotent on such FENs.
    pub fn game_start(&self, fen: &str) -> Result<Position, HostError> {
        let mut pos = self.parse_fen(fen)?;
        for p in self.each(HookSet::SETUP_POSITION) {
            p.call("setup_position", |o| o.setup_position(&mut pos))?;
        }
        Ok(pos)
    }

    /// The position a game starts in: from a FEN, or the layout's start position.
    pub fn position(&self, fen: Option<&str>) -> Result<Position, HostError> {
        match fen {
            Some(f) => self.game_start(f),
            None => self.start_position(),
        }
    }

    /// Pseudo-legal moves of `side` through the generation stage of the pipeline.
    pub fn pseudo_moves(
        &self,
        pos: &Position,
        side: Color,
        out: &mut RVec<Move>,
    ) -> Result<(), HostError> {
        out.clear();
        let mut claimed = SquareSet::EMPTY;
        for p in self.each(HookSet::OVERRIDE_PIECE_MOVES) {
            p.call("override_piece_moves", |o| {
                o.override_piece_moves(pos, side, &mut claimed, out)
            })?;
        }
        let req = GenRequest::new(side, false, claimed);
        self.generate(pos, &req, out)?;
        for p in self.each(HookSet::GET_EXTRA_MOVES) {
            p.call("get_extra_moves", |o| o.get_extra_moves(pos, side, out))?;
        }
        for p in self.each(HookSet::GET_LEGAL_MOVE_MODIFIERS) {
            p.call("get_legal_move_modifiers", |o| {
                o.get_legal_move_modifiers(pos, side, out)
            })?;
        }
        if self
            .hooks
            .intersects(HookSet::OVERRIDE_PIECE_MOVES.with(HookSet::GET_EXTRA_MOVES))
        {
            dedup_in_order(out);
        }
        Ok(())
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&self, pos: &Position, out: &mut RVec<Move>) -> Result<(), HostError> {
        let side = pos.side_to_move;
        if self.additive {
            self.legal_moves_additive(pos, out)?;
        } else if self.plain {
            out.clear();
            let req = GenRequest::new(side, true, SquareSet::EMPTY);
            self.generate(pos, &req, out)?;
        } else {
            self.pseudo_moves(pos, side, out)?;
            self.keep_legal(pos, out)?;
        }
        for p in self.each(HookSet::FILTER_LEGAL_MOVES) {
            p.call("filter_legal_moves", |o| o.filter_legal_moves(pos, out))?;
        }
        Ok(())
    }

    /// The legal moves of the side to move that end on `to` (when given) and are made by a
    /// piece of a kind in `kinds` (bit `k`: kind `k`; 0: any): exactly the moves of
    /// [`Pipeline::legal_moves`] that pass the filter, in the same order. On a plain pipeline
    /// without a legal-move filter the variant is asked for just those (the
    /// [`GenRequest`] hint); on the generic path only the matching pseudo-legal moves are made
    /// and tested; with a legal-move filter the full list is made and filtered, as the
    /// preset's hook may need the whole list.
    pub fn legal_moves_matching(
        &self,
        pos: &Position,
        to: Option<Square>,
        kinds: u32,
        out: &mut RVec<Move>,
    ) -> Result<(), HostError> {
        let mut req = GenRequest::new(pos.side_to_move, true, SquareSet::EMPTY).of_kinds(kinds);
        if let Some(to) = to {
            req = req.to_square(to);
        }
        let whole_list = self.hooks.contains(HookSet::FILTER_LEGAL_MOVES);
        if !self.plain && !self.additive && !whole_list {
            // The generic path judges each move alone: only the asked ones are made and
            // tested (the costly part), in the order of the full list.
            self.pseudo_moves(pos, pos.side_to_move, out)?;
            keep_wanted(pos, &req, out);
            return self.keep_legal(pos, out);
        }
        if self.plain && !whole_list {
            out.clear();
            self.generate(pos, &req, out)?;
        } else {
            self.legal_moves(pos, out)?;
        }
        // A variant may ignore the hint: keep only what it asks for.
        keep_wanted(pos, &req, out);
        Ok(())
    }

    /// Keeps the pseudo-legal moves of `out` that are legal on the generic path: castling
    /// through no attacked square, and every royal of the mover safe after the move is made.
    /// Each move is judged alone, so any part of the pseudo-legal list may be given.
    fn keep_legal(&self, pos: &Position, out: &mut RVec<Move>) -> Result<(), HostError> {
        let side = pos.side_to_move;
        let filter_self = self.filters_self_check(pos, side)?;
        let protected_before = self.protected_royals(pos, side)?;
        // One child position for every trial: copied over, its buffers reused.
        let mut child = pos.clone();
        let mut kept = 0;
        for i in 0..out.len() {
            let m = out[i];
            if m.is_castle() {
                if let Some(r) = &protected_before {
                    if r.contains(m.from) && !self.castle_path_safe(pos, m)? {
                        continue;
                    }
                }
            }
            if filter_self && !self.leaves_royals_safe(pos, m, &mut child)? {
                continue;
            }
            out[kept] = m;
            kept += 1;
        }
        out.truncate(kept);
        Ok(())
    }

    /// Whether `m` leaves the mover's royals unattacked. The move is made in full (every
    /// preset effect, the turn decision and turn-end effects included) before the royals are
    /// tested.
    /// `child` is scratch space (its contents are replaced).
    fn leaves_royals_safe(
        &self,
        pos: &Position,
        m: Move,
        child: &mut Position,
    ) -> Result<bool, HostError> {
        let side = pos.side_to_move;
        child.clone_from(pos);
        let mut fx = MoveEffects::new(side, false);
        self.apply_inner(child, m, &mut fx, false, Some(pos))?;
        Ok(!self.royal_attacked(child, side)?)
    }

    /// Legal moves when every preset only adds moves: the variant's legal moves (its pins and
    /// check masks), less those that leave a royal attacked by what the presets add, then the
    /// added moves, each made in full and tested. Every capture an added move can make is
    /// reported by its preset's `is_attacked` (the [`MOVEMENT_ADDITIVE`] promise), so no
    /// move generation is needed for attack tests.
    fn legal_moves_additive(&self, pos: &Position, out: &mut RVec<Move>) -> Result<(), HostError> {
        let side = pos.side_to_move;
        out.clear();
        let req = GenRequest::new(side, true, SquareSet::EMPTY);
        self.generate(pos, &req, out)?;
        if self.hooks.contains(HookSet::IS_ATTACKED) {
            // The variant's legal moves leave no royal attacked by the variant's pieces; only
            // the presets' added captures remain to test, after the variant's own application
            // (the presets' after-move hooks place no piece: the additive promise).
            let by = side.opposite();
            let mut keep = RVec::with_capacity(out.len());
            let mut child = pos.clone();
            for &m in out.iter() {
                if m.is_castle() && !self.castle_path_safe(pos, m)? {
                    continue;
                }
                child.clone_from(pos);
                let mut fx = MoveEffects::new(side, false);
                self.variant_call("apply", |v| v.apply(&mut child, m, &mut fx))?;
                let mut hit = false;
                if let Some(royals) = self.royals(&child, side)? {
                    'royals: for r in royals.iter() {
                        for p in self.each(HookSet::IS_ATTACKED) {
                            if p.call("is_attacked", |o| o.is_attacked(&child, r, by))?
                                == Decision::YES
                            {
                                hit = true;
                                break 'royals;
                            }
                        }
                    }
                }
                if !hit {
                    keep.push(m);
                }
            }
            *out = keep;
        }
        let mut extra = RVec::new();
        for p in self.each(HookSet::GET_EXTRA_MOVES) {
            p.call("get_extra_moves", |o| {
                o.get_extra_moves(pos, side, &mut extra)
            })?;
        }
        let mut child = pos.clone();
        for &m in extra.iter() {
            // A move the variant already lists (legal or not) is the same move.
            if out.contains(&m) || (m.is_castle() && !self.castle_path_safe(pos, m)?) {
                continue;
            }
            if self.leaves_royals_safe(pos, m, &mut child)? {
                out.push(m);
            }
        }
        // Modifiers of additive presets only remove moves (never a capture), so applying them
        // to legal moves removes what they would have removed from the pseudo-legal ones.
        for p in self.each(HookSet::GET_LEGAL_MOVE_MODIFIERS) {
            p.call("get_legal_move_modifiers", |o| {
                o.get_legal_move_modifiers(pos, side, out)
            })?;
        }
        Ok(())
    }

    /// Number of legal moves (bulk counting): the variant's fast count on a plain pipeline.
    pub fn legal_move_count(&self, pos: &Position, buf: &mut RVec<Move>) -> Result<u64, HostError> {
        let variant_count = self.plain
            || (self.additive
                && !self.hooks.intersects(
                    HookSet::GET_EXTRA_MOVES
                        .with(HookSet::IS_ATTACKED)
                        .with(HookSet::GET_LEGAL_MOVE_MODIFIERS),
                ));
        if variant_count && !self.hooks.contains(HookSet::FILTER_LEGAL_MOVES) {
            self.variant_call("legal_move_count", |v| v.legal_move_count(pos))
        } else {
            self.legal_moves(pos, buf)?;
            Ok(buf.len() as u64)
        }
    }

    /// Whether the self-check filter applies to `side` (last preset with an opinion wins).
    fn filters_self_check(&self, pos: &Position, side: Color) -> Result<bool, HostError> {
        let mut v = true;
        for p in self.each(HookSet::SHOULD_FILTER_SELF_CHECK) {
            if let Some(b) = p
                .call("should_filter_self_check", |o| {
                    o.should_filter_self_check(pos, side)
                })?
                .to_option()
            {
                v = b;
            }
        }
        Ok(v)
    }

    /// The remaining search depth from which the engine prunes, where the variant or an
    /// active preset asks for one ([`EXTRA_SEARCH_PRUNING_DEPTH`]: the highest, values
    /// outside 2..=16 ignored).
    pub fn search_pruning_depth(&self) -> Option<i32> {
        self.extra_values(EXTRA_SEARCH_PRUNING_DEPTH)
            .filter_map(pruning_depth_asked)
            .max()
    }

    /// Whether the engine may prune quiet moves near the leaves: not where the variant or an
    /// active preset says `no` ([`EXTRA_SEARCH_QUIET_PRUNING`]).
    pub fn search_quiet_pruning(&self) -> bool {
        !self
            .extra_values(EXTRA_SEARCH_QUIET_PRUNING)
            .any(|v| v.trim().eq_ignore_ascii_case("no"))
    }

    /// Whether the variant's moves that differ only in `Move::special` are one move with a
    /// detail chosen after it ([`EXTRA_SEARCH_MOVE_DETAIL`] `special`, said by the variant
    /// and contradicted by no active preset).
    pub fn search_move_detail_in_special(&self) -> bool {
        self.info.extra_value(EXTRA_SEARCH_MOVE_DETAIL) == Some("special")
            && self
                .extra_values(EXTRA_SEARCH_MOVE_DETAIL)
                .all(|v| v == "special")
    }

    /// The values of the `extra` entry `key` in the variant's info and in each active
    /// preset's.
    fn extra_values<'a>(&'a self, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        std::iter::once(self.info.extra_value(key))
            .chain(self.presets.iter().map(move |p| p.info.extra_value(key)))
            .flatten()
    }

    /// Whether the variant marks squares with its moves ([`VariantFlags::MOVE_MARKS`]).
    pub fn marks_moves(&self) -> bool {
        self.info.flags.contains(VariantFlags::MOVE_MARKS)
    }

    /// Whether a rule reads the per-ply check facts of a game's history: the variant's own
    /// repetition rules (perpetual check) or a result that needs check facts.
    pub fn reads_check_history(&self) -> bool {
        self.info.flags.contains(VariantFlags::OWN_REPETITION) || self.results_need_check()
    }

    /// Whether repetition counts only the positions since the halfmove clock's last reset
    /// (the variant's rule, [`VariantFlags::REPETITION_SINCE_CLOCK_RESET`]).
    pub fn repetition_since_clock_reset(&self) -> bool {
        self.info
            .flags
            .contains(VariantFlags::REPETITION_SINCE_CLOCK_RESET)
    }

    /// The squares the variant marks with `mv`, `before` → `after` (API 1.5; empty unless it
    /// declares [`VariantFlags::MOVE_MARKS`]).
    pub fn move_mark(
        &self,
        before: &Position,
        mv: Move,
        after: &Position,
    ) -> Result<SquareSet, HostError> {
        if !self.marks_moves() {
            return Ok(SquareSet::EMPTY);
        }
        self.variant_call("move_mark", |v| v.move_mark(before, mv, after))
    }

    /// The royal pieces of `color`; `None` when the side has no royalty at all.
    pub fn royals(&self, pos: &Position, color: Color) -> Result<Option<SquareSet>, HostError> {
        let mut r = if self.info.flags.contains(VariantFlags::DYNAMIC_ROYALS) {
            // The variant says which pieces are royal now (API 1.4).
            self.variant_call("royals", |v| v.royals(pos, color))?
                .into_option()
        } else if self.has_default_royalty {
            // This runs for every candidate move on the generic path.
            Some(self.royal_cells.squares(pos, color))
        } else {
            None
        };
        // With no hook involved the default set is the answer.
        if !self.hooks.contains(HookSet::GET_ROYAL_PIECES) {
            return Ok(r);
        }
        for p in self.each(HookSet::GET_ROYAL_PIECES) {
            let mut s = SquareSet::EMPTY;
            match p.call("get_royal_pieces", |o| {
                o.get_royal_pieces(pos, color, &mut s)
            })? {
                Decision::YES => r = Some(s),
                Decision::NO => r = None,
                _ => {}
            }
        }
        Ok(r)
    }

    /// Whether a piece of `by` attacks `sq` through the pipeline.
    pub fn attacked(&self, pos: &Position, sq: Square, by: Color) -> Result<bool, HostError> {
        for p in self.each(HookSet::IS_ATTACKED) {
            if p.call("is_attacked", |o| o.is_attacked(pos, sq, by))? == Decision::YES {
                return Ok(true);
            }
        }
        if !self.movement_changed || self.additive {
            // Additive presets report their own captures above.
            return self.variant_call("is_attacked", |v| v.is_attacked(pos, sq, by));
        }
        let target = pos.get(sq);
        if !target.is_color(by.opposite()) {
            // Only occupied squares can be captured onto: stand a piece of the other side
            // there (the royal itself is the usual probe, see castle_path_safe).
            return Ok(false);
        }
        let mut moves = RVec::new();
        if self.extra_moves_only {
            // The presets only add moves: the variant's own attack test answers for the
            // moves it generates, and only the added moves need generating.
            if self.variant_call("is_attacked", |v| v.is_attacked(pos, sq, by))? {
                return Ok(true);
            }
            for p in self.each(HookSet::GET_EXTRA_MOVES) {
                p.call("get_extra_moves", |o| {
                    o.get_extra_moves(pos, by, &mut moves)
                })?;
            }
        } else {
            self.pseudo_moves(pos, by, &mut moves)?;
        }
        Ok(moves
            .iter()
            .any(|m| !m.is_drop() && !m.is_castle() && m.destination() == sq))
    }

    /// The royals of `color` that the self-check filter protects (all royals, less those a
    /// preset's `protected_royals` lets be attacked); `None` without royalty.
    pub fn protected_royals(
        &self,
        pos: &Position,
        color: Color,
    ) -> Result<Option<SquareSet>, HostError> {
        let r = self.royals(pos, color)?;
        self.protect(pos, color, r)
    }

    /// The royals `r` of `color` with the presets' protection applied
    /// ([`HookSet::PROTECTED_ROYALS`]).
    fn protect(
        &self,
        pos: &Position,
        color: Color,
        mut r: Option<SquareSet>,
    ) -> Result<Option<SquareSet>, HostError> {
        if let Some(set) = r.as_mut() {
            for p in self.each(HookSet::PROTECTED_ROYALS) {
                p.call("protected_royals", |o| o.protected_royals(pos, color, set))?;
            }
        }
        Ok(r)
    }

    /// Whether a protected royal of `color` is attacked by the other side (check). Under the
    /// "all royals" check rule ([`EXTRA_CHECK_RULE`]): whether every protected royal is.
    pub fn royal_attacked(&self, pos: &Position, color: Color) -> Result<bool, HostError> {
        let protected = self.protected_royals(pos, color)?;
        self.any_royal_attacked(pos, color, protected)
    }

    /// [`Pipeline::royal_attacked`] for `color`'s protected royals `protected`, known already.
    fn any_royal_attacked(
        &self,
        pos: &Position,
        color: Color,
        protected: Option<SquareSet>,
    ) -> Result<bool, HostError> {
        if let Some(r) = protected {
            if self.check_all {
                if r.is_empty() {
                    return Ok(false);
                }
                for sq in r.iter() {
                    if !self.attacked(pos, sq, color.opposite())? {
                        return Ok(false);
                    }
                }
                return Ok(true);
            }
            for sq in r.iter() {
                if self.attacked(pos, sq, color.opposite())? {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Castling: the king's square and every square it crosses must not be attacked.
    fn castle_path_safe(&self, pos: &Position, m: Move) -> Result<bool, HostError> {
        let by = pos.side_to_move.opposite();
        let (from, to) = (m.from, m.via);
        if self.attacked(pos, from, by)? {
            return Ok(false);
        }
        let step: i8 = if to.file() > from.file() { 1 } else { -1 };
        let mut f = from.file() as i8;
        while f != to.file() as i8 {
            f += step;
            let sq = Square::new(f as u8, from.rank());
            // Probe with the king standing there (the rook may stand in the way; lift it).
            let mut probe = pos.clone();
            probe.clear(m.to);
            probe.move_piece(from, sq);
            if self.attacked(&probe, sq, by)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Applies a legal move through the whole pipeline: `on_before_move`, the variant (or a
    /// preset's `apply_move`), the `on_after_move` stages up to `CONDITIONAL`, the turn
    /// decision, and — only when the turn passes — the `TURN_END` and `TURN_START` stages.
    /// A side kept on move (multi-move turns) with no legal move passes the turn.
    pub fn apply(
        &self,
        pos: &mut Position,
        mv: Move,
        fx: &mut MoveEffects,
    ) -> Result<(), HostError> {
        self.apply_inner(pos, mv, fx, true, None)
    }

    fn apply_inner(
        &self,
        pos: &mut Position,
        mv: Move,
        fx: &mut MoveEffects,
        may_pass: bool,
        before: Option<&Position>,
    ) -> Result<(), HostError> {
        if self.plain {
            return self.variant_call("apply", |v| v.apply(pos, mv, fx));
        }
        let mover = pos.side_to_move;
        let before_fullmove = pos.fullmove_number;
        // The stages compare with the position before the move: the caller's copy if it
        // has one (a legality trial's parent), else a copy made here.
        let copy = match (before, self.stage_order.is_empty()) {
            (None, false) => Some(pos.clone()),
            _ => None,
        };
        let before = before.or(copy.as_ref());
        for p in self.each(HookSet::ON_BEFORE_MOVE) {
            p.call("on_before_move", |o| o.on_before_move(pos, mv, fx))?;
        }
        let mut applied = false;
        for p in self.each(HookSet::APPLY_MOVE) {
            if p.call("apply_move", |o| o.apply_move(pos, mv, fx))? == Decision::YES {
                applied = true;
                break;
            }
        }
        if !applied {
            self.variant_call("apply", |v| v.apply(pos, mv, fx))?;
        }
        self.run_stages(pos, before, mv, fx, |st| st < stage::TURN_END)?;
        let mut advance = true;
        if self.hooks.contains(HookSet::SHOULD_ADVANCE_TURN) {
            self.check_facts(pos, mover, fx)?;
            for p in self.each(HookSet::SHOULD_ADVANCE_TURN) {
                if let Some(b) = p
                    .call("should_advance_turn", |o| {
                        o.should_advance_turn(pos, mv, fx)
                    })?
                    .to_option()
                {
                    advance = b;
                }
            }
        }
        if !advance {
            // The mover plays again: the variant handed the turn over, take it back. An en
            // passant right belongs to the opponent's immediate reply, which this is not.
            pos.side_to_move = mover;
            pos.turn_phase = pos.turn_phase.saturating_add(1);
            pos.fullmove_number = before_fullmove;
            pos.ep_passed = Square::NONE;
            pos.ep_victim = Square::NONE;
            pos.invalidate_accel();
            if may_pass {
                let mut replies = RVec::new();
                self.legal_moves(pos, &mut replies)?;
                if replies.is_empty() {
                    pos.side_to_move = mover.opposite();
                    if mover == Color::Black {
                        pos.fullmove_number = pos.fullmove_number.saturating_add(1);
                    }
                    let mut e =
                        Event::new(EventKind::TURN_PASSED, Square::NONE, Default::default());
                    e.value = mover.index() as i32;
                    fx.event(e);
                    advance = true;
                }
            }
        }
        if advance {
            pos.turn_phase = 0;
            self.run_stages(pos, before, mv, fx, |st| st >= stage::TURN_END)?;
        }
        Ok(())
    }

    /// `gives_check` and `mover_in_check` for hooks that read them.
    fn check_facts(
        &self,
        pos: &Position,
        mover: Color,
        fx: &mut MoveEffects,
    ) -> Result<(), HostError> {
        fx.gives_check = self.royal_attacked(pos, mover.opposite())?;
        fx.mover_in_check = self.royal_attacked(pos, mover)?;
        Ok(())
    }

    fn run_stages(
        &self,
        pos: &mut Position,
        before: Option<&Position>,
        mv: Move,
        fx: &mut MoveEffects,
        which: impl Fn(u8) -> bool,
    ) -> Result<(), HostError> {
        let Some(before) = before else {
            return Ok(());
        };
        for (st, idx) in self.stage_order.iter().filter(|(st, _)| which(*st)) {
            for &i in idx {
                let p = &self.presets[i];
                if *st >= stage::TURN_END {
                    // Turn-end effects read the check state as it is when they run.
                    self.check_facts(pos, fx.mover, fx)?;
                }
                if p.info.hooks.contains(HookSet::AFTER_MOVE_QUERY) {
                    let q = PipelineQuery {
                        pipeline: self,
                        error: RefCell::new(None),
                    };
                    p.call("on_after_move_with", |o| {
                        o.on_after_move_with(pos, before, mv, *st, fx, host_query(&q))
                    })?;
                    if let Some(e) = q.error.into_inner() {
                        return Err(e);
                    }
                } else {
                    p.call("on_after_move", |o| {
                        o.on_after_move(pos, before, mv, *st, fx)
                    })?;
                }
            }
        }
        Ok(())
    }

    /// Squares of `by`'s pieces with a capturing move onto `sq`, through the pipeline.
    pub fn attackers(&self, pos: &Position, sq: Square, by: Color) -> Result<SquareSet, HostError> {
        let mut set = SquareSet::EMPTY;
        if !pos.get(sq).is_color(by.opposite()) {
            return Ok(set);
        }
        let mut moves = RVec::new();
        self.pseudo_moves(pos, by, &mut moves)?;
        for m in moves.iter() {
            if !m.is_drop() && !m.is_castle() && m.destination() == sq {
                set.insert(m.from);
            }
        }
        Ok(set)
    }

    /// Whether results must be checked at every node of a move-path count (perft).
    pub fn results_need_check(&self) -> bool {
        // A game can end with legal moves left by a variant's static result, a preset's
        // result hook, or royals lost — which needs a hook that changes royalty, lets royals
        // be attacked, or removes pieces by an effect. Presets that only add or change moves
        // keep the self-check filter, so royals cannot be captured.
        self.info.flags.contains(VariantFlags::STATIC_RESULTS)
            || self.hooks.intersects(
                HookSet::ON_CHECK_GAME_RESULT
                    .with(HookSet::GET_ROYAL_PIECES)
                    .with(HookSet::SHOULD_FILTER_SELF_CHECK)
                    .with(HookSet::PROTECTED_ROYALS)
                    .with(HookSet::APPLY_MOVE)
                    .with(HookSet::ON_BEFORE_MOVE)
                    .with(HookSet::ON_AFTER_MOVE),
            )
            || self.check_all
    }

    /// The result by the rules of the variant and the presets (royals lost, the variant's own
    /// results, then the presets' `on_check_game_result`), given whether the side to move has
    /// a legal move. The host's n-move and n-fold rules are applied by [`crate::game::Game`].
    pub fn outcome(
        &self,
        pos: &Position,
        has_legal_moves: bool,
        counting: bool,
    ) -> Result<Option<Outcome>, HostError> {
        self.outcome_in_game(pos, has_legal_moves, counting, &HistoryFacts::default())
    }

    /// [`Pipeline::outcome`] with the game's history facts: how often the position has
    /// occurred, whether each side checked (or marked, API 1.5) with every move of the cycle,
    /// the checks since the clock's reset.
    pub fn outcome_in_game(
        &self,
        pos: &Position,
        has_legal_moves: bool,
        counting: bool,
        history: &HistoryFacts,
    ) -> Result<Option<Outcome>, HostError> {
        let side = pos.side_to_move;
        let rw = self.royals(pos, Color::White)?;
        let rb = self.royals(pos, Color::Black)?;
        let mine = if side == Color::White { &rw } else { &rb };
        // The royals just asked for: one call of the variant fewer at every node.
        let in_check = match history.side_in_check {
            Some(known) => known,
            None => self.any_royal_attacked(pos, side, self.protect(pos, side, *mine)?)?,
        };
        let mut ctx = OutcomeContext {
            has_legal_moves,
            in_check,
            royals: [
                rw.map(|s| s.len() as u16).unwrap_or(0),
                rb.map(|s| s.len() as u16).unwrap_or(0),
            ],
            has_royalty: mine.is_some(),
            counting,
            repetitions: 0,
            checks_in_cycle: [false; 2],
            reserved: [
                if self.rules_changed_by_hooks() {
                    OutcomeContext::RULES_CHANGED
                } else {
                    0
                },
                0,
                0,
                0,
            ],
        };
        history.fill(&mut ctx);
        let lost_w = rw.is_some_and(|s| s.is_empty());
        let lost_b = rb.is_some_and(|s| s.is_empty());
        let mut out = if lost_w && lost_b {
            // The side that made the last move loses.
            let mover = if pos.turn_phase > 0 {
                side
            } else {
                side.opposite()
            };
            Some(Outcome::win(mover.opposite(), "royal-lost"))
        } else if lost_w {
            Some(Outcome::win(Color::Black, "royal-lost"))
        } else if lost_b {
            Some(Outcome::win(Color::White, "royal-lost"))
        } else {
            None
        };
        if out.is_none() {
            out = self
                .variant_call("outcome", |v| v.outcome(pos, &ctx))?
                .into_option();
        }
        for p in self.each(HookSet::ON_CHECK_GAME_RESULT) {
            let current = match &out {
                Some(o) => ROption::RSome(o),
                None => ROption::RNone,
            };
            let d = p.call("on_check_game_result", |o| {
                o.on_check_game_result(pos, &ctx, current)
            })?;
            match d.action {
                1 if out.is_none() => out = Some(d.outcome),
                2 => out = None,
                3 => out = Some(d.outcome),
                _ => {}
            }
        }
        Ok(out)
    }

    /// Coordinate form of a special move, as the variant writes it.
    pub fn special_coordinate(
        &self,
        pos: &Position,
        mv: Move,
    ) -> Result<Option<String>, HostError> {
        Ok(self
            .variant_call("special_coordinate", |v| v.special_coordinate(pos, mv))?
            .into_option()
            .map(|s| s.to_string()))
    }

    /// SAN of a special move, as the variant writes it.
    pub fn special_san(&self, pos: &Position, mv: Move) -> Result<Option<String>, HostError> {
        Ok(self
            .variant_call("special_san", |v| v.special_san(pos, mv))?
            .into_option()
            .map(|s| s.to_string()))
    }
}

fn dedup_in_order(moves: &mut RVec<Move>) {
    let mut i = 0;
    while i < moves.len() {
        if moves[..i].contains(&moves[i]) {
            moves.remove(i);
        } else {
            i += 1;
        }
    }
}

/// The host's answers to a preset's [`houserules_plugin_api::Query`] during one hook call. A
/// query cannot return an error across the boundary: the first one is kept and reported
/// after the hook returns.
struct PipelineQuery<'a> {
    pipeline: &'a Pipeline,
    error: RefCell<Option<HostError>>,
}

impl PipelineQuery<'_> {
    fn keep<T>(&self, r: Result<T, HostError>, fallback: T) -> T {
        match r {
            Ok(v) => v,
            Err(e) => {
                self.error.borrow_mut().get_or_insert(e);
                fallback
            }
        }
    }
}

impl HostQuery for PipelineQuery<'_> {
    fn attackers(&self, pos: &Position, sq: Square, by: Color) -> SquareSet {
        self.keep(self.pipeline.attackers(pos, sq, by), SquareSet::EMPTY)
    }
    fn royals(&self, pos: &Position, color: Color) -> ROption<SquareSet> {
        self.keep(self.pipeline.royals(pos, color), None).into()
    }
    fn in_check(&self, pos: &Position, color: Color) -> bool {
        self.keep(self.pipeline.royal_attacked(pos, color), false)
    }
}

/// The cell bytes that hold a royal piece, by colour.
#[derive(Clone)]
struct RoyalCells {
    table: [[bool; 256]; 2],
    /// A colour's only royal cell byte, when it has one (a king): then found eight cells at a
    /// time, by comparing words.
    only: [Option<u8>; 2],
}

impl RoyalCells {
    /// From the royal flag of each piece kind.
    fn of(royal: impl Iterator<Item = bool>) -> RoyalCells {
        let mut table = [[false; 256]; 2];
        for (kind, royal) in royal.enumerate().take(127) {
            if royal {
                for color in [Color::White, Color::Black] {
                    table[color.index()][Cell::piece(kind as u8, color).0 as usize] = true;
                }
            }
        }
        let only = std::array::from_fn(|c| {
            let mut bytes = (0..256).filter(|&b| table[c][b]);
            match (bytes.next(), bytes.next()) {
                (Some(b), None) => Some(b as u8),
                _ => None,
            }
        });
        RoyalCells { table, only }
    }

    /// The squares of `pos` holding a royal piece of `color`.
    fn squares(&self, pos: &Position, color: Color) -> SquareSet {
        let mut s = SquareSet::EMPTY;
        let used = pos.ranks() as usize * 16;
        let cells = &pos.cells()[..used];
        let mut add = |i: usize| s.0[i >> 6] |= 1u64 << (i & 63);
        match self.only[color.index()] {
            Some(b) => {
                const LOW: u64 = 0x7F7F_7F7F_7F7F_7F7F;
                let pattern = b as u64 * 0x0101_0101_0101_0101;
                for (w, chunk) in cells.chunks_exact(8).enumerate() {
                    let word = cell_word(chunk);
                    // Bytes equal to `b` become zero; the high bit of each zero byte is set
                    // (exactly: no carry crosses bytes).
                    let x = word ^ pattern;
                    let mut zero = !(((x & LOW) + LOW) | x | LOW);
                    while zero != 0 {
                        add(w * 8 + (zero.trailing_zeros() / 8) as usize);
                        zero &= zero - 1;
                    }
                }
            }
            None => {
                let table = &self.table[color.index()];
                for (w, chunk) in cells.chunks_exact(8).enumerate() {
                    // A word of empty cells (most of a board) has no royal.
                    if cell_word(chunk) == 0 {
                        continue;
                    }
                    for (j, c) in chunk.iter().enumerate() {
                        if table[c.0 as usize] {
                            add(w * 8 + j);
                        }
                    }
                }
            }
        }
        s
    }
}

/// Eight cells as one little-endian word.
#[inline(always)]
pub(crate) fn cell_word(chunk: &[Cell]) -> u64 {
    let mut w = 0u64;
    for (j, c) in chunk.iter().take(8).enumerate() {
        w |= (c.0 as u64) << (8 * j);
    }
    w
}

/// Keeps the moves of `out` that `req` asks for, in order (in place: `RVec::retain` drains).
fn keep_wanted(pos: &Position, req: &GenRequest, out: &mut RVec<Move>) {
    let mut kept = 0;
    for i in 0..out.len() {
        let m = out[i];
        if req.wants(pos, &m) {
            out[kept] = m;
            kept += 1;
        }
    }
    out.truncate(kept);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pruning_depth_is_a_whole_number_from_two_to_sixteen() {
        assert_eq!(pruning_depth_asked("4"), Some(4));
        assert_eq!(pruning_depth_asked(" 16 "), Some(16));
        assert_eq!(pruning_depth_asked("2"), Some(2));
        for ignored in ["1", "17", "-3", "4.5", "", "deep"] {
            assert_eq!(pruning_depth_asked(ignored), None, "{ignored:?}");
        }
    }

    /// The word-at-a-time search for a lone royal byte finds what the table finds.
    #[test]
    fn lone_royal_byte_search_agrees_with_the_table() {
        let lone = RoyalCells::of([false, true, false].into_iter());
        let mut table = lone.clone();
        table.only = [None, None];
        let mut pos = Position::empty(12, 10);
        let mut seed = 7u64;
        for _ in 0..200 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let sq = Square::new((seed >> 33) as u8 % 12, (seed >> 40) as u8 % 10);
            let color = if seed >> 63 == 0 {
                Color::White
            } else {
                Color::Black
            };
            pos.set(sq, Cell::piece((seed >> 50) as u8 % 3, color));
            for c in [Color::White, Color::Black] {
                assert_eq!(lone.squares(&pos, c), table.squares(&pos, c));
            }
        }
        assert!(!lone.squares(&pos, Color::White).is_empty());
    }
}
