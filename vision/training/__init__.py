"""Training the card classifier (PyTorch, ``train`` extra only): data, model, training, export, evaluation.

Nothing at run time imports this package; its products are ``models/cards.onnx`` and the model's
style bank beside it, ``models/cards.bank.npz`` (``vision.training.bank``, which needs no torch).
"""
