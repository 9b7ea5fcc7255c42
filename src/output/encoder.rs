//! The parallel PNG encoder behind [`crate::output::picture::Compression::Fast`].
//!
//! The picture is cut into strips of [`STRIP_ROWS`] rows. Each strip is
//! filtered (Sub on its first row, so it needs no row of the strip above;
//! Avg on the others) and compressed on its own, in parallel, as one
//! dynamic-Huffman deflate block of literals with a code built from the
//! strip's own byte histogram, ended by an empty stored block so that it
//! stops on a byte boundary. The strips' blocks are concatenated into one
//! zlib stream: two header bytes, the blocks, an empty final block and the
//! Adler-32 of the whole filtered data (combined from the strips').
//!
//! The bytes depend only on the pixels (strips are cut at fixed rows), so
//! they are the same for any number of threads. Any PNG decoder reads them.

/// Rows per independently compressed strip (a multiple of the compositor's
/// band height, so a strip can be rendered on its own).
pub(crate) const STRIP_ROWS: u32 = 32;

// Strips are drawn band by band: a strip is whole bands of the compositor.
const _: () = assert!(STRIP_ROWS.is_multiple_of(crate::layers::BAND_ROWS));

/// PNG filter type numbers.
const FILTER_SUB: u8 = 1;
const FILTER_AVG: u8 = 3;
/// Largest Adler-32 modulus.
const ADLER_MOD: u32 = 65_521;

/// A compressed strip: its deflate bytes, and the Adler-32 and length of the
/// filtered data it holds.
pub(crate) struct Strip {
    /// The strip's deflate block(s), ready to go into an IDAT chunk.
    pub deflate: Vec<u8>,
    adler: u32,
    len: u64,
}

/// Buffers reused from strip to strip on one thread.
#[derive(Default)]
pub(crate) struct Buffers {
    /// RGBA rows of a strip being rendered.
    pub rgba: Vec<u8>,
    /// The compositor's scratch band.
    pub scratch: Vec<crate::base::color::Linear>,
    filtered: Vec<u8>,
    bits: Vec<u8>,
}

/// Filters and compresses rows of RGBA pixels (`width` pixels each, alpha
/// dropped) as one strip.
pub(crate) fn compress_strip(rgba: &[u8], width: usize, buffers: &mut Buffers) -> Strip {
    let stride = width * 4;
    let line = width * 3 + 1;
    let rows = rgba.len() / stride;
    let filtered = &mut buffers.filtered;
    filtered.resize(rows * line, 0);
    for (r, out) in filtered.chunks_exact_mut(line).enumerate() {
        let cur = &rgba[r * stride..(r + 1) * stride];
        let mut left = [0u8; 3];
        if r == 0 {
            out[0] = FILTER_SUB;
            for (o, p) in out[1..].chunks_exact_mut(3).zip(cur.chunks_exact(4)) {
                for c in 0..3 {
                    o[c] = p[c].wrapping_sub(left[c]);
                    left[c] = p[c];
                }
            }
        } else {
            out[0] = FILTER_AVG;
            let prev = &rgba[(r - 1) * stride..r * stride];
            for ((o, p), up) in out[1..]
                .chunks_exact_mut(3)
                .zip(cur.chunks_exact(4))
                .zip(prev.chunks_exact(4))
            {
                for c in 0..3 {
                    let avg = ((u16::from(left[c]) + u16::from(up[c])) >> 1) as u8;
                    o[c] = p[c].wrapping_sub(avg);
                    left[c] = p[c];
                }
            }
        }
    }
    Strip {
        deflate: deflate_literals(filtered, &mut buffers.bits),
        adler: adler32(filtered),
        len: filtered.len() as u64,
    }
}

/// The two bytes that open the zlib stream, before the first strip: deflate
/// with a 32 KiB window, level flag "fastest", and the check bits that make
/// the pair a multiple of 31.
pub(crate) fn zlib_header() -> [u8; 2] {
    // CMF 0x78: deflate, 32 KiB window; FLG 0x01: fastest, check bits.
    [0x78, 0x01]
}

/// What follows the last strip: an empty final block and the Adler-32 of all
/// strips' data.
pub(crate) fn zlib_trailer(strips: impl IntoIterator<Item = (u32, u64)>) -> [u8; 6] {
    let mut adler = 1u32;
    for (a, len) in strips {
        adler = adler32_combine(adler, a, len);
    }
    let a = adler.to_be_bytes();
    // Fixed-Huffman block, final, holding only end-of-block: bits 1,1,0 then
    // seven 0 bits.
    [0x03, 0x00, a[0], a[1], a[2], a[3]]
}

impl Strip {
    /// Adler-32 and length of the strip's filtered data.
    pub fn checksum(&self) -> (u32, u64) {
        (self.adler, self.len)
    }
}

fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    // 5552 bytes is the most that can be summed before b overflows u32.
    for chunk in data.chunks(5552) {
        for &x in chunk {
            a += u32::from(x);
            b += a;
        }
        a %= ADLER_MOD;
        b %= ADLER_MOD;
    }
    (b << 16) | a
}

/// The Adler-32 of data A followed by data B, from theirs (as zlib's
/// `adler32_combine`).
fn adler32_combine(adler_a: u32, adler_b: u32, len_b: u64) -> u32 {
    let m = u64::from(ADLER_MOD);
    let rem = len_b % m;
    let a1 = u64::from(adler_a & 0xffff);
    let b1 = u64::from(adler_a >> 16);
    let a2 = u64::from(adler_b & 0xffff);
    let b2 = u64::from(adler_b >> 16);
    let a = (a1 + a2 + m - 1) % m;
    let b = (b1 + b2 + rem * a1 % m + m - rem) % m;
    ((b << 16) | a) as u32
}

/// Bits written least significant first, as deflate wants, into a buffer
/// sized in advance: each write stores a whole word and advances by the
/// bytes completed, without branches.
struct Bits<'a> {
    out: &'a mut Vec<u8>,
    pos: usize,
    acc: u64,
    n: u32,
}

impl<'a> Bits<'a> {
    /// A writer for at most `bytes` bytes of output into `out` (whose
    /// contents are overwritten).
    fn new(out: &'a mut Vec<u8>, bytes: usize) -> Bits<'a> {
        if out.len() < bytes + 8 {
            out.resize(bytes + 8, 0);
        }
        Bits {
            out,
            pos: 0,
            acc: 0,
            n: 0,
        }
    }

    /// Appends `n` bits; at most 56 bits may be pending after it.
    #[inline]
    fn put(&mut self, bits: u64, n: u32) {
        self.acc |= bits << self.n;
        self.n += n;
        self.out[self.pos..self.pos + 8].copy_from_slice(&self.acc.to_le_bytes());
        let bytes = self.n >> 3;
        self.pos += bytes as usize;
        self.acc = if bytes == 8 {
            0
        } else {
            self.acc >> (bytes * 8)
        };
        self.n &= 7;
    }

    /// Pads to a byte boundary with zero bits and returns the bytes written.
    fn finish(mut self) -> &'a [u8] {
        if self.n > 0 {
            self.put(0, 8 - self.n);
        }
        &self.out[..self.pos]
    }
}

/// Huffman code lengths for `freq`, none above `limit` bits. Symbols with
/// frequency 0 get length 0; at least two symbols get a code.
fn code_lengths(freq: &[u32], limit: u8) -> Vec<u8> {
    let mut freq: Vec<u64> = freq.iter().map(|&f| u64::from(f)).collect();
    // Two codes at least: a code of one symbol is not a valid prefix code.
    let used = freq.iter().filter(|&&f| f > 0).count();
    for f in freq
        .iter_mut()
        .filter(|f| **f == 0)
        .take(2usize.saturating_sub(used))
    {
        *f = 1;
    }
    loop {
        let lengths = huffman(&freq);
        if lengths.iter().all(|&l| l <= limit) {
            return lengths;
        }
        // Too deep: flatten the distribution and try again.
        for f in freq.iter_mut().filter(|f| **f > 0) {
            *f = (*f >> 1) | 1;
        }
    }
}

/// Plain Huffman code lengths (unbounded).
fn huffman(freq: &[u64]) -> Vec<u8> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    // Nodes: leaves 0..n, then internal nodes; parent links give depths.
    let n = freq.len();
    let mut parent = vec![usize::MAX; 2 * n];
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = freq
        .iter()
        .enumerate()
        .filter(|(_, f)| **f > 0)
        .map(|(i, &f)| Reverse((f, i)))
        .collect();
    let mut next = n;
    while heap.len() > 1 {
        let Reverse((fa, a)) = heap.pop().expect("two nodes");
        let Reverse((fb, b)) = heap.pop().expect("two nodes");
        parent[a] = next;
        parent[b] = next;
        heap.push(Reverse((fa + fb, next)));
        next += 1;
    }
    (0..n)
        .map(|i| {
            if freq[i] == 0 {
                return 0;
            }
            let (mut depth, mut node) = (0u8, i);
            while parent[node] != usize::MAX {
                node = parent[node];
                depth = depth.saturating_add(1);
            }
            depth
        })
        .collect()
}

/// Canonical codes for `lengths`, bit-reversed for writing LSB first.
fn canonical_codes(lengths: &[u8]) -> Vec<u32> {
    let mut count = [0u32; 16];
    for &l in lengths {
        count[l as usize] += 1;
    }
    count[0] = 0;
    let mut next = [0u32; 16];
    let mut code = 0u32;
    for bits in 1..16 {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    lengths
        .iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[l as usize];
            next[l as usize] += 1;
            c.reverse_bits() >> (32 - u32::from(l))
        })
        .collect()
}

