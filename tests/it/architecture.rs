//! The tree holds the architecture: the parts of `src/` use each other only
//! as docs/ARCHITECTURE.md's table "Parts and their rules" allows, and no
//! two files import each other, directly or round a circle.
//!
//! The test reads the source as text: every `use` line and every path
//! written out in the code (`crate::…`, `super::…`, `playa::…` in the
//! binary), outside comments and `#[cfg(test)]` modules. Each path is
//! resolved to the file that holds the module it names. A module's
//! `mod.rs` naming its own children (`mod floor;`, `floor::Floor`) is the
//! tree itself, not a dependency, and is not counted.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path, `["layers", "rocks", "cull"]`; the crate root is `[]`.
type ModPath = Vec<String>;

/// One source file: its module path, which crate it is in (the library or
/// the binary) and its code with comments and test modules taken out.
struct SourceFile {
    path: PathBuf,
    module: ModPath,
    bin: bool,
    code: String,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/layers/rocks/cull.rs` → `layers::rocks::cull`; `mod.rs`, `lib.rs`
/// and `main.rs` are their folder's module. The binary's modules (`main.rs`
/// and `cli/`) are marked, as their `crate::` is not the library's.
fn module_of(src: &Path, file: &Path) -> (ModPath, bool) {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let bin = parts[0] == "main" || parts[0] == "cli";
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    (parts, bin)
}

/// The code of a file without comments, string literals' contents, and
/// `#[cfg(test)]` modules (tests may use anything). `None`: the whole file
/// is a test module (`#[cfg(test)] mod tests;` in its parent).
fn code_of(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    let mut cfg_test = false;
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") {
            continue;
        }
        if trimmed.starts_with("#[cfg(test)]") {
            cfg_test = true;
            continue;
        }
        if cfg_test && is_mod_block(trimmed) {
            // Skip to the end of the block.
            let mut depth = braces(line);
            while depth > 0 {
                match lines.next() {
                    Some(l) => depth += braces(l),
                    None => break,
                }
            }
            cfg_test = false;
            continue;
        }
        cfg_test = false;
        let code = match line.find("//") {
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        };
        out.push_str(code);
        out.push('\n');
    }
    out
}

fn is_mod_block(line: &str) -> bool {
    let line = line
        .strip_prefix("pub(crate) ")
        .or_else(|| line.strip_prefix("pub "))
        .unwrap_or(line);
    line.starts_with("mod ") && line.contains('{')
}

fn braces(line: &str) -> i32 {
    line.matches('{').count() as i32 - line.matches('}').count() as i32
}

/// Files that are test modules of their parent (`#[cfg(test)] mod x;`).
fn test_files(src: &Path, files: &[PathBuf]) -> BTreeSet<PathBuf> {
    let mut tests = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        let mut cfg_test = false;
        for line in text.lines().map(str::trim) {
            if line == "#[cfg(test)]" {
                cfg_test = true;
                continue;
            }
            if cfg_test
                && let Some(name) = line
                    .trim_start_matches("pub(crate) ")
                    .trim_start_matches("pub(super) ")
                    .strip_prefix("mod ")
                    .and_then(|rest| rest.strip_suffix(';'))
            {
                let dir = if matches!(
                    file.file_name().and_then(|n| n.to_str()),
                    Some("mod.rs" | "lib.rs" | "main.rs")
                ) {
                    file.parent().unwrap().to_path_buf()
                } else {
                    file.with_extension("")
                };
                tests.insert(dir.join(format!("{name}.rs")));
                tests.insert(dir.join(name).join("mod.rs"));
            }
            cfg_test = false;
        }
    }
    let _ = src;
    tests
}

fn sources() -> Vec<SourceFile> {
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let tests = test_files(&src, &files);
    files
        .into_iter()
        .filter(|f| !tests.contains(f))
        .map(|path| {
            let (module, bin) = module_of(&src, &path);
            let code = code_of(&std::fs::read_to_string(&path).unwrap());
            SourceFile {
                path,
                module,
                bin,
                code,
            }
        })
        .collect()
}

/// Every path a file names: the trees of its `use` items expanded
/// (`use crate::{a, b::{c, d}}` is `crate::a`, `crate::b::c`,
/// `crate::b::d`), and every `crate::`/`super::`/`self::`/`playa::` path
/// written in its code.
fn paths_named(code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    // use items, which may span lines.
    let mut rest = code;
    while let Some(i) = find_use(rest) {
        let after = &rest[i..];
        let end = after.find(';').unwrap_or(after.len());
        let tree: String = after[..end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .replace(" as ", "@")
            .replace(' ', "");
        expand(&tree, &mut Vec::new(), &mut paths);
        rest = &after[end..];
    }
    // Paths written out in the code.
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::", "playa::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            let before = at.checked_sub(1).map(|b| bytes[b]);
            if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':') {
                continue;
            }
            // Segments up to the first that is not a bare name
            // (`call(` ends `crate::inline::call(`).
            let mut path = Vec::new();
            for seg in code[at..].split("::") {
                let ident: String = seg
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if ident.is_empty() {
                    break;
                }
                let whole = ident.len() == seg.len();
                path.push(ident);
                if !whole {
                    break;
                }
            }
            if path.len() > 1 {
                paths.push(path);
            }
        }
    }
    paths
}

