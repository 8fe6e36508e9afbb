"""The table scene renderer: synthetic overhead video of a match, with its ground truth.

``script`` (what happened) -> ``choreography`` (where everything is, frame by frame) -> ``render``
(camera, table, cards, people, sensor) -> frames; ``truth`` writes what happened in pixels.
See docs/renderer.md.
"""
