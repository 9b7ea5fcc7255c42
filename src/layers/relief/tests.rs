//! The relief's tests.

use super::*;

impl ReliefDraw {
    /// A relief with nothing prepared, lit from `side`.
    fn for_test(side: f32) -> ReliefDraw {
        ReliefDraw {
            opacity: 1.0,
            horizon: 100.0,
            h: 200.0,
            x0: 0,
            fans: Vec::new(),
            fan_lit: [0.5; 3],
            haze: [0.6; 3],
            fan_rows: (u32::MAX, 0),
            laid: Vec::new(),
            laid_rows: (u32::MAX, 0),
            lay: 0.0,
            side,
            wash: Vec::new(),
            wash_first: 100,
            rise: Vec::new(),
            rise_first: 200,
            rise_key: 80.0,
            flank: Vec::new(),
            rise_base: [0.3; 3],
            strewn: false,
            rim: [1.3; 3],
            seed: 1,
            shade: None,
        }
    }
}

#[test]
fn a_wash_is_pale_inside_and_dark_on_its_shaded_bank() {
    let draw = ReliefDraw::for_test(1.0);
    let r = WashRow {
        centre: 100.0,
        half: 40.0,
        strength: 1.0,
        z: 3.0,
    };
    let soft = 1.0 / r.half;
    assert!(draw.wash_light(&r, 0.0, soft) > 1.0);
    // Light from the right: the right bank faces left, into shadow.
    assert!(draw.wash_light(&r, 0.9, soft) < 0.8);
    assert!(draw.wash_light(&r, -0.9, soft) > 1.2);
    // Far outside, the floor is left as it is.
    assert_eq!(draw.wash_light(&r, 2.0, soft), 1.0);
}

#[test]
fn fans_rise_over_the_horizon_only_where_there_are_fans() {
    let none = Relief {
        fans: 0.0,
        ..Relief::default()
    };
    assert!(none.fan_list(7, 16.0 / 9.0).is_empty());
    let bajada = Relief {
        fans: 1.0,
        ..Relief::default()
    };
    let list = bajada.fan_list(7, 16.0 / 9.0);
    assert_eq!(list.len(), 6);
    for fan in list {
        assert!(fan.height > 0.0 && fan.height <= FAN_HEIGHT, "{fan:?}");
        assert!((0.0..=1.0).contains(&fan.x), "{fan:?}");
    }
}

#[test]
fn a_setting_out_of_its_range_is_refused_in_one_line() {
    let err = crate::Scene::from_ron("(layers: [Floor(()), Relief((fans: 1.5))])", "bad")
        .unwrap_err()
        .to_string();
    assert!(err.contains("fans") && !err.contains('\n'), "{err}");
}

/// From high above the fans lie spread on the basin's floor, under the
/// horizon and reaching toward the eye; from a standing eye none lie
/// down (every older picture keeps its fans).
#[test]
fn from_an_overlook_the_fans_lie_on_the_ground() {
    let laid = |eye: f32| {
        let mut scene = crate::scene::Scene {
            eye,
            ..crate::scene::Scene::default()
        };
        scene.add_layer(super::super::Layer::Relief(Relief {
            fans: 0.9,
            wash: 0.0,
            rise: 0.0,
            ..Relief::default()
        }));
        let plan = crate::compose::Plan::new(&scene).unwrap();
        let draw = Relief {
            fans: 0.9,
            wash: 0.0,
            rise: 0.0,
            ..Relief::default()
        }
        .prepare_draw(&plan.frame(320, 180));
        (draw.laid, draw.laid_rows, draw.horizon)
    };
    let (standing, _, _) = laid(1.6);
    assert!(standing.is_empty());
    let (above, rows, horizon) = laid(1750.0);
    assert!(!above.is_empty());
    assert!(
        rows.0 as f32 >= horizon.floor() && rows.1 as f32 > horizon + 10.0,
        "{rows:?}"
    );
}
