//! Plugin faults: what went wrong while a record or game was run, and which plugin code was
//! running when it did.
//!
//! Every call the pipeline makes into a plugin goes through `enter`, which notes (in a
//! thread-local slot, two stores per call) the plugin, the variant or preset, and the hook. A
//! worker process of the supervisor reads the slot from its fatal-signal handlers and from its
//! timeout signal, so that a crash or a hang is reported with the hook it happened in.

use serde::{Deserialize, Serialize};
use std::cell::Cell;

/// Why a record (or game) could not be run to its end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    /// `panic` (a panic caught at the plugin boundary), `crash` (the worker died by a
    /// signal), `abort` (the worker aborted: a panic that could not unwind, a failed
    /// allocation's abort, `std::process::abort`), `stack-overflow`, `out-of-memory`,
    /// `timeout` (the record ran longer than `--game-timeout`), `exit` (the worker exited on
    /// its own), `host-panic` (a bug in the host caught around the record), `protocol`.
    pub kind: String,
    /// The signal that ended the worker (`SIGSEGV` ...), if any.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub signal: Option<String>,
    /// The plugin whose code was running, if known.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub plugin: Option<String>,
    /// The variant or preset (`preset boom`, `variant chess`), if known.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub rules: Option<String>,
    /// The hook that was running, if known.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub hook: Option<String>,
    /// A readable account: what happened, and what the worker said last.
    pub message: String,
}

impl Fault {
    /// A fault of `kind` with a message and nothing else known.
    pub fn new(kind: &str, message: impl Into<String>) -> Fault {
        Fault {
            kind: kind.to_string(),
            signal: None,
            plugin: None,
            rules: None,
            hook: None,
            message: message.into(),
        }
    }

    /// "in hook `h` of preset `p` (plugin `x`)", or "" when nothing is known.
    pub fn place(&self) -> String {
        let mut s = String::new();
        if let Some(h) = &self.hook {
            s.push_str(&format!(" in hook `{h}`"));
        }
        if let Some(r) = &self.rules {
            s.push_str(&format!(" of {r}"));
        }
        if let Some(p) = &self.plugin {
            s.push_str(&format!(" (plugin `{p}`)"));
        }
        s
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "plugin fault ({}", self.kind)?;
        if let Some(s) = &self.signal {
            write!(f, ", {s}")?;
        }
        write!(f, "){}: {}", self.place(), self.message)
    }
}

/// The plugin code running now: raw parts of borrowed strings, so that a signal handler can
/// read them without locking or allocating. The strings are owned by the pipeline making the
/// call and outlive it.
#[derive(Clone, Copy)]
pub(crate) struct Running {
    kind: &'static str,
    rules: (*const u8, usize),
    plugin: (*const u8, usize),
    hook: &'static str,
}

impl Running {
    const NONE: Running = Running {
        kind: "",
        rules: (std::ptr::null(), 0),
        plugin: (std::ptr::null(), 0),
        hook: "",
    };
}

thread_local! {
    static RUNNING: Cell<Running> = const { Cell::new(Running::NONE) };
}

/// Notes that `hook` of the variant or preset `rules` (`kind`: `variant` or `preset`) of
/// `plugin` runs until the returned guard is dropped (nested calls restore the outer one).
pub(crate) fn enter(kind: &'static str, rules: &str, plugin: &str, hook: &'static str) -> Entered {
    let now = Running {
        kind,
        rules: (rules.as_ptr(), rules.len()),
        plugin: (plugin.as_ptr(), plugin.len()),
        hook,
    };
    Entered(RUNNING.with(|r| r.replace(now)))
}

/// Restores the previous [`Running`] when dropped.
pub(crate) struct Entered(Running);

impl Drop for Entered {
    fn drop(&mut self) {
        RUNNING.with(|r| r.set(self.0));
    }
}

/// Writes "kind rules\tplugin\thook" of the plugin code running on this thread into `out`
/// (without allocating: for signal handlers); returns the bytes written, 0 when no plugin
/// code runs.
pub(crate) fn running_into(out: &mut [u8]) -> usize {
    let r = RUNNING.try_with(|r| r.get()).unwrap_or(Running::NONE);
    if r.hook.is_empty() {
        return 0;
    }
    // SAFETY: the pointers were taken from live `&str`s by `enter`, whose owner (the pipeline)
    // is borrowed by the call in progress; a signal interrupting that call sees them alive.
    let (rules, plugin) = unsafe {
        (
            std::slice::from_raw_parts(r.rules.0, r.rules.1),
            std::slice::from_raw_parts(r.plugin.0, r.plugin.1),
        )
    };
    let mut n = 0;
    for part in [
        r.kind.as_bytes(),
        b" ",
        rules,
        b"\t",
        plugin,
        b"\t",
        r.hook.as_bytes(),
    ] {
        let k = part.len().min(out.len() - n);
        out[n..n + k].copy_from_slice(&part[..k]);
        n += k;
    }
    n
}

/// Parses what [`running_into`] wrote into (rules, plugin, hook).
pub(crate) fn parse_running(text: &str) -> Option<(String, String, String)> {
    let mut it = text.split('\t');
    let rules = it.next()?.to_string();
    let plugin = it.next()?.to_string();
    let hook = it.next()?.to_string();
    Some((rules, plugin, hook))
}

/// The fault a caught plugin panic makes: kind `panic`, with the plugin, rules and hook.
pub fn of_error(e: &crate::HostError) -> Option<Fault> {
    let crate::HostError::PluginPanic {
        id,
        kind,
        plugin,
        hook,
        message,
    } = e
    else {
        return None;
    };
    Some(Fault {
        kind: "panic".to_string(),
        signal: None,
        plugin: Some(plugin.clone()),
        rules: Some(format!("{kind} {id}")),
        hook: Some(hook.to_string()),
        message: message.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_running_hook_is_noted_and_restored() {
        let mut buf = [0u8; 128];
        assert_eq!(running_into(&mut buf), 0);
        let rules = String::from("boom");
        let plugin = String::from("boom-plugin");
        {
            let _a = enter("preset", &rules, &plugin, "filter_legal_moves");
            {
                let _b = enter("variant", "chess", "chess", "generate");
                let n = running_into(&mut buf);
                let text = std::str::from_utf8(&buf[..n]).unwrap();
                assert_eq!(text, "variant chess\tchess\tgenerate");
            }
            let n = running_into(&mut buf);
            let text = std::str::from_utf8(&buf[..n]).unwrap();
            assert_eq!(
                parse_running(text),
                Some((
                    "preset boom".into(),
                    "boom-plugin".into(),
                    "filter_legal_moves".into()
                ))
            );
        }
        assert_eq!(running_into(&mut buf), 0);
    }
}
