//! Which build of a hot loop runs: one compiled for AVX2, only on a CPU that
//! has it (checked at run time), or the portable one, for any other CPU and
//! for the browser. A loop is written once, as an `#[inline(always)]` body
//! that both builds call, and each pair is tested to give the same bits.
//!
//! A closure in such a body is compiled as a function of its own, without
//! the target features, unless LLVM inlines it: a hot loop in a closure (or
//! in a function not inlined) runs the baseline build. `perf` shows it as a
//! symbol apart (`…::{{closure}}`). Hot helpers are `#[inline(always)]`
//! functions or methods instead.

/// A build of the hot loops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Build {
    /// For any CPU.
    Portable,
    /// Compiled with `#[target_feature]` for AVX2 and the bit instructions
    /// that come with it (BMI1, BMI2, LZCNT, POPCNT).
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Build {
    /// The fastest build this CPU runs.
    pub(crate) fn best() -> Build {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            return Build::Avx2;
        }
        Build::Portable
    }

    /// Every build this CPU runs, the portable one first.
    #[cfg(test)]
    pub(crate) fn all() -> Vec<Build> {
        let mut builds = vec![Build::Portable];
        if Build::best() != Build::Portable {
            builds.push(Build::best());
        }
        builds
    }
}
