"""The appliance: configuration, sources, session, storage, web, GPIO and the command line.

The only package that does I/O, and the only one that knows `engine` and `vision` both.
"""
