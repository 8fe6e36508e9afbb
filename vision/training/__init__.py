"""Training the card classifier (PyTorch, ``train`` extra only): data, model, training, export, evaluation.

Nothing at run time imports this package; its products are the float model ``models/cards.fp32.onnx``,
the model the runtime reads, ``models/cards.onnx``, that model in 8-bit integers
(``vision.training.quantize``), and beside each its style bank, ``models/cards.bank.npz`` and
``models/cards.fp32.bank.npz`` (``vision.training.bank``); quantizing and the banks need no torch.
"""
