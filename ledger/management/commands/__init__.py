"""``settle``: the command line settlement of shared/spec/settle.md."""
