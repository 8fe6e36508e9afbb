"""Training the card classifier (PyTorch, ``train`` extra only): data, model, training, export, evaluation.

Nothing at run time imports this package; its product is ``models/cards.onnx``.
"""
