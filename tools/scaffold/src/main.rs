//! `houserules-scaffold`: creates a new plugin crate (variant or preset), anywhere on disk,
//! that builds against `houserules-plugin-api`, loads into the host with `--plugin`, and has
//! in-process tests that pass as generated (its rule, and the plugin contract of
//! `houserules check-plugin`).
//!
//! The crates of houserules are not published, so the new crate depends on them by path: on
//! the repository this scaffolder was built from, or the one `--repo` names. The repository's
//! `Cargo.lock` is copied too, so the new crate builds with the versions houserules is tested
//! with (and without a network once they are in cargo's cache).

use clap::{Parser, ValueEnum};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, ValueEnum)]
enum Kind {
    /// A whole game.
    Variant,
    /// A modification of a variant's pipeline.
    Preset,
}

#[derive(Parser)]
#[command(
    name = "houserules-scaffold",
    version,
    about = "Create a houserules plugin crate"
)]
struct Args {
    /// Directory to create (must not exist yet).
    dir: PathBuf,
    /// Variant or preset.
    #[arg(long, value_enum, default_value = "variant")]
    kind: Kind,
    /// Id of the variant or preset (kebab-case; default: the directory name).
    #[arg(long)]
    id: Option<String>,
    /// The houserules repository to depend on (its plugin-api, host and chess crates;
    /// default: the one this scaffolder was built from).
    #[arg(long, value_name = "DIR")]
    repo: Option<PathBuf>,
    /// The plugin-api crate directory (sets the repository to its parent; older spelling of
    /// --repo).
    #[arg(long, value_name = "PATH")]
    api_path: Option<PathBuf>,
}

fn main() {
    let args = Args::parse();
    if let Err(e) = create(&args) {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

/// The repository the scaffolder was built from.
fn built_in_repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("..")
}

fn toml_path(p: &Path) -> String {
    format!("{:?}", p.display().to_string())
}

fn create(args: &Args) -> Result<(), String> {
    if args.dir.exists() {
        return Err(format!("{} already exists", args.dir.display()));
    }
    let dir_name = args
        .dir
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or("the directory needs a plain name")?;
    let id = args.id.clone().unwrap_or_else(|| dir_name.to_string());
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
    {
        return Err(format!("`{id}` is not a kebab-case id (a-z, 0-9, -)"));
    }
    let repo = match (&args.repo, &args.api_path) {
        (Some(r), _) => r.clone(),
        (None, Some(api)) => api.join(".."),
        (None, None) => built_in_repo(),
    };
    let repo = std::fs::canonicalize(&repo).map_err(|e| {
        format!(
            "the houserules repository {}: {e} (give it with --repo DIR)",
            repo.display()
        )
    })?;
    let api = repo.join("plugin-api");
    let host = repo.join("host");
    let chess = repo.join("plugins").join("chess");
    for (what, p) in [
        ("plugin-api", &api),
        ("host", &host),
        ("chess plugin", &chess),
    ] {
        if !p.join("Cargo.toml").is_file() {
            return Err(format!(
                "{} has no {what} crate ({}): is it a houserules repository? (--repo DIR)",
                repo.display(),
                p.display()
            ));
        }
    }
    let crate_name = format!("houserules-{}", id.replace('_', "-"));
    let lib_name = crate_name.replace('-', "_");
    let chess_dev = match args.kind {
        Kind::Preset => format!(
            "# The variant the tests play the preset on.\nhouserules-chess = {{ path = {} }}\n",
            toml_path(&chess)
        ),
        Kind::Variant => String::new(),
    };
    let manifest = format!(
        "[package]\n\
         name = \"{crate_name}\"\n\
         version = \"0.1.0\"\n\
         edition = \"2021\"\n\
         \n\
         [lib]\n\
         name = \"{lib_name}\"\n\
         # cdylib: the library the host loads; rlib: what the tests link in-process.\n\
         crate-type = [\"cdylib\", \"rlib\"]\n\
         \n\
         [dependencies]\n\
         houserules-plugin-api = {{ path = {api} }}\n\
         \n\
         [dev-dependencies]\n\
         # The host library (pipeline, perft, the contract checks), without the plugins it\n\
         # ships.\n\
         houserules = {{ path = {host}, default-features = false }}\n\
         {chess_dev}\
         \n\
         [profile.release]\n\
         # The host turns a panic inside a plugin into an error for that game: that needs\n\
         # unwinding (the default; never set panic = \"abort\" in a plugin).\n\
         panic = \"unwind\"\n\
         \n\
         # A workspace of its own: the crate builds wherever it lives.\n\
         [workspace]\n",
        api = toml_path(&api),
        host = toml_path(&host),
    );
    let template = match args.kind {
        Kind::Variant => include_str!("../templates/variant.rs"),
        Kind::Preset => include_str!("../templates/preset.rs"),
    };
    let name = title(&id);
    let source = template.replace("{{id}}", &id).replace("{{name}}", &name);
    write(&args.dir.join("Cargo.toml"), &manifest)?;
    write(&args.dir.join("src/lib.rs"), &source)?;
    write(&args.dir.join(".gitignore"), "/target\n")?;
    // The versions houserules is tested with.
    let lock = repo.join("Cargo.lock");
    if lock.is_file() {
        std::fs::copy(&lock, args.dir.join("Cargo.lock"))
            .map_err(|e| format!("{}: {e}", lock.display()))?;
    }
    let d = args.dir.display();
    println!(
        "created {d} ({crate_name}), depending on {}.\n\
         test it:   cargo test --manifest-path {d}/Cargo.toml\n\
         build it:  cargo build --release --manifest-path {d}/Cargo.toml\n\
         check it:  houserules check-plugin {d}/target/release/{}{lib_name}{}\n\
         use it:    houserules --plugin {d}/target/release/{}{lib_name}{} describe {id}",
        repo.display(),
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX,
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    Ok(())
}

fn title(id: &str) -> String {
    id.split(['-', '_'])
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}
