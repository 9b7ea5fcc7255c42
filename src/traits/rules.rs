//! The rules of the traits' tables ([`super::Rule`]): where a composition,
//! a time or a vantage weighs an axis's values otherwise than its table.

use super::{
    ARCHETYPE, Rule, STONES, TIME, archetype as a, focal, ground as g, palette as p, plants as pl,
    rare, stones as st, time as t, vantage, weather,
};

/// The weather by the time: under a moonless night sky, heavy cloud leaves
/// a black picture, so the night's clouds are thin.
pub(super) const WEATHER_RULES: &[Rule] = &[
    Rule {
        when: &[(TIME, &[t::NIGHT, t::BLUE_HOUR])],
        weights: &[
            (weather::CLEAR, 55),
            (weather::CIRRUS, 30),
            (weather::CUMULUS, 15),
        ],
    },
    // (Storm clouds under the moon shade the ground to black.)
    Rule {
        when: &[(TIME, &[t::MOONLIGHT])],
        weights: &[
            (weather::CLEAR, 40),
            (weather::CIRRUS, 25),
            (weather::CUMULUS, 20),
            (weather::BROKEN, 15),
        ],
    },
];

/// The palettes by composition (salt is white, badlands red, dunes golden)
/// and by starlight.
pub(super) const PALETTE_RULES: &[Rule] = &[
    Rule {
        when: &[(ARCHETYPE, &[a::SALT_PAN])],
        weights: &[(p::WHITE, 1)],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::BADLANDS])],
        weights: &[(p::RED, 60), (p::PALE, 20), (p::GREY, 20)],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::DUNE_SEA])],
        weights: &[(p::GOLDEN, 60), (p::RED, 25), (p::PALE, 15)],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::RACETRACK])],
        weights: &[(p::PALE, 60), (p::GREY, 40)],
    },
    // Pale ground by starlight: dark earth is black under the stars.
    Rule {
        when: &[(TIME, &[t::NIGHT])],
        weights: &[(p::PALE, 55), (p::GOLDEN, 35), (p::GREY, 10)],
    },
];

/// The grounds by composition: a dune sea's is sand, a salt pan's salt, the
/// Racetrack's cracked mud, a bajada's fans gravel or washes.
pub(super) const GROUND_RULES: &[Rule] = &[
    Rule {
        when: &[(ARCHETYPE, &[a::DUNE_SEA])],
        weights: &[(g::SAND, 1)],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::SALT_PAN])],
        weights: &[(g::SALT, 1)],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::RACETRACK])],
        weights: &[(g::CRACKS, 1)],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::BAJADA])],
        weights: &[(g::PAVEMENT, 60), (g::WASH, 40)],
    },
];

/// The plants by composition: none on sand, salt or the Racetrack.
pub(super) const PLANTS_RULES: &[Rule] = &[
    Rule {
        when: &[(ARCHETYPE, &[a::JOSHUA_FLAT])],
        weights: &[(pl::JOSHUAS, 1)],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::BAJADA])],
        weights: &[(pl::SPARSE, 40), (pl::CREOSOTE, 60)],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::DUNE_SEA, a::RACETRACK, a::SALT_PAN])],
        weights: &[(pl::NONE, 1)],
    },
];

/// The stones by composition.
pub(super) const STONES_RULES: &[Rule] = &[
    Rule {
        when: &[(ARCHETYPE, &[a::BOULDER_FIELD])],
        weights: &[(st::BOULDERS, 1)],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::RACETRACK])],
        weights: &[(st::SAILING, 1)],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::DUNE_SEA])],
        weights: &[(st::NONE, 1)],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::SALT_PAN])],
        weights: &[(st::NONE, 35), (st::SCATTERED, 65)],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::JOSHUA_FLAT])],
        weights: &[(st::NONE, 20), (st::SCATTERED, 50), (st::CLUMPS, 30)],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::BAJADA])],
        weights: &[(st::NONE, 30), (st::SCATTERED, 50), (st::CLUMPS, 20)],
    },
];

