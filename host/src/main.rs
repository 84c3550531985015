//! `houserules`: the command-line host.

mod cli;

/// Batch analysis allocates a few small strings per ply and frees them per record; mimalloc
/// does that in about a third of glibc's instructions and without the arena lock glibc takes
/// when one thread frees what another allocated (the reader and the `--jobs` workers). Only
/// the program's own memory: plugins keep their allocator, and what crosses the boundary
/// (`RVec`, `RString`) is freed by the side that allocated it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // `houserules __worker`: a supervised worker process of `analyze` (see
    // houserules_host::supervisor); it speaks a framed protocol on its stdin and stdout.
    #[cfg(unix)]
    if std::env::args_os().nth(1).as_deref()
        == Some(std::ffi::OsStr::new(
            houserules_host::supervisor::WORKER_SUBCOMMAND,
        ))
    {
        std::process::exit(houserules_host::isolated::worker_main());
    }
    // Like other Unix tools, stop quietly when the reader of our output goes away
    // (`houserules analyze --jsonl big.pgn | head`) instead of panicking on a closed pipe.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(cli::run());
}
