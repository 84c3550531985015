//! `houserules`: the command-line host.

mod cli;

fn main() {
    std::process::exit(cli::run());
}
