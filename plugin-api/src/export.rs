//! The root module every plugin library exports, and the [`crate::export_plugin!`] macro.

use crate::hooks::{guard, Options, PresetBox, VariantBox};
use crate::manifest::{OptionValue, PluginManifest, VariantInfo};
use crate::outcome::PluginError;
use abi_stable::{
    declare_root_module_statics,
    library::RootModule,
    package_version_strings,
    sabi_types::VersionStrings,
    std_types::{RResult, RStr, RVec},
    StableAbi,
};
use std::cell::RefCell;

/// The functions a plugin library exports. A prefix type: later API versions may add fields
/// after the last one, and older plugins stay loadable.
#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = PluginModuleRef)))]
pub struct PluginModule {
    /// What the library provides.
    pub manifest: extern "C" fn() -> RResult<PluginManifest, PluginError>,
    /// Creates the variant `id`.
    pub new_variant: extern "C" fn(id: RStr<'_>) -> RResult<VariantBox, PluginError>,
    /// Creates the preset `id` with validated options (every option, defaults filled in), for
    /// a pipeline on the variant described by `variant` (its piece table maps roles to kinds).
    #[sabi(last_prefix_field)]
    pub new_preset: extern "C" fn(
        id: RStr<'_>,
        options: RVec<OptionValue>,
        variant: &VariantInfo,
    ) -> RResult<PresetBox, PluginError>,
}

impl RootModule for PluginModuleRef {
    declare_root_module_statics! {PluginModuleRef}
    const BASE_NAME: &'static str = "houserules_plugin";
    const NAME: &'static str = "houserules_plugin";
    const VERSION_STRINGS: VersionStrings = package_version_strings!();
}

/// What a plugin library implements; [`crate::export_plugin!`] turns it into the exported root module.
pub trait Plugin {
    /// The manifest: variants, presets and their metadata.
    fn manifest() -> PluginManifest;
    /// Creates a variant by id: `Ok(None)` when this plugin provides no such variant,
    /// `Err(why)` when it does but cannot build it (e.g. a broken data file).
    fn new_variant(id: &str) -> Result<Option<VariantBox>, String> {
        let _ = id;
        Ok(None)
    }
    /// Creates a preset by id with its options, for a game of the variant described by
    /// `variant` (`Err`: why not, e.g. the variant has no piece of the role the preset needs).
    fn new_preset(id: &str, options: &Options, variant: &VariantInfo) -> Result<PresetBox, String> {
        let _ = (options, variant);
        Err(format!("this plugin provides no preset `{id}`"))
    }
}

thread_local! {
    static PANIC_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs (once per library) a panic hook that records where a panic happened instead of
/// printing it; [`guard`] adds the location to the error it returns. Called by the exported
/// root module of a plugin library, never in-process.
pub fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let loc = info
                .location()
                .map(|l| format!(" at {}:{}:{}", l.file(), l.line(), l.column()));
            PANIC_LOCATION.with(|p| *p.borrow_mut() = loc);
        }));
    });
}

/// The location recorded by the panic hook, if any (taken).
pub(crate) fn take_panic_location() -> String {
    PANIC_LOCATION
        .with(|p| p.borrow_mut().take())
        .unwrap_or_default()
}

#[doc(hidden)]
pub fn root_manifest<P: Plugin>() -> RResult<PluginManifest, PluginError> {
    guard("manifest", P::manifest)
}

#[doc(hidden)]
pub fn root_new_variant<P: Plugin>(id: RStr<'_>) -> RResult<VariantBox, PluginError> {
    match guard("new_variant", || P::new_variant(id.as_str())) {
        RResult::ROk(Ok(Some(v))) => RResult::ROk(v),
        RResult::ROk(Ok(None)) => RResult::RErr(PluginError::new(format!(
            "this plugin provides no variant `{id}`"
        ))),
        RResult::ROk(Err(e)) => RResult::RErr(PluginError::new(e)),
        RResult::RErr(e) => RResult::RErr(e),
    }
}