/// `data` as deflate: one dynamic-Huffman block of literals (not final),
/// then an empty stored block, ending on a byte boundary.
fn deflate_literals(data: &[u8], buffer: &mut Vec<u8>) -> Vec<u8> {
    const END: usize = 256;
    // Four histograms, summed after: consecutive equal bytes would otherwise
    // wait on each other's increments.
    let mut hist = [[0u32; 256]; 4];
    let mut quads = data.chunks_exact(4);
    for q in &mut quads {
        hist[0][q[0] as usize] += 1;
        hist[1][q[1] as usize] += 1;
        hist[2][q[2] as usize] += 1;
        hist[3][q[3] as usize] += 1;
    }
    for &b in quads.remainder() {
        hist[0][b as usize] += 1;
    }
    let mut freq = [0u32; 257];
    for (i, f) in freq.iter_mut().take(256).enumerate() {
        *f = hist[0][i] + hist[1][i] + hist[2][i] + hist[3][i];
    }
    freq[END] = 1;
    let lit_len = code_lengths(&freq, 15);
    let lit_code = canonical_codes(&lit_len);
    // Two one-bit distance codes (unused; a complete code every decoder accepts).
    let dist_len = [1u8, 1];
    let all: Vec<u8> = lit_len.iter().chain(&dist_len).copied().collect();
    let mut cl_freq = [0u32; 19];
    for &l in &all {
        cl_freq[l as usize] += 1;
    }
    let cl_len = code_lengths(&cl_freq, 7);
    let cl_code = canonical_codes(&cl_len);
    const CL_ORDER: [usize; 19] = [
        16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
    ];

    // Header and lengths: < 2 KiB; data: at most 15 bits a byte.
    let mut bits = Bits::new(buffer, 2048 + data.len() * 2);
    bits.put(0, 1); // not final
    bits.put(2, 2); // dynamic Huffman
    bits.put((lit_len.len() - 257) as u64, 5);
    bits.put((dist_len.len() - 1) as u64, 5);
    bits.put(19 - 4, 4);
    for &s in &CL_ORDER {
        bits.put(u64::from(cl_len[s]), 3);
    }
    for &l in &all {
        bits.put(
            u64::from(cl_code[l as usize]),
            u32::from(cl_len[l as usize]),
        );
    }
    // Code and length of each byte in one word: code in the low 32 bits.
    let table: Vec<u64> = (0..256)
        .map(|s| u64::from(lit_code[s]) | (u64::from(lit_len[s]) << 32))
        .collect();
    let mut triples = data.chunks_exact(3);
    for t in &mut triples {
        // Three codes of at most 15 bits: 45 bits, plus 7 pending.
        let (a, b, c) = (
            table[t[0] as usize],
            table[t[1] as usize],
            table[t[2] as usize],
        );
        let (na, nb, nc) = ((a >> 32) as u32, (b >> 32) as u32, (c >> 32) as u32);
        let word = (a & 0xffff_ffff) | ((b & 0xffff_ffff) << na) | ((c & 0xffff_ffff) << (na + nb));
        bits.put(word, na + nb + nc);
    }
    for &x in triples.remainder() {
        let e = table[x as usize];
        bits.put(e & 0xffff_ffff, (e >> 32) as u32);
    }
    bits.put(u64::from(lit_code[END]), u32::from(lit_len[END]));
    // Empty stored block: header bits 0,00, pad to a byte, LEN 0, NLEN !0.
    bits.put(0, 3);
    let written = bits.finish();
    let mut out = Vec::with_capacity(written.len() + 4);
    out.extend_from_slice(written);
    out.extend_from_slice(&[0x00, 0x00, 0xff, 0xff]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adler_combines() {
        let data: Vec<u8> = (0..20_000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        let whole = adler32(&data);
        for cut in [0, 1, 5551, 5552, 12_345, 20_000] {
            let (a, b) = data.split_at(cut);
            assert_eq!(
                adler32_combine(adler32(a), adler32(b), b.len() as u64),
                whole
            );
        }
        assert_eq!(adler32(b"Wikipedia"), 0x11e6_0398);
    }

    #[test]
    fn lengths_respect_the_limit_and_make_a_prefix_code() {
        // Fibonacci frequencies make the deepest Huffman trees.
        let mut freq = vec![0u32; 40];
        let (mut a, mut b) = (1u32, 1u32);
        for f in freq.iter_mut() {
            *f = a;
            (a, b) = (b, a.saturating_add(b));
        }
        for limit in [7u8, 15] {
            let l = code_lengths(&freq, limit);
            assert!(l.iter().all(|&x| (1..=limit).contains(&x)));
            let kraft: f64 = l.iter().map(|&x| 0.5f64.powi(i32::from(x))).sum();
            assert!((kraft - 1.0).abs() < 1e-9, "{kraft}");
        }
        assert_eq!(code_lengths(&[0, 5, 0], 15), vec![1, 1, 0]);
    }
}
