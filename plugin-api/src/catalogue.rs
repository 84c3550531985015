//! Words about rules for people (API 1.2): the `extra` keys by which a preset or variant tells
//! `houserules describe` what it does in full, and tells the host which pieces a preset acts
//! on, so that a preset that cannot change anything in the chosen variant is reported.
//!
//! All of this is optional metadata in [`crate::PresetInfo::extra`] and
//! [`crate::VariantInfo::extra`]; a host that does not know a key ignores it.
//!
//! ```
//! use houserules_plugin_api::{OptionValue, PresetInfo, EXTRA_DETAILS, EXTRA_ROLES};
//!
//! let info = PresetInfo {
//!     id: "knights-leap-twice".into(),
//!     description: "A knight may make two consecutive leaps in one move.".into(),
//!     extra: vec![
//!         OptionValue { key: EXTRA_DETAILS.into(), value: "The intermediate square must be empty.".into() },
//!         OptionValue { key: EXTRA_ROLES.into(), value: "knight".into() },
//!     ]
//!     .into(),
//!     ..Default::default()
//! };
//! assert_eq!(info.extra_value(EXTRA_ROLES), Some("knight"));
//! ```

/// `extra` key: the rule in full words — what the one-paragraph `description` leaves out:
/// edge cases, rulings, what stays as in the variant. Paragraphs are separated by an empty
/// line (`\n\n`). Shown by `houserules describe ID`.
pub const EXTRA_DETAILS: &str = "details";

/// [`crate::PresetInfo::extra`] key: the piece roles the preset acts on, by
/// [`crate::Role::name`]. A comma-separated list of alternatives, each alternative one role or
/// several joined by `+` (all of them needed): `"knight"`, `"bishop,queen"` (either),
/// `"bishop+knight"` (both). When the chosen variant's piece table has no alternative
/// complete, the preset cannot change anything in that game, and the host warns. A preset
/// without this key is assumed to act on any variant. An option of kind
/// [`crate::OptionKind::ROLE`] is checked the same way (its value must name a role of the
/// variant).
pub const EXTRA_ROLES: &str = "roles";

/// [`crate::VariantInfo::extra`] key prefix: `layout:<id>` describes the layout `<id>` in
/// words (shown by `houserules describe <id>`).
pub const EXTRA_LAYOUT_PREFIX: &str = "layout:";

use crate::manifest::{OptionValue, PresetInfo, Role};

impl PresetInfo {
    /// This preset with its rule in words ([`EXTRA_DETAILS`]) and, unless `roles` is empty,
    /// the roles it acts on ([`EXTRA_ROLES`]).
    ///
    /// ```
    /// use houserules_plugin_api::{PresetInfo, EXTRA_ROLES};
    ///
    /// let info = PresetInfo { id: "rook-warp".into(), ..Default::default() }
    ///     .with_words("A rook whose path to the edge is empty may warp.", "rook");
    /// assert_eq!(info.extra_value(EXTRA_ROLES), Some("rook"));
    /// ```
    pub fn with_words(mut self, details: &str, roles: &str) -> PresetInfo {
        self.extra.push(OptionValue {
            key: EXTRA_DETAILS.into(),
            value: details.into(),
        });
        if !roles.is_empty() {
            self.extra.push(OptionValue {
                key: EXTRA_ROLES.into(),
                value: roles.into(),
            });
        }
        self
    }
}

/// Reads an [`EXTRA_ROLES`] value: the alternatives, each the roles it needs together
/// (`"bishop+knight,queen"` → `[[bishop, knight], [queen]]`); the error names a word that is
/// no role.
pub fn parse_roles(text: &str) -> Result<Vec<Vec<Role>>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|alt| !alt.is_empty())
        .map(|alt| {
            alt.split('+')
                .map(|r| {
                    Role::parse(r.trim())
                        .ok_or_else(|| format!("`{}` is not a piece role", r.trim()))
                })
                .collect()
        })
        .collect()
}
