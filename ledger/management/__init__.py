"""Management commands of the ledger."""
