"""The ``oddsim`` command line: the click group, its one-line errors and exit statuses, and the
commands, one module each (``battle``, ``raid``, ``rules``, ``amphibious``, ``purchase``, ``trench``,
``chart``, ``cache``, ``serve``, ``game``). A command parses arguments, makes one API call and prints
through ``oddsim.cli.common``; it never imports this group."""

from __future__ import annotations

import os
import sys
from typing import NoReturn

import click

from oddsim._runtime.exits import EXIT_BAD_INPUT, EXIT_INTERRUPTED, INTERRUPTED
from oddsim.cli import amphibious, battle, cache, chart, game, plan, purchase, raid, rules, serve, trench
from oddsim.cli.common import finish, print_result
from oddsim.errors import OddsimError, one_line

__all__ = ["cli", "finish", "main", "print_result"]
# click >= 8.2 raises this for a bare group; older versions print the help themselves
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


class _Stopped(Exception):
    """Ctrl-C that stopped a command, carried past click (which would print a blank line for a
    ``KeyboardInterrupt`` before the one line ``_interrupted`` prints)."""


class _Cli(click.Group):
    """A click group whose errors, ours and click's, end in one line on stderr and exit 2."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise _Stopped() from None
        except Exception as exc:  # (before click, which reads an EOFError as Ctrl-D: "interrupted")
            _fail_if_cache_damaged(exc)
            raise

    def main(self, *args, **kwargs):  # noqa: D401 - click entry point
        kwargs["standalone_mode"] = False
        try:
            result = super().main(*args, **kwargs)
        except OddsimError as exc:
            _fail(str(exc))
        except (click.exceptions.Abort, KeyboardInterrupt, _Stopped):
            _interrupted()
        except SystemError as exc:  # Ctrl-C that landed as a Numba call returned
            if not isinstance(exc.__cause__ or exc.__context__, KeyboardInterrupt):
                raise
            _interrupted()
        except _NO_ARGS_IS_HELP as exc:
            click.echo(exc.ctx.get_help() if exc.ctx else str(exc))
            sys.exit(0)
        except click.ClickException as exc:
            _fail(exc.format_message())
        except OSError as exc:
            if not _printing(exc):
                raise
            _fail(_cannot_write_output(exc))
        if isinstance(result, int) and result:
            sys.exit(result)
        sys.exit(0)


def _printing(exc: OSError) -> bool:
    """Whether ``exc`` was raised while printing (a ``click.echo``: every command prints with it),
    as on a full disk or a closed terminal; a broken pipe click handles itself."""
    trace = exc.__traceback__
    while trace is not None:
        if trace.tb_frame.f_code is click.echo.__code__:
            return True
        trace = trace.tb_next
    return False


def _cannot_write_output(exc: OSError) -> str:
    """The error line of output that could not be written (``exc``: why, as the system says)."""
    return f"cannot write the output: {exc.strerror or exc}"


def _interrupted() -> None:
    click.echo(INTERRUPTED, err=True)
    sys.exit(EXIT_INTERRUPTED)


def _fail_if_cache_damaged(exc: BaseException) -> None:
    """One line naming ``oddsim cache clear`` for an error raised reading a damaged kernel cache."""
    from oddsim._runtime import kernel_cache

    if kernel_cache.damaged(exc):
        _say_on_stderr(f"oddsim: error: {kernel_cache.DAMAGED}, then try again")
        sys.exit(1)


def _fail(message: str) -> None:
    """Say the error in one line on stderr (when stderr still takes it) and exit 2."""
    _say_on_stderr(f"oddsim: error: {one_line(message)}")
    sys.exit(EXIT_BAD_INPUT)


@click.group(cls=_Cli, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="oddsim")
def cli() -> None:
    """Combat odds for Axis & Allies-style battles: exact and Monte Carlo."""


for _command in (battle.battle, raid.raid, rules.rules, amphibious.amphibious, serve.serve,
                 cache.cache, chart.chart, purchase.purchase, plan.plan, trench.trench, game.game):
    cli.add_command(_command)


def main() -> None:
    """The ``oddsim`` command: says when an engine must be compiled, runs, exits at once."""
    from oddsim._runtime import warm

    warm.front_end()  # (says when it compiles; small battles answer at once on a cold cache)
    try:
        cli()
    except SystemExit as stop:
        if not stop.code:
            _warm_the_others()
        _exit_now(stop.code)


def _warm_the_others() -> None:
    """After a first run's answer (it compiled an engine, or answered with the kernels interpreted
    on a cold cache): compile the engines in the background, so that the next commands do not
    compile each its own (``oddsim._runtime.warm``)."""
    if "numba" in sys.modules:  # (it ran kernels, compiled or interpreted)
        from oddsim._runtime import warm
        from oddsim._runtime.kernel_cache import current_kernel_dir

        warm.start(current_kernel_dir())


def _exit_now(code: object) -> NoReturn:
    """End the process without tearing the interpreter down: unloading NumPy, Numba and the
    compiled kernels took a quarter of a warm one-second battle. Whatever the command wrote is
    closed by now; the standard streams are flushed here."""
    if code is None or isinstance(code, int):
        status = code or 0
    else:
        click.echo(code, err=True)
        status = 1
    try:
        sys.stdout.flush()
    except OSError as exc:  # the output was lost: said once, unless a failure was said already
        if not status:
            status = EXIT_BAD_INPUT
            _say_on_stderr(f"oddsim: error: {_cannot_write_output(exc)}")
    _say_on_stderr("")
    os._exit(status)


def _say_on_stderr(line: str) -> None:
    """Write ``line`` (if any) to stderr and flush it; nothing more can be done if that fails."""
    try:
        if line:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except OSError:
        pass
