// Placeholder: this module is being built; see the issue tracker.
