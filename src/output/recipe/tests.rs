use super::*;
use crate::output::picture::tests::small;
use crate::output::picture::{Compression, encode_png_to_vec};

#[test]
fn recipe_round_trips() {
    let (scene, image) = small();
    for c in Compression::ALL {
        let bytes = encode_png_to_vec(&image, &scene, &[("playa:note", "x1".into())], c).unwrap();
        let recipe = decode_recipe(&bytes, "mem").unwrap();
        assert_eq!(
            (
                recipe.scene,
                recipe.width,
                recipe.height,
                recipe.window,
                recipe.compression
            ),
            (scene.clone(), 48, 27, None, Some(c))
        );
        let note = read_text(std::io::Cursor::new(&bytes), "mem", "playa:note").unwrap();
        assert_eq!(note.as_deref(), Some("x1"));
        let code = read_text(std::io::Cursor::new(&bytes), "mem", CODE_KEY).unwrap();
        assert_eq!(code, Some(share::encode(&scene)));
        let decoded = image::load_from_memory(&bytes).unwrap().to_rgba8();
        assert_eq!(decoded, image);
    }
}

#[test]
fn the_size_is_the_picture_s_own() {
    let scene = Scene::default();
    for (w, h) in [(1, 1), (300, 169), (97, 55)] {
        let image = crate::render(&scene, w, h).unwrap();
        let bytes = encode_png_to_vec(&image, &scene, &[], Compression::Fast).unwrap();
        let recipe = decode_recipe(&bytes, "mem").unwrap();
        assert_eq!((recipe.width, recipe.height), (w, h));
    }
    let recipe = decode_recipe(&png_with(&[(CODE_KEY, &share::encode(&scene))]), "x").unwrap();
    assert_eq!((recipe.width, recipe.height), (2, 2));
}

#[test]
fn a_cropped_picture_s_window_is_read_back_and_checked() {
    let scene = Scene::default();
    let window = Window::crop(scene.aspect, 30, 30).unwrap();
    let mut bytes = Vec::new();
    crate::output::picture::render_png_window(&mut bytes, &scene, &window, &[], Compression::Fast)
        .unwrap();
    let recipe = decode_recipe(&bytes, "c.png").unwrap();
    assert_eq!(recipe.window, Some(window));
    assert_eq!((recipe.width, recipe.height), (30, 30));

    let code = share::encode(&scene);
    let err = decode_recipe(
        &png_with(&[(CODE_KEY, &code), (WINDOW_KEY, &window.to_string())]),
        "e.png",
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("e.png") && err.contains("was the file edited"),
        "{err}"
    );
    let err = decode_recipe(&png_with(&[(CODE_KEY, &code), (WINDOW_KEY, "x")]), "b.png")
        .unwrap_err()
        .to_string();
    assert!(err.contains("playa:window chunk: window"), "{err}");
}

/// A small PNG with the text chunks `texts` (keyword, text).
fn png_with(texts: &[(&str, &str)]) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut enc = png::Encoder::new(&mut bytes, 2, 2);
    enc.set_color(png::ColorType::Rgb);
    for (k, t) in texts {
        enc.add_text_chunk(k.to_string(), t.to_string()).unwrap();
    }
    let mut w = enc.write_header().unwrap();
    w.write_image_data(&[0; 12]).unwrap();
    w.finish().unwrap();
    bytes
}

#[test]
fn either_chunk_is_a_recipe_and_both_must_agree() {
    let scene = Scene {
        seed: 77,
        ..Scene::default()
    };
    let code = share::encode(&scene);
    let ron = scene.to_ron();
    let decode = |texts: &[(&str, &str)]| decode_recipe(&png_with(texts), "x.png").map(|r| r.scene);
    assert_eq!(decode(&[(CODE_KEY, &code)]).unwrap(), scene);
    assert_eq!(decode(&[(SCENE_KEY, &ron)]).unwrap(), scene);
    assert_eq!(
        decode(&[(SCENE_KEY, &ron), (CODE_KEY, &code)]).unwrap(),
        scene
    );

    let other = share::encode(&Scene::default());
    let err = decode(&[(SCENE_KEY, &ron), (CODE_KEY, &other)])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("x.png") && err.contains("different scenes"),
        "{err}"
    );
    let err = decode_recipe(
        &png_with(&[(CODE_KEY, &code), (COMPRESSION_KEY, "max")]),
        "z.png",
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("z.png") && err.contains("playa:compression chunk: compression \"max\""),
        "{err}"
    );
    // A picture of an older playa names no compression.
    let recipe = decode_recipe(&png_with(&[(CODE_KEY, &code)]), "o.png").unwrap();
    assert_eq!(recipe.compression, None);
    let err = decode(&[(CODE_KEY, "playa1-AAAAAAA")])
        .unwrap_err()
        .to_string();
    assert!(err.contains("playa:code chunk: share code"), "{err}");
}