/// Where the next `use` item's tree starts in `code` (just after `use `).
fn find_use(code: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = code[from..].find("use ") {
        let at = from + i;
        let line_start = code[..at].rfind('\n').map_or(0, |n| n + 1);
        let head = code[line_start..at].trim();
        if head.is_empty() || head == "pub" || head.starts_with("pub(") {
            return Some(at + 4);
        }
        from = at + 4;
    }
    None
}

/// Expands one use tree (whitespace removed) under `prefix`.
fn expand(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim_start_matches("::");
    match tree.find('{') {
        Some(open) if tree[..open].find(',').is_none() => {
            let head = &tree[..open];
            let close = tree.rfind('}').unwrap_or(tree.len());
            let n = prefix.len();
            prefix.extend(head.split("::").filter(|s| !s.is_empty()).map(String::from));
            for item in split_top(&tree[open + 1..close]) {
                expand(item, prefix, out);
            }
            prefix.truncate(n);
        }
        _ => {
            let mut path = prefix.clone();
            let name = tree.split('@').next().unwrap_or(tree);
            for seg in name.split("::") {
                if !seg.is_empty() && seg != "*" && seg != "self" {
                    path.push(seg.to_string());
                }
            }
            out.push(path);
        }
    }
}

/// `a, b::{c, d}, e` → `a`, `b::{c, d}`, `e`.
fn split_top(list: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in list.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&list[start..]);
    items.into_iter().filter(|s| !s.is_empty()).collect()
}

/// The file (index) a path names, from the file `from`: the longest
/// prefix of the absolute path that is a module of a file. `None`: outside
/// the crate (std, another crate), or the crate root.
fn resolve(
    path: &[String],
    from: &SourceFile,
    modules: &BTreeMap<(bool, ModPath), usize>,
) -> Option<usize> {
    let (bin, mut absolute) = match path.first().map(String::as_str) {
        Some("crate") => (from.bin, Vec::new()),
        Some("playa") if from.bin => (false, Vec::new()),
        Some("super") => {
            let mut base = from.module.clone();
            let mut rest = path;
            while rest.first().map(String::as_str) == Some("super") {
                base.pop();
                rest = &rest[1..];
            }
            let mut full = base;
            full.extend(rest.iter().cloned());
            return longest(from.bin, &full, modules);
        }
        Some("self") => (from.bin, from.module.clone()),
        _ => return None,
    };
    absolute.extend(path[1..].iter().cloned());
    longest(bin, &absolute, modules)
}

fn longest(
    bin: bool,
    path: &[String],
    modules: &BTreeMap<(bool, ModPath), usize>,
) -> Option<usize> {
    (1..=path.len())
        .rev()
        .find_map(|n| modules.get(&(bin, path[..n].to_vec())).copied())
}

/// The edges between files: `edges[a]` holds every file `a` uses.
fn edges(files: &[SourceFile]) -> Vec<BTreeSet<usize>> {
    let modules: BTreeMap<(bool, ModPath), usize> = files
        .iter()
        .enumerate()
        .map(|(i, f)| ((f.bin, f.module.clone()), i))
        .collect();
    files
        .iter()
        .map(|file| {
            paths_named(&file.code)
                .iter()
                .filter_map(|p| resolve(p, file, &modules))
                .filter(|&to| {
                    let target = &files[to];
                    // Not itself, and not its own descendants: a module
                    // naming its children is the tree.
                    !(target.bin == file.bin && target.module.starts_with(&file.module))
                })
                .collect()
        })
        .collect()
}

fn name(file: &SourceFile) -> String {
    file.path
        .strip_prefix(root())
        .unwrap()
        .display()
        .to_string()
}

/// The part a file belongs to: its first folder (`layers/rocks/cull.rs` →
/// `layers`), `cli` for the binary, and the file's own name at the root
/// (`error.rs` → `error`, `lib.rs` → `lib`).
fn part_of(file: &SourceFile) -> String {
    if file.bin {
        return "cli".to_string();
    }
    file.module
        .first()
        .cloned()
        .unwrap_or_else(|| "lib".to_string())
}

/// docs/ARCHITECTURE.md's table of parts: each part and what it may use.
fn rules() -> BTreeMap<String, BTreeSet<String>> {
    let doc = std::fs::read_to_string(root().join("docs/ARCHITECTURE.md")).unwrap();
    let section = doc
        .split("\n## Parts and their rules")
        .nth(1)
        .expect("docs/ARCHITECTURE.md has a section \"Parts and their rules\"");
    let mut rules = BTreeMap::new();
    for line in section.lines().skip_while(|l| !l.starts_with('|')) {
        if !line.starts_with('|') {
            break;
        }
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let Some(part) = cells[0].strip_prefix('`').and_then(|c| c.strip_suffix('`')) else {
            continue; // the header and its rule
        };
        let may_use = cells.last().unwrap();
        let uses = may_use
            .split(',')
            .filter_map(|u| u.trim().strip_prefix('`')?.strip_suffix('`'))
            .map(|u| u.trim_end_matches('/').to_string())
            .collect();
        rules.insert(part.trim_end_matches('/').to_string(), uses);
    }
    assert!(
        rules.len() >= 10,
        "the table of parts in docs/ARCHITECTURE.md was not read: {rules:?}"
    );
    rules
}

