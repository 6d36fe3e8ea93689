"""One module per `playboard` subcommand.

A module ``playboard_host.commands.NAME`` is the subcommand ``NAME`` (an
underscore in NAME becomes a dash). It defines ``HELP`` (one line),
``add_arguments(parser)`` and ``run(args) -> int`` (the exit status). Raise
``playboard_host.cli.CommandError`` for a clear error without a traceback.
"""