#[test]
fn bad_inputs_say_what_is_wrong() {
    let err = decode_recipe(b"hello world", "a.png")
        .unwrap_err()
        .to_string();
    assert!(err.contains("a.png") && err.contains("not a PNG"), "{err}");
    let err = decode_recipe(b"", "e.png").unwrap_err().to_string();
    assert!(err.contains("not a PNG"), "{err}");

    let mut plain = Vec::new();
    image::DynamicImage::ImageRgba8(image::RgbaImage::new(4, 4))
        .write_to(
            &mut std::io::Cursor::new(&mut plain),
            image::ImageFormat::Png,
        )
        .unwrap();
    let err = decode_recipe(&plain, "p.png").unwrap_err().to_string();
    assert!(err.contains("no playa:scene recipe"), "{err}");

    let (_, image) = small();
    let mut bad = Vec::new();
    let mut enc = png::Encoder::new(&mut bad, 48, 27);
    enc.set_color(png::ColorType::Rgba);
    enc.add_itxt_chunk(SCENE_KEY.into(), "(seed: \"x\")".into())
        .unwrap();
    let mut w = enc.write_header().unwrap();
    w.write_image_data(image.as_raw()).unwrap();
    w.finish().unwrap();
    let err = decode_recipe(&bad, "b.png").unwrap_err().to_string();
    assert!(err.contains("b.png (playa:scene): line 1, column"), "{err}");

    let (scene, image) = small();
    let bytes = encode_png_to_vec(&image, &scene, &[], Compression::Fast).unwrap();
    let err = decode_recipe(&bytes[..40], "t.png")
        .unwrap_err()
        .to_string();
    assert!(err.contains("t.png"), "{err}");
}

/// `data` as the chunk `kind`, with its length and checksum.
fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    let mut bytes = (data.len() as u32).to_be_bytes().to_vec();
    bytes.extend_from_slice(kind);
    bytes.extend_from_slice(data);
    bytes.extend_from_slice(&crc.finalize().to_be_bytes());
    bytes
}

/// A text chunk as the png crate writes it.
fn text_chunk(text: impl png::text_metadata::EncodableTextChunk) -> Vec<u8> {
    let mut bytes = Vec::new();
    text.encode(&mut bytes).unwrap();
    bytes
}

/// A compressed iTXt chunk.
fn packed(keyword: &str, text: String) -> Vec<u8> {
    let mut itxt = png::text_metadata::ITXtChunk::new(keyword, text);
    // Else the png crate writes the text unpacked.
    itxt.compressed = true;
    text_chunk(itxt)
}

/// A PNG file whose header says `width × height`, then `chunks` and
/// image data that are no picture's: its recipe is all that is read.
fn raw_png(width: u32, height: u32, chunks: &[Vec<u8>]) -> Vec<u8> {
    let mut ihdr = width.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    let mut bytes = PNG_SIGNATURE.to_vec();
    bytes.extend(chunk(b"IHDR", &ihdr));
    bytes.extend(chunks.concat());
    bytes.extend(chunk(b"IDAT", &[0x78, 0x01]));
    bytes.extend(chunk(b"IEND", &[]));
    bytes
}

/// A tEXt chunk.
fn plain(keyword: &str, text: &str) -> Vec<u8> {
    text_chunk(png::text_metadata::TEXtChunk::new(keyword, text))
}

#[test]
fn a_picture_s_size_is_checked_as_size_is() {
    let code = plain(CODE_KEY, &share::encode(&Scene::default()));
    let decode = |w, h, more: &[Vec<u8>]| {
        let chunks = [&[code.clone()][..], more].concat();
        decode_recipe(&raw_png(w, h, &chunks), "p.png").map(|r| (r.width, r.height))
    };
    for (w, h) in [(1, 16384), (16384, 2), (65536, 8), (70000, 9000), (0, 5)] {
        let err = decode(w, h, &[]).unwrap_err().to_string();
        let rule = compose::check_picture_size(w, h, true).unwrap_err();
        assert_eq!(
            err,
            format!("p.png: the picture's size is not one playa makes: {rule}")
        );
    }
    assert_eq!(decode(800, 100, &[]).unwrap(), (800, 100));
    assert_eq!(decode(65536, 8192, &[]).unwrap(), (65536, 8192));
    // A picture whose compression holds it whole keeps the held limits.
    let best = plain(COMPRESSION_KEY, "best");
    assert!(decode(16384, 2048, std::slice::from_ref(&best)).is_ok());
    let err = decode(20000, 2500, &[best]).unwrap_err().to_string();
    assert!(err.contains("must be 1 to 16384 pixels"), "{err}");
    // A window may be thin; the picture it is cut from may not.
    let window = |text: &str| plain(WINDOW_KEY, text);
    assert!(decode(1, 1000, &[window("1x1000+0+0 of 1920x1080")]).is_ok());
    let err = decode(1, 1000, &[window("1x1000+0+0 of 1x16384")])
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("p.png: its playa:window chunk cuts it from a 1x16384 picture")
            && err.ends_with("playa draws aspects up to 1:8"),
        "{err}"
    );
}

