use super::*;
use proptest::prelude::*;

fn grid(width: usize, height: usize, cells: &[(usize, usize)]) -> BitGrid {
    let mut g = BitGrid::new(width, height).unwrap();
    for &(x, y) in cells {
        g.set(x, y, true);
    }
    g
}

fn boxes(clumps: &[Clump]) -> Vec<(u32, i64, i64, i64, i64)> {
    clumps
        .iter()
        .map(|c| (c.cells, c.min_x, c.min_y, c.max_x, c.max_y))
        .collect()
}

/// The plain reference: union-find over cells and their eight
/// neighbours, labels numbered by first cell in row-major order.
fn reference_labels(grid: &BitGrid, topology: Topology) -> Vec<u32> {
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let mut parent: Vec<usize> = (0..(w * h) as usize).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let alive = |x: i64, y: i64| -> Option<usize> {
        let (x, y) = match topology {
            Topology::Torus => (x.rem_euclid(w), y.rem_euclid(h)),
            Topology::Bounded if (0..w).contains(&x) && (0..h).contains(&y) => (x, y),
            Topology::Bounded => return None,
        };
        grid.get(x as usize, y as usize)
            .then_some((y * w + x) as usize)
    };
    for (x, y) in grid.alive_cells() {
        let (x, y) = (x as i64, y as i64);
        let here = (y * w + x) as usize;
        for dy in -1..=1 {
            for dx in -1..=1 {
                if let Some(there) = alive(x + dx, y + dy) {
                    let (a, b) = (root(&mut parent, here), root(&mut parent, there));
                    parent[a] = b;
                }
            }
        }
    }
    let mut id_of_root = vec![0u32; parent.len()];
    let mut next = 0;
    let mut labels = vec![0; parent.len()];
    for (x, y) in grid.alive_cells() {
        let i = y * w as usize + x;
        let r = root(&mut parent, i);
        if id_of_root[r] == 0 {
            next += 1;
            id_of_root[r] = next;
        }
        labels[i] = id_of_root[r];
    }
    labels
}

/// Checks `label` and `find` against the reference, and each clump's
/// totals against its labelled cells where coordinates need no unwrapping.
fn check_against_reference(grid: &BitGrid, topology: Topology) {
    let (labels, clumps) = label(grid, topology);
    // In strips of any height, joined where they meet.
    for rows in [1, 2, 3, 7] {
        let strips = label_in_strips(grid, topology, |_, _| rows);
        assert_eq!(
            strips,
            (labels.clone(), clumps.clone()),
            "{rows}-row strips"
        );
    }
    assert_eq!(labels, reference_labels(grid, topology), "{grid:?}");
    assert_eq!(find(grid, topology), clumps);
    let total: u64 = clumps.iter().map(|c| u64::from(c.cells)).sum();
    assert_eq!(total, grid.population());
    let (w, h) = (grid.width(), grid.height());
    for (i, c) in clumps.iter().enumerate() {
        let members: Vec<(usize, usize)> = grid
            .alive_cells()
            .filter(|&(x, y)| labels[y * w + x] == i as u32 + 1)
            .collect();
        assert_eq!(members.len(), c.cells as usize);
        assert!((0.0..w as f64).contains(&c.centroid.0), "{c:?}");
        assert!((0.0..h as f64).contains(&c.centroid.1), "{c:?}");
        if topology == Topology::Bounded {
            let n = members.len() as f64;
            let xs = members.iter().map(|&(x, _)| x as i64);
            let ys = members.iter().map(|&(_, y)| y as i64);
            assert_eq!(
                (c.min_x, c.min_y, c.max_x, c.max_y),
                (
                    xs.clone().min().unwrap(),
                    ys.clone().min().unwrap(),
                    xs.clone().max().unwrap(),
                    ys.clone().max().unwrap()
                )
            );
            let mean_x = xs.sum::<i64>() as f64 / n;
            let mean_y = ys.sum::<i64>() as f64 / n;
            assert!((c.centroid.0 - mean_x).abs() < 1e-9, "{c:?}");
            assert!((c.centroid.1 - mean_y).abs() < 1e-9, "{c:?}");
        } else {
            // Cells in distinct columns (rows) have distinct unwrapped x (y),
            // and a connected clump spans at most one column (row) per cell.
            let mut columns = vec![false; w];
            let mut rows = vec![false; h];
            for &(x, y) in &members {
                (columns[x], rows[y]) = (true, true);
            }
            let count = |v: &[bool]| v.iter().filter(|&&b| b).count() as i64;
            let (box_w, box_h) = (c.max_x - c.min_x + 1, c.max_y - c.min_y + 1);
            assert!(
                count(&columns) <= box_w && box_w <= members.len() as i64,
                "{c:?}"
            );
            assert!(
                count(&rows) <= box_h && box_h <= members.len() as i64,
                "{c:?}"
            );
            let (x, y) = (members[0].0 as i64, members[0].1 as i64);
            assert!((c.min_x..=c.max_x).contains(&x) && (c.min_y..=c.max_y).contains(&y));
        }
    }
}

