"""Tests of the ledger (ledger/): settlement, the settle command, services, pages, live play."""
