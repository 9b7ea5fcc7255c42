//! A dust storm: the clouds layer's `dust` thickened from a haze over the
//! horizon into dust filling the air (since the second look; the first
//! draws only the haze, which the ranges and the floor then cover).
//!
//! A storm is mostly a change of the light, so it is worked into the
//! picture's palette, which every layer reads: the sky and the light on
//! the ground turn ochre, the sun or moon shows as a pale disc without
//! its glow, the shadows soften and the stars go out. The ranges fade
//! into the dust ([`Frame::dust`](crate::layers::Frame)).

use super::Clouds;
use crate::base::color::{Linear, Rgb, mix, mul, scale};
use crate::base::palette::{LOOK_SAND, Palette};
use crate::layers::Layer;

/// The dust at which a storm begins: below it the dust is a haze over the
/// horizon only (New scene rolls up to 0.2 without a storm).
const ONSET: f32 = 0.2;
/// The dust at which the storm is at its thickest (New scene rolls a
/// storm's from 0.55).
const FULL: f32 = 0.55;

/// The colour of the dust, lit by white light.
const OCHRE: Rgb = Rgb(206, 152, 88);

/// How thick a dust storm the clouds of `layers` raise in the look
/// `look`, 0 (none) to 1: the first visible clouds layer's dust, past
/// [`ONSET`], times its opacity. Always 0 in the first look, whose
/// pictures keep their pixels.
pub(crate) fn strength(layers: &[Layer], look: u32) -> f32 {
    if look < LOOK_SAND {
        return 0.0;
    }
    layers
        .iter()
        .find_map(|l| match l {
            Layer::Clouds(c) if c.visible => Some(c),
            _ => None,
        })
        .map_or(0.0, Clouds::storm)
}

impl Clouds {
    /// How thick a storm this layer's dust is, 0 to 1 (see [`strength`]).
    fn storm(&self) -> f32 {
        ((self.dust - ONSET) / (FULL - ONSET)).clamp(0.0, 1.0) * self.opacity
    }
}

/// The luminance of a colour in linear light.
fn luminance(c: Linear) -> f32 {
    0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
}

/// `c` scaled to a luminance of 1.
fn unit(c: Linear) -> Linear {
    scale(c, 1.0 / luminance(c).max(1e-6))
}

/// Changes `p` into the light of a dust storm `storm` thick (0 leaves it
/// as it is): the dust scatters the sun's light, so the sky is the dust's
/// colour about as bright as the horizon was, the direct light gives way
/// to ochre light from all around, and the disc is pale and dim enough to
/// look at.
pub(crate) fn darken(p: &mut Palette, storm: f32) {
    if storm <= 0.0 {
        return;
    }
    let s = storm;
    let ochre = unit(OCHRE.linear());
    // The light the dust passes on: from white to the dust's colour.
    let tint = mix([1.0; 3], ochre, 0.8);
    let bright = luminance(p.horizon);
    let dust = scale(ochre, bright);
    p.horizon = mix(p.horizon, dust, s);
    p.mid = mix(p.mid, scale(dust, 0.9), s);
    p.zenith = mix(p.zenith, scale(dust, 0.72), 0.9 * s);
    let pale = unit([1.0, 0.93, 0.8]);
    p.disc = mix(p.disc, scale(pale, (1.6 * bright).min(0.95)), s);
    p.glow = scale(p.glow, 1.0 - 0.9 * s);
    let (direct, ambient) = (luminance(p.direct), luminance(p.ambient));
    let around = scale(tint, ambient + 0.5 * direct * p.light[1].max(0.0));
    p.ambient = mix(p.ambient, around, s);
    p.direct = mix(p.direct, scale(mul(p.direct, tint), 0.3), s);
    p.ground = mix(p.ground, scale(tint, 0.85 * luminance(p.ground)), s);
    p.shadow *= 1.0 - 0.7 * s;
    p.stars *= 1.0 - s;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::palette::{LOOK_FIRST, TimeOfDay};

    fn clouds(dust: f32) -> Vec<Layer> {
        vec![Layer::Clouds(Clouds {
            dust,
            ..Clouds::default()
        })]
    }

    #[test]
    fn only_thick_dust_in_the_second_look_is_a_storm() {
        assert_eq!(strength(&clouds(1.0), LOOK_FIRST), 0.0);
        assert_eq!(strength(&clouds(0.2), LOOK_SAND), 0.0);
        assert_eq!(strength(&clouds(0.55), LOOK_SAND), 1.0);
        assert!(strength(&clouds(0.45), LOOK_SAND) > 0.7);
        assert_eq!(strength(&[], LOOK_SAND), 0.0);
    }

    #[test]
    fn a_storm_turns_the_light_ochre_and_the_sun_pale() {
        let before = Palette::in_look(LOOK_SAND, TimeOfDay::Noon, 0.7, 0.5);
        let mut p = before.clone();
        darken(&mut p, 1.0);
        // The sky at the horizon is ochre: more red than green, more green
        // than blue.
        assert!(p.horizon[0] > p.horizon[1] && p.horizon[1] > p.horizon[2]);
        // The disc is no brighter than white, and brighter than the sky.
        assert!(luminance(p.disc) <= 1.0 && luminance(p.disc) > luminance(p.horizon));
        assert!(luminance(p.glow) < 0.2 * luminance(before.glow));
        assert!(p.shadow < before.shadow);
    }
}
