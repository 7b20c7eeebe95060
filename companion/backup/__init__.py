"""Backup and restore: the whole store downloaded or replaced on the machine that runs the
companion, and every match as one CSV for a spreadsheet."""
