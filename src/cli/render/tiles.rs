//! `playa render --tiles`: a Deep Zoom pyramid for each job, made and
//! recorded in the batch's manifest as its pictures are.

use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;

use super::RenderArgs;
use crate::cli::CliError;
use playa::batch::manifest::{self, Entry, Header, OtherBatch};
use playa::batch::shard::Shard;
use playa::batch::{Batch, Job};
use playa::error::clip;
use playa::output::picture;
use playa::{compose, share};

/// `--tiles DIR`: the job's picture as a Deep Zoom pyramid in `dir`, the
/// tiles `shard` owns, recorded in its manifest there.
pub(super) fn tiles(
    job: &Job,
    batch: &Batch,
    dir: &Path,
    shard: Shard,
    args: &RenderArgs,
) -> Result<(), CliError> {
    use playa::output::tiles::{self as t, Written};
    let format = args.tile_format;
    let name = &job.key;
    let failed = |e: playa::Error| {
        CliError::Failed(anyhow::anyhow!(
            "{} (seed {}): {e}",
            clip(&job.input),
            job.scene.seed
        ))
    };
    let descriptor = dir.join(format!("{name}.dzi"));
    let header = Header {
        batch: batch.record(),
        shard: shard.to_string(),
        window: None,
        tiles: Some(format.name().to_string()),
        frames: None,
    };
    // A pyramid there that no manifest of this batch records is someone
    // else's (or another picture's): kept unless forced, as pictures are.
    if descriptor.exists() && !args.force && !records_batch(dir, &header) {
        outln!(
            "0 pyramids: {} exists (--force overwrites)",
            descriptor.display()
        )?;
        return Ok(());
    }
    std::fs::create_dir_all(dir).map_err(|e| failed(playa::Error::io(dir, e)))?;
    let other = if shard.is_whole() {
        OtherBatch::Replace
    } else {
        OtherBatch::Refuse
    };
    let (manifest, done) = manifest::Writer::open(dir, shard, &header, args.force, other)
        .map_err(|e| CliError::Failed(e.into()))?;
    for line in manifest.repaired() {
        errln!("playa: warning: {line}");
    }
    let (w, h) = job.size;
    let files = dir.join(format!("{name}_files"));
    if shard.is_whole() && done.is_empty() && files.exists() {
        // Started anew: no tile of another pyramid of that name stays.
        std::fs::remove_dir_all(&files).map_err(|e| failed(playa::Error::io(&files, e)))?;
    }
    let all = t::all_tiles(w, h);
    let owned: Vec<t::Tile> = all
        .into_iter()
        .filter(|tile| shard.owns(&tile.key()))
        .collect();
    let pool = crate::cli::thread_pool(args.jobs)?;
    let todo: Vec<t::Tile> = pool.install(|| {
        owned
            .par_iter()
            .filter(|tile| {
                args.force
                    || !done.get(&tile.key()).is_some_and(|entry| {
                        entry.file == tile.file(name, format) && manifest::matches(dir, entry)
                    })
            })
            .copied()
            .collect()
    });
    let start = Instant::now();
    let code = share::encode(&job.scene);
    let plan = compose::Plan::new(&job.scene).map_err(failed)?;
    let bar = crate::cli::progress_bar(todo.len() as u64, "tiles");
    let record = |written: &[Written]| {
        let mut entries = Vec::with_capacity(written.len());
        for tile in written {
            let (sha256, bytes) = manifest::hash_file(&dir.join(&tile.file))?;
            entries.push(Entry {
                key: tile.tile.key(),
                code: code.clone(),
                input: job.input.clone(),
                seed: job.scene.seed,
                file: tile.file.clone(),
                sha256,
                bytes,
                ms: tile.ms,
            });
        }
        manifest.record_all(&entries)?;
        bar.inc(written.len() as u64);
        Ok(())
    };
    pool.install(|| t::write_tiles(dir, name, &plan, (w, h), format, &todo, record))
        .map_err(failed)?;
    t::write_descriptor(dir, name, w, h, format).map_err(failed)?;
    bar.finish_and_clear();
    let mut notes = String::new();
    if !shard.is_whole() {
        notes += &format!(
            ", shard {shard}: {} of {} tiles",
            owned.len(),
            t::all_tiles(w, h).len()
        );
    }
    if todo.len() < owned.len() {
        notes += &format!(
            ", {} already done (in the manifest)",
            owned.len() - todo.len()
        );
    }
    outln!(
        "{} tiles in {} levels in {}{notes}: {} (open {})",
        todo.len(),
        t::level_count(w, h),
        picture::duration_text(start.elapsed()),
        descriptor.display(),
        dir.join("index.html").display()
    )?;
    Ok(())
}

/// Whether a manifest in `dir`, of any shard, records the batch of
/// `header` (its pyramid is the one being made, maybe by other shards).
pub(super) fn records_batch(dir: &Path, header: &Header) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|entry| {
        let name = entry.file_name();
        name.to_str().is_some_and(manifest::is_manifest_name)
            && manifest::Manifest::read(&entry.path())
                .is_ok_and(|m| m.header.batch == header.batch && m.header.tiles == header.tiles)
    })
}