#[doc(hidden)]
pub fn root_new_preset<P: Plugin>(
    id: RStr<'_>,
    options: RVec<OptionValue>,
    variant: &VariantInfo,
) -> RResult<PresetBox, PluginError> {
    let opts = Options::from_values(&options);
    match guard("new_preset", || P::new_preset(id.as_str(), &opts, variant)) {
        RResult::ROk(Ok(p)) => RResult::ROk(p),
        RResult::ROk(Err(e)) => RResult::RErr(PluginError::new(e)),
        RResult::RErr(e) => RResult::RErr(e),
    }
}

/// Builds the root module for `P` (used by [`crate::export_plugin!`], and by tests that load a
/// plugin in-process).
pub fn root_module<P: Plugin + 'static>() -> PluginModuleRef {
    use abi_stable::prefix_type::PrefixTypeTrait;
    extern "C" fn manifest<P: Plugin>() -> RResult<PluginManifest, PluginError> {
        root_manifest::<P>()
    }
    extern "C" fn new_variant<P: Plugin>(id: RStr<'_>) -> RResult<VariantBox, PluginError> {
        root_new_variant::<P>(id)
    }
    extern "C" fn new_preset<P: Plugin>(
        id: RStr<'_>,
        options: RVec<OptionValue>,
        variant: &VariantInfo,
    ) -> RResult<PresetBox, PluginError> {
        root_new_preset::<P>(id, options, variant)
    }
    PluginModule {
        manifest: manifest::<P>,
        new_variant: new_variant::<P>,
        new_preset: new_preset::<P>,
    }
    .leak_into_prefix()
}

/// Exports a [`Plugin`] implementation as the library's root module. Put this once in the
/// `lib.rs` of a `cdylib` crate:
///
/// ```ignore
/// struct MyPlugin;
/// impl houserules_plugin_api::Plugin for MyPlugin { /* ... */ }
/// houserules_plugin_api::export_plugin!(MyPlugin);
/// ```
#[macro_export]
macro_rules! export_plugin {
    ($plugin:ty) => {
        /// The root module of this plugin library (called through [`ROOT_MODULE_HEADER`]).
        pub fn houserules_plugin_root() -> $crate::PluginModuleRef {
            $crate::install_panic_hook();
            $crate::root_module::<$plugin>()
        }

        /// The header the host's loader looks up (what abi_stable's `export_root_module`
        /// attribute generates, spelled with paths through this crate so that plugins need
        /// no direct dependency on abi_stable). It sits in a module of its own so that a test
        /// binary linking several plugin crates as libraries rarely pulls in two of them, and
        /// it is left out of the crate's own unit tests (`cfg(test)`), which link other plugin
        /// crates (the chess variant a preset is tested on) and load this one in-process with
        /// [`root_module`](crate::root_module): two definitions of the symbol would not link.
        #[doc(hidden)]
        #[cfg(not(test))]
        pub mod houserules_plugin_export {
            #[export_name = "_1as_0lib_1header_0root_bmodule_bloader"]
            pub static ROOT_MODULE_HEADER: $crate::abi_stable::library::LibHeader = {
                extern "C" fn erased_module() -> $crate::abi_stable::library::RootModuleResult {
                    $crate::abi_stable::library::__call_root_module_loader(
                        super::houserules_plugin_root,
                    )
                }
                // SAFETY: `erased_module` returns the root module of type `PluginModuleRef`,
                // as the layout check below declares.
                unsafe {
                    $crate::abi_stable::library::LibHeader::from_constructor::<
                        $crate::PluginModuleRef,
                    >(
                        erased_module,
                        $crate::abi_stable::library::CheckTypeLayout::Yes,
                    )
                }
            };
        }
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn export_symbol_matches_abi_stable() {
        assert_eq!(
            abi_stable::library::ROOT_MODULE_LOADER_NAME,
            "_1as_0lib_1header_0root_bmodule_bloader"
        );
    }
}
