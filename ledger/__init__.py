"""The settle-up ledger: who bought what, who owes whom, and the home game across nights."""
