"""Data safety across the packages, end to end: kills, full disks, racing writers, special files, stopping
signals, hostile inputs through the real command, fuzzing. A test of one package's own safety lives with that
package (tests/journal, tests/writes, tests/outputs)."""