/// The tent: always at a campsite, and after sunset on any open ground
/// but an open playa (it lights the ground around it); never on an open
/// playa, or by day on sand or a bajada's slopes; a near rise of ground in front of an open playa more
/// often, never on the flat Racetrack, the sand or a bajada (whose fans
/// have their own).
pub(super) const FOCAL_RULES: &[Rule] = &[
    // (After sunset an open plain, a fan or the badlands are empty but for
    // a lit tent. An open playa with a tent would read as a campsite.)
    Rule {
        when: &[
            (
                ARCHETYPE,
                &[
                    a::SALT_PAN,
                    a::DUNE_SEA,
                    a::BAJADA,
                    a::BADLANDS,
                    a::RACETRACK,
                ],
            ),
            (TIME, &[t::BLUE_HOUR, t::NIGHT, t::MOONLIGHT]),
        ],
        weights: &[(focal::TENT, 1)],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::CAMPSITE])],
        weights: &[(focal::TENT, 1)],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::OPEN_PLAYA])],
        weights: &[(focal::RISE, 40), (focal::NO_TENT, 60)],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::DUNE_SEA, a::BAJADA])],
        weights: &[(focal::NO_TENT, 1)],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::RACETRACK])],
        weights: &[(focal::TENT, 25), (focal::NO_TENT, 75)],
    },
];

/// The rare events by time: a great moon only by night, a mirage only in
/// the day's heat, dust at the day's ends too.
pub(super) const RARE_RULES: &[Rule] = &[
    Rule {
        when: &[(TIME, &[t::NIGHT, t::MOONLIGHT])],
        weights: &[(rare::NONE, 94), (rare::GREAT_MOON, 6)],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::DUNE_SEA])],
        weights: &[(rare::NONE, 95), (rare::DUST, 5)],
    },
    Rule {
        when: &[(TIME, &[t::DAWN, t::DUSK, t::BLUE_HOUR])],
        weights: &[(rare::NONE, 95), (rare::DUST, 5)],
    },
];

/// The vantage by time and composition: after dark, near the ground; a
/// dune field's crests and the badlands'
/// ridges read from above, a bajada's from an overlook; a salt pan's
/// polygons, the Racetrack's stones, a camp, trees and boulders from near
/// the ground.
///
/// Stones on the floor are seen from a standing eye, close to the ground
/// or through a long lens (New scene sizes them for the eye): from a rise
/// or an overlook they are too small to see, and the picture would not
/// show its Stones trait.
pub(super) const VANTAGE_RULES: &[Rule] = &[
    // (After dark the ground reads only near the eye, by the tent's and
    // the moon's light: from above or through a long lens it is a dim,
    // empty band.)
    Rule {
        when: &[(TIME, &[t::NIGHT, t::MOONLIGHT])],
        weights: &[(vantage::STANDING, 60), (vantage::LOW, 40)],
    },
    Rule {
        when: &[(
            STONES,
            &[st::SCATTERED, st::CLUMPS, st::DENSE, st::BOULDERS],
        )],
        weights: &[
            (vantage::STANDING, 45),
            (vantage::LOW, 30),
            (vantage::LONG, 25),
        ],
    },
    Rule {
        when: &[(
            ARCHETYPE,
            &[a::CAMPSITE, a::OPEN_PLAYA, a::JOSHUA_FLAT, a::BOULDER_FIELD],
        )],
        // (From a rise or an overlook their tent, trees and boulders are
        // specks on an empty plain.)
        weights: &[
            (vantage::STANDING, 45),
            (vantage::LOW, 30),
            (vantage::LONG, 25),
        ],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::DUNE_SEA])],
        // (Through a long lens the far sand is flat: an empty frame.)
        weights: &[
            (vantage::STANDING, 25),
            (vantage::RAISED, 45),
            (vantage::OVERLOOK, 30),
        ],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::BADLANDS])],
        weights: &[
            (vantage::STANDING, 15),
            (vantage::RAISED, 30),
            (vantage::OVERLOOK, 45),
            (vantage::LONG, 10),
        ],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::SALT_PAN])],
        // (From an overlook its polygons are too fine to see: an empty
        // white plain.)
        weights: &[
            (vantage::STANDING, 45),
            (vantage::LOW, 35),
            (vantage::LONG, 20),
        ],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::RACETRACK])],
        // (From above its stones and trails are too fine to see: an empty
        // playa.)
        weights: &[(vantage::STANDING, 45), (vantage::LOW, 55)],
    },
    Rule {
        when: &[(ARCHETYPE, &[a::BAJADA])],
        weights: &[
            (vantage::STANDING, 25),
            (vantage::RAISED, 30),
            (vantage::OVERLOOK, 35),
            (vantage::LONG, 10),
        ],
    },
];
