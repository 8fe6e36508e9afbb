"""Pictures, not rules: calibration, detection, the classifier runtime, the tracker,
the scene renderer and the classifier's training pipeline.

Uses only the card codes of `engine` (engine.cards) and nothing else of it.
"""
