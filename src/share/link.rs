//! Links: a web address whose fragment is a share code, made from a scene
//! and read back wherever a code is accepted. The address is not part of
//! the format.

use super::codec::{encode, is_code_shaped, prefixes};
use crate::error::{Error, Result, quote};
use crate::scene::Scene;

/// A link to `scene`: the web address `base` (of playa's web page, e.g.
/// `https://example.org/playa/`), its fragment if it has one replaced by
/// `#` and the scene's share code: `https://example.org/playa/#playa1-…`.
/// [`decode`](super::decode) reads the scene back from it. A `base` that is not a web
/// address (`scheme://…`, without blanks) is an [`Error::WebAddress`].
///
/// ```
/// use playa::{Scene, share};
///
/// let scene = Scene { seed: 7, ..Scene::default() };
/// let link = share::link("https://example.org/playa/#old", &scene)?;
/// assert_eq!(link, "https://example.org/playa/#playa1-XRGtELg");
/// assert_eq!(share::decode(&link)?, scene);
/// # Ok::<(), playa::Error>(())
/// ```
pub fn link(base: &str, scene: &Scene) -> Result<String> {
    let address = link_address(base)?;
    Ok(format!("{address}#{}", encode(scene)))
}

/// `base` without blanks around it or its fragment, if it is a web address:
/// a scheme (a letter, then letters, digits, `+`, `-` or `.`), `://`, and
/// more, without blanks or control characters. Else an
/// [`Error::WebAddress`] saying why not.
fn link_address(base: &str) -> Result<&str> {
    let trimmed = base.trim();
    let address = trimmed.split_once('#').map_or(trimmed, |(a, _)| a);
    let fail = |reason: &str| {
        Err(Error::WebAddress {
            address: trimmed.to_string(),
            reason: reason.into(),
        })
    };
    if address.is_empty() {
        return fail("it is empty");
    }
    if address.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return fail("it has a blank or a control character in it");
    }
    if !is_web_address(address) {
        return fail("expected one like https://example.org/playa/");
    }
    Ok(address)
}

/// Whether `text` is a scheme, `://` and at least one character more.
fn is_web_address(text: &str) -> bool {
    text.split_once("://").is_some_and(|(scheme, rest)| {
        let mut chars = scheme.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
            && !rest.is_empty()
    })
}

/// The share code in `text` if it is a link: the fragment of a web address
/// (`https://…#playa1-…`) or a bare fragment (`#playa1-…`). `Ok(None)`:
/// `text` is no link. A link whose fragment has no share code's shape is
/// an error saying so; one with a damaged code is left to [`decode`](super::decode).
pub(super) fn code_in_link(text: &str) -> Result<Option<&str>> {
    let text = text.trim();
    let (address, fragment) = match text.split_once('#') {
        Some((address, fragment)) => (address, Some(fragment)),
        None => (text, None),
    };
    let bare_fragment = address.is_empty() && fragment.is_some();
    if !bare_fragment && !is_web_address(address) {
        return Ok(None);
    }
    match fragment {
        Some(code) if is_code_shaped(code) => Ok(Some(code)),
        Some(fragment) if !fragment.is_empty() => Err(Error::ShareCode(format!(
            "the link's fragment {} is not a share code (they start with {})",
            quote(fragment),
            prefixes()
        ))),
        _ => Err(Error::ShareCode(
            "the link has no share code after #".into(),
        )),
    }
}