#[test]
fn empty_grid_has_no_clumps() {
    for topology in [Topology::Torus, Topology::Bounded] {
        assert!(find(&BitGrid::new(70, 5).unwrap(), topology).is_empty());
        let (labels, clumps) = label(&BitGrid::new(1, 1).unwrap(), topology);
        assert_eq!((labels, clumps), (vec![0], vec![]));
    }
}

#[test]
fn block_is_one_clump() {
    let g = grid(10, 10, &[(3, 4), (4, 4), (3, 5), (4, 5)]);
    for topology in [Topology::Torus, Topology::Bounded] {
        let clumps = find(&g, topology);
        assert_eq!(boxes(&clumps), vec![(4, 3, 4, 4, 5)]);
        assert_eq!(clumps[0].centroid, (3.5, 4.5));
    }
}

#[test]
fn diagonal_neighbours_join_and_gaps_split() {
    let diagonal = grid(8, 8, &[(2, 2), (3, 3)]);
    assert_eq!(find(&diagonal, Topology::Bounded).len(), 1);
    let anti = grid(8, 8, &[(3, 2), (2, 3)]);
    assert_eq!(
        boxes(&find(&anti, Topology::Bounded)),
        vec![(2, 2, 2, 3, 3)]
    );
    let apart = grid(8, 8, &[(2, 2), (4, 2)]);
    assert_eq!(find(&apart, Topology::Bounded).len(), 2);
    let below = grid(8, 8, &[(2, 2), (2, 4)]);
    assert_eq!(find(&below, Topology::Bounded).len(), 2);
}

#[test]
fn clumps_across_torus_edges_are_whole_and_unwrapped() {
    // (0, 3) and (9, 4) touch diagonally through the west/east edge.
    let g = grid(10, 8, &[(0, 3), (9, 4)]);
    let torus = find(&g, Topology::Torus);
    assert_eq!(boxes(&torus), vec![(2, -1, 3, 0, 4)]);
    assert_eq!(torus[0].centroid, (9.5, 3.5));
    let bounded = find(&g, Topology::Bounded);
    assert_eq!(boxes(&bounded), vec![(1, 0, 3, 0, 3), (1, 9, 4, 9, 4)]);
    // Through the north/south edge, and through a corner.
    let g = grid(10, 8, &[(5, 0), (4, 7), (5, 7)]);
    let torus = find(&g, Topology::Torus);
    assert_eq!(boxes(&torus), vec![(3, 4, -1, 5, 0)]);
    // Mean y is -2/3, wrapped to 8 - 2/3 = 22/3.
    assert_eq!(torus[0].centroid, (14.0 / 3.0, 22.0 / 3.0));
    assert_eq!(find(&g, Topology::Bounded).len(), 2);
    let corner = grid(10, 8, &[(0, 0), (9, 7)]);
    assert_eq!(
        boxes(&find(&corner, Topology::Torus)),
        vec![(2, -1, -1, 0, 0)]
    );
    assert_eq!(find(&corner, Topology::Bounded).len(), 2);
    // A run that wraps within its row is labelled on both sides.
    let g = grid(70, 2, &[(0, 1), (1, 1), (68, 1), (69, 1)]);
    let (labels, clumps) = label(&g, Topology::Torus);
    assert_eq!(boxes(&clumps), vec![(4, -2, 1, 1, 1)]);
    assert_eq!(labels.iter().filter(|&&l| l == 1).count(), 4);
    check_against_reference(&g, Topology::Torus);
}

