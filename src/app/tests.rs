use super::*;
use crate::app::window::status::thousands;

#[test]
fn thousands_groups_digits() {
    assert_eq!(thousands(0), "0");
    assert_eq!(thousands(999), "999");
    assert_eq!(thousands(1000), "1,000");
    assert_eq!(thousands(1234567), "1,234,567");
}

#[test]
fn state_round_trips_and_tolerates_missing_fields() {
    let state = AppState::default();
    let text = ron::to_string(&state).unwrap();
    let back: AppState = ron::from_str(&text).unwrap();
    assert_eq!(back, state);
    let partial: AppState = ron::from_str("(preset: \"night\")").unwrap();
    assert_eq!(partial.preset, "night");
    assert_eq!(partial.scene, Scene::default());
    assert_eq!(partial.web_address, "");
    let with_address = AppState {
        web_address: "https://example.org/playa/".into(),
        ..AppState::default()
    };
    let text = ron::to_string(&with_address).unwrap();
    assert_eq!(ron::from_str::<AppState>(&text).unwrap(), with_address);
}

#[test]
fn a_state_stored_by_an_older_version_comes_back_without_stale_parts() {
    let badlands = crate::scene::presets::load("badlands").unwrap();
    let stored = format!(
        "(scene: {}, preset: \"badlands\", animate: (last: 251, fps: 9.0))",
        ron::to_string(&badlands).unwrap()
    );
    let state: AppState = ron::from_str(&stored).unwrap();
    // The scrubber's old end is not read: its range is the setting's.
    assert_eq!(state.animate.fps, 9.0);
    assert_eq!(state.loaded, "");
    let app = PlayaApp::new(state);
    let code = crate::share::encode(&badlands);
    assert_eq!(app.state.loaded, code);
    assert_eq!(app.state.origin_label(&code), "badlands");
    let edited = crate::share::encode(&Scene {
        seed: 3,
        ..badlands
    });
    assert_eq!(app.state.origin_label(&edited), "badlands (edited)");
}

#[test]
fn the_environment_wins_over_the_setting_when_not_blank() {
    let mut state = AppState::default();
    assert_eq!(state.link_address(None), None);
    assert_eq!(state.link_address(Some(" ")), None);
    state.web_address = " https://a.example/playa/ ".into();
    assert_eq!(state.link_address(None), Some("https://a.example/playa/"));
    assert_eq!(
        state.link_address(Some("")),
        Some("https://a.example/playa/")
    );
    assert_eq!(
        state.link_address(Some("http://b.example/")),
        Some("http://b.example/")
    );
    state.web_address = "  ".into();
    assert_eq!(state.link_address(None), None);
    assert_eq!(
        state.link_address(Some("http://b.example/")),
        Some("http://b.example/")
    );
}
