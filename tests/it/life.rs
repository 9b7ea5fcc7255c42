//! The fast engine against the per-cell reference, and known patterns as facts.

use crate::common::threads::with_threads;
use playa::life::reference;
use playa::{BitGrid, Life, Rule, Topology, soup};
use proptest::prelude::*;

fn grid_from(width: usize, height: usize, cells: &[(usize, usize)]) -> BitGrid {
    let mut g = BitGrid::new(width, height).unwrap();
    for &(x, y) in cells {
        g.set(x, y, true);
    }
    g
}

fn shifted(g: &BitGrid, dx: usize, dy: usize) -> BitGrid {
    let mut out = BitGrid::new(g.width(), g.height()).unwrap();
    for (x, y) in g.alive_cells() {
        out.set((x + dx) % g.width(), (y + dy) % g.height(), true);
    }
    out
}

const RULES: [&str; 6] = [
    "B3/S23",
    "B36/S23",
    "B3678/S34678",
    "B2/S",
    "B1/S012345678",
    "B35678/S5678",
];

/// Sizes that exercise every edge of the packing: single cells, single rows
/// and columns, word boundaries at 63/64/65, and a non-square odd grid.
fn size() -> impl Strategy<Value = (usize, usize)> {
    let side = prop_oneof![
        Just(1usize),
        Just(2),
        Just(3),
        Just(63),
        Just(64),
        Just(65),
        Just(127),
        Just(128),
        Just(129),
        1usize..200,
    ];
    (side.clone(), side)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn fast_engine_matches_reference(
        (w, h) in size(),
        density in 0.0f64..=1.0,
        seed in any::<u64>(),
        rule in 0usize..RULES.len(),
        torus in any::<bool>(),
        threads in 1usize..=4,
        gens in 1u32..4,
    ) {
        let rule: Rule = RULES[rule].parse().unwrap();
        let topology = if torus { Topology::Torus } else { Topology::Bounded };
        let start = soup(w, h, density, seed).unwrap();
        let mut expected = start.clone();
        for _ in 0..gens {
            expected = reference::step(&expected, rule, topology);
        }
        let life = Life::new(rule, topology);
        let got = with_threads(threads, || life.run(&start, gens));
        prop_assert_eq!(got, expected);
    }
}

#[test]
fn large_odd_grid_matches_reference_on_one_and_many_threads() {
    let start = soup(1000, 777, 0.8, 5).unwrap();
    let life = Life::default();
    let expected = reference::step(&start, Rule::CONWAY, Topology::Torus);
    for threads in [1, 2, 3, 8] {
        assert_eq!(
            with_threads(threads, || life.step(&start)),
            expected,
            "{threads} threads"
        );
    }
}

#[test]
fn thread_count_never_changes_a_long_run() {
    let start = soup(513, 300, 0.8, 11).unwrap();
    let life = Life::new("B36/S23".parse().unwrap(), Topology::Bounded);
    let one = with_threads(1, || life.run(&start, 30));
    for threads in [2, 5] {
        assert_eq!(with_threads(threads, || life.run(&start, 30)), one);
    }
}

#[test]
fn blinker_has_period_two() {
    let blinker = grid_from(5, 5, &[(1, 2), (2, 2), (3, 2)]);
    let life = Life::default();
    let next = life.step(&blinker);
    assert_ne!(next, blinker);
    assert_eq!(next, grid_from(5, 5, &[(2, 1), (2, 2), (2, 3)]));
    assert_eq!(life.step(&next), blinker);
}

#[test]
fn block_is_still() {
    for topology in [Topology::Torus, Topology::Bounded] {
        let block = grid_from(4, 4, &[(1, 1), (2, 1), (1, 2), (2, 2)]);
        assert_eq!(Life::new(Rule::CONWAY, topology).run(&block, 10), block);
    }
}

const GLIDER: [(usize, usize); 5] = [(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)];

#[test]
fn glider_moves_one_diagonal_every_four_generations() {
    let life = Life::default();
    let glider = grid_from(20, 20, &GLIDER);
    for k in 1..=5 {
        assert_eq!(life.run(&glider, 4 * k as u32), shifted(&glider, k, k));
    }
}

#[test]
fn glider_circles_the_torus_in_four_w_generations() {
    let life = Life::default();
    for w in [8usize, 63, 64, 65, 70] {
        let glider = grid_from(w, w, &GLIDER);
        let mut g = glider.clone();
        for g_no in 1..=4 * w as u32 {
            g = life.step(&g);
            assert_eq!(g.population(), 5, "w={w} gen={g_no}");
            if g_no < 4 * w as u32 && g_no % 4 == 0 {
                assert_ne!(g, glider, "back too early, w={w} gen={g_no}");
            }
        }
        assert_eq!(g, glider, "w={w}");
    }
}

#[test]
fn glider_dies_at_the_corner_of_a_bounded_plane() {
    // Meeting the dead border, the glider stops being a glider: it collapses
    // into a still block in the corner and never moves again.
    let life = Life::new(Rule::CONWAY, Topology::Bounded);
    let glider = grid_from(16, 16, &GLIDER);
    let end = life.run(&glider, 4 * 16);
    // It turns into a block in the corner: never a glider again, never moving.
    assert_eq!(
        end,
        grid_from(16, 16, &[(14, 14), (15, 14), (14, 15), (15, 15)])
    );
    assert_eq!(life.step(&end), end);
    assert!(end.alive_cells().all(|(x, y)| x >= 14 && y >= 14));
}

#[test]
fn soup_thins_into_sparse_clumps() {
    let start = soup(512, 512, 0.8, 3).unwrap();
    let pops = Life::default().populations(&start, 8);
    assert_eq!(pops.len(), 9);
    let share = |p: u64| p as f64 / (512.0 * 512.0);
    assert!((share(pops[0]) - 0.8).abs() < 0.01);
    assert!(share(pops[8]) < 0.02, "{pops:?}");
    assert!(pops[8] > 0);
}
