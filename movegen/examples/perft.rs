//! `cargo run --release -p houserules-movegen --example perft -- DEPTH [wrap] [klt]`: chess
//! written as a rules model, perft from the start position (a quick speed check of the
//! generator alone, without the host).

#[path = "../src/tests_support.rs"]
mod support;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(5);
    let mut rules = support::chess();
    if args.iter().any(|a| a == "wrap") {
        rules.topology.wrap_files = true;
    }
    if args.iter().any(|a| a == "klt") {
        rules.pieces[1] = houserules_movegen::PieceRules::new('N', "NmNaN").unwrap();
    }
    let g = houserules_movegen::Generator::new(&rules).unwrap();
    let mut p = support::fen(
        args.get(2)
            .map(|s| s.as_str())
            .filter(|s| s.contains('/'))
            .unwrap_or(support::START),
    );
    g.prime(&mut p);
    if args.iter().any(|a| a == "count") {
        count_bench(&g, &p);
        return;
    }
    let t = std::time::Instant::now();
    let n = support::perft(&g, &p, depth);
    let s = t.elapsed().as_secs_f64();
    println!("{n} nodes in {s:.3} s = {:.1} M/s", n as f64 / s / 1e6);
}

/// `perft count FEN`: nanoseconds per bulk count (and per legal-move listing) of one position.
#[allow(dead_code)]
pub fn count_bench(g: &houserules_movegen::Generator, p: &houserules_movegen::Position) {
    let n = 2_000_000;
    let t = std::time::Instant::now();
    let mut total = 0;
    for _ in 0..n {
        total += g.count_legal(std::hint::black_box(p));
    }
    let per = t.elapsed().as_nanos() as f64 / n as f64;
    println!("count_legal: {per:.1} ns ({} moves)", total / n);
    let mut v = houserules_plugin_api::abi_stable::std_types::RVec::with_capacity(256);
    let t = std::time::Instant::now();
    for _ in 0..n / 4 {
        v.clear();
        g.legal_moves(std::hint::black_box(p), &mut v);
    }
    println!(
        "legal_moves: {:.1} ns",
        t.elapsed().as_nanos() as f64 / (n / 4) as f64
    );
    let t = std::time::Instant::now();
    let m = v[0];
    for _ in 0..n / 4 {
        let mut c = p.clone();
        g.apply(
            &mut c,
            m,
            &mut houserules_plugin_api::MoveEffects::new(p.side_to_move, false),
        );
        std::hint::black_box(&c);
    }
    println!(
        "clone+apply: {:.1} ns",
        t.elapsed().as_nanos() as f64 / (n / 4) as f64
    );
}
