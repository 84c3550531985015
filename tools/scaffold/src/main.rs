//! `houserules-scaffold`: creates a new plugin crate (variant or preset) that builds against
//! `houserules-plugin-api` alone and loads into the host with `--plugin`.

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
    /// Depend on plugin-api by path (for work inside or beside the houserules repository)
    /// instead of by version.
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
    let crate_name = format!("houserules-{}", id.replace('_', "-"));
    let lib_name = crate_name.replace('-', "_");
    let api_dep = match &args.api_path {
        Some(p) => {
            let p = std::fs::canonicalize(p).map_err(|e| format!("{}: {e}", p.display()))?;
            format!(
                "houserules-plugin-api = {{ path = {:?} }}",
                p.display().to_string()
            )
        }
        None => format!("houserules-plugin-api = \"{}\"", env!("CARGO_PKG_VERSION")),
    };
    let manifest = format!(
        "[package]\nname = \"{crate_name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [lib]\nname = \"{lib_name}\"\ncrate-type = [\"cdylib\", \"rlib\"]\n\n\
         [dependencies]\n{api_dep}\n\n[workspace]\n"
    );
    let template = match args.kind {
        Kind::Variant => include_str!("../templates/variant.rs"),
        Kind::Preset => include_str!("../templates/preset.rs"),
    };
    let name = title(&id);
    let source = template.replace("{{id}}", &id).replace("{{name}}", &name);
    write(&args.dir.join("Cargo.toml"), &manifest)?;
    write(&args.dir.join("src/lib.rs"), &source)?;
    println!(
        "created {} ({crate_name}).\nbuild it:  cargo build --release --manifest-path {}/Cargo.toml\n\
         load it:   houserules --plugin {}/target/release/{}{lib_name}{} list",
        args.dir.display(),
        args.dir.display(),
        args.dir.display(),
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