#[test]
fn every_part_uses_only_what_the_architecture_allows() {
    let files = sources();
    let rules = rules();
    let edges = edges(&files);
    let mut wrong = Vec::new();
    for (from, uses) in files.iter().zip(&edges) {
        let part = part_of(from);
        let Some(allowed) = rules.get(&part) else {
            wrong.push(format!(
                "{}: part `{part}` is not in docs/ARCHITECTURE.md's table",
                name(from)
            ));
            continue;
        };
        for &to in uses {
            let other = part_of(&files[to]);
            if other != part && !allowed.contains(&other) {
                wrong.push(format!(
                    "{} ({part}) uses {} ({other}): `{part}` may use {}",
                    name(from),
                    name(&files[to]),
                    if allowed.is_empty() {
                        "nothing".to_string()
                    } else {
                        allowed.iter().cloned().collect::<Vec<_>>().join(", ")
                    }
                ));
            }
        }
    }
    // Every part in the table is a folder or file of src/.
    let parts: BTreeSet<String> = files.iter().map(part_of).collect();
    for part in rules.keys() {
        if !parts.contains(part) {
            wrong.push(format!(
                "docs/ARCHITECTURE.md names part `{part}`, not in src/"
            ));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

#[test]
fn the_parts_allowed_to_use_each_other_form_no_circle() {
    let rules = rules();
    let names: Vec<&String> = rules.keys().collect();
    let graph: Vec<BTreeSet<usize>> = names
        .iter()
        .map(|p| {
            rules[*p]
                .iter()
                .filter_map(|u| names.iter().position(|n| *n == u))
                .collect()
        })
        .collect();
    if let Some(circle) = find_circle(&graph) {
        let circle: Vec<&str> = circle.iter().map(|&i| names[i].as_str()).collect();
        panic!(
            "docs/ARCHITECTURE.md lets parts use each other round a circle: {}",
            circle.join(" → ")
        );
    }
}

#[test]
fn no_two_files_import_each_other_even_round_a_circle() {
    let files = sources();
    let edges = edges(&files);
    if let Some(circle) = find_circle(&edges) {
        let circle: Vec<String> = circle.iter().map(|&i| name(&files[i])).collect();
        panic!(
            "files import each other round a circle: {}",
            circle.join(" → ")
        );
    }
}

/// A circle in a directed graph, as its nodes with the first repeated at the
/// end; `None` when there is none.
fn find_circle(graph: &[BTreeSet<usize>]) -> Option<Vec<usize>> {
    // 0: not seen, 1: on the current path, 2: done.
    fn visit(
        n: usize,
        graph: &[BTreeSet<usize>],
        state: &mut [u8],
        path: &mut Vec<usize>,
    ) -> Option<Vec<usize>> {
        state[n] = 1;
        path.push(n);
        for &m in &graph[n] {
            if state[m] == 1 {
                let at = path.iter().position(|&p| p == m).unwrap();
                let mut circle = path[at..].to_vec();
                circle.push(m);
                return Some(circle);
            }
            if state[m] == 0
                && let Some(c) = visit(m, graph, state, path)
            {
                return Some(c);
            }
        }
        path.pop();
        state[n] = 2;
        None
    }
    let mut state = vec![0u8; graph.len()];
    (0..graph.len()).find_map(|n| {
        if state[n] == 0 {
            visit(n, graph, &mut state, &mut Vec::new())
        } else {
            None
        }
    })
}

#[test]
fn the_reader_finds_the_imports_it_is_meant_to() {
    // The reader itself, on code written to hold each form of path.
    let code = code_of(
        "use crate::{a, b::{c, d as e}};\n\
         // use crate::commented::out;\n\
         pub(crate) use super::sibling::Item;\n\
         fn f() { crate::inline::call(); let _ = x::crate_like; }\n\
         #[cfg(test)]\nmod tests {\n    use crate::only_in_tests;\n}\n",
    );
    let mut paths: Vec<String> = paths_named(&code).iter().map(|p| p.join("::")).collect();
    paths.sort();
    paths.dedup();
    assert_eq!(
        paths,
        [
            "crate::a",
            "crate::b::c",
            "crate::b::d",
            "crate::inline::call",
            "super::sibling::Item",
        ]
    );
    let graph = vec![
        BTreeSet::from([1]),
        BTreeSet::from([2]),
        BTreeSet::from([0]),
    ];
    assert_eq!(find_circle(&graph), Some(vec![0, 1, 2, 0]));
    assert_eq!(find_circle(&[BTreeSet::from([1]), BTreeSet::new()]), None);
}
