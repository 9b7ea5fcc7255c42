//! The process's memory allocator, set up for rendering again and again.
//!
//! A render allocates its large buffers afresh (the automaton's labels, the
//! union-find of its runs, the rows of stones) and frees them when it is
//! done. By default glibc's `malloc` hands such blocks back to the kernel
//! (blocks above a threshold get their own mapping, and the heap's top is
//! trimmed), so the next render, a slider step later, touches fresh pages,
//! and the kernel faults in and zeroes each one. In a packed field (density
//! 0.4 on 968 columns at 1280×720) that was about 1,400 page faults a
//! re-render; in a virtual machine, where a fault costs microseconds, the
//! re-render was 3–19% faster without them (alternating runs).
//!
//! [`keep_freed_memory`] has `malloc` keep freed memory for reuse instead:
//! it is reused rather than faulted in again, and a preview's peak stays
//! what it was. The app calls it as it opens its window; so do the render
//! benchmarks, which measure the preview's work. The command line does
//! not: there, large blocks served from each thread's heap rather than
//! mapped on their own raised the peak of `playa animate` (64 frames of
//! 1920×1080) from 61–83 MiB to 75–98 MiB in alternating runs, for
//! renders that do not repeat at a slider's pace.

/// Largest block `malloc` serves from its heaps rather than with a mapping
/// of its own: glibc's upper limit for the setting on 64-bit systems.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 32 << 20;

/// Free memory at the heap's top that `malloc` keeps rather than trimming.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIM_THRESHOLD: libc::c_int = 256 << 20;

/// Has the allocator keep freed memory for the next render (see the
/// module), for the whole process. Returns whether the allocator took the
/// settings: with glibc on Linux, it does; elsewhere there is nothing to
/// set (other allocators, and the browser's, keep freed memory anyway),
/// and it returns false.
pub fn keep_freed_memory() -> bool {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: `mallopt` only changes the allocator's parameters; both
        // values lie in the ranges glibc documents for them.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
                && libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1
        }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// glibc takes the settings: a value out of its range would be refused
    /// (`mallopt` returns 0), and renders would go on faulting in fresh
    /// pages.
    #[test]
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    fn glibc_takes_the_settings() {
        assert!(keep_freed_memory());
    }
}
