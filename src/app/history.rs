//! Undo and redo of scene changes.
//!
//! The history does not watch individual widgets. Once per frame the app
//! hands it the current value and whether an edit is still in progress (a
//! pointer held down on a slider, a text being typed); a change becomes
//! one undo step only when the edit is over. Dragging a slider across fifty
//! values is therefore one step. (Play changes no scene: keeping the
//! generation it shows is one step.)

/// Most undo steps kept; the oldest are dropped first.
pub const MAX_STEPS: usize = 200;

/// Undo and redo stacks around the last committed value.
#[derive(Clone, Debug)]
pub struct History<T> {
    /// The value as of the last committed step.
    committed: T,
    /// Older values, the most recent last.
    undo: Vec<T>,
    /// Values undone, the most recently undone last.
    redo: Vec<T>,
}

impl<T: Clone + PartialEq> History<T> {
    /// A history whose starting point is `value`, with nothing to undo.
    pub fn new(value: T) -> Self {
        History {
            committed: value,
            undo: Vec::new(),
            redo: Vec::new(),
        }
    }

    /// Records `current` as a new step if it differs from the last committed
    /// value and no edit is in progress. Returns whether a step was recorded.
    pub fn observe(&mut self, current: &T, editing: bool) -> bool {
        if editing || *current == self.committed {
            return false;
        }
        let previous = std::mem::replace(&mut self.committed, current.clone());
        self.undo.push(previous);
        if self.undo.len() > MAX_STEPS {
            self.undo.remove(0);
        }
        self.redo.clear();
        true
    }

    /// Steps back: returns the value to show, or `None` with nothing to undo.
    ///
    /// An uncommitted edit in `current` is committed first, so undo always
    /// returns to the value before the latest change the user saw.
    pub fn undo(&mut self, current: &T) -> Option<T> {
        self.observe(current, false);
        let previous = self.undo.pop()?;
        let now = std::mem::replace(&mut self.committed, previous.clone());
        self.redo.push(now);
        Some(previous)
    }

    /// Steps forward again after [`History::undo`]; `None` with nothing to
    /// redo. A new change clears the redo stack.
    pub fn redo(&mut self, current: &T) -> Option<T> {
        if *current != self.committed {
            // A change since the undo: it replaced the redo branch.
            self.observe(current, false);
            return None;
        }
        let next = self.redo.pop()?;
        let now = std::mem::replace(&mut self.committed, next.clone());
        self.undo.push(now);
        Some(next)
    }

    /// Whether there is anything to undo (counting an uncommitted change).
    pub fn can_undo(&self, current: &T) -> bool {
        !self.undo.is_empty() || *current != self.committed
    }

    /// Whether there is anything to redo.
    pub fn can_redo(&self, current: &T) -> bool {
        !self.redo.is_empty() && *current == self.committed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_and_redo_walk_the_steps() {
        let mut h = History::new(0);
        assert!(h.observe(&1, false));
        assert!(h.observe(&2, false));
        assert_eq!(h.undo(&2), Some(1));
        assert_eq!(h.undo(&1), Some(0));
        assert_eq!(h.undo(&0), None);
        assert_eq!(h.redo(&0), Some(1));
        assert_eq!(h.redo(&1), Some(2));
        assert_eq!(h.redo(&2), None);
    }

    #[test]
    fn a_drag_is_one_step() {
        let mut h = History::new(0);
        for v in 1..=50 {
            assert!(!h.observe(&v, true));
        }
        assert!(h.observe(&50, false));
        assert_eq!(h.undo(&50), Some(0));
    }

    #[test]
    fn undo_during_an_edit_returns_to_before_it() {
        let mut h = History::new(0);
        h.observe(&5, true);
        assert_eq!(h.undo(&5), Some(0));
        assert_eq!(h.redo(&0), Some(5));
    }

    #[test]
    fn a_new_change_clears_redo() {
        let mut h = History::new(0);
        h.observe(&1, false);
        assert_eq!(h.undo(&1), Some(0));
        h.observe(&7, false);
        assert!(!h.can_redo(&7));
        assert_eq!(h.redo(&7), None);
        assert_eq!(h.undo(&7), Some(0));
    }

    #[test]
    fn history_is_bounded() {
        let mut h = History::new(0);
        for v in 1..=(MAX_STEPS as i32 + 10) {
            h.observe(&v, false);
        }
        let mut steps = 0;
        let mut cur = MAX_STEPS as i32 + 10;
        while let Some(v) = h.undo(&cur) {
            cur = v;
            steps += 1;
        }
        assert_eq!(steps, MAX_STEPS);
    }
}
