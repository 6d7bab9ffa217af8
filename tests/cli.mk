# tests/cli.mk: the command line's end-to-end test (a shell script printing TAP).
TESTS += tests/test_cli.sh
EXTRA_DIST += tests/test_cli.sh
# Systems of fields on the command line: per-field files, pictures, refusals, --verify.
TESTS += tests/test_cli_system.sh
EXTRA_DIST += tests/test_cli_system.sh
# Build warnings and driver chatter stay off the user's stderr.
TESTS += tests/test_quiet.sh
EXTRA_DIST += tests/test_quiet.sh
# The man page and every command's --help describe the same options.
TESTS += tests/test_man_help.sh
EXTRA_DIST += tests/test_man_help.sh