#[test]
fn clumps_come_in_row_major_order_of_first_cell() {
    // A clump's first cell is its topmost, then westmost, whatever its
    // shape; the tall clump on the east comes before the one that starts
    // a row lower on the west.
    let g = grid(12, 6, &[(8, 0), (8, 1), (1, 1), (1, 2), (5, 4), (0, 5)]);
    let clumps = find(&g, Topology::Bounded);
    assert_eq!(
        boxes(&clumps),
        vec![
            (2, 8, 0, 8, 1),
            (2, 1, 1, 1, 2),
            (1, 5, 4, 5, 4),
            (1, 0, 5, 0, 5)
        ]
    );
}

#[test]
fn tiny_tori_terminate_and_count_once() {
    // On these a cell is its own neighbour, or its neighbours repeat.
    let cases = [
        grid(1, 1, &[(0, 0)]),
        grid(2, 2, &[(0, 0), (1, 0), (0, 1), (1, 1)]),
        grid(2, 2, &[(1, 1)]),
        grid(1, 5, &[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]),
        grid(5, 1, &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]),
        grid(1, 5, &[(0, 1), (0, 3)]),
        grid(3, 3, &[(0, 0), (1, 1), (2, 2)]),
        grid(64, 1, &[(0, 0), (63, 0)]),
    ];
    for g in &cases {
        for topology in [Topology::Torus, Topology::Bounded] {
            check_against_reference(g, topology);
        }
    }
    assert_eq!(
        boxes(&find(&grid(1, 1, &[(0, 0)]), Topology::Torus)),
        vec![(1, 0, 0, 0, 0)]
    );
    let full = find(
        &grid(2, 2, &[(0, 0), (1, 0), (0, 1), (1, 1)]),
        Topology::Torus,
    );
    assert_eq!(full.len(), 1);
    assert_eq!(full[0].cells, 4);
    // A 1-wide torus: cells two apart in a 5-tall column stay apart,
    // in a 3-tall one they touch through the edge.
    assert_eq!(
        find(&grid(1, 5, &[(0, 1), (0, 3)]), Topology::Torus).len(),
        2
    );
    assert_eq!(
        find(&grid(1, 3, &[(0, 0), (0, 2)]), Topology::Torus).len(),
        1
    );
}

#[test]
fn soups_match_the_reference() {
    for (w, h, density, seed) in [(300, 200, 0.3, 1), (129, 64, 0.6, 2), (64, 130, 0.05, 3)] {
        let g = crate::life::soup(w, h, density, seed).unwrap();
        for topology in [Topology::Torus, Topology::Bounded] {
            check_against_reference(&g, topology);
        }
    }
    // A settled field (soup run a few generations) has the shapes rocks have.
    let g = crate::life::soup(256, 256, 0.8, 7).unwrap();
    let g = crate::Life::new(crate::Rule::CONWAY, Topology::Torus).run(&g, 8);
    check_against_reference(&g, Topology::Torus);
}

#[test]
fn labels_do_not_depend_on_the_threads() {
    // The strips follow the thread count; the labels and clumps must not.
    let g = crate::life::soup(200, 300, 0.8, 11).unwrap();
    let g = crate::Life::new(crate::Rule::CONWAY, Topology::Torus).run(&g, 5);
    let on = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| label(&g, Topology::Torus))
    };
    let one = on(1);
    assert_eq!(one.1, find(&g, Topology::Torus));
    assert_eq!(on(3), one);
    assert_eq!(on(7), one);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_soups_match_the_reference(
        width in 1usize..=70,
        height in 1usize..=40,
        density in 0.0..=1.0f64,
        seed: u64,
    ) {
        let g = crate::life::soup(width, height, density, seed).unwrap();
        check_against_reference(&g, Topology::Torus);
        check_against_reference(&g, Topology::Bounded);
    }
}
