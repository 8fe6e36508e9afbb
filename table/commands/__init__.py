"""Sub-commands of `tressette`: one module each, exposing ``register(subparsers)``."""
