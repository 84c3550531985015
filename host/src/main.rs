//! `houserules`: the command-line host.

mod cli;

fn main() {
    // Like other Unix tools, stop quietly when the reader of our output goes away
    // (`houserules analyze --jsonl big.pgn | head`) instead of panicking on a closed pipe.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(cli::run());
}
