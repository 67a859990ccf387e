"""The commands, one module each: ``run(...) -> int`` takes the options :mod:`mpigen.main`
parsed, prints, and returns the exit code (a usage or I/O error is raised as
:class:`mpigen.io.UsageError`). A command module is imported only when its command runs, and
never by another command.
"""
