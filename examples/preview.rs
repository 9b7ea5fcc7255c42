//! Development helper: render a RON scene to a PNG, optionally cropped.
//! `preview SCENE.ron OUT.png [WIDTH] [X Y W H]`
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let scene = playa::Scene::from_ron(&text, &args[1]).unwrap();
    let w: u32 = args.get(3).map(|s| s.parse().unwrap()).unwrap_or(960);
    let h = (w as f32 / scene.aspect).round() as u32;
    let t = std::time::Instant::now();
    let mut img = playa::render(&scene, w, h).unwrap();
    eprintln!(
        "{} ms, stones {}",
        t.elapsed().as_millis(),
        playa::compose::Plan::new(&scene)
            .unwrap()
            .stone_count()
            .unwrap()
    );
    if args.len() >= 8 {
        let n: Vec<u32> = args[4..8].iter().map(|s| s.parse().unwrap()).collect();
        img = image::imageops::crop_imm(&img, n[0], n[1], n[2], n[3]).to_image();
    }
    img.save(&args[2]).unwrap();
}
