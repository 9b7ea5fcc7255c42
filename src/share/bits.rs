//! Bit strings: a payload written a field at a time, most significant bit
//! first, and read back from the front.

/// Bits needed to write a number below `count`.
pub(super) fn bits_for(count: u64) -> u32 {
    if count <= 1 {
        0
    } else {
        64 - (count - 1).leading_zeros()
    }
}

/// A string of bits.
#[derive(Clone, Debug, Default)]
pub(super) struct Bits {
    /// The bits, in order.
    pub(super) bits: Vec<bool>,
}

impl Bits {
    /// Number of bits.
    pub(super) fn len(&self) -> usize {
        self.bits.len()
    }

    /// Appends the low `n` bits of `value`, most significant first.
    pub(super) fn push(&mut self, value: u64, n: u32) {
        for i in (0..n).rev() {
            self.bits.push(value >> i & 1 == 1);
        }
    }

    /// Appends one bit.
    pub(super) fn bit(&mut self, b: bool) {
        self.bits.push(b);
    }

    /// Appends every bit of `other`.
    pub(super) fn append(&mut self, other: &Bits) {
        self.bits.extend_from_slice(&other.bits);
    }
}

/// Reads a [`Bits`] from the front; `None` past its end.
pub(super) struct Reader<'a> {
    bits: &'a [bool],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bits`.
    pub(super) fn new(bits: &'a Bits) -> Reader<'a> {
        Reader {
            bits: &bits.bits,
            at: 0,
        }
    }

    /// Number of bits not read yet.
    pub(super) fn remaining(&self) -> usize {
        self.bits.len() - self.at
    }

    /// The next `n` bits as a number, most significant first.
    pub(super) fn read(&mut self, n: u32) -> Option<u64> {
        let end = self.at.checked_add(n as usize)?;
        let bits = self.bits.get(self.at..end)?;
        self.at = end;
        Some(bits.iter().fold(0, |v, &b| v << 1 | u64::from(b)))
    }

    /// The next bit.
    pub(super) fn bit(&mut self) -> Option<bool> {
        self.read(1).map(|v| v == 1)
    }
}
