#[test]
fn perft_through_the_binary() {
    let out = houserules_tests::houserules_ok(["perft", "--variant", "chess", "--depth", "3"]);
    assert!(out.trim_end().ends_with("Nodes searched: 8902"), "{out}");
}