#[test]
fn two_recipes_that_differ_are_refused() {
    let (one, two) = (
        Scene::default(),
        Scene {
            seed: 9,
            ..Scene::default()
        },
    );
    let decode = |chunks: &[Vec<u8>]| decode_recipe(&raw_png(64, 36, chunks), "two.png");
    for chunks in [
        [
            plain(SCENE_KEY, &one.to_ron()),
            packed(SCENE_KEY, two.to_ron()),
        ],
        [
            packed(SCENE_KEY, one.to_ron()),
            packed(SCENE_KEY, two.to_ron()),
        ],
        [
            plain(CODE_KEY, &share::encode(&one)),
            plain(CODE_KEY, &share::encode(&two)),
        ],
    ] {
        let err = decode(&chunks).unwrap_err().to_string();
        assert!(
            err.starts_with("two.png: it holds two playa:")
                && err.ends_with(" chunks that differ (was the file edited?)"),
            "{err}"
        );
    }
    // The same recipe twice is one recipe.
    let same = [
        plain(SCENE_KEY, &two.to_ron()),
        packed(SCENE_KEY, two.to_ron()),
    ];
    assert_eq!(decode(&same).unwrap().scene, two);
}

#[test]
fn a_recipe_past_the_limit_is_refused_in_playa_s_words() {
    // 16 MiB of blanks packed into a few kilobytes, in both compressed
    // kinds of chunk, and a chunk too long to be read at all.
    let blanks = format!("({})", " ".repeat(16 << 20));
    let mut ztxt = png::text_metadata::ZTXtChunk::new(SCENE_KEY, blanks.clone());
    ztxt.compress_text().unwrap();
    let unpacks = format!(
        "chunk unpacks to more than {MAX_TEXT_BYTES} bytes, the limit of a text playa reads"
    );
    let long = format!("chunk is 2097164 bytes, more than the limit of {MAX_TEXT_CHUNK_BYTES}");
    for (chunk, says) in [
        (packed(SCENE_KEY, blanks.clone()), &unpacks),
        (text_chunk(ztxt), &unpacks),
        (plain(SCENE_KEY, &blanks[..2 << 20]), &long),
    ] {
        let err = decode_recipe(&raw_png(64, 36, &[chunk]), "bomb.png")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("bomb.png: its playa:scene ") && err.contains(says),
            "{err}"
        );
    }
}

#[test]
fn chunks_playa_does_not_read_are_skipped_however_big() {
    let scene = Scene {
        seed: 5,
        ..Scene::default()
    };
    let huge = "Composition: dune sea\n".repeat((30 << 20) / 22 + 1);
    let mut bad_crc = chunk(b"prVt", b"anything");
    *bad_crc.last_mut().unwrap() ^= 1;
    let bytes = raw_png(
        64,
        36,
        &[
            plain(TRAITS_KEY, &huge),
            packed("Comment", huge.clone()),
            bad_crc,
            chunk(b"zzZz", &vec![7; 1 << 20]),
            packed(SCENE_KEY, scene.to_ron()),
        ],
    );
    assert!(bytes.len() > 30 << 20);
    assert_eq!(decode_recipe(&bytes, "big.png").unwrap().scene, scene);
    // A chunk that is read must be whole.
    let mut torn = packed(SCENE_KEY, scene.to_ron());
    *torn.last_mut().unwrap() ^= 1;
    let err = decode_recipe(&raw_png(64, 36, &[torn]), "torn.png")
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "torn.png: damaged PNG: its playa:scene chunk fails its checksum"
    );
    let whole = raw_png(64, 36, &[packed(SCENE_KEY, scene.to_ron())]);
    let err = decode_recipe(&whole[..60], "cut.png")
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "cut.png: damaged PNG: it ends inside its playa:scene chunk"
    );
    let err = decode_recipe(&raw_png(64, 36, &[chunk(b"QQQQ", b"")]), "q.png")
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "q.png: damaged PNG: it has an unknown critical chunk, QQQQ"
    );
}
